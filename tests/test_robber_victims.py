"""Whom the robber can rob, hex by hex, before the tap (``Game.victims_by_hex``): the app shows it on the ringed
hexes at a 7 or a knight, so it must be exactly whom the move then offers to rob (the outcome's ``steal_from``).

Random legal games of every board game (tests/rebuild_games.py); at each robber move owed, every hex offered is
tried on a copy of the game and its outcome compared with what was shown for it."""

from __future__ import annotations

import random

import pytest

from companion.rules import geometry as geo
from rebuild_games import fresh_game
from companion.rules.random_play import random_events


@pytest.mark.parametrize("kind, players, seed", [("base", 3, 1), ("base", 4, 2), ("base56", 6, 3),
                                                 ("seafarers", 4, 4), ("high-tide", 4, 5)])
def test_the_victims_shown_for_each_hex_are_those_the_move_offers(kind, players, seed):
    game = fresh_game(kind, players, seed)
    rng = random.Random(seed)
    moves_checked = pirate_checked = robbed_somewhere = 0
    for _event in random_events(game, rng, 1500):
        shown = game.victims_by_hex()
        if game.state.phase != "move_robber":
            assert shown == {}, "nothing to show when no move is owed"
            continue
        robber = set(game.robber_hexes())
        pirate = set(getattr(game, "pirate_hexes", tuple)())
        assert set(shown) == robber | pirate, "every hex offered, and only those"
        for h, victims in shown.items():
            twin = game.copy()
            kind_of_move = "move_robber" if h in robber else "move_pirate"
            outcome = twin.push({"type": kind_of_move, "to": list(h)})
            assert outcome.steal_from == victims, (kind_of_move, h, outcome.steal_from, victims)
            assert game.state.turn_player not in victims, "a player never robs themselves"
            moves_checked += 1
            pirate_checked += kind_of_move == "move_pirate"
            robbed_somewhere += bool(victims)
        if moves_checked > 400:
            break
    assert moves_checked > 40 and robbed_somewhere > 5, (moves_checked, robbed_somewhere)
    if kind == "seafarers":
        assert pirate_checked > 0


def test_a_hex_robs_the_owners_of_its_corners_who_hold_cards():
    """Said plainly on one board: the robber beside two players' settlements may rob both, but not one who
    holds no card, and never the mover."""
    from companion.ui import driver as d
    _record, game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    game.push({"type": "roll", "dice": [3, 4]})
    while game.state.phase == "discard":
        p = min(game.state.discards_owed)
        hand = game.state.players[p].hand.known
        n, cards = game.state.discards_owed[p], {}
        for r, k in hand.items():
            take = min(k, n - sum(cards.values()))
            if take:
                cards[r] = take
        game.push({"type": "discard", "player": p, "cards": cards})
    shown = game.victims_by_hex()
    for h, victims in shown.items():
        owners = {game.state.buildings[v][0] for v in geo.hex_vertices(h) if v in game.state.buildings}
        expected = tuple(sorted(p for p in owners if p != game.state.turn_player
                                and game.state.players[p].hand.size > 0))
        assert victims == expected, h
    assert any(shown.values())
