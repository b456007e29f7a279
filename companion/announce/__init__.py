"""Spoken announcements: outcome → phrase (clip keys + caption) → pre-rendered clips → audio player.

    announcer = Announcer(["red", "blue", "white"], lang="ja")   # player="auto": sounddevice, Kivy, or null
    announcer.add_caption_listener(show_caption)                  # every announcement, spoken or not
    announcer.add_problem_listener(show_audio_warning)            # once, when there is no sound
    table.add_listener(announcer.on_outcome)                      # one Outcome per event
    announcer.on_notice("box_disconnected")

See docs/announcements.md.
"""

from . import english, japanese  # noqa: F401  (each registers itself with the phrase core)
from .announcer import NEWS, NO_SOUND_NOTICE, URGENT, Announcement, Announcer
from .clips import ClipError, ClipLibrary, library
from .phrases import NOTICES, Phrase, caption_of, phrase_for_notice, phrase_for_outcome
from .players import (PLAYERS, AudioUnavailable, KivyPlayer, NullPlayer, Played, Player, RecordingPlayer,
                      SoundDevicePlayer, open_player)

__all__ = ["NEWS", "NO_SOUND_NOTICE", "URGENT", "Announcement", "Announcer", "ClipError", "ClipLibrary", "library", "NOTICES",
           "Phrase", "caption_of", "phrase_for_notice", "phrase_for_outcome", "PLAYERS", "AudioUnavailable",
           "KivyPlayer", "NullPlayer", "Played", "Player", "RecordingPlayer", "SoundDevicePlayer", "open_player"]
