"""What one event meant, as one value the announcer and the app read.

The rules core computes an :class:`Outcome` for every event it applies; nobody downstream
recomputes anything from the board.  Fields that do not apply to an event keep their empty default,
so a listener can test them directly (``if outcome.discards_owed: ...``).

Players are seat indexes (0-based); resources and terrains use the names in DESIGN.md; hexes are
axial ``(q, r)`` tuples; vertices are sorted 3-tuples of hexes, edges sorted 2-tuples.
"""

from __future__ import annotations

from .values import Fresh, Value

TYPE_CHECKING = False  # (typing is not imported at run time: it costs a replay process more than it gives)
if TYPE_CHECKING:
    from typing import Any

Hex = tuple[int, int]


class AwardChange(Value, frozen=True):
    """An award (``"longest_road"``, ``"largest_army"``) that changed hands.

    ``before``/``after`` are player indexes or ``None`` (nobody holds it / it was set aside);
    ``length`` is the new holder's road or knight count, when there is a holder.
    """

    award: str
    before: int | None
    after: int | None
    length: int = 0


class SunkPiece(Value, frozen=True):
    """A piece that the tide took back to its owner (High Tide)."""

    player: int
    piece: str  # "road" | "ship" | "settlement" | "city"
    at: tuple


class FloodedHex(Value, frozen=True):
    """A hex the tide took (High Tide), as it was before the flood: what the screen and the voice name it by.
    ``beside``: the terrain and number of the neighbour that tells it apart when another hex of the board shares
    its terrain and number (:func:`~companion.rules.board.telling_neighbour`: "the 5 mountains next to the 8
    hills"), else None."""

    at: Hex
    terrain: str
    number: int | None = None
    beside: tuple[str, int | None] | None = None


class _NoEntries(dict):
    """The empty dict in an outcome's dict field that its event left empty: one shared, read-only instance
    (a replay makes an outcome for every event, and a fresh ``{}`` for each such field cost 4 % of it).
    It reads, compares and prints as ``{}``; a copy or pickle of it is a plain ``{}``."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("an outcome's fields are not changed after the event")

    __setitem__ = __delitem__ = setdefault = update = pop = popitem = clear = __ior__ = _refuse

    def __reduce__(self) -> tuple:
        return dict, ()


NO_ENTRIES = _NoEntries()


def _share_empty_dicts(cls: type[Value]) -> None:
    """An outcome class's ``Fresh(dict)`` fields default to the shared :data:`NO_ENTRIES` instead, so that
    ``push`` can make an outcome of its handler's fields as they are (outcomes are frozen: a field's dict is
    never filled later).  Any other fresh default would need making per outcome: refused here."""
    for name, make in cls._fresh:
        if make is not dict:
            raise TypeError(f"{cls.__name__}.{name}: an outcome's fresh defaults must be dicts")
        type.__setattr__(cls, name, NO_ENTRIES)
    type.__setattr__(cls, "_fresh", ())


class Outcome(Value, frozen=True):
    """The consequences of the event at ``index`` of the record.

    - ``kind``: the event type (``"roll"``, ``"build"``, ``"move_robber"``, ...).
    - ``player``: who acted (the roller for a roll), or ``None``.
    - ``dice``: the two faces for a roll (also ``sum(dice)`` is the number rolled).
    - ``payouts``: ``{player: {resource: count}}`` received from production (only non-empty).
    - ``shortages``: resources the bank could not pay in full, so nobody received them.
    - ``gold_owed``: ``{player: count}`` free choices owed from gold fields (Seafarers).
    - ``discards_owed``: ``{player: count}`` still to discard after a 7.
    - ``robber_hexes`` / ``pirate_hexes``: where the robber / pirate may now go (non-empty only
      when a move is owed).
    - ``steal_from``: players the mover may rob after a robber/pirate move (may be empty).
    - ``robber_moved`` / ``pirate_moved``: the hex it moved to.
    - ``stolen``: ``(victim, resource or None when unseen)`` after a steal.
    - ``awards``: awards that changed hands because of this event.
    - ``leader``: a player who became the High Tide leader with this event.
    - ``phase``: the new High Tide phase when it changed (``"dike_round"``, ``"high_tide"``, ...).
    - ``flooded`` / ``dike_removed``: the hex the tide took / the hex whose dike held (High Tide); with the
      ``flood_all`` option several dikes may hold at one roll: ``dikes_removed`` lists them all, in order
      (``dike_removed`` is the first); ``dikes``: the same hexes named as ``floods`` names its hexes (terrain,
      number, the neighbour that tells a twin apart), so the voice says "the dike on the 6 fields".
    - ``floods``: every hex the tide took, in order (``flooded`` is the first), each as it was before the flood
      (:class:`FloodedHex`: terrain, number, the neighbour that tells it apart), so the screen and the voice say
      "the 5 mountains and the 5 fields" from the outcome alone (one hex for a choice; with the ``flood_all``
      option every land hex with the number).
    - ``flood_choices``: land hexes the roller may choose to flood (High Tide, before the choice).
    - ``sunk``: pieces that sank after a flood.
    - ``winner``: the player who won with this event; ``ranking`` the final order when the game ended.
    - ``winners``: when the win is shared, every player who shares it, in ranking order (High Tide: level with
      the first on victory points and on resource cards -- seed 002 breaks a tie on points by the cards and says
      no more, so players level on both share the win); empty when one player won (``winner``).
    - ``places``: the final places when the game ended, best first, each the tuple of players who hold it, in
      ``ranking`` order: ``((0,), (1, 3), (2,))`` is "0 won, 1 and 3 share second place, 2 is fourth"
      (:meth:`~companion.rules.history.EventHistory.places`: the winners first, the others by victory points --
      High Tide: and resource cards -- level players sharing the better place; a game the round's time limit
      ended, by victory points alone).  ``ranking`` is the full order, ties broken by cards and seat.
    - ``next``: what the table waits for now (``"roll"``, ``"discard"``, ``"move_robber"``,
      ``"steal"``, ``"main"``, ``"setup_settlement"``, ``"setup_road"``, ``"flood"``,
      ``"gold"``, ``"game_over"``, ...), with ``next_player`` whose input it is.
    - ``warnings``: rule breaches recorded anyway by an umpire (``"forced": true`` events).
    """

    index: int
    kind: str
    player: int | None = None
    dice: tuple[int, int] | None = None
    payouts: dict[int, dict[str, int]] = Fresh(dict)
    shortages: tuple[str, ...] = ()
    gold_owed: dict[int, int] = Fresh(dict)
    discards_owed: dict[int, int] = Fresh(dict)
    robber_hexes: tuple[Hex, ...] = ()
    pirate_hexes: tuple[Hex, ...] = ()
    steal_from: tuple[int, ...] = ()
    robber_moved: Hex | None = None
    pirate_moved: Hex | None = None
    stolen: tuple[int, str | None] | None = None
    awards: tuple[AwardChange, ...] = ()
    leader: int | None = None
    phase: str | None = None
    flooded: Hex | None = None
    floods: tuple[FloodedHex, ...] = ()
    dike_removed: Hex | None = None
    dikes_removed: tuple[Hex, ...] = ()
    dikes: tuple[FloodedHex, ...] = ()
    flood_choices: tuple[Hex, ...] = ()
    sunk: tuple[SunkPiece, ...] = ()
    winner: int | None = None
    winners: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    places: tuple[tuple[int, ...], ...] = ()
    next: str = ""
    next_player: int | None = None
    warnings: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _share_empty_dicts(cls)

    @classmethod
    def make(cls, **values: Any) -> "Outcome":
        """``Outcome(**values)`` without the positional arguments and required fields of ``__init__``."""
        return cls.adopt(values)

    @classmethod
    def adopt(cls, fields: dict[str, Any]) -> "Outcome":
        """The outcome whose fields are ``fields`` -- that very dict, which the caller gives up (``push``
        does the same with the dict its handler built: a replay makes an outcome for every event, and
        copying 26 fields one by one was a tenth of a replay's time).  A field not given reads its class
        attribute: a plain default (``None``, ``()``, ``""``) or, for a dict, :data:`NO_ENTRIES`."""
        if not cls._known.issuperset(fields):
            raise TypeError(f"{cls.__name__} has no field(s) {', '.join(sorted(set(fields) - set(cls._fields)))}")
        new = object.__new__(cls)
        object.__setattr__(new, "__dict__", fields)
        return new

    @property
    def number(self) -> int | None:
        """The number rolled, for a roll."""
        return sum(self.dice) if self.dice else None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (hexes as lists, player keys as strings), empty fields left out."""
        out: dict[str, Any] = {"index": self.index, "kind": self.kind}
        for name in self._fields:
            if name in ("index", "kind"):
                continue
            value = getattr(self, name)
            if value in (None, (), {}, ""):
                continue
            out[name] = _jsonable(value)
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, (AwardChange, SunkPiece, FloodedHex)):
        return {k: _jsonable(getattr(value, k)) for k in value._fields}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


_share_empty_dicts(Outcome)  # (its subclasses through __init_subclass__)
