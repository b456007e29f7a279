"""Random legal card-game events, for the example record and property tests (the rng is the caller's).

Each event is chosen among the moves the rules allow now and pushed before the next one, so the
events replay to the same game.  Not good play, only varied: exchanges of every kind, all five
builds, stand-in payments, fate flips, and taking road/knight cards once the decks run out.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from .card_game import CITY_FACES, COSTS, EXCHANGE, CardGame
from .random_play import play_randomly


def random_events(game: CardGame, rng: random.Random, budget: int) -> Iterator[dict[str, Any]]:
    """Push and yield up to ``budget`` random legal events (fewer if the game ends)."""
    return play_randomly(game, _choose, rng, budget)


def _choose(game: CardGame, rng: random.Random) -> dict[str, Any]:
    s = game.state
    me = s.turn_player
    t = s.players[me]
    if s.phase == EXCHANGE and s.exchanges_used < game.exchanges_allowed(me) and t.hand.size and rng.random() < 0.5:
        partners: list[Any] = ["pile"]
        if t.roads:
            partners += ["market"] + [p for p in range(game.n_players) if p != me and s.players[p].hand.size]
        partner = rng.choice(partners)
        event: dict[str, Any] = {"type": "exchange", "player": me, "with": partner}
        if partner == "market":
            event["get"] = rng.choice(game.resources)
        return event
    options = []
    for piece, cost in COSTS.items():
        if piece in s.built or not t.hand.can_pay(cost):
            continue
        event = {"type": "build", "player": me, "piece": piece}
        if piece in ("road", "knight"):
            if s.decks[piece] == 0 and game.take_target(me, piece)[0] is None:
                continue
        elif piece == "settlement":
            if not s.decks["settlement"]:
                continue
            event["flip_fate"] = rng.random() < 0.5
        elif piece == "city":
            if not t.settlements:
                continue
            event["face"] = rng.choice(CITY_FACES + ("robber_raid",))
        else:
            free = [k for k in game.options.expansion_kinds if k not in t.expansions]
            if not s.decks["expansion"] or not any(k is None for _, k in t.cities) or not free:
                continue
            event["kind"] = rng.choice(free)
        options.append(event)
    if options and rng.random() < 0.85:
        return rng.choice(options)
    return {"type": "end_turn", "player": me}
