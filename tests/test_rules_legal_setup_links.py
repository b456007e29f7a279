"""``Game.legal_setup_links``: the spots the app offers for the set-up road (or ship) are exactly the accepted ones."""

from __future__ import annotations

import random

import pytest

from companion.rules import IllegalAction, standard_board
from companion.rules.game import Game
from companion.rules.seafarers import SeafarersGame


@pytest.mark.parametrize("cls", [Game, SeafarersGame])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_offered_links_are_exactly_the_accepted_ones(cls, seed):
    rng = random.Random(seed)
    game = cls(standard_board(seed), 3)
    assert game.legal_setup_links() == []  # a settlement comes first
    for _ in range(6):
        who = game.waiting_for()
        spot = rng.choice(game.legal_settlement_spots_setup())
        game.push({"type": "build", "player": who, "piece": "settlement", "at": [list(h) for h in spot]})
        offered = game.legal_setup_links()
        assert offered, "a settlement on land always has a road spot beside it"
        for piece in game.link_pieces():
            for e in game.board.edges:
                event = {"type": "build", "player": who, "piece": piece, "at": [list(h) for h in e]}
                try:
                    game.push(event)
                except IllegalAction:
                    assert (piece, e) not in offered
                else:
                    game.pop()
                    assert (piece, e) in offered
        piece, e = rng.choice(offered)
        game.push({"type": "build", "player": who, "piece": piece, "at": [list(h) for h in e]})
    assert game.legal_setup_links() == []
