"""Seafarers upright, the set-up: the board keeps its place and size from a settlement's tap to its road's.  The
row choosing a road or a ship on a coast appeared only after the settlement, under the prompt, and the board
shrank by its height between the two taps of one placement and grew back after the road (seen by xdotool: the
road's sides moved under the finger).  Real widgets, real taps under Xvfb."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def board_box(board):
    d.settle()
    return tuple(round(x) for x in (*board.to_window(*board.pos), *board.size))


def test_the_board_stays_put_between_a_settlement_and_its_road(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        d.new_game(app, 3, "seafarers")
        play = app.root.get_screen("play")
        game = app.table.game
        board = play.ids.board
        first = board_box(board)
        for v in sorted(board.legal):
            d.tap_at(*board.vertex_pos(v))
            if play.coast_choice:
                break
            d.tap(play.ids.undo)
        assert play.coast_choice, "no set-up corner on a coast"
        assert board_box(board) == first  # the Road / Ship row is shown, the board where it was
        d.tap(d.find(play.ids.actions, app.tr("ship")))
        coast = sorted({e for p, e in game.legal_setup_links() if p == "ship"}
                       & {e for p, e in game.legal_setup_links() if p == "road"})[0]
        d.tap_at(*board.edge_pos(coast))
        assert game.state.pieces.get(coast) == (0, "ship"), play.message
        assert board_box(board) == first  # the next player's settlement: still where it was
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
