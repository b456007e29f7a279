"""Starfarers' colony sites take a fingertip's tap: Zoom draws the map large enough that neighbouring sites lie
at least 40 dp apart, around the sites offered now, and a drag pans it.

Seen by touch under Xvfb (800x1280): the map is as wide as the screen, so the three sites round a system's middle
lay ~20 px apart (rings ~18 px) with no zoom -- a finger took the neighbour.  1280x800 is not much better (22 px).
Real widgets under Xvfb, the game started and the colony placed by taps; the spacing measured on the screen."""

from __future__ import annotations

import math

import pytest
from kivy.metrics import dp
from kivy.tests.common import UnitTestTouch

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def closest_sites_px(m) -> float:
    """The distance on the screen between the two closest colony sites of the map ``m``."""
    points = [m.to_window(*m.site_pos(s)) for s in m.board.sites]
    return min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:])


def in_view(m, site) -> bool:
    x, y = m.site_pos(site)
    return m.x + dp(20) < x < m.right - dp(20) and m.y + dp(20) < y < m.top - dp(20)


@pytest.mark.parametrize("size", [(800, 1280), (1280, 800)])
def test_zoom_spreads_the_colony_sites_a_fingertip_apart(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        d.new_game(app, 4, "starfarers")
        sf = app.root.get_screen("starfarers")
        m = sf.ids.map
        d.settle()
        fitted = closest_sites_px(m)
        assert fitted < dp(40), f"sites {fitted:.0f} px apart unzoomed: the test's premise is gone"
        zoom = sf.ids.zoom
        assert zoom.width > 0 and zoom.opacity == 1 and not zoom.disabled, "no Zoom offered"

        d.tap(zoom)
        d.settle()
        zoomed = closest_sites_px(m)
        assert zoomed >= dp(40), f"sites {zoomed:.0f} px apart zoomed (was {fitted:.0f})"
        offered = [s for s in sorted(m.legal) if in_view(m, s)]
        assert offered, "Zoom left every offered site out of sight"

        # a tap on an offered site in sight places Aki's colony there, and only there
        game = app.table.game
        site = offered[len(offered) // 2]
        events = len(app.table.record.events)
        d.tap_at(*m.to_window(*m.site_pos(site)))
        d.settle()
        assert len(app.table.record.events) == events + 1, sf.message
        assert game.state.buildings.get(site) == (0, "colony"), game.state.buildings

        # a drag pans the zoomed map and places nothing
        before = m.to_window(*m.site_pos(site))
        x, y = m.to_window(*m.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        for step in range(1, 5):
            touch.touch_move(x + dp(30) * step, y + dp(15) * step)
            d.pump(1)
        touch.touch_up()
        d.settle()
        after = m.to_window(*m.site_pos(site))
        assert after[0] > before[0] + dp(60), (before, after)
        assert len(app.table.record.events) == events + 1

        d.tap(zoom)  # the whole map again
        d.settle()
        assert m.zoom == 1 and math.isclose(closest_sites_px(m), fitted, rel_tol=0.01)
    finally:
        d.stop_app(app)
