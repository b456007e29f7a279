"""What the roll paid, in a place of fixed size (under the roll, or in the message's place while a panel is open).

In the message's place the roll comes first, on a line of its own (``heading``): lying down with Trade or Play
card open the payouts stood above "Rolled 4 (1 + 3)" and read before it (playtest s11); the roll now moves up with
them, so the place reads as the roll row does -- the roll, then who got what.

One receiver a line reads best, and holds while the lines fit in letters of ``LINES_LEAST`` or larger.  More
receivers than that (four at 5-6 players in the upright 58 dp row stood in 11 px letters and ran past it) run on
from line to line, a line breaking only between two receivers -- never inside one ("Fumi：" / "木材1", as the
phrase wrapping may break a Japanese line after its colon) -- in the largest letters that fit.
"""

from __future__ import annotations

from kivy.metrics import sp
from kivy.properties import ListProperty, StringProperty

from .fitted_label import FittedLabel

#: The least letters (sp) one receiver a line is shown in; under them the receivers run on.
LINES_LEAST = 15

#: Between two receivers on one line (a receiver's own cards are joined by commas: English takes a semicolon;
#: Japanese a full-width space).
SEPARATOR = {"en": "; ", "ja": "\u3000"}


def separator(lang: str) -> str:
    return SEPARATOR.get(lang, SEPARATOR["en"])


class PayoutsLabel(FittedLabel):
    """A :class:`FittedLabel` given ``receivers`` (one text each: "Chie: 1 lumber", a shortage, gold to choose)
    rather than a text: it lays them out one a line, or run on between receivers when that does not fit."""

    receivers = ListProperty([])
    separator = StringProperty(SEPARATOR["en"])
    heading = StringProperty("")  # a line before the receivers, always whole on its own (the roll)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(receivers=self._fit_trigger, separator=self._fit_trigger, heading=self._fit_trigger)

    def _run_on(self, items: list[str], font_size: float, width: float) -> str:
        """``items`` joined by the separator, a new line wherever the next one would not fit ``width``."""
        measure = self._measure(font_size)
        room = max(1.0, width - self.padding_x_total())
        lines: list[str] = []
        for item in items:
            joined = f"{lines[-1]}{self.separator}{item}" if lines else item
            if lines and measure(joined) <= room:
                lines[-1] = joined
            else:
                lines.append(item)
        return "\n".join(lines)

    def _fit(self, *_) -> None:
        width = max(1.0, self.width)
        self.text_size = (width, None)
        items = [r for r in self.receivers if r]
        head = f"{self.heading}\n" if self.heading and items else ""
        one_a_line = head + "\n".join(items)
        if not items:
            self.text, self.font_size = "", self.max_font_size
            return
        size = self.max_font_size
        while size >= sp(LINES_LEAST) - 0.1:
            if self._fits(size, width, one_a_line):
                self.text, self.font_size = one_a_line, size
                return
            size -= sp(1)
        size = self.max_font_size
        while True:
            text = head + self._run_on(items, size, width)
            if size <= self.min_font_size or self._fits(size, width, text):
                self.text, self.font_size = text, size
                return
            size = max(self.min_font_size, size - sp(1))
