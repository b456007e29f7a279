"""The set-up's "Say your name" button: each player may record their name, said in the place of their colour.

One :class:`SetupVoices` per new-game screen keeps the clips recorded so far, seat by seat (they move with
the player when seats are reordered, :meth:`SetupVoices.swap`), and at most one recording at a time: a tap
starts one, a second tap ends it early (it also ends itself once the player has spoken and fallen quiet).
The recording runs on its own thread; its result reaches the screen through ``Clock.schedule_once``.
Without a microphone the button says so and the player is said by colour.  :func:`stop_all` ends any
recording still listening (the app calls it when it stops: no input stream outlives the app).
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import TYPE_CHECKING, Callable

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.uix.button import Button

from . import i18n

if TYPE_CHECKING:  # the microphone part (numpy, PortAudio) loads at the first tap, not with the start screen
    import numpy as np

    from ..announce.microphone import NameRecording

log = logging.getLogger(__name__)

TEXT: dict[str, dict[str, str]] = {
    "say_name": {"en": "Say your name", "ja": "名前を録音"},
    "name_listening": {"en": "Listening… tap to stop", "ja": "録音中…タップで終了"},
    "name_recorded": {"en": "Name recorded (again?)", "ja": "録音済み（録り直す）"},  # (no ✓: not in the font)
    "name_not_heard": {"en": "Not heard: try again", "ja": "聞こえませんでした"},
    "no_microphone": {"en": "No microphone", "ja": "マイクがありません"},
}
for _key, _entry in TEXT.items():  # merged into the app's table (its own keys win), as i18n_extra does
    i18n.TEXT.setdefault(_key, _entry)

_live: "weakref.WeakSet[SetupVoices]" = weakref.WeakSet()


def stop_all() -> None:
    """End every recording still listening and wait for its microphone to close."""
    for voices in list(_live):
        voices.stop()


class SetupVoices:
    """The names recorded at set-up: seat → clip, and the one recording in progress, if any.

    ``microphone``: a name from :data:`~companion.announce.microphone.MICROPHONES` (``"auto"``), or a callable
    returning ``(Microphone or None, problem)``."""

    def __init__(self, microphone: str | Callable = "auto"):
        self.clips: dict[int, np.ndarray] = {}
        self.states: dict[int, str] = {}   # seat → "listening", "recorded", "not_heard", "no_microphone"
        self.problem: str | None = None    # why the last recording gave nothing (for a log or a details view)
        self.listening_seat: int | None = None
        self._microphone = microphone
        self._recording: NameRecording | None = None
        self._result: tuple | None = None  # (seat, clip, problem) handed over by the recording's thread
        self._lock = threading.Lock()
        self._views: dict[int, Callable[[], None]] = {}  # seat → its button's refresh (rows are rebuilt)
        _live.add(self)

    def show_on(self, seat: int, refresh: Callable[[], None]) -> None:
        """``refresh()`` redraws seat ``seat``'s button after every change (replacing the button built before)."""
        self._views[seat] = refresh

    def _changed(self) -> None:
        for refresh in list(self._views.values()):
            refresh()

    def state(self, seat: int) -> str:
        return self.states.get(seat, "")

    def toggle(self, seat: int) -> None:
        """A tap on seat ``seat``'s button: start listening, or (while it listens) stop and keep what was said."""
        if self.listening_seat == seat:
            self.stop()
            return
        self.stop()  # one microphone, one player at a time
        from ..announce.microphone import NameRecording, open_microphone

        opener = self._microphone if callable(self._microphone) else (lambda: open_microphone(self._microphone))
        microphone, problem = opener()
        if microphone is None:
            self.problem = problem
            self.states[seat] = "no_microphone"
            log.warning("no microphone for the players' names: %s", problem)
            self._changed()
            return
        self.listening_seat = seat
        self.states[seat] = "listening"
        self._changed()
        self._recording = NameRecording(microphone, lambda clip, why: self._arrived(seat, clip, why))

    def _arrived(self, seat: int, clip: np.ndarray | None, problem: str | None) -> None:
        """A recording ended (its own thread): the screen takes the result in the next frame, or at once when
        :meth:`stop` was waiting for it."""
        with self._lock:
            self._result = (seat, clip, problem)
        Clock.schedule_once(lambda dt: self._take_result())

    def _take_result(self) -> None:
        with self._lock:
            result, self._result = self._result, None
        if result is not None:
            self._heard(*result)

    def _heard(self, seat: int, clip: np.ndarray | None, problem: str | None) -> None:
        """A recording ended (main thread)."""
        if self.listening_seat == seat:
            self.listening_seat, self._recording = None, None
        if clip is not None:
            self.clips[seat] = clip
            self.states[seat] = "recorded"
        else:
            self.problem = problem
            self.states[seat] = "no_microphone" if problem and problem != "nothing was heard" else "not_heard"
            if seat in self.clips:  # an earlier recording of this name stays
                self.states[seat] = "recorded"
        self._changed()

    def stop(self) -> None:
        """End the recording in progress (its result still arrives) and wait for the microphone to close."""
        recording, self._recording = self._recording, None
        if recording is not None:
            recording.stop()
            self._take_result()  # what was said so far counts now, not a frame later

    def swap(self, a: int, b: int) -> None:
        """Seats ``a`` and ``b`` changed places: their names go with them."""
        for table in (self.clips, self.states):
            first, second = table.pop(a, None), table.pop(b, None)
            if second is not None:
                table[a] = second
            if first is not None:
                table[b] = first

    def recorded(self, players: int) -> dict[int, np.ndarray]:
        """The clips of the first ``players`` seats (a table made smaller leaves the others out)."""
        return {seat: clip for seat, clip in self.clips.items() if seat < players}

    def clear(self) -> None:
        self.stop()
        self.clips.clear()
        self.states.clear()


def say_name_button(voices: SetupVoices, seat: int, tr: Callable[[str], str]) -> Button:
    """The small button beside a player's name: its text says what the microphone is doing for this seat."""
    button = Button(size_hint_x=None, width=dp(150), font_size=sp(15), halign="center", valign="middle")
    button.bind(size=lambda b, size: setattr(b, "text_size", (size[0] - dp(8), None)))

    def show() -> None:
        state = voices.state(seat)
        key = {"listening": "name_listening", "recorded": "name_recorded", "not_heard": "name_not_heard",
               "no_microphone": "no_microphone"}.get(state, "say_name")
        button.text = tr(key)
        button.background_color = (0.85, 0.25, 0.2, 1) if state == "listening" else (1, 1, 1, 1)

    show()
    voices.show_on(seat, show)
    button.bind(on_release=lambda _b: voices.toggle(seat))
    return button
