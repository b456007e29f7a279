"""Audio players behind one interface: sounddevice, Kivy's SoundLoader, null, and recording (tests).

A player plays one phrase at a time, blocking the announcer's worker thread until the phrase ends or
``cancel`` is set, so nothing ever overlaps.  ``started()`` is called once the first samples have been
handed to the audio system (that moment is what the latency bench measures).  A player that loses
its device raises :class:`AudioUnavailable`; the announcer then falls back to the null player.
"""

from __future__ import annotations

import os
import tempfile
import threading
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from .clips import RATE


class AudioUnavailable(RuntimeError):
    """No sound can be played (no device, no PortAudio, device gone); the message says which."""


class Player:
    """Plays int16 mono samples at :data:`~companion.announce.clips.RATE`."""

    name = "player"

    def play(self, announcement, samples: np.ndarray, volume: float, cancel: threading.Event,
             started: Callable[[], None]) -> bool:
        """Play to the end (True) or until ``cancel`` is set (False)."""
        raise NotImplementedError

    def prepare(self) -> None:
        """Get the device ready before the first phrase (raises :class:`AudioUnavailable`); optional."""

    def close(self) -> None:
        pass


def scaled(samples: np.ndarray, volume: float) -> np.ndarray:
    if volume >= 1.0:
        return samples
    return (samples.astype(np.float32) * volume).astype(np.int16)


class NullPlayer(Player):
    """Plays nothing, at once: the fallback when there is no audio device (captions still flow)."""

    name = "null"

    def play(self, announcement, samples, volume, cancel, started) -> bool:
        return True


@dataclass
class Played:
    caption: str
    tokens: tuple[str, ...]
    samples: np.ndarray
    volume: float
    completed: bool


class RecordingPlayer(Player):
    """Keeps what it was asked to play, for tests.

    With ``gate`` given, each phrase "plays" until the gate is set (or the phrase is cancelled), so a
    test can hold a phrase in progress and see what a new roll does to it.
    """

    name = "recording"

    def __init__(self, gate: threading.Event | None = None):
        self.gate = gate
        self.played: list[Played] = []
        self.playing = threading.Event()

    def play(self, announcement, samples, volume, cancel, started) -> bool:
        started()
        self.playing.set()
        if self.gate is not None:
            while not (self.gate.is_set() or cancel.is_set()):
                cancel.wait(0.005)
        self.playing.clear()
        completed = not cancel.is_set()
        self.played.append(Played(announcement.caption, announcement.tokens, samples, volume, completed))
        return completed


class SoundDevicePlayer(Player):
    """PortAudio through sounddevice: one output stream, fed in short blocks by the calling worker.

    ``sd.play`` would be simpler but each call opens a new stream and cuts whatever was playing;
    one stream written block by block lets a cancel take effect within a block (20 ms).
    """

    name = "sounddevice"

    def __init__(self, device: int | str | None = None, block_ms: int = 20):
        try:
            import sounddevice as sd
        except (ImportError, OSError) as error:  # no sounddevice (Android builds) or no PortAudio library
            raise AudioUnavailable(f"PortAudio is not available: {error}") from None
        self._sd = sd
        self.device = device
        self.block = RATE * block_ms // 1000
        try:
            info = sd.query_devices(device, kind="output")
        except (ValueError, sd.PortAudioError) as error:
            raise AudioUnavailable(f"no audio output device: {error}") from None
        self.device_name = info["name"]
        self._stream = None

    def _open(self):
        if self._stream is None:
            try:
                self._stream = self._sd.OutputStream(samplerate=RATE, channels=1, dtype="int16",
                                                     device=self.device, blocksize=self.block)
            except self._sd.PortAudioError as error:
                raise AudioUnavailable(f"cannot open audio output {self.device_name!r}: {error}") from None
        return self._stream

    def prepare(self) -> None:
        self._open()  # opening an ALSA/PortAudio stream takes milliseconds: not while a roll waits

    def play(self, announcement, samples, volume, cancel, started) -> bool:
        stream = self._open()
        data = scaled(samples, volume)
        try:
            stream.start()
            for offset in range(0, len(data), self.block):
                if cancel.is_set():
                    stream.abort()  # drop what is buffered: the news is stale
                    return False
                stream.write(data[offset:offset + self.block])
                if offset == 0:
                    started()
            stream.stop()  # waits for the buffered tail to be heard
        except self._sd.PortAudioError as error:
            self._stream = None
            raise AudioUnavailable(f"audio output {self.device_name!r} failed: {error}") from None
        return True

    def close(self) -> None:
        if self._stream is not None:
            self._stream.close()
            self._stream = None


class KivyPlayer(Player):
    """Kivy's SoundLoader (SDL2 mixer; Android's MediaPlayer), for devices without PortAudio.

    SoundLoader plays files, so each phrase is written as one WAV to a private temporary folder.
    The wait is timed by the phrase's length rather than by ``sound.state``, which only updates
    while a Kivy clock is ticking (the command line has none).
    """

    name = "kivy"

    def __init__(self) -> None:
        try:
            from kivy.core.audio import SoundLoader  # imported here: Kivy is heavy and optional to speak
        except Exception as error:  # Kivy raises assorted errors when it has no window/audio provider
            raise AudioUnavailable(f"Kivy audio is not available: {error}") from None
        self._loader = SoundLoader
        self._folder = Path(tempfile.mkdtemp(prefix="companion-announce-"))
        self._count = 0

    def play(self, announcement, samples, volume, cancel, started) -> bool:
        self._count += 1
        path = self._folder / f"phrase-{self._count % 4}.wav"
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(samples.tobytes())
        sound = self._load(path)
        try:
            sound.volume = volume
            sound.play()
            started()
            finished = not cancel.wait(len(samples) / RATE + 0.05)
            if not finished:
                sound.stop()
            return finished
        finally:
            sound.unload()

    def _load(self, path: Path):
        sound = self._loader.load(str(path))
        if sound is None:
            raise AudioUnavailable("Kivy found no audio provider that plays WAV")
        # SDL2's mixer with no audio device "loads" every sound empty (it logs "Audio device hasn't been opened")
        # and plays it as silence without an error: a tablet without sound would say nothing of it
        if type(sound).__name__ == "SoundSDL2" and not sound.length:
            sound.unload()
            raise AudioUnavailable("Kivy (SDL2) could not open an audio device")
        return sound

    def prepare(self) -> None:
        path = self._folder / "prepare.wav"  # 20 ms of silence: is there a device to play it on?
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(np.zeros(RATE // 50, dtype=np.int16).tobytes())
        self._load(path).unload()

    def close(self) -> None:
        for path in self._folder.glob("*.wav"):
            path.unlink()
        self._folder.rmdir()


PLAYERS = ("auto", "sounddevice", "kivy", "null")


def open_player(kind: str = "auto") -> tuple[Player, str | None]:
    """The player named ``kind`` and, when it fell back to the null player, why (else None).

    ``auto`` means Kivy on Android (no PortAudio there), sounddevice elsewhere, then Kivy when the app
    has already loaded it, then null.
    """
    if kind not in PLAYERS:
        raise ValueError(f"player must be one of {', '.join(PLAYERS)}, got {kind!r}")
    if kind == "null":
        return NullPlayer(), None
    if kind == "auto":
        import sys
        order = ["kivy"] if "ANDROID_ARGUMENT" in os.environ else ["sounddevice"]
        if "kivy" in sys.modules and "kivy" not in order:
            order.append("kivy")
    else:
        order = [kind]
    problems = []
    for name in order:
        try:
            return (SoundDevicePlayer() if name == "sounddevice" else KivyPlayer()), None
        except AudioUnavailable as error:
            problems.append(str(error))
    return NullPlayer(), "; ".join(problems)

