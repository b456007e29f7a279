"""What a dice source says, in the user's language: every cause of a re-roll and every state of the
camera a source names (``SourceStatus.reason``) has an English and a Japanese text, and the Japanese one
says it all in Japanese once its values are filled in (a camera's name stays as it is)."""

from __future__ import annotations

import re

import pytest

from companion.ui import i18n

#: Every reason a source names, with the values it carries: the box's crooked dice, the camera's
#: re-rolls (vision.rolls.RollEvent.reason_code) and the camera's states (companion.dice.camera).
REASONS = {"crooked_dice": {}, "cocked": {}, "count": {"seen": 3, "expected": 2}, "unreadable": {"count": 1},
           "opening": {"spec": "0"}, "watching": {"name": "0"}, "watching_uncalibrated": {"name": "0"},
           "end_of_video": {"name": "0"},
           "no_frames": {"name": "0"}, "moving": {}, "still": {}, "camera_moved": {}}


@pytest.mark.parametrize("reason", sorted(REASONS))
def test_every_reason_reads_in_english_and_in_japanese(reason):
    values = REASONS[reason]
    assert set(i18n.TEXT[f"why_{reason}"]) == {"en", "ja"}
    english, japanese = (i18n.tr(f"why_{reason}", lang, **values) for lang in ("en", "ja"))
    assert all(str(value) in english and str(value) in japanese for value in values.values())
    assert not re.search(r"[A-Za-z]", japanese), japanese
