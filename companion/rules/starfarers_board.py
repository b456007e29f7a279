"""The Starfarers board in the core's geometry: planets are hexes, colony sites are edges.

A planetary system is three planets that meet at one corner (the triangle of the printed sector
tile); the three edges between them are the system's colony sites, each next to the two planets it
lies between (seed ``003``: "2つの惑星の間のポイント", three per system).  So the core's names serve
unchanged: a planet is ``[q, r]``, a colony site is the edge ``[[q, r], [q, r]]``, and production is
the core's one routine with planets as producers and sites as the buildings' places
(:func:`companion.rules.production.produce` takes the producer → places table).

An alien trade station is a hex of its own with 5 docks.  A planet carries a number chip, or a
pirate base / ice planet marker with a strength (it produces nothing until the marker is won and a
replacement chip is put down), or a chip still face down (``"hidden": true``, the strategic
variant's unexplored sectors) until a ``reveal`` event turns it up.

Space points (where ships fly) are not modelled: the ships stand on the real board, and the record
says where they founded a colony or a station (docs/starfarers-and-card-game.md).

Board JSON (the record's ``board``)::

    {"systems": [{"planets": [{"at": [0, 0], "resource": "ore", "number": 5},
                              {"at": [1, 0], "resource": "food", "number": 8},
                              {"at": [1, -1], "resource": "carbon", "ice": 3}],
                  "catan": true}],
     "stations": [{"at": [4, -2], "alien": "merchants"}],
     "neutral": [[[0, 0], [1, 0]]]}

``catan: true`` marks the printed Catan colony systems, where the set-up colonies go (when no system
is marked, any).  ``neutral`` lists sites blocked by the pieces of an absent colour (a first game
with 3 players sets out the 4th colour's pieces too).
"""

from __future__ import annotations

from functools import cached_property
from collections.abc import Mapping

from . import geometry as geo
from .errors import BoardError, BoardProblem
from .geometry import Edge, Hex
from .values import Value, replace

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any

RESOURCES = ("ore", "fuel", "carbon", "food", "trade_goods")
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
DOCKS = 5


class Planet(Value, frozen=True):
    """A planet: its resource and its chip (a number, a marker with a strength, or face down)."""

    resource: str
    number: int | None = None
    pirate: int | None = None   # pirate base strength: cannons needed
    ice: int | None = None      # ice planet strength: freight rings needed
    hidden: bool = False

    @property
    def marker(self) -> str | None:
        return "pirate" if self.pirate is not None else "ice" if self.ice is not None else None

    def to_json(self, at: Hex) -> dict[str, Any]:
        out: dict[str, Any] = {"at": list(at), "resource": self.resource}
        for name in ("number", "pirate", "ice"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        if self.hidden:
            out["hidden"] = True
        return out


class StarBoard(Value, frozen=True, eq=False):
    """An immutable Starfarers board; a won marker or a revealed chip gives a new board."""

    planets: Mapping[Hex, Planet]
    systems: tuple[tuple[Hex, Hex, Hex], ...]
    stations: Mapping[Hex, str]                      # hex -> alien race
    catan: frozenset[int] = frozenset()              # indexes of the Catan colony systems
    neutral: frozenset[Edge] = frozenset()
    robber: None = None                              # the core's Game reads these; Starfarers has neither
    pirate: None = None

    @cached_property
    def sites(self) -> dict[Edge, int]:
        """Colony site -> index of its system."""
        out = {}
        for i, (a, b, c) in enumerate(self.systems):
            for x, y in ((a, b), (a, c), (b, c)):
                out[geo.make_edge(x, y)] = i
        return out

    @cached_property
    def planet_sites(self) -> dict[Hex, tuple[Edge, ...]]:
        """Planet -> the colony sites next to it (the producer -> places table of production)."""
        out: dict[Hex, list[Edge]] = {h: [] for h in self.planets}
        for e in self.sites:
            for h in e:
                out[h].append(e)
        return {h: tuple(sorted(es)) for h, es in out.items()}

    @cached_property
    def hexes_by_number(self) -> dict[int, tuple[Hex, ...]]:
        out: dict[int, list[Hex]] = {}
        for h, p in self.planets.items():
            if p.number is not None and not p.hidden:
                out.setdefault(p.number, []).append(h)
        return {n: tuple(sorted(hs)) for n, hs in out.items()}

    @cached_property
    def resource_of(self) -> dict[Hex, str | None]:
        return {h: p.resource for h, p in self.planets.items()}

    def with_planet(self, at: Hex, planet: Planet) -> "StarBoard":
        return replace(self, planets={**self.planets, at: planet})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "systems": [{"planets": [self.planets[h].to_json(h) for h in system], **({"catan": True} if i in self.catan else {})}
                        for i, system in enumerate(self.systems)],
            "stations": [{"at": list(h), "alien": alien} for h, alien in sorted(self.stations.items())],
        }
        if self.neutral:
            out["neutral"] = [[list(h) for h in e] for e in sorted(self.neutral)]
        return out


def _hex(value: Any, where: str, problems: list[BoardProblem]) -> Hex | None:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        problems.append(BoardProblem(None, f"{where}: expected [q, r] with two integers, got {value!r}"))
        return None
    return (value[0], value[1])


def _strength(entry: Mapping[str, Any], name: str, h: Hex, problems: list[BoardProblem]) -> int | None:
    value = entry.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 12:
        problems.append(BoardProblem(h, f"{name} strength must be a whole number 1-12, got {value!r}"))
        return None
    return value


def star_board_from_json(data: Any) -> StarBoard:
    """Read a Starfarers board; :class:`BoardError` lists every problem at once, by hex."""
    problems: list[BoardProblem] = []
    if not isinstance(data, Mapping):
        raise BoardError([BoardProblem(None, f"board must be an object, got {type(data).__name__}")])
    raw_systems = data.get("systems")
    if not isinstance(raw_systems, list) or not raw_systems:
        raise BoardError([BoardProblem(None, "a Starfarers board needs \"systems\": a non-empty list of "
                                             "{\"planets\": [three planets]}")])
    planets: dict[Hex, Planet] = {}
    systems: list[tuple[Hex, Hex, Hex]] = []
    catan = set()
    for i, system in enumerate(raw_systems):
        where = f"board.systems[{i}]"
        if not isinstance(system, Mapping) or not isinstance(system.get("planets"), list) or len(system["planets"]) != 3:
            problems.append(BoardProblem(None, f"{where} must be {{\"planets\": [three planets]}}"))
            continue
        hexes = []
        for j, entry in enumerate(system["planets"]):
            pw = f"{where}.planets[{j}]"
            if not isinstance(entry, Mapping):
                problems.append(BoardProblem(None, f"{pw} must be an object"))
                continue
            h = _hex(entry.get("at"), f"{pw}.at", problems)
            if h is None:
                continue
            if h in planets:
                problems.append(BoardProblem(h, "planet listed twice"))
                continue
            resource = entry.get("resource")
            if resource not in RESOURCES:
                problems.append(BoardProblem(h, f"resource must be one of {', '.join(RESOURCES)}, got {resource!r}"))
                continue
            number = entry.get("number")
            pirate = _strength(entry, "pirate", h, problems)
            ice = _strength(entry, "ice", h, problems)
            hidden = entry.get("hidden", False)
            if not isinstance(hidden, bool):
                problems.append(BoardProblem(h, f"hidden must be true or false, got {hidden!r}"))
                continue
            chips = sum(x is not None for x in (number, pirate, ice))
            if number is not None and number not in NUMBERS:
                problems.append(BoardProblem(h, f"number {number!r} does not exist (chips are 2-6 and 8-12)"))
            elif hidden and chips:
                problems.append(BoardProblem(h, "a face-down chip shows no number or marker yet"))
            elif not hidden and chips != 1:
                problems.append(BoardProblem(h, "a planet needs exactly one of number, pirate, ice "
                                                "(or hidden: true for a chip still face down)"))
            else:
                planets[h] = Planet(resource, number, pirate, ice, hidden)
                hexes.append(h)
        if len(hexes) == 3:
            try:
                corner = geo.make_vertex(*hexes)
            except ValueError:
                problems.append(BoardProblem(hexes[0], f"{where}: the three planets must meet at one corner"))
                continue
            systems.append(corner)
            if system.get("catan", False) is True:
                catan.add(len(systems) - 1)
    stations: dict[Hex, str] = {}
    for key in ("stations", "neutral"):
        if not isinstance(data.get(key) or [], list):
            problems.append(BoardProblem(None, f"board.{key} must be a list, got {data[key]!r}"))
    raw_stations = data.get("stations") if isinstance(data.get("stations"), list) else []
    for i, entry in enumerate(raw_stations):
        where = f"board.stations[{i}]"
        if not isinstance(entry, Mapping):
            problems.append(BoardProblem(None, f"{where} must be {{\"at\": [q, r], \"alien\": name}}"))
            continue
        h = _hex(entry.get("at"), f"{where}.at", problems)
        alien = entry.get("alien")
        if h is None:
            continue
        if not isinstance(alien, str) or not alien:
            problems.append(BoardProblem(h, f"{where}.alien must name the alien race, got {alien!r}"))
        elif h in planets or h in stations:
            problems.append(BoardProblem(h, "a trade station needs a hex of its own"))
        else:
            stations[h] = alien
    board = StarBoard(planets, tuple(systems), stations, frozenset(catan))
    neutral = set()
    for i, raw in enumerate(data.get("neutral") if isinstance(data.get("neutral"), list) else []):
        where = f"board.neutral[{i}]"
        try:
            a, b = raw
            e = geo.make_edge(tuple(a), tuple(b))
        except (TypeError, ValueError):
            problems.append(BoardProblem(None, f"{where} must name a colony site as two planets, got {raw!r}"))
            continue
        if e not in board.sites:
            problems.append(BoardProblem(e[0], f"{where}: {[list(h) for h in e]} is not a colony site of a system"))
        else:
            neutral.add(e)
    if problems:
        raise BoardError(problems)
    return replace(board, neutral=frozenset(neutral))


def first_game_board() -> StarBoard:
    """A ready layout for a first game: 4 Catan colony systems, 8 outer systems, 4 alien stations,
    3 pirate bases and 2 ice planets (the seed's marker counts).

    The seed points to the printed rulebook's picture for the first game but does not reproduce it,
    so this is our own layout with the seed's components in mind (five resources, numbers 2-12, pirate
    bases and ice planets with strengths), not a copy of the printed one: each colony system offers
    all the common resources between its planets and the outer systems carry the markers.
    """
    def system(corner: Hex, kinds, catan=False):
        # the three hexes around the corner of ``corner`` towards directions 0 and 1
        a = corner
        b = geo.add(corner, geo.DIRECTIONS[0])
        c = geo.add(corner, geo.DIRECTIONS[1])
        return {"planets": [{"at": list(h), **k} for h, k in zip((a, b, c), kinds)], **({"catan": True} if catan else {})}

    layout = [
        ((0, 6), [{"resource": "ore", "number": 6}, {"resource": "food", "number": 8}, {"resource": "carbon", "number": 5}], True),
        ((3, 6), [{"resource": "fuel", "number": 9}, {"resource": "trade_goods", "number": 4}, {"resource": "food", "number": 10}], True),
        ((-3, 6), [{"resource": "carbon", "number": 11}, {"resource": "fuel", "number": 3}, {"resource": "ore", "number": 8}], True),
        ((6, 6), [{"resource": "food", "number": 5}, {"resource": "ore", "number": 10}, {"resource": "fuel", "number": 6}], True),
        ((0, 2), [{"resource": "ore", "number": 9}, {"resource": "carbon", "pirate": 3}, {"resource": "trade_goods", "number": 2}], False),
        ((3, 2), [{"resource": "fuel", "number": 4}, {"resource": "food", "number": 11}, {"resource": "ore", "ice": 2}], False),
        ((-3, 2), [{"resource": "food", "number": 12}, {"resource": "fuel", "number": 8}, {"resource": "carbon", "number": 3}], False),
        ((6, 2), [{"resource": "trade_goods", "number": 6}, {"resource": "carbon", "number": 9}, {"resource": "fuel", "pirate": 4}], False),
        ((0, -2), [{"resource": "carbon", "number": 10}, {"resource": "ore", "ice": 4}, {"resource": "food", "number": 5}], False),
        ((3, -2), [{"resource": "ore", "number": 3}, {"resource": "trade_goods", "pirate": 5}, {"resource": "fuel", "number": 11}], False),
        ((-3, -2), [{"resource": "fuel", "number": 10}, {"resource": "carbon", "number": 4}, {"resource": "ore", "number": 6}], False),
        ((6, -2), [{"resource": "food", "number": 3}, {"resource": "ore", "number": 12}, {"resource": "carbon", "number": 2}], False),
    ]
    data = {"systems": [system(c, k, catan) for c, k, catan in layout],
            "stations": [{"at": [-5, 0], "alien": "green_folk"}, {"at": [9, -1], "alien": "scientists"},
                         {"at": [1, -5], "alien": "merchants"}, {"at": [4, -5], "alien": "travelers"}]}
    return star_board_from_json(data)
