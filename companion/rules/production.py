"""The one production routine: who receives what when a number is rolled.

Shared by every game with hexes and numbers (base, 5-6, Seafarers, High Tide; Starfarers uses the
same routine with its planets as producers and colonies/spaceports as buildings).
"""

from __future__ import annotations


from .geometry import Hex, Vertex, hex_vertices as _corners

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Mapping


class Production:
    """``payouts[player][resource]`` paid by the bank; ``shortages`` the resources withheld
    because the bank could not pay everybody; ``gold_owed[player]`` free choices from gold fields.

    (A plain class with slots, not a frozen dataclass: the game makes one on every roll.)
    """

    __slots__ = ("payouts", "shortages", "gold_owed")

    def __init__(self, payouts: dict[int, dict[str, int]] | None = None, shortages: tuple[str, ...] = (),
                 gold_owed: dict[int, int] | None = None):
        self.payouts = {} if payouts is None else payouts
        self.shortages = shortages
        self.gold_owed = {} if gold_owed is None else gold_owed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Production):
            return NotImplemented
        return (self.payouts, self.shortages, self.gold_owed) == (other.payouts, other.shortages, other.gold_owed)

    def __repr__(self) -> str:
        return f"Production(payouts={self.payouts!r}, shortages={self.shortages!r}, gold_owed={self.gold_owed!r})"


def produce(number: int,
            hexes_by_number: Mapping[int, tuple[Hex, ...]],
            resource_of: Mapping[Hex, str | None],
            buildings: Mapping[Vertex, tuple[int, str]],
            weights: Mapping[str, int],
            bank: Mapping[str, int],
            blocked: frozenset[Hex] | set[Hex] = frozenset(),
            hex_vertices: Mapping[Hex, tuple[Vertex, ...]] | None = None) -> Production:
    """Production for one roll.

    ``resource_of[hex]`` is the resource a hex yields (``"gold"`` for a gold field, ``None`` for
    none); ``buildings`` maps vertices to ``(player, kind)`` and ``weights[kind]`` says how many cards
    a building takes (settlement 1, city 2); ``blocked`` are hexes under the robber; ``hex_vertices``
    the board's hex -> corners table (computed here when not given).

    Bank shortage (official rule): when the bank cannot pay every player their share of a resource,
    nobody receives it -- unless only one player is owed it, who then takes what is left.
    """
    owed: dict[str, dict[int, int]] = {}
    gold: dict[int, int] = {}
    for h in hexes_by_number.get(number, ()):
        if h in blocked:
            continue
        resource = resource_of.get(h)
        if resource is None:
            continue
        for v in (hex_vertices[h] if hex_vertices is not None else _corners(h)):
            piece = buildings.get(v)
            if piece is None:
                continue
            player, kind = piece
            n = weights.get(kind, 0)
            if not n:
                continue
            per_player = gold if resource == "gold" else owed.setdefault(resource, {})
            per_player[player] = per_player.get(player, 0) + n
    if not owed and not gold:
        return Production()
    payouts: dict[int, dict[str, int]] = {}
    shortages = []
    for resource in sorted(owed):
        claims = owed[resource]
        available = bank.get(resource, 0)
        if sum(claims.values()) <= available:
            grant = claims
        elif len(claims) == 1:
            (player, _), = claims.items()
            grant = {player: available} if available else {}
            shortages.append(resource)
        else:
            grant = {}
            shortages.append(resource)
        for player, n in grant.items():
            if player in payouts:
                payouts[player][resource] = n
            else:
                payouts[player] = {resource: n}
    return Production({p: payouts[p] for p in sorted(payouts)} if len(payouts) > 1 else payouts, tuple(shortages),
                      {p: gold[p] for p in sorted(gold)} if len(gold) > 1 else gold)
