"""Starfarers' set-up: a tap that falls between two close colony sites zooms in on them and asks which.

The three sites round a system's middle lie 0.87 hex apart: 25 px lying down in the set-up, 24 px upright, where a
finger is ~40 dp.  Zoom spreads them, but nothing told a first-timer to use it, and a tap between two sites built
the colony on the nearer -- often not the one aimed at (undo, tap again).  Now a tap nearly as near two offered
sites (their distances differ by under 0.3 of the spacing) builds nothing: the map zooms in on the two, a fingertip
apart, and the prompt says why; the next tap builds where it lands and the whole map comes back.  A tap clearly on
a site (up to ~0.3 hex from its middle, even towards its neighbour) builds at once, as before.  Real widgets under
Xvfb, every tap through Kivy's input path; English and Japanese (seed 003's 地点 for a site)."""

from __future__ import annotations

import dataclasses
import math

import pytest
from kivy.metrics import dp

from companion.rules import geometry as geo
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def neighbouring_offered_sites(m):
    """Two offered sites the spacing of the map's closest sites apart (a system's middle)."""
    spacing = m.site_spacing()
    offered = sorted(m.legal)
    return next((a, b) for i, a in enumerate(offered) for b in offered[i + 1:]
                if math.isclose(math.dist(geo.edge_point(a), geo.edge_point(b)), spacing, rel_tol=0.01))


def toward(m, a, b, share: float):
    """Window point ``share`` of the way from site ``a``'s middle to site ``b``'s, as drawn now."""
    (ax, ay), (bx, by) = m.site_pos(a), m.site_pos(b)
    return m.to_window(ax + (bx - ax) * share, ay + (by - ay) * share)


@pytest.mark.parametrize("size,lang", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "portrait-ja"])
def test_a_tap_between_two_close_sites_zooms_in_and_asks_which(tmp_path, size, lang):
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang=lang))
        d.new_game(app, 3, "starfarers")
        sf = app.root.get_screen("starfarers")
        m = sf.ids.map
        game = app.table.game
        d.settle()
        spacing = m.site_spacing() * m.fitted_hex_size()
        assert spacing < dp(40), f"sites {spacing:.0f} px apart unzoomed: the test's premise is gone"
        first, second = neighbouring_offered_sites(m)
        prompt = sf.prompt
        events = len(app.table.record.events)

        # half-way between two offered sites: nothing built, the map zoomed on them, the prompt asks which
        d.tap_at(*toward(m, first, second, 0.5))
        d.settle()
        assert len(app.table.record.events) == events, "a colony was built on a tap between two sites"
        assert m.zoom > 1 and sf.ids.zoom.state == "down"
        zoomed = math.dist(m.to_window(*m.site_pos(first)), m.to_window(*m.site_pos(second)))
        assert zoomed >= dp(40), zoomed
        for site in (first, second):  # both in sight, clear of the map's edges
            x, y = m.site_pos(site)
            assert m.x + dp(20) < x < m.right - dp(20) and m.y + dp(20) < y < m.top - dp(20)
        asked = "two sites lie close together" if lang == "en" else "近い地点が2つ"
        assert asked in sf.prompt, sf.prompt
        assert d.layout_problems(app.root) == []

        # the next tap (0.3 of the way to the other: a finger's slip) builds where it lands, the whole map is back
        d.tap_at(*toward(m, second, first, 0.3))
        d.settle()
        assert game.state.buildings.get(second) == (0, "colony"), (game.state.buildings, sf.message)
        assert m.zoom == 1 and sf.ids.zoom.state == "normal"
        assert "close together" not in sf.prompt and "近い地点" not in sf.prompt and sf.prompt != prompt  # Ben's turn

        # a tap clearly on a site (0.3 hex from its middle towards an offered neighbour) builds at once
        first, second = neighbouring_offered_sites(m)
        hexsize = m.fitted_hex_size()
        share = 0.3 * hexsize / math.dist(m.site_pos(first), m.site_pos(second))
        d.tap_at(*toward(m, first, second, share))
        d.settle()
        assert game.state.buildings.get(first) == (1, "colony"), (game.state.buildings, sf.message)
        assert m.zoom == 1
    finally:
        d.stop_app(app)


def test_undo_while_asked_shows_the_whole_map_again(tmp_path):
    """Ben's tap between two sites zooms in and asks; Undo (Aki's colony taken back) brings the whole map and Aki's
    own prompt back -- the zoom and the question stayed before."""
    app = d.start_app(tmp_path)
    try:
        d.new_game(app, 3, "starfarers")
        sf = app.root.get_screen("starfarers")
        m = sf.ids.map
        game = app.table.game
        d.settle()
        first, second = neighbouring_offered_sites(m)
        d.tap_at(*m.to_window(*m.site_pos(first)))  # Aki, on a site's middle: built at once
        assert game.state.buildings.get(first) == (0, "colony"), sf.message
        aki_prompt = app.tr("sf_p_setup_colony", name="Aki")
        a, b = neighbouring_offered_sites(m)
        d.tap_at(*toward(m, a, b, 0.5))  # Ben, between two: asked
        d.settle()
        assert m.zoom > 1 and "close together" in sf.prompt
        d.tap(sf.ids.undo)
        d.settle()
        assert first not in game.state.buildings
        assert m.zoom == 1 and sf.prompt == aki_prompt, (m.zoom, sf.prompt)
    finally:
        d.stop_app(app)
