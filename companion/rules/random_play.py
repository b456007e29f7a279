"""Random legal play, for property tests, benchmarks and example records.

Chooses among legal events with a seeded ``random.Random``; every event it returns was accepted by
the rules.  It plays crudely (builds when it can afford to), which is enough to reach every rule.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from .game import (DISCARD, GAME_OVER, GOLD, MAIN, MOVE_ROBBER, ROLL, SETUP_ROAD, SETUP_SETTLEMENT,
                   SPECIAL_BUILD, STEAL, Game)


def _as_json(x: Any) -> Any:
    return [list(h) for h in x]


def random_events(game: Game, rng: random.Random, max_events: int = 1000) -> Iterator[dict[str, Any]]:
    """Push random legal events onto ``game`` and yield each one, until the game ends or the budget runs out."""
    return play_randomly(game, _choose, rng, max_events)


def play_randomly(game: Any, choose: Callable[[Any, random.Random], dict[str, Any]], rng: random.Random,
                  budget: int) -> Iterator[dict[str, Any]]:
    """The one random-play driver of every game: ``choose`` picks a legal event, the game takes it."""
    for _ in range(budget):
        if game.state.phase == GAME_OVER:
            return
        event = choose(game, rng)
        game.push(event)
        yield event


def _choose(game: Game, rng: random.Random) -> dict[str, Any]:
    s = game.state
    who = game.waiting_for()
    if s.phase == SETUP_SETTLEMENT:
        return {"type": "build", "player": who, "piece": "settlement",
                "at": _as_json(rng.choice(game.legal_settlement_spots_setup()))}
    if s.phase == SETUP_ROAD:
        spots = [(piece, e) for e in game.board.vertex_edges[s.setup_vertex] for piece in game.link_pieces()
                 if game._link_problem(who, piece, e, touching=s.setup_vertex) is None]
        piece, e = rng.choice(spots)
        return {"type": "build", "player": who, "piece": piece, "at": _as_json(e)}
    if s.phase == GOLD:
        return {"type": "gold", "player": who, "cards": _bank_cards(game, min(s.gold_owed[who], sum(s.bank.values())), rng)}
    if s.phase == "flood":
        return {"type": "flood", "at": list(rng.choice(game.tide.flood_choices))}
    if s.phase == SPECIAL_BUILD and rng.random() < 0.4:
        builder = rng.choice(s.special_queue) if s.special_queue else None
        if builder is not None:
            build = _build_action(game, builder, rng, special=True)
            if build is not None:
                return build
    if s.phase in (ROLL, SPECIAL_BUILD):
        if _playable(game, s.turn_player, "knight") and rng.random() < 0.3:
            return {"type": "play_development", "player": s.turn_player, "card": "knight"}
        return {"type": "roll", "dice": [rng.randint(1, 6), rng.randint(1, 6)]}
    if s.phase == DISCARD:
        p = min(s.discards_owed)
        return {"type": "discard", "player": p, "cards": _random_cards(game, p, s.discards_owed[p], rng)}
    if s.phase == MOVE_ROBBER:
        moves = [("move_robber", h) for h in game.robber_hexes()]
        moves += [("move_pirate", h) for h in getattr(game, "pirate_hexes", tuple)()]
        kind, h = rng.choice(moves)
        return {"type": kind, "to": list(h)}
    if s.phase == STEAL:
        victim = rng.choice(s.steal_candidates)
        hand = s.players[victim].hand
        known = [r for r, n in hand.known.items() for _ in range(n)]
        card = rng.choice(known) if known and rng.random() < 0.5 and hand.unknown == 0 else None
        return {"type": "steal", "from": victim, "card": card}
    assert s.phase == MAIN, s.phase
    return _main_action(game, who, rng)


def _bank_cards(game: Game, count: int, rng: random.Random) -> dict[str, int]:
    bank = dict(game.state.bank)
    out: dict[str, int] = {}
    for _ in range(count):
        r = rng.choice([r for r, n in bank.items() if n])
        bank[r] -= 1
        out[r] = out.get(r, 0) + 1
    return out


def _random_cards(game: Game, player: int, count: int, rng: random.Random) -> dict[str, int]:
    hand = game.state.players[player].hand
    pool = [r for r, n in hand.known.items() for _ in range(n)]
    rng.shuffle(pool)
    chosen = pool[:count]
    if len(chosen) < count:  # unseen cards: the player names some resource they do hold
        chosen += unseen_names(game, count - len(chosen), rng)
    out: dict[str, int] = {}
    for r in chosen:
        out[r] = out.get(r, 0) + 1
    return out


def unseen_names(game: Game, count: int, rng: random.Random) -> list[str]:
    """Names for ``count`` of a hand's unseen cards: only kinds an unseen card may be (``Game.unseen_may_be``: not
    a kind the bank and the known hands hold all of).  A name drawn among all kinds is kept when it may be (the
    draw as before, so a seeded game that never named an impossible card plays as it did); else one is drawn
    again among the kinds that may be."""
    left = {r: game.unseen_may_be(r) for r in game.resources}
    names = []
    for _ in range(count):
        r = rng.choice(game.resources)
        if left[r] <= 0:
            r = rng.choice([x for x in game.resources if left[x] > 0])
        left[r] -= 1
        names.append(r)
    return names


def _playable(game: Game, player: int, card: str) -> bool:
    """A card the player holds from an earlier turn -- or an unseen one that may turn out to be it."""
    s = game.state
    st = s.players[player]
    unseen = st.dev_unknown - st.dev_new_unknown > 0 and s.deck.get(card, 0) > 0
    return not s.dev_played and (st.dev.get(card, 0) - st.dev_new.get(card, 0) > 0 or unseen)


def _build_options(game: Game, player: int, rng: random.Random, *, special: bool = False) -> list[dict[str, Any]]:
    """Builds (and development purchases) the player can afford and place now."""
    s = game.state
    hand = s.players[player].hand
    costs = game.costs
    options: list[dict[str, Any]] = []

    def affordable(cost):
        return all(hand.known.get(r, 0) >= n for r, n in cost.items())

    for piece in game.link_pieces():
        if ((s.free_roads and not special) or affordable(costs[piece])) and game.pieces_left(player, piece) > 0:
            spots = [e for e in game.board.edges if game._link_problem(player, piece, e) is None]
            if spots:
                options.append({"type": "build", "player": player, "piece": piece,
                                "at": _as_json(rng.choice(sorted(spots)))})
    if affordable(costs["settlement"]) and game.pieces_left(player, "settlement") > 0:
        spots = game.legal_settlement_spots(player)
        if spots:
            options.append({"type": "build", "player": player, "piece": "settlement",
                            "at": _as_json(rng.choice(spots))})
    if affordable(costs["city"]) and game.pieces_left(player, "city") > 0:
        mine = sorted(v for v, (p, k) in s.buildings.items() if p == player and k == "settlement")
        if mine:
            options.append({"type": "build", "player": player, "piece": "city", "at": _as_json(rng.choice(mine))})
    if affordable(costs["development"]) and s.deck_size:
        left = [c for c, n in s.deck.items() for _ in range(n)]
        # a quarter of the purchases stay unseen by the table (card null), as a real table records them
        options.append({"type": "buy_development", "player": player,
                        "card": rng.choice(left) if left and rng.random() < 0.75 else None})
    tide = getattr(game, "tide", None)
    if (tide is not None and not special and tide.phase in ("dike_round", "high_tide")
            and tide.dikes_left[player] and affordable(costs["dike"])):
        free = sorted(h for h in game.board.land if h not in tide.dikes)
        if free:
            options.append({"type": "build", "player": player, "piece": "dike", "at": list(rng.choice(free))})
    return options


def _build_action(game: Game, player: int, rng: random.Random, *, special: bool = False) -> dict[str, Any] | None:
    options = _build_options(game, player, rng, special=special)
    return rng.choice(options) if options else None


def _main_action(game: Game, player: int, rng: random.Random) -> dict[str, Any]:
    s = game.state
    hand = s.players[player].hand
    options = _build_options(game, player, rng)
    movable = getattr(game, "movable_ships", lambda p: [])(player)
    if movable:
        source = rng.choice(movable)
        targets = sorted(e for e in game.board.edges if e != source
                         and game._ship_problem(player, e, moving=source) is None)
        if targets:
            options.append({"type": "move_ship", "player": player, "from": _as_json(source),
                            "to": _as_json(rng.choice(targets))})
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
                    if any(st.hand.unknown for st in s.players):  # the table says what each handed over
                        event["taken"] = {str(p): s.players[p].hand.count(event["resource"])
                                          for p in range(game.n_players) if p != player}
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
