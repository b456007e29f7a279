"""Why the dice must be rolled again, in the user's language: every cause a dice source can name
(``SourceStatus.reason``) has an English and a Japanese text, and the Japanese one says it all in
Japanese once its numbers are filled in."""

from __future__ import annotations

import re

import pytest

from companion.ui import i18n

#: Every re-roll cause, with the numbers it carries: the box's crooked dice and the camera's
#: (vision.rolls.RollEvent.reason_code).
CAUSES = {"crooked_dice": {}, "cocked": {}, "count": {"seen": 3, "expected": 2}, "unreadable": {"count": 1}}


@pytest.mark.parametrize("cause", sorted(CAUSES))
def test_every_reroll_cause_reads_in_english_and_in_japanese(cause):
    params = CAUSES[cause]
    entry = i18n.TEXT[f"reroll_{cause}"]
    assert set(entry) == {"en", "ja"}
    english, japanese = (i18n.tr(f"reroll_{cause}", lang, **params) for lang in ("en", "ja"))
    assert all(str(value) in english and str(value) in japanese for value in params.values())
    assert not re.search(r"[A-Za-z]", japanese), japanese


def test_the_causes_are_the_ones_the_sources_name():
    import inspect

    from companion.dice import serial_box
    from vision import rolls

    named = set(re.findall(r'reason_code="(\w+)"', inspect.getsource(rolls)))
    named |= set(re.findall(r'reason="(\w+)"', inspect.getsource(serial_box)))
    assert named == set(CAUSES)
