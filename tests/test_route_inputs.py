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

from companion.rules.routes import longest_route

from rebuild_games import fresh_game, played_with_undos, put_back_one_by_one, removed_one_by_one


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


@pytest.mark.parametrize("kind, players, seed", [("base", 4, 2), ("base", 3, 8), ("base56", 5, 3),
                                                 ("seafarers", 4, 5), ("high-tide", 4, 6)])
def test_routes_equal_a_search_from_scratch_after_every_event_undo_and_removal(kind, players, seed):
    game = fresh_game(kind, players, seed)
    rng = random.Random(seed)
    for _ in played_with_undos(game, rng, check):
        pass
    assert max(game.state.route_lengths) >= 3 and len(game.state.buildings) >= players
    # the umpire takes the buildings off (routes through their corners mend), then every second road
    spots = sorted(game.state.buildings) + sorted(game.state.pieces)[::2]
    twin = removed_one_by_one(game, spots, check)
    put_back_one_by_one(game, spots, check)  # (each building put back cuts again)
    assert game.state.route_lengths == twin.state.route_lengths
