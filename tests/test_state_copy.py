"""A game's state copied before every event a table pushes (``State.copy``, issue 27) is the state whole.

The copy sets each field on itself one by one, so that it keeps the class's shared attribute layout (the
interpreter's fast attribute reads) instead of a dict filled in bulk; written out field by field, it must name
every field of ``State`` and ``PlayerState``, share nothing mutable with the original, and equal it.
"""

import gc

import pytest

from companion.rules.game import PlayerState, State

from rebuild_games import games_in_play


def holds_its_fields_in_the_shared_layout(value, field) -> bool:
    # (CPython 3.11+: an object whose attributes live in the class's shared layout hands the collector its
    # values themselves; one given a __dict__ of its own hands over that dict instead)
    return any(r is getattr(value, field) for r in gc.get_referents(value))


@pytest.mark.parametrize("kind, players, seed", [("base", 4, 1), ("base56", 6, 2), ("seafarers", 4, 3),
                                                 ("high-tide", 4, 4), ("starfarers", 4, 5)])
def test_a_copied_state_is_the_state_whole_and_shares_nothing_it_could_change(kind, players, seed):
    for game in games_in_play(kind, players, seed, events=400 if kind == "starfarers" else 600):
        state = game.state
        copy = state.copy()
        assert holds_its_fields_in_the_shared_layout(copy, "players")
        assert all(holds_its_fields_in_the_shared_layout(p, "hand") for p in copy.players)
        assert list(vars(copy)) == list(State._fields)
        assert all(list(vars(p)) == list(PlayerState._fields) for p in copy.players)
        assert copy == state
        for name in State._fields:
            value = getattr(state, name)
            if isinstance(value, (dict, list)):
                assert getattr(copy, name) is not value, name
        for mine, theirs in zip(copy.players, state.players):
            assert mine == theirs
            assert mine.hand is not theirs.hand and mine.hand.known is not theirs.hand.known
            assert mine.dev is not theirs.dev and mine.dev_new is not theirs.dev_new
