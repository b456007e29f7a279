"""The card game: taking a neighbour's card past protected players, VP from the tableau, cards kept
whole, random legal games replayed and undone, and bad input refused without a change.

The hand-worked situations (a steal that skips a protected neighbour, VP after an expansion replaces
a city, bad events) are records in tests/scenarios/card_*.json.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.record import Record, RecordError, parse_record, replay
from companion.rules import game_class
from companion.rules.card_game import RESOURCE_CARDS, CardSetup, Tableau, sides
from companion.rules.card_game_random import random_events
from companion.rules.hands import Hand

ROOT = Path(__file__).resolve().parents[1]
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PLAYERS = [{"name": n, "color": c} for n, c in (("Aki", "red"), ("Ben", "blue"), ("Chie", "white"), ("Dan", "orange"))]


def new_game(n=3):
    return game_class("card-game")(CardSetup(), n)


TABLEAU = st.builds(lambda roads, knights, church, wall: (roads, knights, church, wall),
                    st.integers(0, 5), st.integers(0, 3), st.booleans(), st.booleans())


@FAST
@given(tableaux=st.lists(TABLEAU, min_size=2, max_size=4), builder=st.integers(0, 3),
       piece=st.sampled_from(["road", "knight"]), fate=st.sampled_from(["white", "black"]))
def test_the_card_is_taken_from_the_first_unprotected_holder_the_fate_card_points_to(tableaux, builder, piece, fate):
    game = new_game(len(tableaux))
    builder %= len(tableaux)
    for t, (roads, knights, church, wall) in zip(game.state.players, tableaux):
        t.roads, t.knights = roads, knights
        t.cities = [["market_day", "church"]] * church + [["market_day", "city_wall"]] * wall
    game.state.fate = fate
    victim, skipped = game.take_target(builder, piece)
    n = len(tableaux)
    step = 1 if fate == "white" else -1        # white: the left neighbour, the next seat
    walk = [(builder + step * k) % n for k in range(1, n)]
    for player, reason in skipped:              # everyone passed over had a reason
        roads, knights, church, wall = tableaux[player]
        count = roads if piece == "road" else knights
        assert reason == ("none" if count == 0 else "church" if piece == "knight" else "city_wall")
        assert count == 0 or (piece == "knight" and church and count <= 1) or (piece == "road" and wall and count <= 3)
    assert [p for p, _ in skipped] == walk[:len(skipped)]
    if victim is None:
        assert len(skipped) == n - 1
    else:
        assert victim == walk[len(skipped)]
        roads, knights, church, wall = tableaux[victim]
        count = roads if piece == "road" else knights
        assert count > (1 if piece == "knight" and church else 3 if piece == "road" and wall else 0)


@FAST
@given(roads=st.integers(0, 6), knights=st.integers(0, 5), settlements=st.integers(0, 4),
       cities=st.lists(st.sampled_from([None, "church", "town_hall", "library"]), max_size=4))
def test_victory_points_from_the_tableau(roads, knights, settlements, cities):
    game = new_game(2)
    game.state.players[0] = Tableau(roads, knights, settlements, [["market_day", k] for k in cities], Hand())
    shown = game.summary()["players"][0]
    expected = (shown["roads"].count("B") + shown["knights"].count("B") + settlements
                + sum(2 if k is None else 4 if k == "town_hall" else 3 for k in cities))
    assert shown["vp"] == expected == game.victory_points(0)
    assert shown["roads"] == sides(roads) and sides(3) == ["A", "B", "A"]


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), n=st.integers(2, 4), budget=st.integers(10, 200))
def test_random_games_replay_from_their_record_keep_every_card_and_undo_to_the_start(seed, n, budget):
    played = new_game(n)
    decks = sum(played.state.decks.values()) + sum(t.roads + t.settlements for t in played.state.players)
    events = []
    for event in random_events(played, random.Random(seed), budget):
        events.append(event)
        s = played.state
        cards = sum(t.hand.size for t in s.players) + s.draw_pile + s.discard_pile + s.market
        assert cards == RESOURCE_CARDS
        # building cards only move between decks and tableaux (a city is its settlement turned over)
        assert sum(s.decks.values()) + sum(t.roads + t.knights + t.settlements + len(t.cities) + len(t.expansions)
                                           for t in s.players) == decks
    again = replay(Record("card-game", PLAYERS[:n], {}, {}, events))
    assert again.summary() == played.summary()
    assert [o.to_json() for o in again.outcomes] == [o.to_json() for o in played.outcomes]
    while played.events:
        played.pop()
    assert played.summary() == new_game(n).summary()


def test_refused_events_change_nothing():
    game = new_game(3)
    before = game.summary()
    for bad in ({"type": "build", "player": 1, "piece": "road"},                     # out of turn
                {"type": "build", "player": 0, "piece": "city", "face": "parade"},
                {"type": "build", "player": 0, "piece": "expansion", "kind": "church"},  # no city yet
                {"type": "exchange", "player": 0, "with": 0},
                {"type": "build", "player": 0, "piece": "road", "paid": {"lumber": 1, "brick": 1, "ore": 3}},
                {"type": "roll", "dice": [3, 4]}):
        with pytest.raises(ValueError):
            game.push(bad)
        assert game.summary() == before


def test_bad_boards_and_options_are_named():
    record = Record("card-game", PLAYERS[:2], {"decks": {"road": 2}}, {}, [])
    with pytest.raises(RecordError, match="board: board.decks must give road, settlement, knight, expansion"):
        replay(record)
    record = Record("card-game", PLAYERS[:2], {}, {"expansion_kinds": ["church"]}, [])
    with pytest.raises(RecordError, match="six different names"):
        replay(record)
    record = Record("card-game", PLAYERS[:1], {}, {}, [])
    with pytest.raises(RecordError, match="2-4 players, not 1"):
        replay(record)


def test_the_example_game_replays_from_the_command_line():
    run = subprocess.run([sys.executable, "-m", "companion", "replay", "companion/assets/games/example-card-game.json"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    state = json.loads(run.stdout)
    winner = state["winner"]
    assert state["turn"]["phase"] == "game_over" and state["players"][winner]["vp"] >= 10
    assert sum(p["vp"] for p in state["players"]) == sum(
        p["roads"].count("B") + p["knights"].count("B") + p["settlements"]
        + sum(2 if c["expansion"] is None else 4 if c["expansion"] == "town_hall" else 3 for c in p["cities"])
        for p in state["players"])


def test_a_scenario_record_replays_through_the_cli(tmp_path):
    data = json.loads((ROOT / "tests" / "scenarios" / "card_steal_skips_protected_neighbour.json").read_text())
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data["record"]))
    run = subprocess.run([sys.executable, "-m", "companion", "replay", str(path), "--outcomes"],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["outcomes"][7]["taken"] == {"piece": "knight", "from": 2, "side": "A"}
    assert out["outcomes"][7]["skipped"] == [[1, "church"]]
    parse_record(data["record"])
