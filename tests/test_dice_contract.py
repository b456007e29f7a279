import pytest

from companion.dice import DiceRolled, open_source


def test_dice_rolled_rejects_impossible_faces():
    with pytest.raises(ValueError, match="1..6"):
        DiceRolled((0, 7), "manual")


def test_dice_rolled_total():
    assert DiceRolled((3, 4), "manual").total == 7


def test_unknown_source_scheme_is_named():
    with pytest.raises(ValueError, match="nosuch"):
        open_source("nosuch://x")
