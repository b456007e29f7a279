"""What the app's screens share: the running app, finger-sized buttons, a spot's interchange name, and the
loading of a screen's kv rules after the shared ones (``companion.kv``).  Imports no screen.

Each screen is a module of its own (``start_screen``, ``new_game_screen``, ``board_editor_screen``,
``play_screen``, ``statistics_screen``, ``settings_screen``) with its layout in a kv file beside it, loaded by
the module through :func:`load_rules`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.screenmanager import ScreenManager
from kivy.uix.togglebutton import ToggleButton

from .fitted_label import FittedLabel  # noqa: F401  (CheckRow's words, in companion.kv)
from .wrapping import PhraseWrap

HERE = Path(__file__).resolve().parent
#: The rules every screen uses (the default label size, BigButton, BigToggle, headings, the screens' background).
SHARED_KV = HERE / "companion.kv"


def app() -> Any:
    return App.get_running_app()


def as_json(spot) -> list:
    """An interchange name (vertex, edge or hex) as JSON lists."""
    if isinstance(spot[0], tuple):
        return [list(h) for h in spot]
    return list(spot)


def load_rules(kv_name: str | None = None) -> None:
    """Load the shared kv rules, then ``kv_name`` (a file beside this module), each once per process.

    Once: a second app in the same process (a restart, the tests) would otherwise get every rule twice and draw
    each widget twice.  Shared first: of two class rules for one widget the one loaded later wins, so a
    screen's own rule (a smaller PlayerTag font) must come after the shared ``<Label>`` rule."""
    for path in (SHARED_KV, HERE / kv_name) if kv_name else (SHARED_KV,):
        if str(path) not in Builder.files:
            Builder.load_file(str(path))


def lay_out_now(panel) -> None:
    """Place a panel's widgets at once, where Kivy would in the next frame.

    A tap's refresh builds the action panel anew ("+" changes a count, and the rows are made again); the new
    widgets stand at (0, 0) until the next frame lays them out, and a tap read before then pressed nothing.  A
    loaded tablet reads several taps between two frames: four quick taps on a "+" counted once."""
    from kivy.uix.layout import Layout
    from kivy.uix.scrollview import ScrollView

    for _ in range(2):  # its height follows its minimum height (kv): the second pass places the rows in it
        panel.do_layout()
    if isinstance(panel.parent, ScrollView):
        panel.parent.update_from_scroll()  # the list's offset for the new height
    stack = list(panel.children)
    while stack:  # each layout before the layouts inside it, which fit into the place it gave them
        widget = stack.pop()
        if isinstance(widget, Layout):
            widget.do_layout()
        stack.extend(widget.children)


class BigButton(PhraseWrap, Button):
    """A button sized for a finger across the table (its look is in companion.kv); a long word gets smaller
    letters rather than being cut, Japanese breaks between phrases (wrapping.py)."""


class BigToggle(PhraseWrap, ToggleButton):
    """A toggle sized for a finger across the table (its look is in companion.kv), its words kept whole."""


class TapSafeScreens(ScreenManager):
    """The app's screens, which drop the second tap of a double tap when the screen changed between its two taps.

    A finger that double-taps a button (Start, New game, a habit from a computer's mouse) sends its second tap to
    whatever the first one opened: upright, the set-up board appears under New game's Start and the second tap
    placed a settlement.  Kivy marks such a touch (``is_double_tap``, ``double_tap_time``: the seconds since the
    first); when the screen changed in between, that touch was meant for the screen before and goes nowhere.  A
    double tap on one screen (``+`` tapped twice quickly) counts as before.

    Likewise a touch read in the frame that changed the screen or the next one: the window reads touches between
    frames, so it came down before the new screen was drawn.  On a slow frame (a loaded tablet building the play
    screen: 2 s) a player who saw Resume do nothing tapped again, and that tap landed on the board under it."""

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.switched_at = 0.0  # when the screen last changed, on the clock of a touch's ``time_start``
        self.switched_in_frame = -2  # the clock's frame count then
        self.bind(current=self._note_switch)

    def _note_switch(self, *_args) -> None:
        self.switched_at = time.time()
        self.switched_in_frame = Clock.frames

    def shown(self) -> bool:
        """Whether the current screen has been on the window for a whole frame (a finger could have seen it)."""
        return Clock.frames > self.switched_in_frame + 1

    def on_touch_down(self, touch):
        if getattr(touch, "is_double_tap", False) and \
                touch.time_start - touch.double_tap_time <= self.switched_at <= touch.time_start:
            return True  # the first tap changed the screen: this one was aimed at the screen that went
        if not self.shown():
            return True  # down before the new screen was drawn: aimed at the screen that went
        return super().on_touch_down(touch)


class CheckRow(ButtonBehavior, BoxLayout):
    """An option that is on or off: a box drawn a finger's size and its words, one touch target (its look is in
    companion.kv).  Kivy's CheckBox drew a 32 px box, and the words beside it took no tap: a player aiming at
    "No 6 next to 8" changed nothing.  A tap anywhere on the row ticks or clears the box (``active``)."""

    active = BooleanProperty(False)
    text = StringProperty("")
    max_font_size = NumericProperty(0)  # 0: sp(18), as a FittedLabel

    def on_release(self) -> None:
        self.active = not self.active
