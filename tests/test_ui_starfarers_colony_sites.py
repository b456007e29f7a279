"""Starfarers' colony sites: marks a player sees and can aim a finger at, clear of the planets' numbers.

Seen by touch under Xvfb (playtest s10, 1280x800): an offered site was a green ring 7.8 px in radius (0.3 of a
26 px hex), an empty one a faint 2.6 px ring, and the sites of a system lay 23 px apart beside a panel holding
one line of prompt.  Now an offered site is a green disc ringed at 0.42 of a hex (its edge still clear of the
two planets' number chips), an empty one a 0.2 hex ring, and lying down the set-up gives the map the panel's
room: 29.2 px hexes, sites 25.3 px apart (Zoom still spreads them 40 dp apart).  Real widgets under Xvfb: a new
game started by taps, the window's pixels read from a screenshot, the colony placed by a tap beside its ring."""

from __future__ import annotations

import math

import pytest
from kivy.core.image import Image as CoreImage

from companion.rules import geometry as geo
from companion.ui import driver as d
from test_ui_starfarers_zoom import closest_sites_px

pytestmark = pytest.mark.timeout(120)


def is_green(rgb) -> bool:
    r, g, b = rgb
    return g > 0.75 and r < 0.65 and b < 0.65


def is_chip(rgb) -> bool:
    r, g, b = rgb
    return r > 0.85 and g > 0.8 and b > 0.65


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_offered_sites_are_wide_green_marks_clear_of_the_numbers(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        d.new_game(app, 4, "starfarers")
        sf = app.root.get_screen("starfarers")
        m = sf.ids.map
        d.settle()
        assert m.pick == "site" and m.legal
        hexsize = m.fitted_hex_size()
        if size == (1280, 800):  # lying down, the set-up's map has the panel's room (sites were 22.6 px apart)
            assert closest_sites_px(m) >= 25, closest_sites_px(m)
        image = CoreImage(str(d.screenshot(tmp_path / "sites.png")), keep_data=True)
        for site in sorted(m.legal):
            x, y = m.to_window(*m.site_pos(site))
            # the ring: green at 0.38-0.46 of a hex from the site's middle, all round (the old ring lay at 0.3)
            ringed = 0
            for k in range(24):
                a = 2 * math.pi * k / 24
                radii = [hexsize * f / 100 for f in range(38, 47)]
                if any(is_green(d.pixel_at(image, x + r * math.cos(a), y + r * math.sin(a))) for r in radii):
                    ringed += 1
            assert ringed >= 20, f"green round only {ringed}/24 of the site at 0.38-0.46 hex ({hexsize:.1f} px)"
            # the two planets' number chips, on the side facing the site, still show
            for h in site:
                if h not in m.board.planets:
                    continue
                cx, cy = m.to_window(*m.hex_pos(h))
                dx, dy = x - cx, y - cy
                k = hexsize * 0.3 / math.hypot(dx, dy)
                assert is_chip(d.pixel_at(image, cx + dx * k, cy + dy * k)), "a ring covers a planet's number"

        # a tap 0.3 hex off an offered site, away from its neighbours, places the colony there
        game = app.table.game
        site = sorted(m.legal)[0]
        x, y = m.site_pos(site)
        middle = geo.edge_point(site)
        others = [geo.edge_point(s) for s in m.board.sites if s != site]
        nx, ny = min(others, key=lambda p: math.dist(p, middle))
        away = (middle[0] - nx, middle[1] - ny)
        length = math.hypot(*away)
        tx, ty = x + away[0] / length * hexsize * 0.3, y + away[1] / length * hexsize * 0.3
        d.tap_at(*m.to_window(tx, ty))
        d.settle()
        assert game.state.buildings.get(site) == (0, "colony"), sf.message
    finally:
        d.stop_app(app)
