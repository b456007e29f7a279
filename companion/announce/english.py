"""English sentences from an outcome, as clip keys: "Eight. Red takes two wool and one ore. Blue takes one ore."

Short sentences, each closed by a full-stop pause, subject first so the colour is the first word a
player hears.  See :mod:`.phrases` for the order of the news.
"""

from __future__ import annotations

from typing import Sequence

from ..rules.card_game import CardOutcome
from ..rules.outcome import Outcome
from ..rules.starfarers import StarOutcome
from .phrases import (Language, left_of, mention, numbered_places, register_language, robber_mover,
                      tied_places, who_robs)
from .vocabulary import ALIENS, BALLS, FLOOD_TERRAINS, LANDMARK_TERRAINS, MAX_COUNT, PHASES, RESOURCES

_PIECES = {"road": ("a_road", "roads"), "ship": ("a_ship", "ships"),
           "settlement": ("a_settlement", "settlements"), "city": ("a_city", "cities")}
_AWARDS = {"longest_road": ("longest_road", "road", "roads"), "largest_army": ("largest_army", "knight", "knights"),
           "longest_trade_route": ("longest_trade_route", "road", "roads")}


def _count(n: int) -> str:
    return f"n{n}" if 0 <= n <= MAX_COUNT else "many"


def _tile(terrain: str, number: int | None) -> list[str]:
    """"five mountains", "desert" (after "the")."""
    return ([_count(number)] if number is not None else []) + [f"terrain_{terrain}"]


def _flood(o: Outcome) -> list[str]:
    """"The tide floods the five mountains." -- every hex it took, as it was, in the screen's words: "... the six
    fields and the six hills", a twin told apart by its neighbour: "the five mountains next to the eight hills".
    Without the names (an outcome not from the rules, an unknown terrain): "The tide floods the land."."""
    if not o.floods or any(f.terrain not in FLOOD_TERRAINS for f in o.floods):
        return ["tide_floods", "."]
    items = []
    for i, f in enumerate(o.floods):
        item = ([] if i == 0 else ["the"]) + _tile(f.terrain, f.number)
        if f.beside is not None and f.beside[0] in LANDMARK_TERRAINS:
            item += ["next_to_the", *_tile(*f.beside)]
        items.append(item)
    return ["tide_floods_the", *_listing(items), "."]


def _dikes(o: Outcome) -> list[str]:
    """"The dike on the six fields held back the tide, and is removed." -- every dike that held, named as the
    screen names it ("The dikes on the six fields and the six hills held back the tide, and are removed."; a twin
    told apart by its neighbour).  Without the names: "The dike held back the tide, and is removed."."""
    if not o.dikes or any(d.terrain not in FLOOD_TERRAINS for d in o.dikes):
        return ["dike_held", "."]
    items = []
    for i, d in enumerate(o.dikes):
        item = ([] if i == 0 else ["the"]) + _tile(d.terrain, d.number)
        if d.beside is not None and d.beside[0] in LANDMARK_TERRAINS:
            item += ["next_to_the", *_tile(*d.beside)]
        items.append(item)
    one = len(o.dikes) == 1
    return ["the_dike_on_the" if one else "the_dikes_on_the", *_listing(items),
            "held_back_the_tide" if one else "held_back_the_tide_many", "."]


def _resource(name: str | None) -> str:
    return name if name in RESOURCES else "resource_other"


def _listing(items: list[list[str]], joiner: str = "and") -> list[str]:
    """a, b and c — each item already a list of keys."""
    out: list[str] = []
    for i, item in enumerate(items):
        if i and i == len(items) - 1:
            out.append(joiner)
        elif i:
            out.append(",")
        out.extend(item)
    return out


def given_back_tokens(paid: dict[int, dict[str, int]], colors: Sequence[str], game: str | None = None) -> list[str]:
    """What a roll put right had paid out, to go back: "Red gives back one ore." (``paid``: seat → cards)."""
    t: list[str] = []
    for seat, got in sorted(paid.items()):
        amounts = [[_count(n), _resource(r)] for r, n in got.items() if n]
        if amounts and 0 <= seat < len(colors):
            t += [mention(colors, seat), "gives_back", *_listing(amounts), "."]
    return t


def trade_tokens(event: dict, colors: Sequence[str]) -> list[str]:
    """A trade as the table hears it: "Red trades two wool to the bank for one ore." / "… to blue for …"."""
    give = [[_count(n), _resource(r)] for r, n in event["give"].items() if n]
    get = [[_count(n), _resource(r)] for r, n in event["get"].items() if n]
    partner = ["to_the_bank"] if event["with"] == "bank" else ["to", mention(colors, event["with"])]
    return [mention(colors, event["player"]), "trades", *_listing(give), *partner, "for", *_listing(get), "."]


def outcome_tokens(o: Outcome, colors: Sequence[str]) -> list[str]:
    def who(seat: int) -> str:
        return mention(colors, seat, index=o.index)

    t: list[str] = []
    if o.player is not None and o.kind == "buy_development":  # the card stays secret; that it was bought is news
        t += [who(o.player), "buys_a_development_card", "."]
    if o.player is not None and o.kind == "trade":  # said with what went each way when the event is known
        t += [who(o.player), "trades", "."]
    if o.dice:
        t += [f"roll{o.number}", "."]
        if o.number != 7 and not o.payouts and not o.gold_owed:
            t += ["no_production", "."]
    for seat, got in o.payouts.items():
        amounts = [[_count(n), _resource(r)] for r, n in got.items() if n]
        if amounts:
            t += [who(seat), "takes", *_listing(amounts), "."]
    if o.shortages:
        t += ["bank_short", *_listing([[_resource(r)] for r in o.shortages]), "."]
    # A gold choice or a discard repeats who still owes one; the table heard that with the roll.
    if o.kind != "gold":
        for seat, n in o.gold_owed.items():
            t += [who(seat), "picks", _count(n), "from_gold", "."]
    if o.kind != "discard":
        returns = "returns" if isinstance(o, StarOutcome) else "discards"  # Starfarers: back to the stock
        for seat, n in o.discards_owed.items():
            t += [who(seat), returns, _count(n), "."]
    if o.robber_hexes or o.pirate_hexes:
        mover = robber_mover(o)
        move = ("moves_robber_or_pirate" if o.robber_hexes and o.pirate_hexes
                else "moves_robber" if o.robber_hexes else "moves_pirate")
        t += ([who(mover)] if mover is not None else []) + [move, "."]
    if o.robber_moved is not None:
        t += ["robber_moved", "."]
    if o.pirate_moved is not None:
        t += ["pirate_moved", "."]
    if o.steal_from:
        mover = who_robs(o)
        t += ([who(mover)] if mover is not None else []) + ["can_rob",
                                                           *_listing([[who(s)] for s in o.steal_from], "or"), "."]
    elif o.robber_moved is not None or o.pirate_moved is not None:
        t += ["nobody_to_rob", "."]
    if o.stolen is not None:
        victim, resource = o.stolen
        thief = [who(o.player)] if o.player is not None else []
        if resource is None:
            t += thief + ["steals_a_card_from", who(victim), "."]
        else:
            t += thief + ["steals", _resource(resource), "from", who(victim), "."]
    if isinstance(o, StarOutcome):
        t += _starfarers(o, who, colors)
    elif isinstance(o, CardOutcome):
        t += _card_game(o, who)
    # The tide before what it changed: floods and sunk pieces, then awards that moved because of them.
    if o.dike_removed is not None:
        t += _dikes(o)
    if o.flooded is not None:
        t += _flood(o)
    t += _sunk(o, who)
    for change in o.awards:
        if change.award.startswith("friendship_"):
            t += _friendship(change, who)
            continue
        award, one, many = _AWARDS.get(change.award, ("award_other", "road", "roads"))
        if change.after is None:
            t += [award, "is_set_aside", "."]
        else:
            t += [who(change.after), "now_holds", award]
            if change.length:
                t += [",", _count(change.length), one if change.length == 1 else many]
            t += ["."]
    if o.leader is not None:
        t += [who(o.leader), "is_leader", "."]
    if o.phase:
        t += [PHASES.get(o.phase, "phase_other"), "."]
    if o.flood_choices:
        chooser = o.player if o.player is not None else o.next_player  # the roller floods
        t += ([who(chooser)] if chooser is not None else []) + ["chooses_flood", "."]
    if len(o.winners) > 1:  # level on points and cards at High Tide's end: a shared win
        t += [*_listing([[who(p)] for p in o.winners]), "share_the_win", "."]
    elif o.winner is not None:
        t += [who(o.winner), "wins", "."]
    if tied_places(o):
        t += _places(o, who)
    elif len(o.ranking) > 1:
        t += ["final_order", *_listing([[who(s)] for s in o.ranking]), "."]
    if o.warnings:
        t += ["forced_note", "."]
    return t


def _places(o: Outcome, who) -> list[str]:
    """The places as they are when players are level: "Blue and white share second place. Orange is fourth."
    (after the win's own sentence, which says the first place; a game ended by time, with no winner, says the
    first place too: "Red and blue share first place.")."""
    t: list[str] = []
    for place, seats in numbered_places(o):
        if place == 1 and (o.winner is not None or o.winners):
            continue  # said: "Red wins the game." / "Red and white share the win."
        if len(seats) == 1:
            t += [who(seats[0]), f"is_place_{place}", "."]
        else:
            t += [*_listing([[who(s)] for s in seats]), f"share_place_{place}", "."]
    return t


def _sunk(o: Outcome, who) -> list[str]:
    """Red loses a settlement and two roads to the sea."""
    by_player: dict[int, dict[str, int]] = {}
    for piece in o.sunk:
        counts = by_player.setdefault(piece.player, {})
        counts[piece.piece] = counts.get(piece.piece, 0) + 1
    t: list[str] = []
    for seat, counts in by_player.items():
        items = []
        for piece, n in counts.items():
            one, many = _PIECES.get(piece, ("a_road", "roads"))
            items.append([one] if n == 1 else [_count(n), many])
        t += [who(seat), "loses", *_listing(items), "to_the_sea", "."]
    return t


def _starfarers(o: StarOutcome, who, colors: Sequence[str]) -> list[str]:
    """Supply draws, the mothership, what a flight achieved, half-medals (issue 9)."""
    t: list[str] = []
    if o.supply_draws:  # "White draws one, red one and blue two from the supply."
        items = [[who(seat), "draws", _count(n)] if i == 0 else [who(seat), _count(n)]
                 for i, (seat, n) in enumerate(o.supply_draws.items())]
        t += [*_listing(items), "from_the_supply", "."]
    if o.refills:
        t += ["supply_refilled", "."]
    if o.balls:
        t += [*_listing([[BALLS.get(b, "ball_black")] for b in o.balls]), "."]
    if o.speed is not None:
        t += ["speed", _count(o.speed)]
        if o.movement is not None and o.movement != o.speed:
            t += [",", _count(o.movement), "with_boosters"]
        t += ["."]
    if o.encounter:
        t += ["encounter", "."]
        if o.player is not None:  # the roller's left neighbour reads the encounter card (the seed)
            t += [who(left_of(o.player, colors)), "reads_the_card", "."]
    actor = [who(o.player)] if o.player is not None else []
    # Set-up placements are not news (everyone watched them placed); a colony or spaceport that scored is.
    scored = o.player is not None and o.player in o.vp
    if o.founded is not None and scored:
        t += actor + ["founds_a_colony", "."]
    if o.spaceport is not None and scored:
        t += actor + ["builds_a_spaceport", "."]
    if o.station is not None:
        t += actor + ["docks_a_trade_station", "."]
    if o.conquered is not None:
        t += actor + ["defeats_a_pirate_base" if o.conquered[0] == "pirate" else "terraforms_an_ice_planet", "."]
    for seat, change in o.half_medals.items():
        if change:
            n = abs(change)
            t += [who(seat), "gains" if change > 0 else "loses",
                  *(["a_half_medal"] if n == 1 else [_count(n), "half_medals"]), "."]
            if seat in o.vp:  # a pair made or broken: the points it moved
                t += [who(seat), "now_has", _count(o.vp[seat]), "point" if o.vp[seat] == 1 else "points", "."]
    return t


def _friendship(change, who) -> list[str]:
    """Red now holds the merchants' friendship marker, two stations."""
    alien = change.award.removeprefix("friendship_")
    marker = f"friendship_{alien}" if alien in ALIENS else "friendship_other"
    if change.after is None:
        return [marker, "is_set_aside", "."]
    t = [who(change.after), "now_holds", marker]
    if change.length:
        t += [",", _count(change.length), "station" if change.length == 1 else "stations"]
    return t + ["."]


def _card_game(o: CardOutcome, who) -> list[str]:
    """A city's face, the fate card, a card taken from a neighbour past protected players, the draw (issue 9)."""
    t: list[str] = []
    if o.city_face in ("robber_raid", "market_day"):
        t += [o.city_face, "."]
    if o.fate in ("black", "white"):
        t += ["fate_turns", f"fate_{o.fate}", "."]
    if o.taken and o.player is not None:
        piece = "a_knight" if o.taken.get("piece") == "knight" else "a_road"
        t += [who(o.player), "takes", piece, "from", who(o.taken["from"])]
        if o.taken.get("side") in ("A", "B"):
            t += [",", f"side_{o.taken['side'].lower()}"]
        t += ["."]
    for seat, reason in o.skipped:  # players passed over for having no such card are not news
        if reason in ("church", "city_wall"):
            t += [who(seat), "is_protected_by", f"a_{reason}", "."]
    # An exchange with the pile draws one card: the player's own business, quiet like a trade.
    if o.kind != "exchange":
        for seat, n in o.draws.items():
            if n:
                t += [who(seat), "draws", _count(n), "."]
    if o.reshuffled:
        t += ["discards_reshuffled", "."]
    return t


def market_tokens(event: dict, colors: Sequence[str]) -> list[str]:
    """The card game's exchange with the market, whose cards lie face up: "Red takes ore."."""
    return [mention(colors, event["player"]), "takes", _resource(event["get"]), "."]


register_language(Language("en", full_stop=".", spaced=True, outcome_tokens=outcome_tokens,
                           given_back_tokens=given_back_tokens, trade_tokens=trade_tokens,
                           market_tokens=market_tokens))
