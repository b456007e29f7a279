"""A road beside the robber stays in sight: the robber's disc no longer hides the pieces on its hex's sides.

Seen in a playtest by taps (s9): the robber, drawn beside its hex's number token and half a hex across, lay over
the road on that side of the hex (Yui's white road on the 9 forest, landscape; Ken's blue one on the 6 forest,
upright).  Now the figures are drawn under the roads, ships and buildings.  Read from the window's pixels under
Xvfb: a road in each player's colour on every side of the robber's hex (a ship on every side of the pirate's)
shows its colour across its width along its length."""

from __future__ import annotations

import math

import pytest
from kivy.core.image import Image as CoreImage

from companion.rules import geometry as geo
from companion.ui import driver as d
from companion.ui.board_view import SHIP_DASHES

pytestmark = pytest.mark.timeout(240)


def colour_seen(image, view, edge, rgb, dashes=((0.0, 1.0),)) -> float:
    """The share of the points across a piece's coloured stroke (along the middle of its drawn part or of each dash, and across
    the middle 0.1 hex of its 0.16 wide colour) that show the colour ``rgb``."""
    size = view._transform()[0]
    (x1, y1), (x2, y2) = (view.to_widget(geo.vertex_point(v)) for v in geo.edge_vertices(edge))
    x1, y1, x2, y2 = (x1 + (x2 - x1) * 0.12, y1 + (y2 - y1) * 0.12, x2 + (x1 - x2) * 0.12, y2 + (y1 - y2) * 0.12)
    length = math.dist((x1, y1), (x2, y2))
    nx, ny = (y1 - y2) / length, (x2 - x1) / length  # across the stroke
    seen = total = 0
    for a, b in dashes:
        steps = max(2, int((b - a) * length / 2))
        for i in range(steps + 1):
            t = a + (b - a) * (0.2 + 0.6 * i / steps)  # inside the dash, clear of its ends (and a neighbour's outline)
            px, py = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
            for k in range(-2, 3):
                off = 0.05 * size * k / 2
                wx, wy = view.to_window(px + nx * off, py + ny * off)
                colour = d.pixel_at(image, wx, wy)
                seen += all(abs(c - w) < 0.15 for c, w in zip(colour, rgb))
                total += 1
    return seen / total


def _inland_numbered(board):
    """Land hexes with a number token whose six neighbours are all on the map."""
    tiles = board.tiles
    return [h for h, t in sorted(tiles.items())
            if t.number is not None and all(n in tiles for n in geo.neighbours(h))]


@pytest.mark.parametrize("size,game", [((1280, 800), "base"), ((800, 1280), "base"), ((800, 1280), "seafarers")],
                         ids=["landscape", "upright", "upright-seafarers"])
def test_a_road_on_every_side_of_the_robbers_hex_is_seen(tmp_path, size, game):
    app = d.start_app(tmp_path, size=size)
    try:
        d.new_game(app, 4, game)
        view = app.root.get_screen("play").ids.board
        d.settle()
        view.pick, view.legal = "", frozenset()  # no green corners offered over the pieces' ends
        hexes = _inland_numbered(view.board)
        assert hexes
        worst = []
        for h in hexes[:2]:
            view.robber = h
            for player, name in enumerate(view.colors):
                view.pieces = {e: (player, "road") for e in geo.hex_edges(h)}
                image = CoreImage(str(d.screenshot(tmp_path / f"robber-{h[0]}-{h[1]}-{player}.png")), keep_data=True)
                rgb = view._player_rgb(player)
                for e in geo.hex_edges(h):
                    worst.append((colour_seen(image, view, e, rgb), name, h, e))
        share, name, h, e = min(worst)
        assert share >= 0.95, f"the {name} road on side {e} of the robber's hex {h} shows its colour over {share:.0%}"
    finally:
        d.stop_app(app)


def test_a_ship_on_every_side_of_the_pirates_hex_is_seen(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        d.new_game(app, 4, "seafarers")
        view = app.root.get_screen("play").ids.board
        d.settle()
        view.pick, view.legal = "", frozenset()  # no green corners offered over the pieces' ends
        board = view.board
        # the pirate on a harbour's sea hex steps aside from the label, toward the hex's sides
        seas = sorted({e[0] if not board.is_land(e[0]) else e[1] for e in board.harbors})
        assert seas
        worst = []
        for h in seas:
            view.pirate = h
            view.pieces = {e: (1, "ship") for e in geo.hex_edges(h)}
            image = CoreImage(str(d.screenshot(tmp_path / f"pirate-{h[0]}-{h[1]}.png")), keep_data=True)
            for e in geo.hex_edges(h):
                worst.append((colour_seen(image, view, e, view._player_rgb(1), SHIP_DASHES), h, e))
        share, h, e = min(worst)
        assert share >= 0.95, f"the ship on side {e} of the pirate's hex {h} shows its colour over {share:.0%}"
    finally:
        d.stop_app(app)
