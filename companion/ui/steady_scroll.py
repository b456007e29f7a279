"""Scrolling that stays put on a slow frame: every ScrollView of the app springs back and glides in steps no
longer than a 60 fps frame, whatever the time between two frames.

Kivy's scroll effect (``DampedScrollEffect``) moves the content once a frame by ``velocity * dt``, its spring and
friction computed for a 60 fps frame.  When a frame takes more than ~0.7 s (a slow tablet rebuilding a panel,
a machine busy with other work) that single step overshoots, and each following one more so: a list just past
its edge (a panel that grew or shrank) oscillated out to thousands of pixels off the screen, and a tap then met
nothing (measured: 50 px over the edge became -6, 68, -75, 128, -144, 329, ... px at 0.7 s a frame; 1063 px by
the eighth frame).  Here a long frame is stepped through as the 60 fps frames it stands for.

And a list is never thrown out of sight (:func:`keep_in_view`): a panel rebuilt under a finger can leave the
effect with the old panel's offset, which once threw ``scroll_y`` millions of screens away.
"""

from __future__ import annotations

import time

from kivy.clock import Clock
from kivy.effects.dampedscroll import DampedScrollEffect
from kivy.lang import Builder
from kivy.uix.scrollview import ScrollView

#: The longest time one frame's scroll covers: more (a frame stalled for seconds) is not made up for.
LONGEST_FRAME = 2.0


class SteadyScrollEffect(DampedScrollEffect):
    """Kivy's damped scroll effect, integrated in steps of at most ``std_dt`` (a 60 fps frame)."""

    def update_velocity(self, dt: float) -> None:
        dt = min(dt, LONGEST_FRAME)
        while dt > self.std_dt and (self.velocity or self.overscroll):
            super().update_velocity(self.std_dt)
            dt -= self.std_dt
        super().update_velocity(dt)


def keep_in_view(scroller, scroll_y: float) -> None:
    """A guard on a list's scroll: a panel rebuilt under a finger (a tap's own refresh) can leave Kivy's scroll
    effect with the old panel's offset over a content barely taller than the view, which throws ``scroll_y``
    millions of screens away and every button with it (seen in the first-game test: a tap on Trade, then no
    panel).  Far out of range, the list goes back to its top; an overscroll bounce (a little past 0 or 1) is
    left alone."""
    if not -1 <= scroll_y <= 2:
        scroller.scroll_y = 1


class PatientScroll(ScrollView):
    """A list a finger may rest on before it drags: a touch goes to the button under it only once it has been
    still for ``scroll_timeout`` since *it* came down.

    Kivy schedules the hand-over ``scroll_timeout`` after each touch down and never cancels it: a tap's leftover
    call, firing while the next touch is down, handed that one over early -- a drag begun within
    ``scroll_timeout`` of a tap pressed the toggle under the finger and could not scroll (seen in
    tests/test_ui_panel_slow_drag.py: one run in three with a 300 ms timeout).  Here a call that comes before
    the touch now down has been held ``scroll_timeout`` waits out the rest."""

    def _change_touch_mode(self, *largs):
        touch = self._touch
        if touch:
            left = self.scroll_timeout / 1000 - (time.time() - touch.time_start)
            if left > 0:
                Clock.schedule_once(self._change_touch_mode, left)
                return
        super()._change_touch_mode(*largs)


_installed = False


def install() -> None:
    """Every ScrollView made from now on scrolls with :class:`SteadyScrollEffect` and is kept in view
    (:func:`keep_in_view`): a kv class rule."""
    global _installed
    if not _installed:
        Builder.load_string("#:import SteadyScrollEffect companion.ui.steady_scroll.SteadyScrollEffect\n"
                            "#:import keep_in_view companion.ui.steady_scroll.keep_in_view\n"
                            "<ScrollView>:\n    effect_cls: SteadyScrollEffect\n"
                            "    on_scroll_y: keep_in_view(self, args[1])\n")
        _installed = True
