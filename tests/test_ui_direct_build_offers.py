"""The board's offers with nothing armed promise only what the rules take: in random legal games of the base game,
the 5-6 extension, Seafarers and High Tide, every side and corner the play screen hints (``direct_builds``) is
built by the tap that hints it — the piece it names at that spot is accepted by the rules core — and no spot is
hinted for a piece the rules say cannot be built now (hypothesis over seeded random play)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import game_class, standard_board
from companion.rules.random_play import random_events
from companion.ui.play_screen import direct_builds
from test_variant_properties import new_game as variant_game

FAST = settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def new_game(kind: str, seed: int):
    if kind == "base":
        return game_class("base")(standard_board(seed), 3 + seed % 2)
    return variant_game(kind, seed)


@FAST
@given(kind=st.sampled_from(["base", "base56", "seafarers", "high-tide"]), seed=st.integers(0, 10**6),
       budget=st.integers(40, 500))
def test_every_hinted_spot_is_built_by_its_tap(kind, seed, budget):
    game = new_game(kind, seed)
    checked = 0
    for _ in random_events(game, random.Random(seed), budget):
        if game.state.phase not in ("main", "special_build") or checked >= 3:
            continue
        who = game.waiting_for()
        offers = direct_builds(game, who)
        if not offers:
            continue
        checked += 1
        for piece in {*offers.values()}:
            assert game.build_problem(who, piece) is None, (piece, game.build_problem(who, piece))
        for spot, piece in sorted(offers.items()):
            at = [list(h) for h in spot]
            game.push({"type": "build", "player": who, "piece": piece, "at": at})  # refused: RulesError
            game.pop()
