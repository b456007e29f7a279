"""A Seafarers board (91 hexes) fits the tablet with its sides too small to tap: at 1280x800 a ship's side took a
tap within a disk 28 px wide (36 px where offered; a fingertip is ~7 mm, 40 px).  Zoom draws the board twice as large, a drag
pans it, a tap still picks.  On the old code there was no Zoom.  Real widgets, taps through Kivy's input path."""

from __future__ import annotations

import math

import pytest
from kivy.tests.common import UnitTestTouch

from companion.ui import driver as d
from test_ui_ship_move import quiet_number, roll_by_taps, seafarers_with_ships, target_width

pytestmark = pytest.mark.timeout(180)


def drag(x, y, dx, dy, steps=6) -> None:
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    d.pump(1)
    for i in range(1, steps + 1):
        touch.touch_move(x + dx * i / steps, y + dy * i / steps)
        d.pump(1)
    touch.touch_up()
    d.settle()


def test_zoom_makes_a_ships_side_a_fingertip_wide_and_a_drag_pans(tmp_path):
    app = d.start_app(tmp_path)
    try:
        play = seafarers_with_ships(app)
        game = app.table.game
        roll_by_taps(app, play, quiet_number(game))
        board = play.ids.board
        d.tap(d.find(play.ids.actions, app.tr("move_ship")))
        ship = game.movable_ships(0)[0]
        assert board.pick == "edge"
        fitted = target_width(board, ship, board.edge_pos)
        assert fitted < 40, f"a side {fitted} px wide at the fitted size: no zoom needed?"
        assert play.big_board

        d.tap(play.ids.zoom)
        assert board.zoom == 2
        zoomed = target_width(board, ship, board.edge_pos)
        assert zoomed >= 40, f"zoomed, a ship's side is {zoomed} px wide (fitted: {fitted} px)"

        # a drag pans the board (nothing is picked, nothing recorded); the ship moves with it
        events = len(app.table.record.events)
        before = board.edge_pos(ship)
        cx, cy = board.center
        drag(cx, cy, -120, 80)
        after = board.edge_pos(ship)
        assert math.dist(before, after) > 100 and play.lifted_ship is None
        assert len(app.table.record.events) == events
        if not board.collide_point(*after):  # panned out of sight: back towards it
            drag(cx, cy, 120, -80)
            after = board.edge_pos(ship)
        d.tap_at(*after)  # a tap on the zoomed board still picks: the ship is lifted
        assert play.lifted_ship == ship, play.message
        d.screenshot(tmp_path / "zoomed.png")

        d.tap(play.ids.zoom)  # the whole board again
        assert board.zoom == 1 and target_width(board, ship, board.edge_pos) < 40
        print(f"an offered ship's side: fitted {fitted} px, zoomed {zoomed} px")
    finally:
        d.stop_app(app)


def test_no_zoom_where_the_board_is_large_enough(tmp_path):
    app = d.start_app(tmp_path)
    try:
        d.new_game(app, 3, "base")
        play = app.root.get_screen("play")
        d.settle()
        assert not play.big_board and play.ids.zoom.width == 0
    finally:
        d.stop_app(app)
