"""The announcer: listens to outcomes and device notices, captions them, and speaks them in turn.

One worker thread takes announcements from a priority queue and hands each to the player, which
blocks until it has finished; so nothing overlaps.  Rules at a table where the dice do not wait:

- a new roll makes every roll-level announcement stale: the queued ones are dropped and the one
  being spoken is cut (a listener wants this roll, not the end of the last one);
- device notices (dice box unplugged, roll again) are urgent: they go before queued news and a new
  roll does not drop them;
- muted, an announcement is captioned and not spoken; volume and language apply from the next phrase.

With no audio device the announcer goes on with the null player and reports the problem once to
its problem listeners (``audio_problem`` holds it for a UI that asks later).  Caption listeners
receive every announcement on the publishing thread; a Kivy UI hands it on with ``@mainthread``.
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

import numpy as np

from ..rules.outcome import Outcome
from .clips import ClipError, library
from .name_voices import render_phrase
from .phrases import (Phrase, check_colors, check_language, check_names, phrase_for_batch, phrase_for_notice,
                      phrase_for_outcome, phrase_for_reading, phrase_for_reroll)
from .players import AudioUnavailable, NullPlayer, Player, open_player

log = logging.getLogger(__name__)

URGENT, NEWS = 0, 1

#: What the screen says, once, when announcements cannot be heard (``Announcer.audio_notice``).
NO_SOUND_NOTICE = {"en": "No audio device: announcements are shown as captions only.",
                   "ja": "音声を出力できません。アナウンスは字幕でのみ表示します。"}


@dataclass(eq=False)
class Announcement:
    """One thing to say, and what became of it (``status``: queued, playing, played, cut,
    superseded, muted, silent when the null player took it)."""

    phrase: Phrase
    priority: int
    source: str  # "outcome" or the notice's name
    event_index: int | None = None
    published_at: float = field(default_factory=time.perf_counter)
    first_sample_at: float | None = None
    status: str = "queued"

    @property
    def caption(self) -> str:
        return self.phrase.caption

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.phrase.tokens

    @property
    def latency(self) -> float | None:
        """Seconds from publication to the first sample handed to the audio system."""
        return None if self.first_sample_at is None else self.first_sample_at - self.published_at


class Announcer:
    """Speaks outcomes for the players seated with ``colors`` (seat order), by their ``names`` in the captions
    and by the ``voices`` they recorded where they did."""

    def __init__(self, colors: Sequence[str], lang: str = "en", player: Player | str = "auto",
                 volume: float = 1.0, muted: bool = False, history: int = 100,
                 names: Sequence[str | None] | None = None, voices: Mapping[int, np.ndarray] | None = None):
        self.colors = check_colors(colors)
        #: The players' typed names (captions say them; None: a player shown by colour) and the names they
        #: recorded, seat → int16 clip (said in the place of the colour; a player without one is said by colour).
        self.names = check_names(names, self.colors)
        self.voices: dict[int, np.ndarray] = dict(voices or {})
        for seat, clip in self.voices.items():
            if not (isinstance(seat, int) and 0 <= seat < len(self.colors)) or getattr(clip, "dtype", None) != np.int16:
                raise ValueError(f"voices: seat {seat!r} needs a seat of the {len(self.colors)} players and int16 "
                                 f"samples")
        self._lang = check_language(lang)
        self._volume = _check_volume(volume)
        self._muted = bool(muted)
        problem = None
        if isinstance(player, str):
            player, problem = open_player(player)
        self._player = player
        self.audio_problem: str | None = None
        self.captions: deque[Announcement] = deque(maxlen=history)
        self._caption_listeners: list[Callable[[Announcement], None]] = []
        self._problem_listeners: list[Callable[[str], None]] = []
        self._queue: list[tuple[int, int, Announcement]] = []
        self._order = itertools.count()
        self._current: tuple[Announcement, threading.Event] | None = None
        self._lock = threading.Condition()
        self._closed = False
        if problem:
            self._report_problem(problem)
        else:
            # The device is tried here, not on the worker: a screen that shows "no sound" lays itself out
            # once, before the first tap, instead of moving the board a moment into the game (milliseconds).
            try:
                self._player.prepare()
            except AudioUnavailable as error:
                self._fail(str(error))
        self._worker = threading.Thread(target=self._run, name="announcer", daemon=True)
        self._worker.start()

    # -- settings ---------------------------------------------------------------------------------

    @property
    def player_name(self) -> str:
        return self._player.name

    @property
    def language(self) -> str:
        return self._lang

    @language.setter
    def language(self, lang: str) -> None:
        self._lang = check_language(lang)
        # Load the new language's clips now, not when its first phrase is waiting to be said.
        threading.Thread(target=self._preload, args=(lang,), name="announcer-clips", daemon=True).start()

    def _preload(self, lang: str) -> None:
        try:
            library(lang)
        except ClipError as error:  # the worker meets it again at the next phrase and reports it there
            log.warning("voice clips unavailable: %s", error)

    @property
    def volume(self) -> float:
        return self._volume

    @volume.setter
    def volume(self, volume: float) -> None:
        self._volume = _check_volume(volume)

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, muted: bool) -> None:
        self._muted = bool(muted)
        if muted:
            with self._lock:
                self._drop_queued(lambda a: True, "muted")
                if self._current is not None:
                    self._current[1].set()

    def forget_from(self, event_index: int) -> None:
        """The events from ``event_index`` on were undone: what they meant is not said any more (queued phrases
        dropped, one being said cut short) -- a table that took back a rob should not hear it go on."""
        def undone(a: Announcement) -> bool:
            return a.event_index is not None and a.event_index >= event_index

        with self._lock:
            self._drop_queued(undone, "undone")
            if self._current is not None and undone(self._current[0]):
                self._current[1].set()

    @property
    def audio_notice(self) -> str | None:
        """The one-line notice for the screen, in the current language, when there is no sound; else None.
        (``audio_problem`` has the technical reason, for a log or a details view.)"""
        return NO_SOUND_NOTICE[self._lang] if self.audio_problem else None

    # -- listeners --------------------------------------------------------------------------------

    def add_caption_listener(self, listener: Callable[[Announcement], None]) -> None:
        self._caption_listeners.append(listener)

    def add_problem_listener(self, listener: Callable[[str], None]) -> None:
        """Called once with a sentence when sound cannot be played (at once if that is already known)."""
        self._problem_listeners.append(listener)
        if self.audio_problem:
            listener(self.audio_problem)

    # -- input ------------------------------------------------------------------------------------

    def on_outcome(self, outcome: Outcome, faces: bool = False,
                   given_back: dict[int, dict[str, int]] | None = None,
                   event: dict | None = None) -> Announcement | None:
        """Announce what an event meant; None when it changed nothing worth saying.  ``faces``: say a roll's
        two faces too (a roll the camera read); ``given_back``: what the roll it replaced paid out, said first;
        ``event``: the record's event, so a trade is said with its cards (:func:`~.phrases.phrase_for_outcome`)."""
        published = time.perf_counter()
        phrase = phrase_for_outcome(outcome, self.colors, self._lang, faces, given_back, self.names, event)
        if phrase is None:
            return None
        announcement = Announcement(phrase, URGENT if outcome.winner is not None else NEWS, "outcome",
                                    outcome.index, published)
        return self._publish(announcement, supersede=outcome.kind == "roll")

    def on_reading(self, dice) -> Announcement:
        """Say the faces of a camera's reading that waits for a player's OK (news: a roll after it cuts it)."""
        published = time.perf_counter()
        return self._publish(Announcement(phrase_for_reading(dice, self._lang), NEWS, "reading", None, published),
                             supersede=True)

    def on_notice(self, notice: str) -> Announcement:
        """Announce a hardware notice: one of :data:`~.phrases.NOTICES` (the box or the camera lost or back, a
        request to roll again)."""
        published = time.perf_counter()
        return self._publish(Announcement(phrase_for_notice(notice, self._lang), URGENT, notice, None, published),
                             supersede=False)

    def on_batch(self, recorded: int, not_recorded: int, event_index: int) -> Announcement:
        """Say in one line what one tap recorded (Check the board's "Add the N sure ones", whose events start at
        ``event_index``; what they meant one by one is dropped first with :meth:`forget_from`): "Forty eight
        pieces recorded." (:func:`~.phrases.phrase_for_batch`).  News; taking the batch back drops it too."""
        published = time.perf_counter()
        phrase = phrase_for_batch(recorded, not_recorded, self._lang)
        return self._publish(Announcement(phrase, NEWS, "batch", event_index, published), supersede=False)

    def on_reroll(self, reason: str = "", params: dict | None = None) -> Announcement:
        """Ask the table to roll again, saying why when the camera said (:func:`~.phrases.phrase_for_reroll`);
        urgent, like a device notice."""
        published = time.perf_counter()
        phrase = phrase_for_reroll(reason, params or {}, self._lang)
        return self._publish(Announcement(phrase, URGENT, "camera_reroll", None, published), supersede=False)

    def _publish(self, announcement: Announcement, supersede: bool) -> Announcement:
        with self._lock:
            if self._closed:
                raise RuntimeError("the announcer is closed")
            if supersede:
                self._drop_queued(lambda a: a.priority >= NEWS, "superseded")
                if self._current is not None and self._current[0].priority >= NEWS:
                    self._current[1].set()
            if self._muted:
                announcement.status = "muted"
            else:
                heapq.heappush(self._queue, (announcement.priority, next(self._order), announcement))
                self._lock.notify_all()
        self.captions.append(announcement)
        for listener in list(self._caption_listeners):
            try:
                listener(announcement)
            except Exception:  # a broken screen must not silence the table
                log.exception("caption listener failed")
        return announcement

    def _drop_queued(self, which: Callable[[Announcement], bool], status: str) -> None:
        kept = []
        for item in self._queue:
            if which(item[2]):
                item[2].status = status
            else:
                kept.append(item)
        heapq.heapify(kept)
        self._queue = kept

    # -- the worker -------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            library(self._lang)  # load the clips before the first roll, not during it
        except ClipError as error:
            self._fail(f"voice clips unavailable: {error}")
        while True:
            with self._lock:
                while not self._queue and not self._closed:
                    self._lock.wait()
                if self._closed and not self._queue:
                    return
                _, _, announcement = heapq.heappop(self._queue)
                cancel = threading.Event()
                self._current = (announcement, cancel)
                announcement.status = "playing"
            self._speak(announcement, cancel)
            with self._lock:
                self._current = None
                self._lock.notify_all()

    def _speak(self, announcement: Announcement, cancel: threading.Event) -> None:
        def started() -> None:
            announcement.first_sample_at = time.perf_counter()

        try:
            samples = render_phrase(library(announcement.phrase.lang), announcement.tokens, self.voices)
            finished = self._player.play(announcement, samples, self._volume, cancel, started)
        except (AudioUnavailable, ClipError) as error:
            self._fail(str(error))
            finished = True
        if isinstance(self._player, NullPlayer):
            announcement.status = "silent"
        else:
            announcement.status = "played" if finished else "cut"

    def _fail(self, problem: str) -> None:
        log.warning("announcements continue as captions only: %s", problem)
        if not isinstance(self._player, NullPlayer):
            self._player.close()
            self._player = NullPlayer()
        self._report_problem(problem)

    def _report_problem(self, problem: str) -> None:
        if self.audio_problem:
            return  # said once; the screen already shows it
        self.audio_problem = problem
        for listener in list(self._problem_listeners):
            try:
                listener(problem)
            except Exception:
                log.exception("problem listener failed")

    # -- lifetime ---------------------------------------------------------------------------------

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until everything queued has been spoken; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._queue or self._current is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._lock.wait(remaining)
        return True

    def close(self, timeout: float = 5.0) -> None:
        """Stop after the current phrase (queued ones are dropped) and release the audio device."""
        with self._lock:
            self._closed = True
            self._drop_queued(lambda a: True, "superseded")
            if self._current is not None:
                self._current[1].set()
            self._lock.notify_all()
        self._worker.join(timeout)
        self._player.close()


def _check_volume(volume: float) -> float:
    volume = float(volume)
    if not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume must be between 0.0 and 1.0, got {volume}")
    return volume
