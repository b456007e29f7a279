"""A dike is seen on its hex, and said where the tide may take it.

Seen by real taps (playtest s10, High Tide upright 800x1280, Japanese, the bundled game in its dike round): Aki
tapped Dike and the 8 fields, paid, and the board showed a brown line ~3 px wide on the hex's border, which read as
the border itself; the table could not tell the dike was there.  Now a dike is a band inside its hex's edge, and when the tide offers
that hex the offer says a dike stands there (it did not: Aki chose between the 8 forest and the 8 fields blind).  Read
from the window's pixels under Xvfb: across the hex's edge, from its middle toward each side, how many pixels
in a row are neither the terrain's colour nor the number token's."""

from __future__ import annotations

import math

import pytest
from kivy.core.image import Image as CoreImage

from companion.rules import geometry as geo
from companion.ui import driver as d
from companion.ui.board_view import TERRAIN_COLORS
from test_ui_high_tide import aki_dike_round, first_moment, journal_upto

pytestmark = pytest.mark.timeout(240)


def band_px(image, view, h, rgb) -> int:
    """The fewest pixels in a row not of the terrain colour ``rgb`` on the way from the hex's middle out to a
    side's middle, inside the hex (from 0.45 to 0.84 of a hex size: past the token, short of the drawn border)."""
    size = view._transform()[0]
    cx, cy = view.to_widget(geo.pixel_center(tuple(h)))
    least = None
    for k in range(6):
        a = math.radians(60 * k)  # toward the middle of a side (a pointy-top hex's flat sides)
        run = best = 0
        steps = int(size * 0.39)
        for i in range(steps + 1):
            r = size * 0.45 + i
            wx, wy = view.to_window(cx + r * math.cos(a), cy + r * math.sin(a))
            colour = d.pixel_at(image, wx, wy)
            off = any(abs(c - t) > 0.12 for c, t in zip(colour, rgb))
            run = run + 1 if off else 0
            best = max(best, run)
        least = best if least is None else min(least, best)
    return least


def test_a_dike_built_by_taps_is_seen_on_its_hex(tmp_path):
    # the dike round, Aki to play, a dike allowed on the 8 fields
    game_id = journal_upto(tmp_path, first_moment(lambda game: aki_dike_round(game, (8, "fields"))))
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        play = d.resume(app, game_id)
        game, view = app.table.game, play.ids.board
        assert game.tide.phase == "dike_round" and game.waiting_for() == 0
        target = next(h for h in game.legal_dike_spots(0) if (game.board.tiles[h].number, game.board.tiles[h].terrain)
                      == (8, "fields"))
        d.tap(d.find(play.ids.actions, "Dike", startswith=True))
        d.tap_at(*view.hex_pos(target))
        d.settle()
        assert target in game.tide.dikes, play.message
        rgb = TERRAIN_COLORS[game.board.tiles[target].terrain]
        image = CoreImage(str(d.screenshot(tmp_path / "dike.png")), keep_data=True)
        seen = band_px(image, view, target, rgb)
        # a land hex without a dike or any piece: its inside is all terrain (the check sees nothing there)
        bare = next(h for h, t in sorted(game.board.tiles.items())
                    if t.number is not None and h not in game.tide.dikes and view.robber != h
                    and all(v not in view.buildings for v in geo.hex_vertices(h))
                    and all(e not in view.pieces for e in geo.hex_edges(h)))
        bare_px = band_px(image, view, bare, TERRAIN_COLORS[game.board.tiles[bare].terrain])
        assert bare_px <= 1
        assert seen >= 6, f"the dike shows as {seen} px across its band (hex size {view._transform()[0]:.0f} px)"

        # The round goes on to the high tide; Aki rolls the dike's 8: the tide's offer says where the dike stands.
        d.tap(play.ids.end_turn)
        for roll in (4, 6):  # Ben, then Chie (the leader): the dike round's end
            d.tap_dice(play, roll)
            d.tap(play.ids.end_turn)
        d.tap_dice(play, 8)
        d.settle()
        assert game.state.phase == "flood" and target in game.tide.flood_choices and game.tide.phase == "high_tide"
        assert "A dike stands on the 8 fields: tapped, it loses the dike and stays land." in play.tide_text, \
            play.tide_text
        d.tap_at(*view.hex_pos(target))
        d.settle()
        assert target not in game.tide.dikes and game.board.is_land(target)
        assert "The dike on the 8 fields held back the tide" in play.tide_text, play.tide_text
    finally:
        d.stop_app(app)
