"""A ship is drawn as a ship: three dashes along its side, where a road is one stroke.  Both were one stroke
(Kivy draws a line's own dashes only when it is 1 px wide), so on the Seafarers map a ship could not be told from a
road.  Read from the window's pixels under Xvfb, on a Seafarers game started by touch."""

from __future__ import annotations

import pytest
from kivy.core.image import Image as CoreImage

from companion.rules import geometry as geo
from companion.ui import driver as d
from companion.ui.board_view import SHIP_DASHES

pytestmark = pytest.mark.timeout(120)


def colour_along(image, view, edge, t):
    """The colour at fraction ``t`` along the drawn part of ``edge`` (the piece stops short of the corners)."""
    (x1, y1), (x2, y2) = (view.to_widget(geo.vertex_point(v)) for v in geo.edge_vertices(edge))
    x1, y1, x2, y2 = (x1 + (x2 - x1) * 0.12, y1 + (y2 - y1) * 0.12, x2 + (x1 - x2) * 0.12, y2 + (y1 - y2) * 0.12)
    wx, wy = view.to_window(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)
    return d.pixel_at(image, wx, wy)


def test_a_ship_shows_gaps_where_a_road_is_solid(tmp_path):
    app = d.start_app(tmp_path)
    try:
        new_game = d.open_new_game(app, "seafarers")
        d.tap(new_game.ids.start)
        assert d.wait_until(lambda: app.root.current == "play")
        play = app.root.get_screen("play")
        game = app.table.game
        coast = None
        for v in sorted(game.legal_settlement_spots_setup()):  # a coastal corner: both a road and a ship offered
            app.table.submit({"type": "build", "player": 0, "piece": "settlement", "at": [list(h) for h in v]})
            if {piece for piece, _e in game.legal_setup_links()} >= {"road", "ship"}:
                coast = v
                break
            app.table.undo()
        assert coast is not None, "a coastal corner offering both a road and a ship"
        app.changed()
        d.settle()
        assert play.prompt == "Aki: place a road or a ship beside it (tap a green side; on the sea: a ship)"
        links = dict((piece, e) for piece, e in game.legal_setup_links())
        app.table.submit({"type": "build", "player": 0, "piece": "ship", "at": [list(h) for h in links["ship"]]})
        app.changed()
        d.settle()
        view = play.ids.board
        image = CoreImage(str(d.screenshot(tmp_path / "ship.png")), keep_data=True)
        gap = (SHIP_DASHES[0][1] + SHIP_DASHES[1][0]) / 2
        red = view._player_rgb(0)

        def is_red(colour):
            return all(abs(c - w) < 0.15 for c, w in zip(colour, red))

        assert is_red(colour_along(image, view, links["ship"], 0.5)), "the ship's middle dash"
        assert not is_red(colour_along(image, view, links["ship"], gap)), "a gap between the ship's dashes"
    finally:
        d.stop_app(app)
