"""Victory points are counted from the pieces on the board, whatever changed them (issue 27's rebuild check).

The win check asks every event for the turn player's VP; the buildings' share is kept with a copy of the
buildings it was counted from and counted again whenever they differ (``Game._building_vp``).  These games
check it against a count made from scratch after every event, every undo, every umpire's removal, and in a
copied game played on apart from the original.
"""

import random

import pytest

from companion.rules.game import BUILDING_WEIGHTS

from rebuild_games import fresh_game, played_with_undos, put_back_one_by_one, removed_one_by_one


def counted_afresh(game, player):
    s = game.state
    vp = sum(BUILDING_WEIGHTS[kind] for owner, kind in s.buildings.values() if owner == player)
    vp += 2 * (s.longest_road == player) + 2 * (s.largest_army == player)
    return vp + s.players[player].dev.get("victory_point", 0)


def check(game):
    assert [game.victory_points(p) for p in range(game.n_players)] == \
        [counted_afresh(game, p) for p in range(game.n_players)]


@pytest.mark.parametrize("kind, players, seed", [("base", 4, 1), ("base", 3, 2), ("base56", 6, 3),
                                                 ("high-tide", 4, 4)])
def test_vp_equal_a_count_from_the_pieces_after_every_event_undo_and_removal(kind, players, seed):
    game = fresh_game(kind, players, seed, high_tide_options={})  # (plays on: every building the supply has)
    rng = random.Random(seed)
    pushed = 0
    for _ in played_with_undos(game, rng, check):
        pushed += 1
    assert pushed > 300 and len(game.state.buildings) >= 2 * players
    spots = sorted(game.state.buildings)
    twin = removed_one_by_one(game, spots, check)
    assert game.victory_points(0) <= 4 + game.state.players[0].dev.get("victory_point", 0)
    put_back_one_by_one(game, spots, check)
    assert game.state.buildings == twin.state.buildings
