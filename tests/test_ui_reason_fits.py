"""A reason under a build button's name that is one phrase wider than the button is set smaller, not cut.

Seen by touch (session 7, Japanese): 「カードなし」 under 「カードを使う」 in a button 60 px wide was cut
「カードな|し」: a reason is laid out at its own smaller size and broken only between phrases, and a single phrase
wider than the button had nowhere to break.  Real widgets under Xvfb: the play panel's own button text."""

from __future__ import annotations

import pytest
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout

from companion.rules.refusals import Refusal
from companion.ui import driver as d
from companion.ui.play_panels import _button_text
from companion.ui.widgets import BigToggle
from companion.ui.wrapping import broken_words

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("lang,width", [("ja", 60), ("ja", 52), ("en", 60)])
def test_a_one_phrase_reason_fits_a_narrow_button(tmp_path, lang, width):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.lang = lang
        play = app.root.get_screen("start")
        text = _button_text(app, app.tr("play_card"), Refusal("dev_none_to_play"))
        row = BoxLayout(size_hint=(None, None), size=(dp(width) * 2 + dp(6), dp(64)), spacing=dp(6),
                        pos=(10, 400))
        button = BigToggle(text=text, markup=True, height=dp(64))
        row.add_widget(button)
        row.add_widget(BigToggle(text="x", height=dp(64)))
        play.add_widget(row)
        d.settle()
        assert abs(button.width - dp(width)) < 1
        assert broken_words(button, japanese_in_markup=True) == [], (button._label.text, button.width)
        lines = ["".join(w.text for w in line.words) for line in button._label._cached_lines]
        assert app.tr("why_short_dev_none_to_play") in lines, lines  # the reason whole on its own line
        assert button.texture_size[0] <= button.width + 2, (button._label.text, button.texture_size, button.width)
    finally:
        d.stop_app(app)
