"""A gold field is told from fields on the board at a glance: their tints are close (gold (0.95, 0.7, 0.1),
fields (0.93, 0.78, 0.3)), and on the Seafarers map New game now deals, the islets' gold stood beside the main
island's fields looking the same.  A gold field carries a dark ring inside its edge.  Read from the window's
pixels under Xvfb, on the board New game shows for Seafarers."""

from __future__ import annotations

import math

import pytest
from kivy.core.image import Image as CoreImage

from companion.rules import geometry as geo
from companion.ui import driver as d
from companion.ui.board_view import GOLD_RING

pytestmark = pytest.mark.timeout(120)


def ring_colour(image, view, h):
    """The colour where a gold field's ring runs, on hex ``h``'s right side (window pixels)."""
    x, y = geo.pixel_center(h)
    wx, wy = view.to_window(*view.to_widget((x + 0.8 * 0.97 * math.cos(math.radians(30)), y)))
    return d.pixel_at(image, wx, wy)


def test_a_gold_field_is_ringed_and_fields_are_not(tmp_path):
    app = d.start_app(tmp_path)
    try:
        new_game = d.open_new_game(app, "seafarers")
        view = new_game.ids.preview
        board = view.board
        gold = [h for h, t in board.tiles.items() if t.terrain == "gold"]
        fields = [h for h, t in board.tiles.items() if t.terrain == "fields"]
        assert gold and fields, "the Seafarers map has gold and fields"
        d.settle()
        image = CoreImage(str(d.screenshot(tmp_path / "gold.png")), keep_data=True)

        def near_ring(colour):
            return all(abs(c - w) < 0.12 for c, w in zip(colour, GOLD_RING))

        assert all(near_ring(ring_colour(image, view, h)) for h in gold), [ring_colour(image, view, h) for h in gold]
        assert not any(near_ring(ring_colour(image, view, h)) for h in fields)
    finally:
        d.stop_app(app)
