"""A text in a box of fixed size: the words shrink to fit, the box never grows.

Messages, payouts and prompts change all game long; a label that grows with its text pushes the buttons
below it away from the finger aiming at them.  A :class:`FittedLabel` keeps the size its layout gives it
and sets its font size to the largest (from ``max_font_size`` down to ``min_font_size``) at which the
text, wrapped at spaces, fits the box; the words are never cut.
"""

from __future__ import annotations

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import sp
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label

from .wrapping import PhraseWrap, has_cjk, longest_piece, wrap


class FittedLabel(PhraseWrap, Label):
    """A label whose text shrinks to fit its (fixed) size; ``text_size`` follows the width; lines break between
    words (Japanese between phrases, :mod:`.wrapping`)."""

    shrink_to_fit_words = False  # the fit below sizes the font for the words and the lines together

    max_font_size = NumericProperty(0)  # 0: sp(18) at the density of the moment the label is made
    min_font_size = NumericProperty(0)  # 0: sp(11)
    # the height the text takes at ``max_font_size`` at the label's width: a layout that can spare the room gives
    # it (``size_hint_max_y: self.full_height``), one that cannot gets smaller letters.  Measured only where a
    # layout asks for it (``measures_full_height: True``): it costs one more rendering of the text per fit, and
    # most of the app's labels refit on every message
    full_height = NumericProperty(0)
    measures_full_height = BooleanProperty(False)

    def __init__(self, **kwargs):
        self._fit_trigger = Clock.create_trigger(self._fit, -1)
        super().__init__(**kwargs)
        self.max_font_size = self.max_font_size or sp(18)
        self.min_font_size = self.min_font_size or sp(11)
        self.bind(text=self._fit_trigger, size=self._fit_trigger, max_font_size=self._fit_trigger,
                  min_font_size=self._fit_trigger, font_name=self._fit_trigger, markup=self._fit_trigger,
                  measures_full_height=self._fit_trigger)
        self._fit_trigger()

    def _text_size(self, font_size: float, width: float, text: str | None = None, *,
                   whole_words: bool = True) -> tuple[float, float] | None:
        """The size ``text`` (the label's own when None) takes at ``font_size`` wrapped at ``width`` px, or None
        when a word or phrase is wider than that and would be cut (``whole_words``; else the size as cut)."""
        text = self.text if text is None else text
        if not self.markup:
            measure = self._measure(font_size)
            room = max(1.0, width - self.padding_x_total())
            if whole_words and measure(longest_piece(text)) > room:
                return None
            if has_cjk(text):
                text = wrap(text, room, measure)
        core = CoreLabel(text=text, font_size=font_size, font_name=self.font_name, markup=self.markup,
                         bold=self.bold, text_size=(width, None), halign=self.halign,
                         padding=(self.padding[0], self.padding[1]) if len(self.padding) >= 2 else (0, 0))
        core.refresh()
        return core.texture.size if core.texture is not None else (0, 0)

    def _fits(self, font_size: float, width: float, text: str | None = None) -> bool:
        """Whether ``text`` (the label's own when None) fits the box at ``font_size``, ``width`` px wide."""
        size = self._text_size(font_size, width, text)
        return size is not None and size[1] <= self.height + 0.5 and size[0] <= width + 2

    def _fit(self, *_) -> None:
        width = max(1.0, self.width)
        self.text_size = (width, None)
        if not self.text.strip():
            self.font_size = self.max_font_size
            self.full_height = 0
            return
        # (never from the label's own height: a layout that sets the height from full_height -- Scan the board's
        # help upright -- then grew it by a step every frame while a phrase was wider than the label, a screen
        # laid out narrow before it is shown, and every frame of the app refitted it)
        if self.measures_full_height:
            self.full_height = self._text_size(self.max_font_size, width, whole_words=False)[1] + 1
        size = self.max_font_size
        while size > self.min_font_size and not self._fits(size, width):
            size = max(self.min_font_size, size - sp(1))
        self.font_size = size


class Hideable:
    """A panel that can be hidden (``shown`` False: no height, no opacity) without its children catching touches.

    Kivy hands a touch to every child whatever its parent's size, so the buttons of a panel collapsed to no height
    still sit, invisible, over whatever is drawn where they were laid out -- and take the taps aimed at it (a hidden
    die under "Record anyway").  A hidden panel passes touches by."""

    shown = BooleanProperty(True)

    def on_touch_down(self, touch):
        return super().on_touch_down(touch) if self.shown else False

    def on_touch_move(self, touch):
        return super().on_touch_move(touch) if self.shown else False

    def on_touch_up(self, touch):
        return super().on_touch_up(touch) if self.shown else False


class HideableBox(Hideable, BoxLayout):
    """A BoxLayout that, hidden, lets touches through (see :class:`Hideable`)."""


class HideableGrid(Hideable, GridLayout):
    """A GridLayout that, hidden, lets touches through (see :class:`Hideable`)."""
