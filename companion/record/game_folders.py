"""Files a game keeps beside the journal, outside it: its players' recorded names.

A recording is sound, not record: it lives in a folder of its own next to the journal file,
``name-voices/game-<id>-<created ms>/seat-<n>.wav`` (companion.announce.name_voices reads and writes the clips).
The folder is named by the game's journal id *and* its creation time because a new journal file -- a fresh one
after a damaged journal was set aside -- gives ids from 1 again: the id alone would hand one game's voices to
another.  For the same reason a game carried over to a fresh journal gets a new folder, and
:func:`carry_name_voices` copies its recordings there (the old folder stays, with the old file it belongs to).
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

log = logging.getLogger(__name__)

NAME_VOICES = "name-voices"  # the folder beside the journal


def game_key(game_id: int, created: float) -> str:
    """The folder name of one game's clips: its journal id and creation time (milliseconds)."""
    return f"game-{int(game_id)}-{int(round(created * 1000))}"


def carry_name_voices(journal_dir: Path, old: tuple[int, float], new: tuple[int, float]) -> int:
    """Copy the recorded names of the game ``old`` (id, created) to the game ``new`` of a fresh journal in the
    same folder; how many clips were copied (0: none recorded, or they could not be copied -- logged: that game
    is then said by colour, the game itself is carried all the same)."""
    source = journal_dir / NAME_VOICES / game_key(*old)
    clips = sorted(source.glob("seat-*.wav")) if source.is_dir() else []
    if not clips:
        return 0
    target = journal_dir / NAME_VOICES / game_key(*new)
    if target == source:  # the same id made within the same millisecond: already where the app looks
        return len(clips)
    try:
        target.mkdir(parents=True, exist_ok=True)
        for clip in clips:
            shutil.copy2(clip, target / clip.name)
    except OSError as error:
        log.warning("the recorded names of game %s were not carried over: %s", old[0], error)
        return 0
    return len(clips)
