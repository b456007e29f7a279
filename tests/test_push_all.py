"""``push_all`` (a replay's loop, issue 27) is ``push(event, atomic=False)`` event by event, in every game.

A replay pushes its events through one loop instead of a call per event; it must leave the game exactly as
pushing them one at a time does (events, outcomes, state, what ``pop`` takes back), refuse the first bad event
with the same error, and keep the events before it pushed whole, so that ``replay`` names the refused event's
place by the outcomes counted.  A game class may not bring its own ``push``: the loop would pass it by.
"""

import random

import pytest

from companion.record import COLORS, Record, RecordError, new_game, replay
from companion.rules.card_game_random import random_events as card_game_events
from companion.rules.errors import RulesError
from companion.rules.game import Game
from companion.rules.random_play import random_events
from companion.rules.starfarers_board import first_game_board
from companion.rules.starfarers_random import random_events as starfarers_events

from rebuild_games import EARLY_FLOODS, fresh_game


def played(kind, players, seed):
    """A random legal game's record (its events pushed on a game of its own)."""
    if kind == "starfarers":
        record = Record(kind, [{"name": f"P{i}", "color": COLORS[i]} for i in range(players)],
                        first_game_board().to_json())
        record.events = list(starfarers_events(new_game(record), random.Random(seed), 400))
        return record
    if kind == "card-game":
        record = Record(kind, [{"name": f"P{i}", "color": COLORS[i]} for i in range(players)], {})
        record.events = list(card_game_events(new_game(record), random.Random(seed), 400))
        return record
    game = fresh_game(kind, players, seed)
    events = list(random_events(game, random.Random(seed), 400))
    return Record(kind, [{"name": f"P{i}", "color": COLORS[i]} for i in range(players)],
                  game.initial_board.to_json(), options=OPTIONS.get(kind, {}), events=events)


OPTIONS = {"base": {"vp_target": 30}, "base56": {"vp_target": 30}, "high-tide": EARLY_FLOODS}  # (as fresh_game's)


def one_by_one(record, events):
    game = new_game(record)
    for event in events:
        game.push(event, atomic=False)
    return game


GAMES = [("base", 4, 1), ("base", 3, 2), ("base56", 6, 3), ("seafarers", 4, 4), ("high-tide", 4, 5),
         ("starfarers", 4, 6), ("card-game", 2, 7)]


@pytest.mark.parametrize("kind, players, seed", GAMES)
def test_push_all_leaves_the_game_as_pushing_one_by_one(kind, players, seed):
    record = played(kind, players, seed)
    assert len(record.events) > 100
    together = new_game(record)
    together.push_all(record.events)
    alone = one_by_one(record, record.events)
    assert together.events == alone.events == record.events
    assert together.events[0] is not record.events[0]  # (copies, as push keeps)
    assert together.outcomes == alone.outcomes
    assert [o.index for o in together.outcomes] == list(range(len(record.events)))
    assert together.summary() == alone.summary()
    assert together.pop() == alone.pop()  # (no snapshots: the state before is replayed)
    assert together.summary() == alone.summary()


@pytest.mark.parametrize("kind, players, seed", GAMES)
def test_push_all_refuses_the_first_bad_event_as_push_does(kind, players, seed):
    record = played(kind, players, seed)
    at = len(record.events) // 2
    spoilt = [*record.events[:at], {"type": "roll", "dice": [7, 0]}, *record.events[at:]]
    together = new_game(record)
    with pytest.raises(RulesError) as refused_together:
        together.push_all(spoilt)
    alone = one_by_one(record, spoilt[:at])
    with pytest.raises(RulesError) as refused_alone:
        alone.push(spoilt[at], atomic=False)
    assert type(refused_together.value) is type(refused_alone.value)
    assert str(refused_together.value) == str(refused_alone.value)
    assert len(together.outcomes) == len(together.events) == at
    assert together.summary() == alone.summary()
    with pytest.raises(RecordError) as named:
        replay(Record(record.game, record.players, record.board, record.options, spoilt))
    assert named.value.index == at


def test_a_game_bringing_its_own_push_is_refused():
    class OwnPush(Game):
        def push(self, event, *, atomic=True):
            return super().push(event, atomic=atomic)

    record = played("base", 4, 1)
    game = OwnPush(new_game(record).initial_board, 4)
    with pytest.raises(TypeError, match="overrides push"):
        game.push_all(record.events[:1])
