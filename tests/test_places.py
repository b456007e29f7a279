"""The places at a game's end as the game's rules make them (``Outcome.places``, session 18): players level share
a place. ``ranking`` is a full order (ties broken by cards in hand, then seat), so two players level on points were
said and shown as 2nd and 3rd; a table (and a tournament's scoring) needs "Ben and Chie share second place".

The rules, per game (docs/record-format.md, "Outcomes"): the winner holds the first place alone -- the first to the
target wins (base, Seafarers, Starfarers, the card game; seeds 000, 003, 001) -- and the others are placed by
victory points, level players sharing the better place (as the tournament desk places them). High Tide: most VP,
a tie to the most resource cards (seed 002), for every place; players level on both share it (the first: a shared
win, ``winners``). A game the round's time limit ended has no winner: victory points alone.

Each case is a record that ends the game, level or not, and the places it must give.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.assets import read_json
from companion.record import COLORS, Record, new_game, parse_record, replay
from companion.rules.random_play import random_events

SCENARIOS = Path(__file__).parent / "scenarios"


def scenario(name: str) -> dict:
    return json.loads((SCENARIOS / f"{name}.json").read_text())["record"]


def example(name: str) -> dict:
    return read_json("games", f"example-{name}.json")


def edited(record: dict, before_last: list[dict] = (), last: list[dict] | None = None) -> dict:
    """``record`` with ``before_last`` events put in before its last one (or ``last`` in its place)."""
    events = record["events"]
    return {**record, "events": [*events[:-1], *before_last, *([events[-1]] if last is None else last)]}


def seafarers_seed_5() -> dict:
    """``python -m companion example --game seafarers --seed 5``: won by white, red and orange level on 4 VP."""
    from companion.rules.seafarers_board import deal_map

    record = Record("seafarers", [{"name": n, "color": COLORS[i]} for i, n in enumerate(["Aki", "Ben", "Chie", "Dan"])],
                    deal_map("new_world", 5, 4).to_json())
    record.events = list(random_events(new_game(record), random.Random(5), 2000))
    return record.to_json()


def high_tide_shared_win() -> dict:
    """High Tide for three, random legal play seed 81: red and blue end on 8 VP and 6 cards each
    (tests/test_high_tide_shared_win.py; seed 36 until session 19's random play)."""
    record = Record("high-tide", [{"name": n, "color": COLORS[i]} for i, n in enumerate(["Aki", "Ben", "Chie"])],
                    dict(read_json("boards", "high-tide-3-4.json")), {})
    record.events = list(random_events(new_game(record), random.Random(81), 20000))
    return record.to_json()


# (case, the record, the ranking it gives, the places it must give)
CASES = [
    ("base: level on VP and cards share 2nd", lambda: scenario("winner_and_ranking"),
     [0, 1, 2], [[0], [1, 2]]),
    ("base: level on VP share 2nd, whatever their cards (cards order the ranking only)",
     lambda: edited(scenario("winner_and_ranking"),
                    [{"type": "set_hand", "player": 2, "cards": {"wool": 3, "ore": 1}}]),
     [0, 2, 1], [[0], [2, 1]]),
    ("base: nobody level", lambda: scenario("win_only_on_own_turn"), [1, 2, 0], [[1], [2], [0]]),
    ("base: ended by time, all on 2 VP share 1st", lambda: edited(scenario("winner_and_ranking"),
                                                                last=[{"type": "time_limit"}]),
     [0, 1, 2], [[0, 1, 2]]),
    ("seafarers: level on 4 VP share 3rd", seafarers_seed_5, [2, 1, 0, 3], [[2], [1], [0, 3]]),
    ("high tide: level on VP, the cards give the win; level on both share 3rd",
     lambda: scenario("tide_four_player_end_and_tie_on_cards"), [3, 0, 1, 2], [[3], [0], [1, 2]]),
    ("high tide: level on VP below the winner, the cards place them",
     lambda: scenario("tide_dike_holds_and_three_player_end"), [0, 2, 1], [[0], [2], [1]]),
    ("high tide: level on VP and cards at the top share the win", high_tide_shared_win, [0, 1, 2], [[0, 1], [2]]),
    ("high tide: ended by time, VP alone (level on 4 VP share 1st)",
     lambda: edited(scenario("tide_four_player_end_and_tie_on_cards"), last=[{"type": "time_limit"}]),
     [3, 0, 1, 2], [[3, 0], [1, 2]]),
    ("starfarers: level on 4 VP share 2nd", lambda: scenario("star_win_at_the_end_of_the_turn"),
     [0, 1, 2], [[0], [1, 2]]),
    ("card game: level on VP share 2nd", lambda: example("card-game"), [1, 0, 2], [[1], [0, 2]]),
    ("card game: nobody level", lambda: scenario("card_expansion_replaces_city_vp"), [1, 0], [[1], [0]]),
]


@pytest.mark.parametrize("make, ranking, places", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_the_end_gives_the_places_as_the_rules_make_them(make, ranking, places):
    game = replay(parse_record(make()))
    end = next(o for o in reversed(game.outcomes) if o.ranking)
    assert list(end.ranking) == ranking  # (unchanged: the full order)
    assert end.to_json()["places"] == places
    assert [list(p) for p in game.places()] == places  # the game says the same after the end
    # the winners hold the first place; nobody is left out or placed twice
    assert sorted(p for place in places for p in place) == sorted(ranking)
    if end.winners:
        assert list(end.winners) == places[0]
    elif end.winner is not None:
        assert places[0] == [end.winner]


def test_no_places_before_the_end():
    record = scenario("winner_and_ranking")
    game = replay(parse_record({**record, "events": record["events"][:-1]}))
    assert game.places() == () and all("places" not in o.to_json() for o in game.outcomes)


@pytest.mark.parametrize("name", ["base", "high-tide", "starfarers", "card-game"])
def test_every_example_game_places_level_players_together(name):
    """The bundled games: each place's players are level on what places them, each place below strictly behind."""
    game = replay(parse_record(example(name)))
    places = game.outcomes[-1].places
    keys = [[game.place_key(p) for p in held] for held in places]
    assert places[0] == game.winners()  # the first: who won
    for i in range(1, len(keys)):  # below it: level within a place, each place strictly behind the one before
        assert len(set(keys[i])) == 1, (places, keys)
        if i >= 2:
            assert keys[i - 1][0] > keys[i][0], (places, keys)
