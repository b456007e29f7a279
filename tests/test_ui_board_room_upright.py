"""Upright (800x1280), the board is read from across the table: it takes the room the panel under it does not use.

The panel had a row for a message that was mostly empty, a row for the roll over a row for its payouts, and End
turn a row of its own: the board had 522 of 1280 px (a hex 46.5 px from centre to corner; 4 players, their tiles
in two rows: 432 px, 38.5).  Now the message takes the prompt's place while it is shown, the roll, its payouts and
End turn share one row, and the board gets 622 px (55.4; 4 players 532 px, 47.4), holding still through a roll,
its payouts, a refusal, a 7's discard and the robber, every text whole and nothing overlapping, in English and
Japanese.  Since the discard's counters stand three a row (choices.CounterGrid: two rows and OK, was five rows
and OK), the panel takes 460 dp, not 510, in every phase: the board 672 px (59.9; 4 players 582 px, 51.9).  Real
widgets under Xvfb, the dice and the board tapped.
"""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def hex_size(play) -> float:
    return play.ids.board.fitted_hex_size()


def in_row(widget, row) -> bool:
    """Whether ``widget`` is a child of ``row`` (an ``ids`` entry: a weak proxy)."""
    return widget.parent.proxy_ref is row.proxy_ref


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_upright_board_gets_the_room_through_a_turn(tmp_path, lang):
    record, game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    record.events.append({"type": "set_hand", "player": 0,  # nine cards: a 7 makes Aki discard
                          "cards": {"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 1}})
    game_id = d.journal(tmp_path, record, "after set-up")
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.lang = lang
        play = d.resume(app, game_id)
        game = app.table.game
        board = play.ids.board
        assert game.state.phase == "roll"
        d.settle()
        at_roll = tuple(round(c) for c in (*board.pos, *board.size))
        assert board.height >= 670 and hex_size(play) >= 59.5, (board.size, hex_size(play))  # 510 dp: 622, 55.4
        assert d.layout_problems(app.root) == []

        d.tap_dice(play, d.producing_number(game, 0))
        assert game.state.phase == "main" and play.payout_text
        d.settle()
        assert tuple(round(c) for c in (*board.pos, *board.size)) == at_roll  # the board holds still
        # the roll, what it paid and End turn in one row under the board, End turn at its right
        end_turn, roll, payouts = play.ids.end_turn, play.ids.roll, play.ids.payouts
        assert in_row(end_turn, play.ids.turn_row) and end_turn.width >= 150 and end_turn.height >= 48
        assert roll.right <= payouts.x + 1 and payouts.right <= end_turn.x + 1
        assert abs(roll.center_y - end_turn.center_y) <= 2 and end_turn.top <= board.y - play.ids.caption.height
        assert d.layout_problems(app.root) == []

        # a refusal: said in the prompt's place, the board and every button where they were
        still = d.StillTargets()
        prompt_row, message_row = play.ids.prompt.parent, play.ids.message_row
        prompt_place = (round(prompt_row.y), round(prompt_row.top))
        d.tap_at(*board.edge_pos(d.unreachable_road_side(game, board.legal)))
        assert play.message and play.refused
        d.settle()
        assert (round(message_row.y), round(message_row.top)) == prompt_place  # one row, the two in turn
        assert message_row.opacity == 1 and prompt_row.opacity == 0
        still.check("a refusal")
        assert still.moves == [], still.moves
        assert d.layout_problems(app.root) == []

        d.tap(end_turn)
        assert game.state.phase == "roll" and end_turn.width == 0  # the next player's roll: End turn gone
        assert tuple(round(c) for c in (*board.pos, *board.size)) == at_roll
        d.tap_dice(play, 7)  # a 7: Aki's discard, every counter and OK in the panel, then the robber
        assert game.state.phase == "discard"
        d.settle()
        assert tuple(round(c) for c in (*board.pos, *board.size)) == at_roll
        ok = d.find(play.ids.actions, app.tr("ok"), startswith=True)
        view = play.ids.actions.parent
        assert ok.to_window(ok.x, ok.y)[1] >= view.to_window(view.x, view.y)[1] - 1  # OK in sight, no scroll
        assert d.layout_problems(app.root) == []
        while game.state.phase == "discard":
            who = game.waiting_for()
            d.submit_discard(app, who, game.state.discards_owed[who])
        assert game.state.phase == "move_robber"
        d.settle()
        assert tuple(round(c) for c in (*board.pos, *board.size)) == at_roll
    finally:
        d.stop_app(app)


def test_four_players_tiles_in_two_rows_leave_the_board_more_than_before(tmp_path):
    game_id = d.journal_main_phase_game(tmp_path)  # Aki, Ben, Chie, Dan: the tiles two a row
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        play = d.resume(app, game_id)
        d.settle()
        assert play.ids.vpboard.height >= 180  # (the premise: two rows of tiles)
        assert hex_size(play) >= 51.5, hex_size(play)  # was 38.5, then 47.4 (510 dp)
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


def test_lying_down_the_board_keeps_its_room(tmp_path):
    """1280x800: as before (the board's column is as high as the screen allows; End turn under the actions)."""
    record, game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    game_id = d.journal(tmp_path, record, "after set-up")
    app = d.start_app(tmp_path, size=(1280, 800))
    try:
        play = d.resume(app, game_id)
        d.tap_dice(play, d.producing_number(app.table.game, 0))
        d.settle()
        assert hex_size(play) >= 58 and in_row(play.ids.end_turn, play.ids.panel)  # 58.1, as before
        assert play.ids.end_turn.width >= 400 and play.ids.end_turn.height >= 48  # (after an upright app too)
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


def test_a_tablet_turned_mid_game_lays_the_panel_out_again(tmp_path):
    """Turned from upright to lying down and back: End turn goes under the actions and back beside the roll,
    whole each time (its height was the upright row's, 0 lying down), nothing overlapping or cut."""
    from kivy.core.window import Window
    from kivy.metrics import dp

    record, game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    game_id = d.journal(tmp_path, record, "after set-up")
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        play = d.resume(app, game_id)
        d.tap_dice(play, d.producing_number(app.table.game, 0))
        end_turn = play.ids.end_turn
        for size, row, upright in (((1280, 800), play.ids.panel, False), ((800, 1280), play.ids.turn_row, True)):
            Window.size = size
            assert d.wait_until(lambda: tuple(app.root.size) == size)
            d.settle()
            assert in_row(end_turn, row) and end_turn.height >= 48 and end_turn.width >= 150, \
                (size, end_turn.size)
            # its own height lying down (60 dp), the turn row's upright (the one kept from before was wrong)
            assert end_turn.height == (row.height if upright else dp(60)), (size, end_turn.height, row.height)
            assert hex_size(play) >= (59.5 if upright else 58)
            assert d.layout_problems(app.root) == [], size
    finally:
        d.stop_app(app)
