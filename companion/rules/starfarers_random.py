"""Random legal Starfarers events, for the example record and property tests (the rng is the caller's).

Every event is chosen among the moves the rules allow now and pushed before the next is chosen, so the
events are a record that replays to the same game.  The play is not meant to be good, only varied:
it founds colonies, docks trade ships, fights pirate bases, terraforms, meets encounters and trades.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from .game import DISCARD, MAIN, ROLL, STEAL
from .starfarers import (COSTS, ENCOUNTER, FLIGHT, SETUP_COLONY, SETUP_SPACEPORT, SETUP_UPGRADES, SHIPS,
                         UPGRADE_MAX, StarfarersGame, shake_mothership)
from .starfarers_board import DOCKS, NUMBERS
from .random_play import play_randomly, unseen_names


def random_events(game: StarfarersGame, rng: random.Random, budget: int) -> Iterator[dict[str, Any]]:
    """Push and yield up to ``budget`` random legal events (fewer if the game ends)."""
    return play_randomly(game, _choose, rng, budget)


def _named(game: StarfarersGame, hand, n: int, rng: random.Random) -> dict[str, int]:
    """``n`` cards out of a hand: known ones first, then names for unseen ones (kinds an unseen card may be:
    ``random_play.unseen_names``)."""
    cards: dict[str, int] = {}
    pool = [r for r, k in hand.known.items() for _ in range(k)]
    rng.shuffle(pool)
    for r in pool[:n]:
        cards[r] = cards.get(r, 0) + 1
    for r in unseen_names(game, n - min(n, len(pool)), rng):
        cards[r] = cards.get(r, 0) + 1
    return cards


def _choose(game: StarfarersGame, rng: random.Random) -> dict[str, Any]:
    s, board, fleet = game.state, game.board, game.fleet
    phase, me = s.phase, game.waiting_for()
    if phase == SETUP_COLONY:
        spots = sorted(e for e in board.sites if game.colony_site_problem(me, e, setup=True) is None)
        return {"type": "build", "player": me, "piece": "colony", "at": [list(h) for h in rng.choice(spots)]}
    if phase == SETUP_SPACEPORT:
        mine = sorted(e for e, (p, k) in s.buildings.items() if p == me and k == "colony")
        return {"type": "setup_spaceport", "player": me, "at": [list(h) for h in rng.choice(mine)],
                "ship": rng.choice(SHIPS), "upgrade": rng.choice(sorted(SETUP_UPGRADES))}
    if phase == ROLL:
        return {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    if phase == DISCARD:
        return {"type": "discard", "player": me,
                "cards": _named(game, s.players[me].hand, s.discards_owed[me], rng)}
    if phase == STEAL:
        return {"type": "steal", "from": rng.choice(s.steal_candidates), "card": None}
    if phase == ENCOUNTER:
        medals = rng.choice([-1, 0, 1, 1]) if fleet.half_medals[me] else rng.choice([0, 1])
        event: dict[str, Any] = {"type": "encounter", "player": me, "half_medals": medals}
        stocked = [r for r in game.resources if s.bank[r]]
        if stocked and rng.random() < 0.4:
            event["gain"] = {rng.choice(stocked): 1}
        return event
    if phase == MAIN:
        hand = s.players[me].hand
        options = []
        for piece, cost in COSTS.items():
            if not hand.can_pay(cost) or (hand.unknown and game.unseen_problem({me: cost}) is not None):
                continue
            if piece in UPGRADE_MAX and fleet.upgrades[me][piece] >= UPGRADE_MAX[piece]:
                continue
            if piece in SHIPS and (game.pieces_left(me, "transport") <= 0 or game.pieces_left(
                    me, "colony" if piece == "colony_ship" else "trade_station") <= 0):
                continue
            if piece == "spaceport":
                colonies = sorted(e for e, (p, k) in s.buildings.items() if p == me and k == "colony")
                if not colonies or game.pieces_left(me, "spaceport_ring") <= 0:
                    continue
                options.append({"type": "build", "player": me, "piece": piece,
                                "at": [list(h) for h in rng.choice(colonies)]})
                continue
            options.append({"type": "build", "player": me, "piece": piece})
        ratios = game.harbor_ratios(me)
        for r, k in hand.known.items():
            wanted = [x for x in game.resources if x != r and s.bank[x]]
            if k >= ratios[r] and wanted:
                options.append({"type": "trade", "player": me, "with": "bank", "give": {r: ratios[r]},
                                "get": {rng.choice(wanted): 1}})
        if options and rng.random() < 0.8:
            return rng.choice(options)
        if sum(fleet.ships[me].values()):
            a, b = shake_mothership(rng)
            return {"type": "shake", "player": me, "balls": [a, b], "source": "virtual"}
        return {"type": "end_turn"}
    if phase == FLIGHT:
        options = []
        ups = fleet.upgrades[me]
        if fleet.ships[me]["colony_ship"]:
            spots = sorted(e for e in board.sites if game.colony_site_problem(me, e) is None)
            options += [{"type": "found_colony", "player": me, "at": [list(h) for h in e]} for e in spots[:6]]
        if fleet.ships[me]["trade_ship"]:
            options += [{"type": "trade_station", "player": me, "at": list(h)} for h, docked in
                        sorted(fleet.docks.items()) if len(docked) < DOCKS and ups["freight_ring"] > len(docked)]
        for h, planet in sorted(board.planets.items()) if sum(fleet.ships[me].values()) else ():
            if planet.pirate is not None and ups["cannon"] >= planet.pirate:
                options.append({"type": "defeat_pirate", "player": me, "at": list(h), "number": rng.choice(NUMBERS)})
            if planet.ice is not None and ups["freight_ring"] >= planet.ice:
                options.append({"type": "terraform", "player": me, "at": list(h), "number": rng.choice(NUMBERS)})
        if options and rng.random() < 0.7:
            return rng.choice(options)
        return {"type": "end_turn"}
    raise AssertionError(f"no random move for phase {phase}")  # pragma: no cover
