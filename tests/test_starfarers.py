"""Starfarers: production through the core routine against a planet-by-planet count, the mothership,
the friendship marker under any order of dockings, the board reader, and atomic pushes.

The hand-worked situations (production with supply draws and a 7, the 1:0 ... 3:2 marker changes, a
terraformed ice planet, a half-medal pair, bad events) are records in tests/scenarios/star_*.json.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.record import RecordError, parse_record, replay
from companion.rules import BoardError, IllegalAction, game_class
from companion.rules.starfarers import (BALLS, ball_speed, shake_mothership, supply_draw_count)
from companion.rules.starfarers_board import first_game_board, star_board_from_json

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def scenario(stem):
    return parse_record(json.loads((SCENARIOS / f"{stem}.json").read_text())["record"])


def set_up_game(upto=12):
    """The 3-player friendship scenario after its set-up (and the umpire's hands, with upto=14)."""
    return replay(scenario("star_friendship_majority_changes"), upto=upto)


# --- production: the core's routine serves planets and colony sites ---------------------------------
@FAST
@given(seed=st.integers(0, 10**6), number=st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
def test_production_is_one_card_per_colony_or_spaceport_beside_each_planet_with_the_number(seed, number):
    rng = random.Random(seed)
    board = first_game_board()
    game = game_class("starfarers")(board, 3)
    sites = sorted(board.sites)
    for site in rng.sample(sites, 10):
        if all(board.planets[h].marker is None for h in site):
            game.state.buildings[site] = (rng.randrange(3), rng.choice(["colony", "spaceport"]))
    game.state.bank = {r: 20 for r in game.resources}  # plenty: no shortage in this property
    game.state.phase, game.state.turn_player = "roll", 0
    a = max(1, number - 6)
    outcome = game.push({"type": "roll", "dice": [a, number - a]})
    expected: dict[int, dict[str, int]] = {}
    for h, planet in board.planets.items():
        if planet.number != number:
            continue
        for site, (player, _) in game.state.buildings.items():
            if h in site:
                got = expected.setdefault(player, {})
                got[planet.resource] = got.get(planet.resource, 0) + 1
    assert outcome.payouts == expected


def test_a_planet_with_a_marker_or_a_face_down_chip_produces_nothing():
    board = star_board_from_json({"systems": [{"planets": [
        {"at": [0, 0], "resource": "ore", "number": 5}, {"at": [1, 0], "resource": "fuel", "hidden": True},
        {"at": [1, -1], "resource": "food", "pirate": 2}]}]})
    assert board.hexes_by_number == {5: ((0, 0),)}
    assert set(board.planet_sites[(0, 0)]) == {((0, 0), (1, -1)), ((0, 0), (1, 0))}


def test_supply_draws_by_victory_points():
    assert [supply_draw_count(vp) for vp in range(4, 16)] == [2, 2, 2, 2, 1, 1, 0, 0, 0, 0, 0, 0]


# --- the mothership ----------------------------------------------------------------------------------
def test_every_shake_of_two_balls_gives_the_seed_speed():
    speeds = {}
    for i, j in permutations(range(len(BALLS)), 2):
        speeds.setdefault(ball_speed((BALLS[i], BALLS[j])), 0)
        speeds[ball_speed((BALLS[i], BALLS[j]))] += 1
    # 20 ordered draws: black in 8 (speed 3 and an encounter); otherwise the values add up
    assert speeds == {(3, True): 8, (4, False): 4, (5, False): 4, (3, False): 4}
    assert ball_speed(("blue", "yellow")) == (3, False)
    assert ball_speed(("red", "yellow")) == (5, False)


def test_the_digital_shake_draws_two_different_balls_reproducibly():
    rng = random.Random(7)
    shakes = [shake_mothership(rng) for _ in range(300)]
    assert shakes == [shake_mothership(r) for r in [random.Random(7)] for _ in range(300)]
    for a, b in shakes:
        assert [a, b].count("red") <= 1 and [a, b].count("black") <= 1 and [a, b].count("blue") <= 1
    assert {a for a, _ in shakes} == {"yellow", "red", "blue", "black"}


# --- friendship markers under any order of dockings ---------------------------------------------------
@FAST
@given(order=st.lists(st.integers(0, 2), min_size=1, max_size=5))
def test_the_marker_follows_the_strict_majority_and_stays_on_a_tie(order):
    game = set_up_game()
    holder = None
    for who in order:
        # forced: the umpire records the docking whatever the phase; the rules still move the marker
        outcome = game.push({"type": "trade_station", "player": who, "at": [0, -3], "forced": True})
        docked = game.summary()["stations"][0]["docks"]
        counts = {p: docked.count(p) for p in docked}
        if holder is None or counts[who] > counts.get(holder, 0):
            changed = holder != who
            holder = who
        else:
            changed = False
        assert game.summary()["stations"][0]["holder"] == holder
        assert bool(outcome.awards) == changed
    vps = [p["vp"] for p in game.summary()["players"]]
    assert vps == [4 + (2 if p == holder else 0) for p in range(3)]


def test_a_sixth_station_finds_no_dock():
    game = set_up_game()
    for who in (0, 1, 2, 0, 1):
        game.push({"type": "trade_station", "player": who, "at": [0, -3], "forced": True})
    with pytest.raises(IllegalAction, match="all 5 docks"):
        game.push({"type": "trade_station", "player": 2, "at": [0, -3], "forced": True})


# --- errors change nothing ------------------------------------------------------------------------------
def test_a_refused_event_leaves_the_game_as_it_was():
    game = set_up_game(upto=16)  # P0 has rolled and shaken: the flight phase
    before = game.summary()
    for bad in ({"type": "terraform", "player": 0, "at": [6, 0], "number": 8},       # 1 freight ring < 2
                {"type": "found_colony", "player": 0, "at": [[6, 0], [7, 0]]},       # no colony ship, markers
                {"type": "build", "player": 0, "piece": "booster"},                   # flight phase, no fuel
                {"type": "shake", "player": 0, "balls": ["red", "green"]},
                {"type": "buy_development", "player": 0}):
        with pytest.raises(ValueError):
            game.push(bad)
        assert game.summary() == before


def test_a_board_lists_every_problem_by_hex():
    with pytest.raises(BoardError) as info:
        star_board_from_json({"systems": [
            {"planets": [{"at": [0, 0], "resource": "ore", "number": 7},
                         {"at": [1, 0], "resource": "wood", "number": 5},
                         {"at": [3, 0], "resource": "food", "number": 5}]},
            {"planets": [{"at": [5, 0], "resource": "ore", "number": 5, "ice": 2},
                         {"at": [6, 0], "resource": "fuel", "number": 6},
                         {"at": [6, -1], "resource": "food", "number": 8}]}],
            "stations": [{"at": [6, 0], "alien": "merchants"}]})
    text = str(info.value)
    for part in ("hex [0, 0]: number 7 does not exist", "hex [1, 0]: resource must be one of",
                 "hex [5, 0]: a planet needs exactly one of number, pirate, ice",
                 "hex [6, 0]: a trade station needs a hex of its own"):
        assert part in text


def test_replay_cli_names_the_bad_board_and_the_bad_event(tmp_path):
    record = json.loads((SCENARIOS / "star_pirate_needs_cannons.json").read_text())["record"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    run = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 2 and run.stdout == ""
    assert "event 14 (defeat_pirate): the pirate base at [7, 0] has strength 3; player 0 has 1 cannon(s)" in run.stderr
    record["board"]["systems"][0]["planets"][0]["number"] = 7
    path.write_text(json.dumps(record))
    run = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True,
                         cwd=ROOT)
    assert run.returncode == 2 and "board: hex [0, 0]: number 7 does not exist" in run.stderr


def test_the_example_game_replays_from_the_command_line():
    run = subprocess.run([sys.executable, "-m", "companion", "replay", "companion/assets/games/example-starfarers.json",
                          "--outcomes"], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    state = json.loads(run.stdout)
    assert state["winner"] is None or state["turn"]["phase"] == "game_over"
    assert {o["kind"] for o in state["outcomes"]} >= {"roll", "shake", "found_colony", "trade_station", "end_turn"}


def test_unknown_options_and_player_counts_are_refused():
    record = scenario("star_production_supply_and_seven")
    record.options = {"vp_target": 15, "robber": True}
    with pytest.raises(RecordError, match="unknown option"):
        replay(record)
    record = scenario("star_production_supply_and_seven")
    record.players = record.players[:2]
    with pytest.raises(RecordError, match="3-4 players, not 2"):
        replay(record)


# --- random legal games ------------------------------------------------------------------------------------
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), budget=st.integers(20, 250))
def test_random_games_replay_from_their_record_and_undo_to_the_start(seed, budget):
    from companion.record import Record
    from companion.rules.starfarers_random import random_events

    played = game_class("starfarers")(first_game_board(), 3 + seed % 2)
    events = list(random_events(played, random.Random(seed), budget))
    players = [{"name": f"P{i}", "color": c} for i, c in zip(range(played.n_players), ["red", "blue", "white", "orange"])]
    again = replay(Record("starfarers", players, first_game_board().to_json(), {}, events))
    assert again.summary() == played.summary()
    assert [o.to_json() for o in again.outcomes] == [o.to_json() for o in played.outcomes]
    # cards are never made or lost: hands + stock + supply pile = 100
    s = played.state
    assert sum(p.hand.size for p in s.players) + sum(s.bank.values()) + played.fleet.supply.size == 100
    fresh = game_class("starfarers")(first_game_board(), played.n_players).summary()
    while played.events:
        played.pop()
    assert played.summary() == fresh


def test_flight_owed_says_exactly_when_the_rules_refuse_end_turn():
    """What the screen asks before offering "End turn" is the rules' own refusal (seed 003: the flight is
    skipped only with no ship in space), at every point of the example game and a random one."""
    from companion.record import Record
    from companion.rules.starfarers_random import random_events

    example = parse_record(json.loads((ROOT / "companion" / "assets" / "games" / "example-starfarers.json").read_text()))
    played = game_class("starfarers")(first_game_board(), 4)
    randomly = list(random_events(played, random.Random(7), 300))
    players = [{"name": f"P{i}", "color": c} for i, c in enumerate(["red", "blue", "white", "orange"])]
    checked = {True: 0, False: 0}
    for record in (example, Record("starfarers", players, first_game_board().to_json(), {}, randomly)):
        game = replay(record, upto=0)
        for event in record.events:
            if game.state.phase in ("main", "flight"):
                owed = game.flight_owed()
                try:
                    game.push({"type": "end_turn", "player": game.state.turn_player})
                except IllegalAction as refused:
                    assert owed and refused.code == "flight_owed", refused
                else:
                    assert not owed
                    game.pop()
                checked[owed] += 1
            game.push(event)
    assert checked[True] and checked[False], checked


@pytest.mark.parametrize("name", ["example-starfarers", "example-card-game"])
def test_a_live_table_journals_undoes_and_resumes_both_games(name, tmp_path):
    """The Table and its SQLite journal serve these games unchanged: outcomes published, undo, resume."""
    from companion.record import load_record
    from companion.record.journal import Journal
    from companion.table import Table

    record = load_record(ROOT / "companion" / "assets" / "games" / f"{name}.json")
    events, record.events = record.events, []
    journal = Journal(tmp_path / "journal.sqlite3")
    table = Table.create(journal, record, name)
    heard = []
    table.add_listener(heard.append)
    for event in events[:40]:
        table.submit(event)
    assert [o.index for o in heard] == list(range(40))
    table.undo()
    resumed = Table(Journal(tmp_path / "journal.sqlite3"), table.game_id)
    assert resumed.game.summary() == table.game.summary() == replay(
        parse_record({**load_record(ROOT / "companion" / "assets" / "games" / f"{name}.json").to_json(), "events": events[:39]})
    ).summary()
    with pytest.raises(ValueError):
        table.submit({"type": "roll", "dice": [9, 9]})
    assert len(table.record.events) == 39
