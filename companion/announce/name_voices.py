"""The players' own recorded names: kept beside the journal, and said in the place of their colours.

Each game's clips are WAV files (16 kHz 16-bit mono, like every clip) in a folder of their own beside the
journal, ``name-voices/game-<id>-<created>/seat-<n>.wav``: the journal's game id alone could be given again
to another game by a new journal file, its creation time with it cannot.  A clip is written to a temporary
file and renamed into place, so a crash leaves the old clip or the new one, never half of one.

:func:`render_phrase` turns a phrase into samples with the recorded names: a :class:`~.phrases.Mention` of a
player with a clip is that clip (in Japanese followed by the particle's own clip: 「<name>は」); everyone else
is said by colour, as before.
"""

from __future__ import annotations

import logging
import os
import re
import wave
from pathlib import Path
from typing import Mapping, Sequence

import numpy as np

from ..record.game_folders import NAME_VOICES, game_key  # noqa: F401  (game_key: re-exported)
from .clips import RATE, ClipLibrary
from .phrases import Mention, particle_clip

log = logging.getLogger(__name__)
# The folder's name and its games' keys belong to the journal (a carried-over game gets its clips copied there).
FOLDER = NAME_VOICES


class NameVoices:
    """The recorded names of every game, under ``folder`` (the app's data directory / ``name-voices``)."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)

    def save(self, key: str, seat: int, clip: np.ndarray) -> Path:
        """Keep ``clip`` (int16 mono at :data:`~.clips.RATE`) as the name of ``seat`` in the game ``key``."""
        if not re.fullmatch(r"game-\d+-\d+", key):
            raise ValueError(f"name voices: {key!r} is not a game key (game-<id>-<created>)")
        if not isinstance(seat, int) or seat < 0:
            raise ValueError(f"name voices: seat must be a whole number from 0, got {seat!r}")
        clip = np.asarray(clip)
        if clip.dtype != np.int16 or clip.ndim != 1 or not len(clip):
            raise ValueError(f"name voices: seat {seat}'s clip must be int16 mono samples, got {clip.dtype} "
                             f"of shape {clip.shape}")
        folder = self.folder / key
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"seat-{seat}.wav"
        partial = path.with_suffix(".wav.partial")
        with wave.open(str(partial), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(clip.astype("<i2").tobytes())
        with open(partial, "rb") as written:
            os.fsync(written.fileno())  # on disk before it takes the old clip's name
        os.replace(partial, path)
        return path

    def load(self, key: str) -> dict[int, np.ndarray]:
        """Seat → clip of the game ``key`` (empty when none was recorded).  A file that is not a clip of the
        right kind is left out (logged), not fatal: that player is said by colour."""
        voices: dict[int, np.ndarray] = {}
        folder = self.folder / key
        if not folder.is_dir():
            return voices
        for path in sorted(folder.glob("seat-*.wav")):
            match = re.fullmatch(r"seat-(\d+)\.wav", path.name)
            if not match:
                continue
            try:
                with wave.open(str(path), "rb") as clip:
                    if (clip.getnchannels(), clip.getsampwidth(), clip.getframerate()) != (1, 2, RATE):
                        raise wave.Error(f"must be mono 16-bit {RATE} Hz")
                    voices[int(match.group(1))] = np.frombuffer(clip.readframes(clip.getnframes()), dtype="<i2")
            except (OSError, wave.Error, EOFError) as error:
                log.warning("%s: not a name clip (%s); said by colour", path, error)
        return voices


def render_phrase(clips: ClipLibrary, tokens: Sequence[str], voices: Mapping[int, np.ndarray] | None = None
                  ) -> np.ndarray:
    """The samples of a phrase: its clips back to back, a player with a recorded name said by that name."""
    if not voices:
        return clips.render(tokens)
    parts = []
    for token in tokens:
        if isinstance(token, Mention) and token.seat in voices:
            parts.append(voices[token.seat])
            if token.particle:
                parts.append(clips.samples(particle_clip(token.particle)))
        else:
            parts.append(clips.samples(token))
    return np.concatenate(parts) if parts else np.zeros(0, np.int16)
