"""A game copied for a table's roll preview (``Game.copy``, ``CardGame.copy``) is the game whole, and copying it
leaves the table's own game as fast as it was.

The copy names every attribute a game can hold (``copied_attributes``) instead of reading the game's
``__dict__``: on CPython 3.11+ reading an object's ``__dict__`` moves its attributes out of the class's shared
layout for good, so a live game read every attribute the slow way after its first preview. Written out by name,
the list must cover every attribute of every game class as it is played (memos set lazily included).
"""

import gc
import random

import pytest

from companion.rules.random_play import random_events

from rebuild_games import fresh_game, games_in_play

COPIED_AFRESH = ("state", "events", "outcomes", "_stack")  # what a copy must not share with its original
BOARD_GAMES = ("base", "base56", "seafarers", "high-tide")


def keeps_the_shared_layout(game) -> bool:
    # (an object whose attributes live in its class's shared layout hands the collector its values themselves;
    # one given a __dict__ of its own hands over that dict instead)
    return any(r is game.state for r in gc.get_referents(game))


@pytest.mark.parametrize("kind, players, seed", [("base", 4, 1), ("base56", 6, 2), ("seafarers", 4, 3),
                                                 ("seafarers", 6, 6), ("high-tide", 4, 4), ("starfarers", 4, 5),
                                                 ("card-game", 3, 7)])
def test_a_copied_game_holds_what_the_game_holds_and_the_game_keeps_its_layout(kind, players, seed):
    type_names = None
    copies = 0
    for game in games_in_play(kind, players, seed, every=41, events=500 if kind in BOARD_GAMES else 300):
        copy = game.copy()
        copies += 1
        assert keeps_the_shared_layout(game), "copying took the table's game out of its class's layout"
        assert keeps_the_shared_layout(copy)
        assert type(copy) is type(game)
        type_names = type(game).copied_attributes
        for name in type_names:
            value = getattr(game, name, None)
            if name in COPIED_AFRESH:
                assert getattr(copy, name) is not value and getattr(copy, name) == value, name
            else:
                assert getattr(copy, name, None) is value, name
    assert copies >= 3
    # Last, once (vars() itself would take the game out of its layout): the list names everything the played
    # game holds, memos included, and the copy holds the same names.
    names = vars(game)
    assert set(names) <= set(type_names), f"attributes the copy would leave behind: {set(names) - set(type_names)}"
    assert set(vars(copy)) == set(names)


def test_a_preview_on_the_copy_leaves_the_game_where_it_was():
    game = fresh_game("base", 4, 11)
    events = random_events(game, random.Random(11), 200)
    for _ in events:
        pass
    before = (len(game.events), game.state.copy())
    trial = game.copy()
    played = next(iter(random_events(trial, random.Random(12), 5)), None)
    assert played is not None and len(trial.events) == before[0] + 1
    assert len(game.events) == before[0] and game.state == before[1]
