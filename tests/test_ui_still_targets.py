"""Touch targets hold still: through refusals, payouts over several lines, the trade and card panels, the umpire's
offer and turn changes, no button, toggle, field or the board moves unless the user asked for it (a panel they
opened adds its own rows below what was there).  In landscape and portrait, by touches on the real widgets.
"""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(300)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_no_touch_target_moves_unasked_through_messages_panels_and_turns(tmp_path, size):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        board = play.ids.board
        still = d.StillTargets()

        d.tap(d.find(play.ids.actions, app.tr("road"), startswith=True))  # arms Road: its own state only
        still.check("Road armed")
        far = d.unreachable_road_side(game, board.legal)
        d.tap_at(*board.edge_pos(far))
        assert play.message.startswith("Not allowed") and play.refused
        still.check("a refusal and the umpire's offer")
        d.tap(d.find(play.ids.message_row, app.tr("force")))
        still.check("the umpire's confirmation")
        d.tap(d.find(play.ids.message_row, app.tr("cancel")))
        still.check("the offer withdrawn")

        # A panel the user opens adds its rows below what was there: the actions scroll to bring the opened panel
        # into sight (asked for by the tap; lying down too: Show VP cards' OK was a 12 px sliver), and everything
        # outside them stays.
        opened_scrolls = play.ids.actions
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        still.check("the trade panel opened", new_panel=opened_scrolls)
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        still.check("the trade panel closed", new_panel=opened_scrolls)
        d.tap(d.find(play.ids.actions, app.tr("play_card")))
        still.check("the card panel opened", new_panel=opened_scrolls)
        d.tap(d.find(play.ids.actions, app.tr("play_card")))

        for turn in range(3):  # turns change, rolls pay one or several players (payouts over several lines)
            d.tap(play.ids.end_turn)
            still.check(f"turn {turn + 1} passes", new_panel=play.ids.actions)  # the roll phase's own actions
            d.tap_dice(play, (8, 6, 9)[turn])
            still.check(f"roll {turn + 1} and its payouts", new_panel=play.ids.actions)
            if game.state.phase != "main":
                break
        assert still.checks >= 8
        assert still.moves == [], "\n".join(still.moves)
    finally:
        d.stop_app(app)
