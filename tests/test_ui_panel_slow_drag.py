"""A slow drag on the play screen's action panel scrolls it and chooses nothing.

Seen by real taps (xdotool under Xvfb, landscape 1280x800): the umpire setting Yui's hand, a drag up the panel
(finger down, 100 ms still, then 40-80 px steps 50 ms apart) did not scroll and left Mika's hand chosen -- the
toggle under the finger.  Kivy's ScrollView hands a touch that has not moved 20 px within ``scroll_timeout``
(55 ms by default) to the widget under it.  Here the same drag is made with real touches through Kivy's input
path, timed by the clock; then a quick tap still works on each kind of button the panel holds (a toggle, a +,
an OK).  Real widgets under Xvfb."""

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
        d.tap(d.find(play.ids.actions, "Aki"))
        assert play.selection.get("u_player") == 0
        scroller = play.ids.actions.parent
        assert play.ids.actions.height > scroller.height, "the umpire's panel is taller than its view"
        scroller.scroll_y = 1
        d.settle()
        ben = d.find(play.ids.actions, "Ben")
        x, y = ben.to_window(*ben.center)
        before = scroller.scroll_y
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
