"""Statistics: the rolls so far against two fair dice (a histogram and Pearson's chi-squared), what each player
received, and the camera's photos the journal keeps (its layout is ``statistics.kv``)."""

from __future__ import annotations

import math

from kivy.metrics import dp, sp
from kivy.properties import DictProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from .camera_picture import CameraRollButton, camera_rolls, faces_text, open_roll_photo, photo_texture, roll_events
from .i18n import cards_text
from .widgets import app, load_rules

load_rules("statistics.kv")

EXPECTED = {n: (6 - abs(7 - n)) / 36 for n in range(2, 13)}


def chi_squared(counts: dict[int, int]) -> tuple[float, float]:
    """Pearson's chi-squared of roll totals against two fair dice, and its p-value (10 d.f.).

    For an even number of degrees of freedom the survival function has a closed form:
    Q = exp(-x/2) · Σ_{i<5} (x/2)^i / i!.
    """
    n = sum(counts.values())
    chi = sum((counts.get(k, 0) - n * p) ** 2 / (n * p) for k, p in EXPECTED.items())
    return chi, chi2_sf_10(chi)


def chi2_sf_10(x: float) -> float:
    """P(X >= x) for a chi-squared variable with 10 degrees of freedom (closed form, even d.f.)."""
    half = x / 2
    return math.exp(-half) * sum(half ** i / math.factorial(i) for i in range(5))


class Histogram(Widget):
    is_picture = True  # texts and controls must not lie over it (driver.layout_problems)

    counts = DictProperty({})

    def on_counts(self, *_):
        self.redraw()

    def on_size(self, *_):
        self.redraw()

    def on_pos(self, *_):
        self.redraw()

    def redraw(self) -> None:
        from kivy.core.text import Label as CoreLabel
        from kivy.graphics import Color, Line, Rectangle

        self.canvas.clear()
        n = sum(self.counts.values())
        top = max([self.counts.get(k, 0) for k in range(2, 13)] + [n * max(EXPECTED.values()), 1])
        w = self.width / 11
        base = self.y + dp(28)
        height = self.height - dp(36)
        with self.canvas:
            for i, k in enumerate(range(2, 13)):
                x = self.x + i * w
                Color(0.3, 0.6, 0.95, 1)
                Rectangle(pos=(x + w * 0.15, base), size=(w * 0.7, height * self.counts.get(k, 0) / top))
                label = CoreLabel(text=str(k), font_size=sp(16))
                label.refresh()
                Color(1, 1, 1, 1)
                Rectangle(texture=label.texture, size=label.texture.size,
                          pos=(x + w / 2 - label.texture.width / 2, self.y + dp(4)))
            Color(1, 0.8, 0.2, 1)
            points = []
            for i, k in enumerate(range(2, 13)):
                points += [self.x + i * w + w / 2, base + height * n * EXPECTED[k] / top]
            Line(points=points, width=2)


#: Statistics offers "Camera rolls wait for OK" once at least this share of the camera's rolls were put right.
CAMERA_ADVICE_SHARE = 0.05


class StatisticsScreen(Screen):
    summary = StringProperty("")
    production = StringProperty("")
    camera_rolls_text = StringProperty("")  # "" when no roll has a camera photo: the row is hidden
    camera_accuracy = StringProperty("")  # "Rolls the camera read: N; put right by hand: M." ("" without a camera)

    def __init__(self, **kw):
        super().__init__(name="statistics", **kw)

    def refresh(self) -> None:
        a = app()
        t = a.table
        counts: dict[int, int] = {}
        produced: dict[int, dict[str, int]] = {}
        if t is not None:
            for event in t.record.events:
                if event.get("type") == "roll":
                    k = sum(event["dice"])
                    counts[k] = counts.get(k, 0) + 1
            for o in t.game.outcomes:
                if o.kind in ("roll", "gold"):
                    for p, cards in o.payouts.items():
                        mine = produced.setdefault(p, {})
                        for r, n in cards.items():
                            mine[r] = mine.get(r, 0) + n
        self.ids.histogram.counts = counts
        n = sum(counts.values())
        lines = [a.tr("rolls_n", n=n)]
        if n >= 36:
            chi, p = chi_squared(counts)
            lines.append(a.tr("fairness", chi=chi, p=p))
        else:
            lines.append(a.tr("too_few_rolls", n=n))
        self.summary = "\n".join(lines)
        if t is not None:
            self.production = "\n".join(
                f"{a.player_name(p)}: {cards_text(produced.get(p, {}), a.lang) or '—'}"
                for p in range(len(t.record.players)))
        else:
            self.production = ""
        self._list_camera_rolls()

    def _list_camera_rolls(self) -> None:
        """How often the camera was put right by hand, and one button per photo the journal keeps: first the
        camera's misreads that the players put right (undone, entered by hand), then its rolls in the record,
        newest first; a tap shows the photo (a roll disputed later in the game, or by a tournament umpire)."""
        a, row = app(), self.ids.camera_rolls
        row.clear_widgets()
        t = a.table
        if t is None:
            self.camera_rolls_text = self.camera_accuracy = ""
            return
        photo_ids = t.journal.roll_photo_ids(t.game_id)
        rolls = camera_rolls(t.game, photo_ids)
        fixed = t.journal.roll_corrections(t.game_id)
        read = sum(1 for e in roll_events(t.game) if e.get("source") == "camera") + len(fixed)
        self.camera_accuracy = a.tr("camera_accuracy", read=read, fixed=len(fixed)) if read else ""
        if fixed and len(fixed) >= CAMERA_ADVICE_SHARE * read and not a.settings.confirm_camera:
            self.camera_accuracy += a.tr("camera_advice")  # misreads reach this table often: offer the check
        shown = [(a.tr("camera_misread_button", read=faces_text(r), entered=faces_text(e)), roll_id,
                  a.tr("misread_photo", read=faces_text(r), entered=faces_text(e)))
                 for roll_id, r, e in reversed(fixed) if roll_id in photo_ids]
        for number, event in reversed(rolls):
            dice = faces_text(event["dice"])
            shown.append((a.tr("camera_roll_button", n=number, total=sum(event["dice"]), dice=dice),
                          event["roll_id"], a.tr("roll_photo", dice=dice)))
        self.camera_rolls_text = a.tr("camera_rolls", n=len(shown)) if shown else ""
        for text, roll_id, caption in shown:
            kept = t.journal.dice_picture(t.game_id, roll_id)
            button = CameraRollButton(text=text, picture=photo_texture(kept) if kept is not None else None)
            button.bind(on_release=lambda _b, r=roll_id, c=caption: open_roll_photo(
                a.table.journal.roll_photo(a.table.game_id, r), c))
            row.add_widget(button)
