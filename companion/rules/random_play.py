"""Random legal play, for property tests, benchmarks and example records.

Chooses among legal events with a seeded ``random.Random``; every event it returns was accepted by
the rules.  It plays crudely (builds when it can afford to), which is enough to reach every rule.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from .game import (COSTS, DISCARD, GAME_OVER, MAIN, MOVE_ROBBER, ROLL, SETUP_ROAD, SETUP_SETTLEMENT, STEAL,
                   Game)


def _as_json(x: Any) -> Any:
    return [list(h) for h in x]


def random_events(game: Game, rng: random.Random, max_events: int = 1000) -> Iterator[dict[str, Any]]:
    """Push random legal events onto ``game`` and yield each one, until the game ends or the budget runs out."""
    for _ in range(max_events):
        if game.state.phase == GAME_OVER:
            return
        event = _choose(game, rng)
        game.push(event)
        yield event


def _choose(game: Game, rng: random.Random) -> dict[str, Any]:
    s = game.state
    who = game.waiting_for()
    if s.phase == SETUP_SETTLEMENT:
        return {"type": "build", "player": who, "piece": "settlement",
                "at": _as_json(rng.choice(game.legal_settlement_spots_setup()))}
    if s.phase == SETUP_ROAD:
        spots = [e for e in game.board.vertex_edges[s.setup_vertex]
                 if game._road_problem(who, e, touching=s.setup_vertex) is None]
        return {"type": "build", "player": who, "piece": "road", "at": _as_json(rng.choice(spots))}
    if s.phase == ROLL:
        if _playable(game, who, "knight") and rng.random() < 0.3:
            return {"type": "play_development", "player": who, "card": "knight"}
        return {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    if s.phase == DISCARD:
        p = min(s.discards_owed)
        return {"type": "discard", "player": p, "cards": _random_cards(game, p, s.discards_owed[p], rng)}
    if s.phase == MOVE_ROBBER:
        return {"type": "move_robber", "to": list(rng.choice(game.robber_hexes()))}
    if s.phase == STEAL:
        victim = rng.choice(s.steal_candidates)
        hand = s.players[victim].hand
        known = [r for r, n in hand.known.items() for _ in range(n)]
        card = rng.choice(known) if known and rng.random() < 0.5 and hand.unknown == 0 else None
        return {"type": "steal", "from": victim, "card": card}
    assert s.phase == MAIN, s.phase
    return _main_action(game, who, rng)


def _random_cards(game: Game, player: int, count: int, rng: random.Random) -> dict[str, int]:
    hand = game.state.players[player].hand
    pool = [r for r, n in hand.known.items() for _ in range(n)]
    rng.shuffle(pool)
    chosen = pool[:count]
    while len(chosen) < count:  # unseen cards: the player names some resource they do hold
        chosen.append(rng.choice(game.resources))
    out: dict[str, int] = {}
    for r in chosen:
        out[r] = out.get(r, 0) + 1
    return out


def _playable(game: Game, player: int, card: str) -> bool:
    s = game.state
    st = s.players[player]
    return not s.dev_played and (st.dev.get(card, 0) - st.dev_new.get(card, 0) > 0)


def _main_action(game: Game, player: int, rng: random.Random) -> dict[str, Any]:
    s = game.state
    hand = s.players[player].hand
    options: list[dict[str, Any]] = []

    def affordable(cost):
        return all(hand.known.get(r, 0) >= n for r, n in cost.items())

    if s.free_roads or affordable(COSTS["road"]):
        spots = game.legal_road_spots(player)
        if spots and game.pieces_left(player, "road") > 0:
            options.append({"type": "build", "player": player, "piece": "road", "at": _as_json(rng.choice(spots))})
    if affordable(COSTS["settlement"]) and game.pieces_left(player, "settlement") > 0:
        spots = game.legal_settlement_spots(player)
        if spots:
            options.append({"type": "build", "player": player, "piece": "settlement",
                            "at": _as_json(rng.choice(spots))})
    if affordable(COSTS["city"]) and game.pieces_left(player, "city") > 0:
        mine = [v for v, (p, k) in s.buildings.items() if p == player and k == "settlement"]
        if mine:
            options.append({"type": "build", "player": player, "piece": "city", "at": _as_json(rng.choice(mine))})
    if affordable(COSTS["development"]) and s.deck_size:
        left = [c for c, n in s.deck.items() for _ in range(n)]
        options.append({"type": "buy_development", "player": player,
                        "card": rng.choice(left) if left else None})
    if not s.free_roads:
        for card in ("knight", "road_building", "year_of_plenty", "monopoly"):
            if _playable(game, player, card):
                event: dict[str, Any] = {"type": "play_development", "player": player, "card": card}
                if card == "year_of_plenty":
                    have = [r for r in game.resources if s.bank[r] > 0]
                    if not have:
                        continue
                    event["resources"] = [rng.choice(have), rng.choice(have)]
                    if event["resources"][0] == event["resources"][1] and s.bank[event["resources"][0]] < 2:
                        continue
                if card == "monopoly":
                    event["resource"] = rng.choice(game.resources)
                options.append(event)
    ratios = game.harbor_ratios(player)
    for r, n in hand.known.items():
        if n >= ratios[r]:
            wants = [x for x in game.resources if x != r and s.bank[x] > 0]
            if wants:
                options.append({"type": "trade", "player": player, "with": "bank", "give": {r: ratios[r]},
                                "get": {rng.choice(wants): 1}})
    others = [p for p in range(game.n_players) if p != player and s.players[p].hand.known]
    if hand.known and others and rng.random() < 0.2:
        other = rng.choice(others)
        give = rng.choice([r for r, n in hand.known.items() if n])
        gets = [r for r, n in s.players[other].hand.known.items() if n and r != give]
        if gets:
            options.append({"type": "trade", "player": player, "with": other, "give": {give: 1},
                            "get": {rng.choice(gets): 1}})
    if options and rng.random() < 0.8:
        return rng.choice(options)
    return {"type": "end_turn"}
