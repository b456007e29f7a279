"""A FittedLabel whose layout gives it the height its words take (``full_height``, Scan the board's help upright)
comes to rest: the app goes idle once it is laid out.

Session 15: while a phrase was wider than the label (a screen laid out narrow before it is shown), full_height was
the label's own height, the layout made the label full_height + 6 dp, and the next fit said full_height again:
the help grew 6 dp a frame in every running app and every frame refitted it (the first-game test ran 10 min
instead of 74 s).  Real widgets on the window, frames run by the app's clock.
"""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)

LAYOUT = """
BoxLayout:
    orientation: "vertical"
    size_hint: None, None
    size: {width}, 600
    FittedLabel:
        id: help
        text: {text!r}
        max_font_size: sp(15)
        measures_full_height: True
        size_hint_y: None
        height: self.full_height + dp(6)
    Widget:
"""


@pytest.mark.parametrize("width, text", [
    (40, "Photograph the board from above, the whole frame in view"),  # "Photograph" wider than the label
    (300, "Photograph the board from above, the whole frame in view"),
    (40, "盤面を真上から撮ってください。枠全体が写るように"),
])
def test_a_label_sized_from_its_full_height_comes_to_rest(width, text):
    from kivy.core.window import Window
    from kivy.lang import Builder
    from kivy.metrics import dp

    import companion.ui.fitted_label  # noqa: F401  (registers FittedLabel for the kv rule)

    root = Builder.load_string(LAYOUT.format(width=width, text=text))
    Window.add_widget(root)
    try:
        d.settle()
        label = root.ids.help
        settled = label.height
        d.pump(5)
        assert label.height == settled, f"the label still grows: {settled} -> {label.height} px in 5 frames"
        assert not d.frame_work_pending(), "frames still have work after the layout settled"
        assert 0 < label.full_height < 600
        assert label.height == pytest.approx(label.full_height + dp(6))
    finally:
        Window.remove_widget(root)


def test_a_label_not_asked_does_not_measure_its_full_height():
    """Most labels refit on every message; the extra rendering is made only where a layout uses it."""
    from kivy.core.window import Window

    from companion.ui.fitted_label import FittedLabel

    label = FittedLabel(text="Aki takes one lumber and one grain", size_hint=(None, None), size=(200, 60))
    Window.add_widget(label)
    try:
        d.settle()
        assert label.full_height == 0
        label.measures_full_height = True
        d.settle()
        assert label.full_height > 0
    finally:
        Window.remove_widget(label)
