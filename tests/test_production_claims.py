"""A roll pays what the board and the buildings say, however they came to be (issue 27's rebuild check).

What each hex owes for a number is kept per number with the board and a copy of the buildings it came from
(``Game._claims``) and made again whenever either differs.  These games check it against a computation from
scratch -- the tiles read again, every corner looked up -- for every number after every event, every undo, every
umpire's removal and in a copied game played on apart; and every roll's payouts against ``produce`` from the
state before the roll.  A memo that compared less than the whole buildings (their number: a city replacing a
settlement keeps it) or kept its claims across a flood (High Tide takes hexes, the buildings stay) fails here.
"""

import random

import pytest

from companion.rules.game import BUILDING_WEIGHTS
from companion.rules.geometry import hex_vertices
from companion.rules.production import claims, produce
from companion.rules.random_play import random_events

from rebuild_games import fresh_game, played_with_undos, put_back_one_by_one, removed_one_by_one

NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def from_scratch(board):
    """The board's numbers and resources read from its tiles, not from its tables."""
    by_number = {}
    for h in sorted(board.tiles):
        t = board.tiles[h]
        if t.number is not None and t.terrain != "sea":
            by_number.setdefault(t.number, []).append(h)
    resource_of = {h: ("gold" if t.terrain == "gold" else t.resource) for h, t in board.tiles.items()}
    return {n: tuple(hs) for n, hs in by_number.items()}, resource_of


def check(game):
    s = game.state
    by_number, resource_of = from_scratch(s.board)
    for n in NUMBERS:
        assert game._claims(n) == claims(n, by_number, resource_of, dict(s.buildings), BUILDING_WEIGHTS), n


def check_roll(game, outcome):
    """A roll's payouts and shortages as ``produce`` computes them from the state before it, corner by corner."""
    before = game._stack[-1]
    by_number, resource_of = from_scratch(before.board)
    blocked = frozenset((before.robber,)) if before.robber is not None else frozenset()
    expected = produce(sum(outcome.dice), by_number, resource_of, before.buildings, BUILDING_WEIGHTS, before.bank,
                       blocked, None)
    assert (outcome.payouts, outcome.shortages) == (expected.payouts, expected.shortages)
    assert all(isinstance(cards, dict) for cards in outcome.payouts.values())


@pytest.mark.parametrize("kind, players, seed", [("base", 4, 1), ("base56", 6, 3), ("seafarers", 4, 5),
                                                 ("high-tide", 4, 6)])
def test_rolls_pay_what_a_count_from_scratch_says_after_every_event_undo_and_removal(kind, players, seed):
    game = fresh_game(kind, players, seed)
    rng = random.Random(seed)
    rolls = paid = 0
    for event in played_with_undos(game, rng, check):
        if event["type"] == "roll":
            rolls += 1
            paid += bool(game.outcomes[-1].payouts)
            if sum(event["dice"]) != 7:
                check_roll(game, game.outcomes[-1])
    assert rolls > 50 and paid > 20
    assert any(kind == "city" for _, kind in game.state.buildings.values()) or kind == "high-tide"
    spots = sorted(game.state.buildings)
    twin = removed_one_by_one(game, spots, check)
    assert all(game._claims(n) == () for n in NUMBERS)
    put_back_one_by_one(game, spots, check)
    check(twin)


def test_claims_made_before_a_city_are_not_paid_after_it():
    """A settlement becomes a city: as many buildings as before, and the roll pays two cards, not one."""
    game = fresh_game("base", 4, 7)
    rng = random.Random(7)
    for _ in random_events(game, rng, 2000):
        s = game.state
        settlements = [v for v, (p, kind) in s.buildings.items() if kind == "settlement"]
        if s.phase == "main" and settlements:
            break
    v = settlements[0]
    player = s.buildings[v][0]
    number = next(s.board.tiles[h].number for h in v if s.board.tiles.get(h) and s.board.tiles[h].number)
    one = game._claims(number)
    game.push({"type": "set_hand", "player": player, "cards": {"ore": 3, "grain": 2}, "forced": True})
    game.push({"type": "build", "player": player, "piece": "city", "at": [list(h) for h in v], "forced": True})
    two = game._claims(number)
    assert len(s.buildings) == len(game.state.buildings)
    assert sum(n for _, _, owed in one for p, n in owed if p == player) + 1 <= \
        sum(n for _, _, owed in two for p, n in owed if p == player)
    check(game)
