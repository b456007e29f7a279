"""The robber and the pirate are seen from across a table, and never hide a harbour's label.

Seen by touch upright (800x1280, Seafarers): both figures were discs 16 px across (a fifth of a hex in radius)
and the pirate, standing on a harbour's sea hex, was drawn over the harbour's "2:1 / lumber".  Now a figure is
half a hex across beside a number token, larger in the middle of a hex without one, and on a sea hex it steps
aside from a harbour's label.  Real widgets under Xvfb."""

from __future__ import annotations

import math

import pytest

from companion.rules import geometry as geo
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def _sea_hex(board, edge):
    return edge[0] if not board.board.is_land(edge[0]) else edge[1]


@pytest.mark.parametrize("size,game", [((800, 1280), "seafarers"), ((1280, 800), "base")])
def test_the_figures_are_large_and_clear_of_harbour_labels(tmp_path, size, game):
    app = d.start_app(tmp_path, size=size)
    try:
        d.new_game(app, 4, game)
        board = app.root.get_screen("play").ids.board
        d.settle()
        hex_size = board._transform()[0]
        for h, tile in board.board.tiles.items():
            if not board.board.is_land(h):
                continue
            across = 2 * board.figure_radius(h)
            assert across >= 0.5 * hex_size, f"the robber on {h} is {across:.0f} px across (a hex is {hex_size:.0f})"
            x, y = board.figure_pos(h)
            cx, cy = board.hex_pos(h)
            if tile.number is not None:  # beside the token: the number stays in sight, the figure inside its hex
                token = 0.33 * hex_size
                assert math.dist((x, y), (cx, cy)) >= token + board.figure_radius(h) - 1, f"robber on {h} covers the token"
            assert math.dist((x, y), (cx, cy)) + board.figure_radius(h) <= 0.87 * hex_size + 1
            corners = [board.vertex_pos(v) for v in geo.hex_vertices(h)]
            assert min(math.dist((x, y), c) for c in corners) > 0.5 * hex_size  # clear of where settlements stand
        if game == "base":
            return  # no pirate
        seas = {_sea_hex(board, e) for e in board.board.harbors}
        assert seas
        for sea in sorted(seas):
            board.pirate = sea
            d.settle()
            x, y, _ = board._figure_spot(sea)  # widget coordinates, as the harbour discs are
            rad = board.figure_radius(sea)
            for edge, (hx, hy, disc) in board.harbor_discs.items():
                gap = math.dist((x, y), (hx, hy)) - disc - rad
                assert gap >= 0, f"the pirate on {sea} covers the label of the harbour on {edge} by {-gap:.0f} px"
            assert rad >= 0.25 * hex_size, f"the pirate on {sea} is {2 * rad:.0f} px across (a hex is {hex_size:.0f})"
            cx, cy = board.to_widget(geo.pixel_center(sea))
            assert math.dist((x, y), (cx, cy)) <= 0.75 * hex_size  # seen standing on its own hex
    finally:
        d.stop_app(app)
