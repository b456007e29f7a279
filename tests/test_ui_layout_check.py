"""The layout check the portrait and landscape UI tests assert with (``driver.layout_problems``) names each kind
of fault in a real widget tree on the window, and finds none in a sound one."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(60)


def test_the_layout_check_names_small_off_screen_overlapping_and_overflowing_widgets():
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    def placed(widget, x, y, w, h):
        widget.size_hint, widget.pos, widget.size = (None, None), (x, y), (w, h)
        return widget

    width, height = Window.size
    root = FloatLayout()
    Window.add_widget(root)
    try:
        sound = [placed(Button(text="ok"), 10, 10, 120, 60), placed(Label(text="fits"), 10, 80, 120, 40)]
        scroller = placed(ScrollView(do_scroll_x=False), 200, 10, 200, 150)
        column = BoxLayout(orientation="vertical", size_hint_y=None, height=600)
        for k in range(10):  # taller than the view: reached by scrolling, not a fault
            column.add_widget(Button(text=f"row {k}"))
        scroller.add_widget(column)
        for w in (*sound, scroller):
            root.add_widget(w)
        assert d.layout_problems(root) == []

        faults = [placed(Button(text="tiny"), 10, 200, 120, 30),
                  placed(Button(text="off"), width - 40, 300, 100, 60),
                  placed(Button(text="first"), 450, 10, 100, 60), placed(Button(text="second"), 480, 40, 100, 60),
                  placed(Label(text="a sentence far too long for its box"), 10, 400, 60, 30)]
        for w in faults:
            root.add_widget(w)
        problems = d.layout_problems(root)
        assert any("'tiny' is 120x30 px, under the 48 px touch target" in p for p in problems), problems
        assert any("'off'" in p and "runs off the" in p for p in problems), problems
        assert any("'first'" in p and "'second'" in p and "overlap" in p for p in problems) \
            or any("'second'" in p and "'first'" in p and "overlap" in p for p in problems), problems
        assert any("'a sentence far too long" in p and "runs past its 60x30 box" in p for p in problems), problems
        assert len(problems) == 4, problems
    finally:
        Window.remove_widget(root)
