"""A slow frame does not fling a list off the screen: a panel just past its edge (it grew or shrank) springs
back into place whatever the time between two frames (a slow tablet rebuilding a panel, a machine busy with other
work).  Kivy's own effect, stepped once a frame, overshoots from ~0.7 s a frame on: 50 px over the edge became
1063 px by the eighth frame, and a tap on the note field met nothing (issue 26)."""

from __future__ import annotations

import pytest

from companion.ui import driver as d


@pytest.mark.parametrize("frame_seconds", [1 / 60, 0.3, 0.7, 1.0, 3.0])
def test_a_panel_past_its_edge_springs_back_whatever_the_frame_time(frame_seconds):
    from companion.ui.steady_scroll import SteadyScrollEffect

    effect = SteadyScrollEffect(min=0, max=-500)  # 500 px of content to scroll through
    effect.value, effect.overscroll = 50, 50  # 50 px past its top edge
    places = []
    for _ in range(round(5 / frame_seconds)):  # 5 s of frames
        effect.update_velocity(frame_seconds)
        places.append(effect.value)
    assert all(-60 <= place <= 60 for place in places), places  # never flung (Kivy's: -6, 68, -75, 128, ... px)
    assert abs(places[-1]) <= 2  # back at the edge


def test_every_scrolling_panel_of_the_app_springs_back_steadily(tmp_path):
    from kivy.uix.scrollview import ScrollView

    from companion.ui.steady_scroll import PatientScroll, SteadyScrollEffect

    app = d.start_app(tmp_path)
    try:
        panels = [w for screen in app.root.screens for w in d.walk(screen) if isinstance(w, ScrollView)]
        assert len(panels) >= 3  # the start screen's games, the play screen's actions, the settings ...
        assert all(isinstance(p.effect_y, SteadyScrollEffect) for p in panels), [type(p.effect_y) for p in panels]
        # and each waits 300 ms, timed from its own touch, before handing a still finger to what is under it
        # (tests/test_ui_panel_slow_drag.py)
        assert all(isinstance(p, PatientScroll) and p.scroll_timeout == 300 for p in panels), \
            [(type(p).__name__, p.scroll_timeout) for p in panels]
        # and none is ever thrown out of sight: millions of screens away, a list goes back to its top (a panel
        # rebuilt under a finger once left the effect with such an offset); a bounce past an edge is left alone
        for panel in panels:
            panel.scroll_y = -3e6
            assert panel.scroll_y == 1
            panel.scroll_y = 1.02
            assert panel.scroll_y == 1.02
    finally:
        d.stop_app(app)
