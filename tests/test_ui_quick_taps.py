"""Four quick taps on a "+" count four, however fast they come.

Seen by touch under Xvfb (1280x800, xdotool clicking 120 ms apart on a loaded machine): the umpire's hand editor
counted 4 taps on lumber's "+" as 2 (last session: as 1).  The panel scrolls, and Kivy's ScrollView hands a tap to
its button only when the finger lifts, and the release 0.2 s later; the first release rebuilt the panel (the count
changed), and the releases of the taps that had pressed the old "+" meanwhile went to the new panel, which had no
such button: they were lost.  Real widgets under Xvfb, the taps through the window's input queue, all four read in
one frame (as a slow frame reads them)."""

from __future__ import annotations

import pytest
from kivy.base import EventLoop
from kivy.input.postproc import kivy_postproc_modules
from kivy.tests.common import UnitTestTouch

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def quick_taps(widget, n: int) -> None:
    """``n`` taps on ``widget`` queued together, as the window queues a finger's events between two frames."""
    EventLoop.add_postproc_module(kivy_postproc_modules["doubletap"])  # as the live app has it
    x, y = widget.to_window(*widget.center)
    for _ in range(n):
        touch = UnitTestTouch(x, y)
        EventLoop._dispatch_input("begin", touch)
        EventLoop._dispatch_input("end", touch)
    d.pump(1)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_four_quick_taps_on_plus_count_four(tmp_path, size):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        play = d.resume(app, game_id)
        d.tap(play.ids.umpire)
        d.tap(d.find(play.ids.actions, "Aki"))
        held = play.selection["hand"].get("lumber", 0)
        quick_taps(d.counter(play.ids.actions, "lumber", "hand").plus, 4)
        counted = lambda: play.selection["hand"].get("lumber", 0) - held  # noqa: E731
        d.wait_until(lambda: counted() >= 4, timeout=5)
        d.settle()
        assert counted() == 4, f"4 quick taps on + counted {counted()}"
        assert d.counter(play.ids.actions, "lumber", "hand").count.text == str(held + 4)
    finally:
        d.stop_app(app)
