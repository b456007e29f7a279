"""Starfarers upright (800x1280): during the set-up, where every choice is made on the map, the map gets the room.

Seen by touch under Xvfb: the panel kept about half the screen through the set-up, and ~550 px of it stood empty
between the prompt ("Aki: place a set-up colony (tap a green site)") and the bottom row, while the map above was
squeezed into 455 px and its colony sites lay 20 px apart.  Now the panel is as tall as what it holds (the prompt
and the bottom row; the spaceport's toggles and OK), the map the rest, and after the set-up the panel is back.
Real widgets, the set-up placed by taps on the map."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from kivy.metrics import dp

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screens"


def closest_sites_px(m) -> float:
    points = [m.to_window(*m.site_pos(s)) for s in m.board.sites]
    return min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:])


def empty_under_prompt(screen) -> float:
    """The height left empty between what the panel shows (the prompt, the spaceport's toggles and OK) and the
    bottom row, in window pixels."""
    shown = [screen.ids.prompt] + [c for c in screen.ids.actions.children if c.height]
    lowest = min(w.to_window(w.x, w.y)[1] for w in shown)
    bar = screen.ids.undo
    return lowest - bar.to_window(bar.x, bar.top)[1]


def test_the_map_takes_the_room_during_the_upright_set_up(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        d.new_game(app, 4, "starfarers")
        screen = app.root.get_screen("starfarers")
        game, m = app.table.game, screen.ids.map
        d.settle()
        assert game.state.phase == "setup_colony"
        assert empty_under_prompt(screen) < dp(60), f"{empty_under_prompt(screen):.0f} px empty under the prompt"
        assert m.height > 0.7 * app.root.height, m.height
        assert closest_sites_px(m) >= 24, closest_sites_px(m)  # was 20 px with the half-screen panel
        assert d.layout_problems(screen) == []

        while game.state.phase == "setup_colony":  # tapped where the map offers them
            before = len(app.table.record.events)
            d.tap_at(*m.to_window(*m.site_pos(sorted(m.legal)[len(m.legal) // 2])))
            d.settle()
            assert len(app.table.record.events) == before + 1, screen.message

        # the spaceport: its toggles and OK stand whole under the prompt, tappable, nothing empty beside them
        d.tap_at(*m.to_window(*m.site_pos(sorted(m.legal)[0])))
        d.settle()
        d.screenshot(SHOTS / "starfarers-setup-portrait-en.png")
        assert empty_under_prompt(screen) < dp(60), f"{empty_under_prompt(screen):.0f} px empty under the toggles"
        assert d.layout_problems(screen) == []
        ok = d.find(screen.ids.actions, app.tr("ok"))
        for name in ("sf_trade_ship", "sf_freight_ring"):
            d.tap(d.find(screen.ids.actions, app.tr(name)))
        d.tap(ok)
        d.settle()
        assert game.state.buildings  # and on through the other players' spaceports
        while game.state.phase == "setup_spaceport":
            d.tap_at(*m.to_window(*m.site_pos(sorted(m.legal)[0])))
            d.settle()
            for name in ("sf_trade_ship", "sf_freight_ring"):
                d.tap(d.find(screen.ids.actions, app.tr(name)))
            d.tap(d.find(screen.ids.actions, app.tr("ok")))
            d.settle()

        # the set-up over, the panel has its half of the screen again (the roll's dice, the results)
        assert game.state.phase == "roll"
        assert screen.ids.dice_row.height > 0 and m.height < 0.6 * app.root.height, m.height
        assert d.layout_problems(screen) == []
    finally:
        d.stop_app(app)
