"""What a tap on a resource's name takes in a choice of cards owed (``choices.name_takes``), one rule for the base
game's discard, gold and Year of plenty and for Starfarers' returns (it was written out twice, session 19)."""

from __future__ import annotations

import pytest

from companion.ui.choices import name_takes


@pytest.mark.parametrize("most,known,takes", [
    (4, 2, 2),      # two known of the kind, four still owed: the two
    (2, 5, 2),      # five known, two owed: the two
    (3, 0, 1),      # none known, unseen cards may be of it: one a tap
    (0, 0, 0),      # nothing more may be given of it: nothing
    (0, 3, 0),      # known ones, but nothing is owed any more
    (2, None, 2),   # from the bank (gold, Year of plenty): all it may reach
    (0, None, 0),
])
def test_a_name_takes_the_known_cards_or_one_unseen(most, known, takes):
    assert name_takes(most, known) == takes
