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

from kivy.clock import Clock
from kivy.effects.dampedscroll import DampedScrollEffect
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import NumericProperty
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
    panel).  Far out of range, the list goes back to its top; a finger pulling it past an edge, and the bounce
    back, are left alone.  Far: more than a scroll range past an edge, and more than twice the view's height in
    px, farther than a finger can pull.  (Counted by the range alone, a short list's range was less than a
    drag: the upright new-game form, 57 px to scroll, jumped back to its top under a 240 px drag.)"""
    if -1 <= scroll_y <= 2:
        return
    content = scroller.children[0] if scroller.children else None
    scroll_range = max(1.0, content.height - scroller.height) if content is not None else 1.0
    if max(-scroll_y, scroll_y - 1) * scroll_range > 2 * max(scroller.height, 1.0):
        scroller.scroll_y = 1


class PatientScroll(ScrollView):
    """A list a finger may rest on before it drags: a touch goes to the button under it only once it has been
    still for ``scroll_timeout`` (300 ms; Kivy's 250) since *it* came down.

    A finger that rests before it drags scrolls: with Kivy's 250 ms (its config's default) a finger still for
    270 ms went to the toggle under it, which took its state on the way down (Seafarers lit on the new-game
    form; a player chosen by a drag).  A quick tap is handed on when the finger lifts, as before; a finger held still 300 ms presses what
    is under it.  Every ScrollView of the app is one (:func:`install`).

    Kivy schedules the hand-over ``scroll_timeout`` after each touch down and never cancels it: a tap's leftover
    call, firing while the next touch is down, handed that one over early -- a drag begun within
    ``scroll_timeout`` of a tap pressed the toggle under the finger and could not scroll (seen in
    tests/test_ui_panel_slow_drag.py: one run in three with a 300 ms timeout).  Here a call that comes before
    the touch now down has been held ``scroll_timeout`` waits out the rest, timed by Kivy's clock as the hand-over
    itself is (a frame's time: a test can run the clock a frame at a time, driver.FrameClock)."""

    scroll_timeout = NumericProperty(300)

    def on_scroll_start(self, touch, check_children=True):
        taken = super().on_scroll_start(touch, check_children)
        mine = touch.ud.get(self._get_uid())
        if isinstance(mine, dict) and "down_at" not in mine:
            # when Kivy scheduled this touch's hand-over: by its clock (a touch's time_start is the wall's)
            mine["down_at"] = Clock.get_time()
        return taken

    def _change_touch_mode(self, *largs):
        touch = self._touch
        mine = touch.ud.get(self._get_uid()) if touch else None
        if isinstance(mine, dict) and "down_at" in mine:
            left = self.scroll_timeout / 1000 - (Clock.get_time() - mine["down_at"])
            if left > 0:
                Clock.schedule_once(self._change_touch_mode, left)
                return
        super()._change_touch_mode(*largs)


_installed = False


def install() -> None:
    """Every ScrollView made from now on scrolls with :class:`SteadyScrollEffect` and is kept in view
    (:func:`keep_in_view`), a kv class rule; and every one a kv file makes is a :class:`PatientScroll` (kv's
    ``ScrollView:`` names it): a slow drag on the new-game form, Starfarers' or the card game's actions or the
    board check's list scrolls rather than pressing what it started on."""
    global _installed
    if not _installed:
        Factory.unregister("ScrollView")
        Factory.register("ScrollView", cls=PatientScroll)
        Builder.load_string("#:import SteadyScrollEffect companion.ui.steady_scroll.SteadyScrollEffect\n"
                            "#:import keep_in_view companion.ui.steady_scroll.keep_in_view\n"
                            "<ScrollView>:\n    effect_cls: SteadyScrollEffect\n"
                            "    on_scroll_y: keep_in_view(self, args[1])\n")
        _installed = True
