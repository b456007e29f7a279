"""Longest Road is searched from the pieces, whatever changed them (issue 27's rebuild check).

``Game._route_lengths`` finds each player's blocked and own corners from the buildings' sides and keeps, per
player, the complete input of the last search with its length, compared whole before the remembered search is
asked.  These games check every player's route against a search from scratch (every piece, every other
player's building) after every event, every undo, every umpire's removal of a road or a building -- a
building taken off a corner mends the routes through it, one put back cuts them -- and in a copied game
played on apart.  A memo that compared the pieces but not the buildings on their corners fails here (the tide
sinks buildings beside roads) and in the scenarios' cut roads (tests/scenarios/longest_road_*).
"""

import random

import pytest

from companion.assets import read_json
from companion.record import COLORS, Record, new_game
from companion.rules import standard_board
from companion.rules.board import BASE_SPEC, EXTENSION_SPEC
from companion.rules.random_play import random_events
from companion.rules.routes import longest_route
from companion.rules.seafarers_board import seafarers_board


def from_scratch(game):
    s = game.state
    out = []
    for player in range(game.n_players):
        mine = {e: kind for e, (p, kind) in s.pieces.items() if p == player}
        out.append(longest_route(mine, [v for v, (p, _) in s.buildings.items() if p != player],
                                 [v for v, (p, _) in s.buildings.items() if p == player]))
    return out


def check(game):
    expected = from_scratch(game)
    assert game._route_lengths() == expected
    assert game.state.route_lengths == expected


def fresh_game(kind, players, seed):
    if kind == "high-tide":
        board = read_json("boards", f"high-tide-{'5-6' if players >= 5 else '3-4'}.json")
    elif kind == "seafarers":
        board = seafarers_board(seed, players).to_json()  # ships and roads meeting at settlements
    else:
        board = standard_board(seed, spec=EXTENSION_SPEC if players >= 5 else BASE_SPEC).to_json()
    options = {"vp_target": 30} if kind in ("base", "base56") else {}  # (plays on: every road the supply has)
    if kind == "high-tide":
        options = {"leader_vp": 4, "flood_all": True}  # (the tide sinks roads and buildings)
    return new_game(Record(kind, [{"name": f"P{i}", "color": COLORS[i]} for i in range(players)], board,
                           options=options))


@pytest.mark.parametrize("kind, players, seed", [("base", 4, 2), ("base", 3, 8), ("base56", 5, 3),
                                                 ("seafarers", 4, 5), ("high-tide", 4, 6)])
def test_routes_equal_a_search_from_scratch_after_every_event_undo_and_removal(kind, players, seed):
    game = fresh_game(kind, players, seed)
    rng = random.Random(seed)
    for _ in random_events(game, rng, 700):
        check(game)
        if rng.random() < 0.05:  # an undo now and then, and the event again
            event = game.pop()
            check(game)
            game.push(event)
            check(game)
    assert max(game.state.route_lengths) >= 3 and len(game.state.buildings) >= players
    twin = game.copy()
    buildings = sorted(game.state.buildings)
    roads = sorted(game.state.pieces)
    # the umpire takes the buildings off (routes through their corners mend), then every second road
    for spot in buildings + roads[::2]:
        game.push({"type": "remove_piece", "at": [list(h) for h in spot], "forced": True})
        check(game)
        check(twin)
    for _ in buildings + roads[::2]:  # and back, one by one (each building cuts again)
        game.pop()
        check(game)
    assert game.state.route_lengths == twin.state.route_lengths
