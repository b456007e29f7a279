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
        assert board.zoom >= 2
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
        for _ in range(3):  # panned out of sight: the ship dragged back towards the middle
            if board.collide_point(*after):
                break
            drag(cx, cy, cx - after[0], cy - after[1])
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


@pytest.mark.parametrize("size", [(800, 1280), (1280, 800)], ids=["portrait", "landscape"])
def test_zoomed_a_ships_side_takes_a_fingertip_with_nothing_armed(tmp_path, size):
    """Upright a Seafarers hex is 30 px: zoomed x2, a side with nothing armed (corners and sides both offered to a
    tap, the nearest taken) took a tap only within 30 px.  Zoom is now as large as a fingertip needs there."""
    app = d.start_app(tmp_path, size=size)
    try:
        play = seafarers_with_ships(app)
        game = app.table.game
        roll_by_taps(app, play, quiet_number(game))
        board = play.ids.board
        assert board.pick == "build" and play.big_board
        own_ship = next(e for e, (who, kind) in board.pieces.items() if who == 0 and kind == "ship")
        d.tap(play.ids.zoom)
        assert board.zoom > 1
        widths = {"own ship": target_width(board, own_ship, board.edge_pos)}
        # and a side of open sea beside it (no piece, nothing offered there: the plainest side there is)
        free = next(e for e in game.board.edges if e not in board.pieces and set(e) & set(own_ship))
        widths["free side"] = target_width(board, free, board.edge_pos)
        print(f"{size}: zoom {board.zoom}, hex {board.fitted_hex_size() * board.zoom:.1f} px, {widths}")
        assert all(w >= 40 for w in widths.values()), widths
    finally:
        d.stop_app(app)
