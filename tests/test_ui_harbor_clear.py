"""A harbour's label stays readable when a road is built on its side.

Seen by touch upright (800x1280, base 5-6, Japanese): a green road on the brick harbour's side covered the label's
"レ" — the disc sat on the side itself, because on a small board its letters (never under 11 sp) make it larger than
the hex around it.  The disc now stands out to sea, clear of a road on its side.  Real widgets under Xvfb."""

from __future__ import annotations

import math

import pytest

from companion.rules import geometry as geo
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("size,players,game", [((800, 1280), 6, "base56"), ((1280, 800), 4, "base"),
                                                ((800, 1280), 4, "seafarers")])
def test_no_road_on_a_harbors_side_covers_its_label(tmp_path, size, players, game):
    app = d.start_app(tmp_path, size=size)
    try:
        d.new_game(app, players, game)
        board = app.root.get_screen("play").ids.board
        d.settle()
        hex_size = board._transform()[0]
        road_half = max(3, hex_size * 0.11)  # a road or ship stroke reaches this far either side of its side (board_view)
        assert board.harbor_discs.keys() == board.board.harbors.keys()
        for edge, (hx, hy, rad) in board.harbor_discs.items():
            mx, my = board.to_widget(geo.edge_point(edge))
            clear = math.hypot(hx - mx, hy - my) - rad
            assert clear >= road_half, f"the label of the harbour on {edge} reaches {road_half - clear:.1f} px " \
                                       f"under a road on its side (hex {hex_size:.1f} px, disc {rad:.1f} px)"
    finally:
        d.stop_app(app)
