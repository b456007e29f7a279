"""The set-up's recorded names: they follow their players when seats are reordered, and no microphone outlives
the app (a recording still listening is ended by ``stop_all``, as the app does when it stops)."""

from __future__ import annotations

import threading
import time

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.announce.microphone import BLOCK, Microphone
from companion.ui.name_voice import SetupVoices, stop_all


class QuietRoom(Microphone):
    """A microphone in a silent room that delivers its blocks in real time (as a sound card does; ALSA's file
    plugin reads a file faster than that, so it cannot hold a recording open)."""

    name = "quiet room"

    def __init__(self) -> None:
        self.opened = threading.Event()
        self.closed = threading.Event()

    def open(self) -> None:
        self.opened.set()

    def read(self) -> np.ndarray:
        time.sleep(BLOCK / 16000)
        return np.zeros(BLOCK, np.int16)

    def close(self) -> None:
        self.closed.set()


def test_a_recording_still_listening_is_ended_with_the_app():
    room = QuietRoom()
    voices = SetupVoices(microphone=lambda: (room, None))
    voices.toggle(1)
    assert room.opened.wait(5) and voices.state(1) == "listening" and voices.listening_seat == 1
    stop_all()  # the app's shutdown
    assert room.closed.is_set(), "the microphone was left open"
    assert voices.listening_seat is None and voices.state(1) == "not_heard" and voices.recorded(4) == {}


def test_without_a_microphone_the_button_says_so_and_nothing_is_recorded():
    voices = SetupVoices(microphone=lambda: (None, "no microphone: no input device"))
    voices.toggle(0)
    assert voices.state(0) == "no_microphone" and voices.problem == "no microphone: no input device"
    assert voices.recorded(4) == {}


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(1, 5), max_size=12), st.sets(st.integers(0, 5)))
def test_recorded_names_follow_their_players_through_any_reordering(moves, recorded_seats):
    names = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi"]
    voices = SetupVoices(microphone=lambda: (None, "unused"))
    own = {name: np.full(10, i, np.int16) for i, name in enumerate(names)}  # each player's own clip
    for seat in recorded_seats:
        voices.clips[seat], voices.states[seat] = own[names[seat]], "recorded"
    for i in moves:  # the new-game screen's ↑: seat i swaps with seat i - 1
        names[i - 1], names[i] = names[i], names[i - 1]
        voices.swap(i - 1, i)
    for seat, clip in voices.recorded(6).items():
        assert np.array_equal(clip, own[names[seat]]), f"seat {seat} ({names[seat]}) has another player's name"
    assert len(voices.recorded(6)) == len(recorded_seats)
