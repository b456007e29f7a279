"""Reading the fields of an event (a JSON object) with messages that say which field is wrong."""

from __future__ import annotations

from collections.abc import Mapping

from . import geometry as geo
from .errors import MalformedEvent
from .geometry import Edge, Hex, Vertex

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any, Iterable


def require(event: Mapping[str, Any], name: str) -> Any:
    if name not in event:
        raise MalformedEvent(f"{event.get('type', 'event')} needs a {name!r} field")
    return event[name]


def integer(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedEvent(f"{what} must be an integer, got {value!r}")
    return value


def player(event: Mapping[str, Any], n_players: int, field: str = "player") -> int:
    p = event[field] if field in event else require(event, field)  # (require and integer called only to refuse)
    if type(p) is not int:
        p = integer(p, field)
    if not 0 <= p < n_players:
        raise MalformedEvent(f"{field} {p} does not exist (players are 0..{n_players - 1})")
    return p


def hex_(value: Any, what: str = "hex") -> Hex:
    if type(value) is list and len(value) == 2:  # (the usual JSON [q, r] of plain ints, without the generator)
        q, r = value
        if type(q) is int and type(r) is int:
            return (q, r)
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise MalformedEvent(f"{what} must be [q, r], got {value!r}")
    return (value[0], value[1])


def vertex(value: Any, what: str = "at") -> Vertex:
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        raise MalformedEvent(f"{what} must name a vertex as three hexes [[q, r], [q, r], [q, r]], got {value!r}")
    hexes = [hex_(h, what) for h in value]
    try:
        return geo.make_vertex(*hexes)
    except ValueError as error:
        raise MalformedEvent(f"{what}: {error}") from None


def edge(value: Any, what: str = "at") -> Edge:
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise MalformedEvent(f"{what} must name an edge as two hexes [[q, r], [q, r]], got {value!r}")
    hexes = [hex_(h, what) for h in value]
    try:
        return geo.make_edge(*hexes)
    except ValueError as error:
        raise MalformedEvent(f"{what}: {error}") from None


def name(value: Any, allowed: Iterable[str], what: str) -> str:
    allowed = tuple(allowed)
    if value not in allowed:
        raise MalformedEvent(f"{what} must be one of {', '.join(allowed)}, got {value!r}")
    return value


def cards(value: Any, resources: Iterable[str], what: str = "cards") -> dict[str, int]:
    """A ``{resource: count}`` object with known resources and positive counts."""
    resources = tuple(resources)
    if not isinstance(value, dict) and not isinstance(value, Mapping):
        raise MalformedEvent(f"{what} must be an object like {{\"wool\": 2}}, got {value!r}")
    out: dict[str, int] = {}
    for r, n in value.items():  # (the messages are made only for a bad entry: trades and discards ask this)
        if r not in resources:
            name(r, resources, f"{what} resource")
        if type(n) is not int:
            n = integer(n, f"{what}.{r}")
        if n < 0:
            raise MalformedEvent(f"{what}.{r} must not be negative, got {n}")
        if n:
            out[r] = n
    return out
