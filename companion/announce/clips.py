"""The pre-rendered clips of one language, loaded into memory, and phrases turned into samples.

Clips are 16 kHz 16-bit mono WAV files under ``companion/assets/voice/<lang>/`` listed in its ``manifest.json``
(made by ``tools/render_voice.py``), shipped inside the package and found through importlib.resources.  The whole set of a language is a few megabytes, so it is read
once, at the first announcement, and every later phrase is a concatenation in memory: no file
access and no decoding between the outcome and the first sample.
"""

from __future__ import annotations

import json
import threading
import wave
from pathlib import Path
from typing import Sequence

import numpy as np

from .. import assets
from .vocabulary import PAUSES

RATE = 16000
VOICE_DIR = assets.path("voice")


class ClipError(RuntimeError):
    """A clip set that is missing or does not match what the announcer needs (names the file)."""


class ClipLibrary:
    """All clips of one language, as int16 arrays keyed by clip name."""

    def __init__(self, lang: str, folder: Path | None = None):
        self.lang = lang
        self.folder = Path(folder) if folder else VOICE_DIR / lang
        manifest_path = self.folder / "manifest.json"
        try:
            self.manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except OSError as error:
            raise ClipError(f"{manifest_path}: cannot read the clip manifest ({error.strerror or error}); "
                            f"reinstall the companion, or in a checkout run tools/render_voice.py") from None
        except json.JSONDecodeError as error:
            raise ClipError(f"{manifest_path}: not valid JSON ({error.msg} at line {error.lineno})") from None
        if self.manifest.get("rate") != RATE:
            raise ClipError(f"{manifest_path}: clips must be {RATE} Hz, manifest says {self.manifest.get('rate')}")
        self.clips: dict[str, np.ndarray] = {}
        for key, entry in self.manifest["clips"].items():
            self.clips[key] = _read_wav(self.folder / entry["file"])
        self.pauses = {key: np.zeros(RATE * ms // 1000, dtype=np.int16) for key, (ms, _) in PAUSES[lang].items()}

    def samples(self, key: str) -> np.ndarray:
        if key in self.pauses:
            return self.pauses[key]
        try:
            return self.clips[key]
        except KeyError:
            raise ClipError(f"{self.folder}: no clip {key!r}; re-run tools/render_voice.py") from None

    def render(self, tokens: Sequence[str]) -> np.ndarray:
        """The samples of a whole phrase, clips and pauses back to back."""
        return np.concatenate([self.samples(t) for t in tokens]) if tokens else np.zeros(0, np.int16)


def _read_wav(path: Path) -> np.ndarray:
    try:
        with wave.open(str(path), "rb") as clip:
            if (clip.getnchannels(), clip.getsampwidth(), clip.getframerate()) != (1, 2, RATE):
                raise ClipError(f"{path}: must be mono 16-bit {RATE} Hz, is {clip.getnchannels()} channel(s), "
                                f"{8 * clip.getsampwidth()}-bit, {clip.getframerate()} Hz")
            return np.frombuffer(clip.readframes(clip.getnframes()), dtype=np.int16)
    except (OSError, wave.Error, EOFError) as error:
        raise ClipError(f"{path}: cannot read clip ({error})") from None


_cache: dict[str, ClipLibrary] = {}
_cache_lock = threading.Lock()


def library(lang: str) -> ClipLibrary:
    """The shared, lazily loaded clip set of ``lang``."""
    with _cache_lock:
        if lang not in _cache:
            _cache[lang] = ClipLibrary(lang)
        return _cache[lang]
