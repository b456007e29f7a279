"""The steal after a 7 in Japanese reads as Japanese: 「Benから奪う（カード不明）」 with full-width brackets (it
showed 「Benから奪う (カード不明)」, an English bracket and space inside the Japanese, seen by touch at 800x1280);
likewise the roll above it, 「出目 7（3 + 4）」 (it read 「出目 7  (3 + 4)」, seen by touch upright in session 6).
Real widgets under Xvfb: the game resumed at its 7, the robber moved by a tap on the board."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("lang,expected,rolled", [("ja", "から奪う（カード不明）", "出目 7（3 + 4）"),
                                                  ("en", " (card unseen)", "Rolled 7  (3 + 4)")])
def test_the_rob_button_in_each_language(tmp_path, lang, expected, rolled):
    record, game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    record.events.append({"type": "roll", "dice": [3, 4]})
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.lang = lang
        d.settle()
        play = d.resume(app, game_id)
        game = app.table.game
        board = play.ids.board
        assert game.state.phase == "move_robber" and board.pick == "hex", game.state.phase
        assert play.roll_text == rolled  # the roll's faces in full-width brackets in Japanese (were '出目 7  (3 + 4)')
        # a hex beside Ben's settlement, where the robber may go: Aki may then steal from Ben
        ben = next(v for v, (who, _kind) in game.state.buildings.items() if who == 1)
        target = next(h for h in ben if h in board.legal)
        d.tap_at(*board.hex_pos(target))
        d.settle()
        robs = [w.text for w in d.walk(play.ids.actions) if hasattr(w, "trigger_action") and "Ben" in w.text]
        assert len(robs) == 1, [getattr(w, "text", "") for w in d.walk(play.ids.actions)]
        assert robs[0].endswith(expected), robs[0]
    finally:
        d.stop_app(app)
