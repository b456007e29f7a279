"""A refusal as a Japanese user at the table reads it: the app in Japanese, a tap on a side the player's
road cannot reach, and the message names the player by colour, in Japanese, changing nothing.

Real widgets under Xvfb; the language is switched as a user does it (Settings → 日本語 → Save) and the
game resumed from the start screen.
"""

from __future__ import annotations

import re

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def journal_game(data_dir) -> int:
    """A base game just after set-up and a roll, players unnamed (the app then names them by colour)."""
    record, _game = d.base_game_after_setup(("", "", ""))
    record.events += [{"type": "roll", "dice": [1, 1]},
                      {"type": "set_hand", "player": 0, "cards": {"lumber": 3, "brick": 3}}]
    return d.journal(data_dir, record)


def test_a_tapped_illegal_road_is_refused_in_japanese_naming_the_player_by_colour(tmp_path):
    game_id = journal_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        d.tap(app.root.get_screen("start").ids.settings)
        settings = app.root.get_screen("settings")
        d.tap(settings.ids.lang_ja)
        d.tap(settings.ids.save)
        assert app.lang == "ja"
        play = d.resume(app, game_id)
        game = app.table.game
        board = play.ids.board
        assert game.state.phase == "main" and game.state.turn_player == 0

        d.tap(d.find(play.ids.actions, app.tr("road")))
        assert board.pick == "edge"
        far = d.unreachable_road_side(game, board.legal)
        before = len(app.table.record.events)
        d.tap_at(*board.edge_pos(far))
        assert len(app.table.record.events) == before  # refused: nothing recorded
        message = play.message
        assert message.startswith("できません：")
        assert "赤の道・開拓地・都市につながっていません" in message, message
        assert not re.search(r"[A-Za-z]{2,}", message), message
        assert d.find_label(play, message) is not None  # shown on the screen, not only held
    finally:
        d.stop_app(app)
