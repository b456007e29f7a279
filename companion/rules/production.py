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
    """Production for one roll: the :func:`claims` of the hexes showing ``number``, settled with the bank
    (:func:`settle`).

    ``resource_of[hex]`` is the resource a hex yields (``"gold"`` for a gold field, ``None`` for
    none); ``buildings`` maps vertices to ``(player, kind)`` and ``weights[kind]`` says how many cards
    a building takes (settlement 1, city 2); ``blocked`` are hexes under the robber; ``hex_vertices``
    the board's hex -> corners table (computed here when not given).

    Bank shortage (official rule): when the bank cannot pay every player their share of a resource,
    nobody receives it -- unless only one player is owed it, who then takes what is left.
    """
    return settle(claims(number, hexes_by_number, resource_of, buildings, weights, hex_vertices), bank, blocked)


Claims = tuple  # ((hex, resource, ((player, cards), ...)), ...): what each hex showing a number owes, robber aside


def claims(number: int,
           hexes_by_number: Mapping[int, tuple[Hex, ...]],
           resource_of: Mapping[Hex, str | None],
           buildings: Mapping[Vertex, tuple[int, str]],
           weights: Mapping[str, int],
           hex_vertices: Mapping[Hex, tuple[Vertex, ...]] | None = None) -> Claims:
    """What the hexes showing ``number`` owe, before the robber and the bank: for each such hex that owes
    anything, ``(hex, resource, ((player, cards), ...))``, hexes in ``hexes_by_number``'s order and players
    in the order of the hex's corners.  It depends on the board and the buildings only, so a game may keep it
    while those stay equal (``Game._production``); the robber and the bank come in :func:`settle`."""
    out = []
    for h in hexes_by_number.get(number, ()):
        resource = resource_of.get(h)
        if resource is None:
            continue
        owed: dict[int, int] = {}
        for v in (hex_vertices[h] if hex_vertices is not None else _corners(h)):
            piece = buildings.get(v)
            if piece is None:
                continue
            player, kind = piece
            n = weights.get(kind, 0)
            if n:
                owed[player] = owed.get(player, 0) + n
        if owed:
            out.append((h, resource, tuple(owed.items())))
    return tuple(out)


def settle(hex_claims: Claims, bank: Mapping[str, int], blocked: frozenset[Hex] | set[Hex] = frozenset()) -> Production:
    """The payouts of :func:`claims` with ``blocked`` hexes (the robber's) left out and the bank's shortage
    rule applied (see :func:`produce`): :func:`pay` of what is :func:`owed`."""
    return pay(*owed(hex_claims, blocked), bank)


Owed = tuple  # ((resource, ((player, cards), ...), total), ...) by resource name, and gold's ((player, fields), ...)


def owed(hex_claims: Claims, blocked: frozenset[Hex] | set[Hex] = frozenset()) -> tuple[Owed, tuple]:
    """What :func:`claims` come to with ``blocked`` hexes left out, before the bank: each resource's claims
    (players in the order the hexes' corners name them) with their total, resources in name order, and the
    gold fields' free choices by player.  Depends on the claims and the robber only: a game keeps it with them."""
    by_resource: dict[str, dict[int, int]] = {}
    gold: dict[int, int] = {}
    for h, resource, by_player in hex_claims:
        if h in blocked:
            continue
        per_player = gold if resource == "gold" else by_resource.setdefault(resource, {})
        for player, n in by_player:
            per_player[player] = per_player.get(player, 0) + n
    return (tuple((resource, tuple(c.items()), sum(c.values())) for resource, c in sorted(by_resource.items())),
            tuple(sorted(gold.items())))


def pay(owed_cards: Owed, gold: tuple, bank: Mapping[str, int]) -> Production:
    """The bank pays what is :func:`owed`: a resource in full when it holds enough for everybody; else
    nobody receives it -- unless only one player is owed it, who then takes what is left."""
    if not owed_cards and not gold:
        return Production()
    payouts: dict[int, dict[str, int]] = {}
    shortages = []
    for resource, claimed, total in owed_cards:
        available = bank.get(resource, 0)
        if total <= available:
            grant = claimed
        elif len(claimed) == 1:
            grant = ((claimed[0][0], available),) if available else ()
            shortages.append(resource)
        else:
            grant = ()
            shortages.append(resource)
        for player, n in grant:
            if player in payouts:
                payouts[player][resource] = n
            else:
                payouts[player] = {resource: n}
    # (made without Production's __init__ call: a game pays every roll)
    result = _new_production(Production)
    result.payouts = {p: payouts[p] for p in sorted(payouts)} if len(payouts) > 1 else payouts
    result.shortages = tuple(shortages)
    result.gold_owed = dict(gold)
    return result


_new_production = object.__new__
