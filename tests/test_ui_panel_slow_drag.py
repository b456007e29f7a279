"""A slow drag on the play screen's action panel, or on the new-game form, scrolls it and chooses nothing.

Seen by real taps (xdotool under Xvfb, landscape 1280x800): the umpire setting Yui's hand, a drag up the panel
(finger down, 100 ms still, then 40-80 px steps 50 ms apart) did not scroll and left Mika's hand chosen -- the
toggle under the finger.  Kivy's ScrollView hands a touch that has not moved 20 px within ``scroll_timeout``
(250 ms, its config's default) to the widget under it.  Here the same drag is made with real touches through
Kivy's input path, timed by the app's clock (driver.FrameClock: the rest and the steps are counted in frames of a
clock that moves on 10 ms a frame, so a loaded machine's slow frames do not lengthen them); then a quick tap still
works on each kind of button the panel holds (a toggle, a +, an OK).  Real widgets under Xvfb."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(240)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "upright"])
def test_slow_drag_on_the_umpire_panel_scrolls_and_chooses_nobody(tmp_path, size):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        play = d.resume(app, game_id)
        d.tap(play.ids.umpire)
        with d.FrameClock() as clock:
            tapped = clock.now
            d.tap(d.find(play.ids.actions, "Aki"))
            assert play.selection.get("u_player") == 0
            scroller = play.ids.actions.parent
            assert play.ids.actions.height > scroller.height, "the umpire's panel is taller than its view"
            scroller.scroll_y = 1
            d.settle()
            ben = d.find(play.ids.actions, "Ben")
            x, y = ben.to_window(*ben.center)
            before = scroller.scroll_y
            # The finger comes down 250 ms after the tap on Aki (the app's clock), so the hand-over Kivy scheduled
            # for that tap (300 ms after it, never cancelled) falls in this finger's 100 ms rest: it must not
            # hand this finger to Ben (it did, one run in three, before PatientScroll timed each touch itself).
            assert (clock.now - tapped) * 1000 <= 250, "the tap and the panel's redraw took the 250 ms"
            clock.frames_for_ms(250 - (clock.now - tapped) * 1000)
            d.slow_drag(x, y)
        assert play.selection.get("u_player") == 0, "a drag chose a player"
        assert ben.state == "normal" or ben.parent is None
        assert scroller.scroll_y < before - 0.05, f"the drag did not scroll: scroll_y {before} -> {scroller.scroll_y}"
        # a quick tap still works on each kind of button: a toggle, a +, the OK
        d.tap(d.find(play.ids.actions, "Ben"))
        assert play.selection.get("u_player") == 1
        held = sum(play.selection.get("hand", {}).values())
        plus = [w for w in d.walk(play.ids.actions) if getattr(w, "text", None) == "+"]
        d.tap(plus[0])
        assert sum(play.selection.get("hand", {}).values()) == held + 1
        events = len(app.table.game.events)
        d.tap(d.find(play.ids.actions, "Set Ben", startswith=True))
        assert len(app.table.game.events) == events + 1
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size", [(1024, 600), (600, 1024)], ids=["landscape", "upright"])
def test_slow_drag_on_the_new_game_form_scrolls_and_chooses_nothing(tmp_path, size):
    """A finger resting 270 ms on the new-game form before it drags, begun on Seafarers' toggle: Kivy's
    ScrollView (250 ms, its config's default) handed the touch to the toggle, which lit up while Base game stayed
    chosen, and the form did not scroll (4 runs of 4, both ways).  Every ScrollView of the app now waits as the
    actions' does (steady_scroll.install).  On a 7-inch tablet (1024x600): at 1280x800 the whole form is in sight
    (706 of 708 px).  Upright the form has 57 px to scroll: the drag pulls it past its end, and it stays there
    (it once jumped back to its top: steady_scroll.keep_in_view)."""
    app = d.start_app(tmp_path, size=size)
    try:
        ng = d.open_new_game(app)
        assert ng.game == "base"
        form = ng.ids.form
        scroller = form.parent
        assert form.height > scroller.height, "the form is taller than its view"
        seafarers = ng.ids.g_seafarers
        scroller.scroll_y = 1
        d.settle()
        x, y = seafarers.to_window(*seafarers.center)
        # 270 ms still, as the app's clock counts it: past Kivy's 250, short of the app's 300
        d.slow_drag(x, y, rest_ms=270)
        assert seafarers.state == "normal" and ng.ids.g_base.state == "down", "a drag pressed Seafarers"
        assert ng.game == "base"
        assert scroller.scroll_y < 0.05, f"the drag did not scroll the form to its end: scroll_y {scroller.scroll_y}"
        # a quick tap still chooses
        scroller.scroll_y = 1
        d.settle()
        d.tap(seafarers)
        assert ng.game == "seafarers"
    finally:
        d.stop_app(app)
