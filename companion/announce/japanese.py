"""Japanese sentences from an outcome, as clip keys: 「8。赤は羊毛2枚と鉄1枚、青は鉄1枚。」

Counts carry their counter (枚 for cards, 本 for roads, 人 for knights, 隻 for ships, つ for
buildings), each rendered as one clip so the reading (いちまい, ひとり, いっせき...) is the engine's, not
glued from digits.  The news comes in the same order as in English (:mod:`.english`).
"""

from __future__ import annotations

from typing import Sequence

from ..rules.outcome import Outcome
from .phrases import robber_mover
from .vocabulary import JA_COUNTERS, MAX_COUNT, PHASES, RESOURCES

_PIECE_COUNTERS = {"road": "hon", "ship": "seki", "settlement": "tsu", "city": "tsu"}
_AWARDS = {"longest_road": ("longest_road", "road", "hon"), "longest_trade_route": ("longest_road", "road", "hon"),
           "largest_army": ("largest_army", "knight", "nin")}


def _counted(prefix: str, n: int) -> str:
    """A count with its counter (``mai3`` = 3枚); past the recorded range, the bare number or たくさん."""
    top = JA_COUNTERS[prefix][1]
    if 1 <= n <= top:
        return f"{prefix}{n}"
    return f"n{n}" if 0 <= n <= MAX_COUNT else "many"


def _resource(name: str | None) -> str:
    return name if name in RESOURCES else "resource_other"


def _joined(items: list[list[str]], joiner: str) -> list[str]:
    out: list[str] = []
    for i, item in enumerate(items):
        if i:
            out.append(joiner)
        out.extend(item)
    return out


def outcome_tokens(o: Outcome, colors: Sequence[str]) -> list[str]:
    def who(seat: int, particle: str = "") -> str:
        if not 0 <= seat < len(colors):
            raise ValueError(f"outcome of event {o.index}: player {seat} has no colour "
                             f"({len(colors)} players)")
        return colors[seat] + (f"_{particle}" if particle else "")

    def actor() -> int | None:
        return o.player if o.player is not None else o.next_player

    t: list[str] = []
    if o.dice:
        t += [f"roll{o.number}", "。"]
        if o.number != 7 and not o.payouts and not o.gold_owed:
            t += ["no_production", "。"]
    payouts = [[who(seat, "wa"), *_joined([[_resource(r), _counted("mai", n)] for r, n in got.items() if n], "and")]
               for seat, got in o.payouts.items() if any(got.values())]
    if payouts:
        t += [*_joined(payouts, "、"), "。"]
    if o.shortages:
        t += ["bank_no", *_joined([[_resource(r)] for r in o.shortages], "and"), "short", "。"]
    # A gold choice or a discard repeats who still owes one; the table heard that with the roll.
    if o.kind != "gold":
        for seat, n in o.gold_owed.items():
            t += [who(seat, "wa"), "from_gold", _counted("mai", n), "choose", "。"]
    if o.discards_owed and o.kind != "discard":
        t += [*_joined([[who(seat, "wa"), _counted("mai", n)] for seat, n in o.discards_owed.items()], "、"),
              "discard", "。"]
    if o.robber_hexes or o.pirate_hexes:
        move = ("moves_robber_or_pirate" if o.robber_hexes and o.pirate_hexes
                else "moves_robber" if o.robber_hexes else "moves_pirate")
        mover = robber_mover(o)
        t += ([who(mover, "ga")] if mover is not None else []) + [move, "。"]
    if o.robber_moved is not None:
        t += ["robber_moved", "。"]
    if o.pirate_moved is not None:
        t += ["pirate_moved", "。"]
    if o.steal_from:
        mover = actor()
        t += ([who(mover, "wa")] if mover is not None else []) + [
            *_joined([[who(s)] for s in o.steal_from], "or"), "can_rob_from", "。"]
    elif o.robber_moved is not None or o.pirate_moved is not None:
        t += ["nobody_to_rob", "。"]
    if o.stolen is not None:
        victim, resource = o.stolen
        thief = [who(o.player, "ga")] if o.player is not None else []
        loot = ["stole_a_card"] if resource is None else [_resource(resource), "stole"]
        t += thief + [who(victim), "from", *loot, "。"]
    # The tide before what it changed (as in English).
    if o.dike_removed is not None:
        t += ["dike_held", "。"]
    if o.flooded is not None:
        t += ["tide_floods", "。"]
    t += _sunk(o, who)
    for change in o.awards:
        award, unit, counter = _AWARDS.get(change.award, ("award_other", "road", "hon"))
        if change.after is None:
            t += [f"{award}_wa", "set_aside", "。"]
        else:
            t += [who(change.after, "ga"), f"{award}_get"]
            if change.length:
                t += ["、", unit, _counted(counter, change.length)]
            t += ["。"]
    if o.leader is not None:
        t += [who(o.leader, "ga"), "is_leader", "。"]
    if o.phase:
        t += [PHASES.get(o.phase, "phase_other"), "。"]
    if o.flood_choices:
        chooser = o.player if o.player is not None else o.next_player  # the roller floods
        t += ([who(chooser, "ga")] if chooser is not None else []) + ["chooses_flood", "。"]
    if o.winner is not None:
        t += [who(o.winner, "no"), "wins", "。"]
    if len(o.ranking) > 1:
        t += ["final_order", *_joined([[who(s)] for s in o.ranking], "、"), "。"]
    if o.warnings:
        t += ["forced_note", "。"]
    return t


def _sunk(o: Outcome, who) -> list[str]:
    """赤は開拓地1つと道2本を失いました。"""
    by_player: dict[int, dict[str, int]] = {}
    for piece in o.sunk:
        counts = by_player.setdefault(piece.player, {})
        counts[piece.piece] = counts.get(piece.piece, 0) + 1
    t: list[str] = []
    for seat, counts in by_player.items():
        items = [[piece if piece in _PIECE_COUNTERS else "road", _counted(_PIECE_COUNTERS.get(piece, "hon"), n)]
                 for piece, n in counts.items()]
        t += [who(seat, "wa"), *_joined(items, "and"), "lost", "。"]
    return t
