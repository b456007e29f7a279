"""A player's name, said into the tablet's microphone at set-up: heard, trimmed of silence and levelled.

A :class:`NameRecording` listens on its own thread until the player has spoken and then been quiet for
:data:`QUIET_AFTER` seconds (or :data:`LONGEST` seconds have gone, or :meth:`NameRecording.stop` is called),
closes the input, and hands the clip -- or None with the reason, when nothing was heard -- to its callback,
on that thread (a Kivy screen passes it on with ``Clock.schedule_once``).  Time is counted in samples, not
by the clock, so a recording reads the same from a slow microphone and from a file played faster than
real time (the tests' ALSA ``file`` plugin).

Microphones behind one interface, like the players (:mod:`.players`): sounddevice (PortAudio) on desktop
and Linux tablets, Android's own ``AudioRecord`` through pyjnius where there is no PortAudio.  With
neither, :func:`open_microphone` says why and the set-up screen says "no microphone": names are then said
by colour, as before.
"""

from __future__ import annotations

import logging
import os
import threading
from typing import Callable

import numpy as np

from .clips import RATE

log = logging.getLogger(__name__)

BLOCK = RATE // 50           # 20 ms: the unit of "loud" and "quiet"
QUIET_AFTER = 0.8            # seconds of quiet after speech that end a recording
LONGEST = 5.0                # seconds: a recording stops here whatever it hears
LONGEST_NAME = 3.0           # seconds: a longer clip is cut (a name, not a speech)
SHORTEST_NAME = 0.12         # seconds of sound below which nothing counts as heard
PEAK = 29000                 # the level every voice clip is normalised to (tools/render_voice.py): -1 dBFS
FLOOR = 120                  # RMS below which a block is quiet whatever the room's noise (about -49 dBFS)
LEAD, TAIL = 0.05, 0.10      # seconds kept before the first and after the last loud block (soft consonants)
AIR = 0.04                   # seconds of silence after the clip, as after every rendered clip


class MicrophoneUnavailable(RuntimeError):
    """No sound can be recorded (no input device, no PortAudio, no permission); the message says which."""


# --- trimming and levelling --------------------------------------------------------------------------------

def block_levels(samples: np.ndarray, block: int = BLOCK) -> np.ndarray:
    """RMS of each whole ``block`` of ``samples``."""
    n = len(samples) // block
    if n == 0:
        return np.zeros(0)
    blocks = samples[:n * block].astype(np.float64).reshape(n, block)
    return np.sqrt(np.mean(blocks * blocks, axis=1))


def loud_threshold(levels: np.ndarray) -> float:
    """The level above which a block is speech: well above the quietest tenth of the recording (the room)
    and above :data:`FLOOR`."""
    if not len(levels):
        return float(FLOOR)
    room = float(np.percentile(levels, 10))
    return max(float(FLOOR), 4.0 * room, 0.05 * float(levels.max()))


def trim_and_level(samples: np.ndarray, rate: int = RATE) -> np.ndarray | None:
    """The spoken part of a recording (int16 mono at ``rate``), at the clips' level and rate, faded at its
    edges; None when no speech is in it."""
    samples = np.asarray(samples, dtype=np.float64).ravel()
    if rate != RATE and len(samples):
        samples = resample(samples, rate, RATE)
    if not len(samples):
        return None
    samples = samples - float(np.mean(samples))  # a microphone's DC offset would count as sound
    block = RATE // 100  # 10 ms: finer than the stop rule, so the cut sits close to the word
    levels = block_levels(samples, block)
    loud = np.flatnonzero(levels > loud_threshold(levels))
    if len(loud) * block < SHORTEST_NAME * RATE:
        return None
    start = max(0, loud[0] * block - int(LEAD * RATE))
    end = min(len(samples), (loud[-1] + 1) * block + int(TAIL * RATE))
    clip = samples[start:end][:int(LONGEST_NAME * RATE)]
    peak = float(np.max(np.abs(clip))) or 1.0
    clip = clip * (PEAK / peak)
    fade_in, fade_out = min(len(clip), RATE * 5 // 1000), min(len(clip), RATE * 10 // 1000)
    clip[:fade_in] *= np.linspace(0.0, 1.0, fade_in)
    clip[len(clip) - fade_out:] *= np.linspace(1.0, 0.0, fade_out)
    return np.concatenate([np.round(clip), np.zeros(int(AIR * RATE))]).astype(np.int16)


def resample(samples: np.ndarray, rate: int, to: int) -> np.ndarray:
    """Linear resampling: enough for a spoken name from a microphone that will not open at 16 kHz."""
    n = int(round(len(samples) * to / rate))
    return np.interp(np.arange(n) * rate / to, np.arange(len(samples)), samples)


# --- listening -----------------------------------------------------------------------------------------------

class Microphone:
    """Opens an input and yields int16 mono blocks of :data:`BLOCK` samples at ``rate``."""

    name = "microphone"
    rate = RATE

    def open(self) -> None:
        """Start listening (raises :class:`MicrophoneUnavailable`)."""
        raise NotImplementedError

    def read(self) -> np.ndarray:
        """The next block (blocks until it is there)."""
        raise NotImplementedError

    def close(self) -> None:
        """Stop listening and release the device (idempotent)."""


class SoundDeviceMicrophone(Microphone):
    """PortAudio's default input (or ``device``) through a sounddevice input stream."""

    name = "sounddevice"

    def __init__(self, device: int | str | None = None):
        try:
            import sounddevice as sd
        except (ImportError, OSError) as error:  # no sounddevice (Android builds) or no PortAudio library
            raise MicrophoneUnavailable(f"PortAudio is not available: {error}") from None
        self._sd = sd
        self.device = device
        try:
            info = sd.query_devices(device, kind="input")
        except (ValueError, sd.PortAudioError) as error:
            raise MicrophoneUnavailable(f"no microphone: {error}") from None
        self.device_name = info["name"]
        self._default_rate = int(info.get("default_samplerate") or RATE)
        self._stream = None

    def open(self) -> None:
        for rate in dict.fromkeys((RATE, self._default_rate)):  # 16 kHz, else what the device offers
            try:
                block = BLOCK * rate // RATE
                self._stream = self._sd.InputStream(samplerate=rate, channels=1, dtype="int16",
                                                    device=self.device, blocksize=block)
                self._stream.start()
                self.rate, self._block = rate, block
                return
            except self._sd.PortAudioError as error:
                self.close()
                problem = error
        raise MicrophoneUnavailable(f"cannot open the microphone {self.device_name!r}: {problem}")

    def read(self) -> np.ndarray:
        try:
            data, _overflowed = self._stream.read(self._block)  # an overflow loses a little sound, not the name
        except self._sd.PortAudioError as error:
            raise MicrophoneUnavailable(f"the microphone {self.device_name!r} failed: {error}") from None
        return data[:, 0].copy()

    def close(self) -> None:
        if self._stream is not None:
            try:
                self._stream.abort()
                self._stream.close()
            finally:
                self._stream = None


class AndroidMicrophone(Microphone):
    """Android's ``AudioRecord`` through pyjnius (an Android build has no PortAudio), after asking for the
    RECORD_AUDIO permission."""

    name = "android"

    def __init__(self) -> None:
        if "ANDROID_ARGUMENT" not in os.environ:
            raise MicrophoneUnavailable("Android's microphone exists only on Android")
        try:
            from jnius import autoclass  # type: ignore[import-not-found]
        except ImportError as error:
            raise MicrophoneUnavailable(f"pyjnius is not available: {error}") from None
        self._AudioRecord = autoclass("android.media.AudioRecord")
        self._source = autoclass("android.media.MediaRecorder$AudioSource").MIC
        fmt = autoclass("android.media.AudioFormat")
        self._channel, self._encoding = fmt.CHANNEL_IN_MONO, fmt.ENCODING_PCM_16BIT
        self._record = None

    def open(self) -> None:
        try:
            from android.permissions import Permission, check_permission, request_permissions  # type: ignore
            if not check_permission(Permission.RECORD_AUDIO):
                request_permissions([Permission.RECORD_AUDIO])
                raise MicrophoneUnavailable("the microphone needs permission: allow it, then tap again")
        except ImportError:
            pass  # an older python-for-android: the manifest's permission is all there is
        size = max(self._AudioRecord.getMinBufferSize(RATE, self._channel, self._encoding), 8 * BLOCK * 2)
        record = self._AudioRecord(self._source, RATE, self._channel, self._encoding, size)
        if record.getState() != self._AudioRecord.STATE_INITIALIZED:
            record.release()
            raise MicrophoneUnavailable("Android's microphone did not open (in use, or no permission)")
        record.startRecording()
        self._record, self._buffer = record, bytearray(BLOCK * 2)

    def read(self) -> np.ndarray:
        got = self._record.read(self._buffer, 0, len(self._buffer))
        if got < 0:
            raise MicrophoneUnavailable(f"Android's microphone failed (AudioRecord.read returned {got})")
        return np.frombuffer(bytes(self._buffer[:got]), dtype="<i2").copy()

    def close(self) -> None:
        if self._record is not None:
            try:
                self._record.stop()
                self._record.release()
            finally:
                self._record = None


MICROPHONES = ("auto", "sounddevice", "android")


def open_microphone(kind: str = "auto") -> tuple[Microphone | None, str | None]:
    """The microphone named ``kind``, or None and why there is none.  ``auto``: Android's own on Android
    (no PortAudio there), sounddevice elsewhere."""
    if kind not in MICROPHONES:
        raise ValueError(f"microphone must be one of {', '.join(MICROPHONES)}, got {kind!r}")
    if kind == "auto":
        kind = "android" if "ANDROID_ARGUMENT" in os.environ else "sounddevice"
    try:
        return (AndroidMicrophone() if kind == "android" else SoundDeviceMicrophone()), None
    except MicrophoneUnavailable as error:
        return None, str(error)


class NameRecording:
    """One player saying their name: listens on its own thread and calls ``done(clip, problem)`` once, from
    that thread, with the trimmed and levelled clip (or None and why: nothing heard, the microphone failed).
    The microphone is closed before ``done`` is called."""

    def __init__(self, microphone: Microphone, done: Callable[[np.ndarray | None, str | None], None]):
        self.microphone = microphone
        self._done = done
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="name-recording", daemon=True)
        self._thread.start()

    @property
    def listening(self) -> bool:
        return self._thread.is_alive()

    def stop(self, timeout: float = 5.0) -> None:
        """End now (what was heard so far is kept) and wait for the microphone to close."""
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _listen(self) -> None:
        heard: list[np.ndarray] = []
        clip, problem = None, None
        try:
            self.microphone.open()
            rate = self.microphone.rate
            block = BLOCK * rate // RATE
            quiet_needed, longest = int(QUIET_AFTER * rate / block), int(LONGEST * rate / block)
            levels: list[float] = []
            spoke, quiet = 0, 0
            while not self._stop.is_set() and len(heard) < longest:
                data = self.microphone.read()
                heard.append(data)
                level = float(np.sqrt(np.mean(data.astype(np.float64) ** 2))) if len(data) else 0.0
                levels.append(level)
                # "Loud" against the quietest blocks so far: a noisy room raises the bar, a quiet one not below FLOOR.
                room = float(np.percentile(levels, 10))
                if level > max(FLOOR, 4.0 * room):
                    spoke, quiet = spoke + 1, 0
                else:
                    quiet += 1
                if spoke * block >= SHORTEST_NAME * rate and quiet >= quiet_needed:
                    break
        except MicrophoneUnavailable as error:
            problem = str(error)
        except Exception as error:  # a broken driver must not leave the set-up screen waiting
            log.exception("recording a name failed")
            problem = f"recording failed: {error}"
        finally:
            try:
                self.microphone.close()
            except Exception:
                log.exception("closing the microphone failed")
        if problem is None:
            clip = trim_and_level(np.concatenate(heard), self.microphone.rate) if heard else None
            if clip is None:
                problem = "nothing was heard"
        self._done(clip, problem)
