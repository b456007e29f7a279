"""Check the board's robber row names where the game has the robber as a sentence: on a hex ("the game has it on
the desert"), or beside the board -- a board entered without a desert (allowed: a set's desert count is an entry's
slip) has its robber beside the board, and the row read "the game has it on beside the board"."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")

from kivy.app import App  # noqa: E402

from companion.record import COLORS, Record, new_game  # noqa: E402
from companion.rules import standard_board  # noqa: E402
from companion.ui import board_check, i18n  # noqa: E402
from vision.board.piece_check import Difference  # noqa: E402

NAMES = ("Aki", "Ben", "Chie")


def _game(desert: bool):
    board = standard_board(1).to_json()
    if not desert:
        for h in board["hexes"]:
            if h["terrain"] == "desert":
                h["terrain"], h["number"] = "forest", 3
        board.pop("robber")
    return new_game(Record("base", [{"name": n, "color": COLORS[i]} for i, n in enumerate(NAMES)], board))


@pytest.mark.parametrize("desert, lang, said", [
    (False, "en", "; the game has it beside the board — move it?"),
    (False, "ja", "（ゲームでは盤の外）— 移動しますか？"),
    (True, "en", "; the game has it on the desert — move it?"),
    (True, "ja", "（ゲームでは砂漠）— 移動しますか？"),
])
def test_the_robber_row_says_where_the_game_has_it(monkeypatch, desert, lang, said):
    for key, entry in board_check.TEXT.items():  # (as the screen's install does)
        monkeypatch.setitem(i18n.TEXT, key, entry)
    game = _game(desert)
    assert (game.state.robber is None) == (not desert)
    to = next(h for h in sorted(game.board.land) if h != game.state.robber)
    row = Difference("robber", "robber", None, "", (to,), {"type": "move_robber", "to": list(to)})
    app = SimpleNamespace(table=SimpleNamespace(game=game), lang=lang, player_name=lambda p: NAMES[p],
                          tr=lambda key, **values: i18n.tr(key, lang, **values))
    monkeypatch.setattr(App, "get_running_app", staticmethod(lambda: app))
    text = board_check.CheckBoardScreen.describe(None, row)
    assert text.endswith(said), text
