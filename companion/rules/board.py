"""Boards: which hexes exist, their terrain and number, the harbors, where the robber starts.

A board is any set of hexes -- the standard 19 in a sea frame, a Seafarers island map, a High Tide
map laid out by hand.  Hexes not listed are off the board and count as sea.  The adjacency tables a
game needs are built once per board (:class:`Board` is immutable and caches them).
"""

from __future__ import annotations

from collections import Counter
from functools import cached_property, lru_cache

from . import geometry as geo
from .errors import BoardError, BoardProblem
from .geometry import Edge, Hex, Vertex
from .refusals import Refusal, json_spot
from .values import Fresh, Value

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any, Iterable, Mapping

RESOURCES = ("lumber", "brick", "wool", "grain", "ore")
TERRAIN_RESOURCE = {
    "forest": "lumber",
    "hills": "brick",
    "pasture": "wool",
    "fields": "grain",
    "mountains": "ore",
}
LAND_TERRAINS = (*TERRAIN_RESOURCE, "desert", "gold")
TERRAINS = (*LAND_TERRAINS, "sea")
HARBOR_TRADES = ("3:1", *RESOURCES)
NUMBERS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


class Tile(Value, frozen=True):
    terrain: str
    number: int | None = None
    islet: bool = False  # High Tide: no initial settlement may stand on an islet
    frame: bool = False  # Seafarers: a sea hex of the frame, where the pirate may start but never moves to

    @property
    def is_land(self) -> bool:
        return self.terrain != "sea"

    @property
    def resource(self) -> str | None:
        return TERRAIN_RESOURCE.get(self.terrain)


def telling_neighbour(tiles: Mapping[Hex, Tile], h: Hex) -> Hex | None:
    """The neighbour that tells hex ``h`` apart from the other hexes of ``tiles`` that share its terrain and
    number, as players do ("the 9 pasture next to the 4 forest"): None when no other hex shares them.  Else the
    first neighbour, land before sea and then by number, whose terrain and number no other hex has and which
    touches none of the hexes it is told apart from; failing that, the first whose terrain and number no other hex
    has; failing that, the first neighbour at all (None when ``h`` has none on the board).  The app's place words
    (companion/ui/places.py) and the High Tide flood's outcome (what the voice says) both name a hex by it."""
    tile = tiles.get(h)
    if tile is None:
        return None
    counts = Counter((t.terrain, t.number) for t in tiles.values())
    if counts[(tile.terrain, tile.number)] == 1:
        return None
    around = sorted((n for n in geo.neighbours(h) if n in tiles),
                    key=lambda n: (not tiles[n].is_land, tiles[n].number or 0, n))
    unique = [n for n in around if counts[(tiles[n].terrain, tiles[n].number)] == 1]
    # Two twins side by side share two neighbours: a neighbour that also touches a twin would name both hexes
    # alike ("the 6 forest next to the 11 hills" for either), so one that touches no twin comes first.
    twins = [o for o, t in tiles.items() if o != h and (t.terrain, t.number) == (tile.terrain, tile.number)]
    touching_twin = {n for o in twins for n in geo.neighbours(o)}
    telling = [n for n in unique if n not in touching_twin]
    return (telling or unique or around or [None])[0]


class Board(Value, frozen=True, eq=False):
    """An immutable board with its adjacency tables (built lazily, once)."""

    tiles: Mapping[Hex, Tile]
    harbors: Mapping[Edge, str] = Fresh(dict)
    robber: Hex | None = None
    pirate: Hex | None = None

    # --- hexes -------------------------------------------------------------------------------
    def tile(self, h: Hex) -> Tile | None:
        return self.tiles.get(h)

    def is_land(self, h: Hex) -> bool:
        return h in self.land

    @cached_property
    def land(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.tiles.items() if t.terrain != "sea")  # (Tile.is_land, without a call a hex)

    @cached_property
    def land_in_order(self) -> tuple[Hex, ...]:
        """The land hexes, sorted (where the robber may go, less its own hex)."""
        return tuple(sorted(self.land))

    @cached_property
    def sea(self) -> frozenset[Hex]:
        return frozenset(h for h, t in self.tiles.items() if not t.is_land)

    @cached_property
    def hexes_by_number(self) -> dict[int, tuple[Hex, ...]]:
        out: dict[int, list[Hex]] = {}
        for h, t in self.tiles.items():
            if t.number is not None and t.terrain != "sea":
                out.setdefault(t.number, []).append(h)
        return {n: tuple(sorted(hs)) for n, hs in out.items()}

    # --- vertices and edges ------------------------------------------------------------------
    # The tables of corners and sides depend on which hexes the board lists and nothing else, so boards
    # listing the same hexes share them (_shape_of): a replay builds its board anew from the record, and
    # building these took a tenth of a 1,000-event replay.  Shared tables are never changed.
    @cached_property
    def _shape(self) -> "_Shape":
        return _shape_of(frozenset(self.tiles))

    @cached_property
    def vertices(self) -> frozenset[Vertex]:
        """Every corner of every listed hex."""
        return self._shape.vertices

    @cached_property
    def edges(self) -> frozenset[Edge]:
        """Every side of every listed hex."""
        return self._shape.edges

    @cached_property
    def land_vertices(self) -> frozenset[Vertex]:
        """Corners touching at least one land hex: where settlements and cities may stand."""
        land = self.land
        return frozenset(v for v in self.vertices if v[0] in land or v[1] in land or v[2] in land)

    @cached_property
    def vertex_neighbours(self) -> dict[Vertex, tuple[Vertex, ...]]:
        return self._shape.vertex_neighbours

    @cached_property
    def vertex_edges(self) -> dict[Vertex, tuple[Edge, ...]]:
        return self._shape.vertex_edges

    @cached_property
    def hex_corners(self) -> dict[Hex, tuple[Vertex, ...]]:
        return self._shape.hex_corners

    @cached_property
    def edge_vertices(self) -> dict[Edge, tuple[Vertex, Vertex]]:
        return self._shape.edge_vertices

    @cached_property
    def vertex_land(self) -> dict[Vertex, tuple[Hex, ...]]:
        """The land hexes at each vertex (what a building there produces from)."""
        land = self.land
        return {v: tuple(h for h in v if h in land) for v in self.vertices}

    def edge_is_land(self, e: Edge) -> bool:
        """A road may lie on an edge with land on at least one side."""
        land = self.land
        return e[0] in land or e[1] in land

    def edge_is_water(self, e: Edge) -> bool:
        """A ship may lie on an edge with sea (or off-board) on at least one side."""
        land = self.land
        return not (e[0] in land and e[1] in land)

    @cached_property
    def harbor_at_vertex(self) -> dict[Vertex, str]:
        out: dict[Vertex, str] = {}
        for e, trade in self.harbors.items():
            for v in geo.edge_vertices(e):
                out[v] = trade
        return out

    # --- interchange ---------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        hexes = []
        for h in sorted(self.tiles):
            t = self.tiles[h]
            entry: dict[str, Any] = {"at": list(h), "terrain": t.terrain}
            if t.number is not None:
                entry["number"] = t.number
            if t.islet:
                entry["islet"] = True
            if t.frame:
                entry["frame"] = True
            hexes.append(entry)
        out: dict[str, Any] = {
            "hexes": hexes,
            "harbors": [{"edge": [list(h) for h in e], "trade": tr} for e, tr in sorted(self.harbors.items())],
        }
        if self.robber is not None:
            out["robber"] = list(self.robber)
        if self.pirate is not None:
            out["pirate"] = list(self.pirate)
        return out


class _Shape:
    """The corner and side tables of a set of hexes (each built at its first use).  Pure geometry: equal
    sets of hexes give equal tables, so one instance serves every board listing those hexes."""

    def __init__(self, hexes: frozenset[Hex]):
        self.hexes = hexes

    @cached_property
    def vertices(self) -> frozenset[Vertex]:
        return frozenset(v for h in self.hexes for v in geo.hex_vertices(h))

    @cached_property
    def edges(self) -> frozenset[Edge]:
        return frozenset(e for h in self.hexes for e in geo.hex_edges(h))

    @cached_property
    def vertex_neighbours(self) -> dict[Vertex, tuple[Vertex, ...]]:
        return {v: tuple(n for n in geo.vertex_neighbours(v) if n in self.vertices) for v in self.vertices}

    @cached_property
    def vertex_edges(self) -> dict[Vertex, tuple[Edge, ...]]:
        return {v: tuple(e for e in geo.vertex_edges(v) if e in self.edges) for v in self.vertices}

    @cached_property
    def hex_corners(self) -> dict[Hex, tuple[Vertex, ...]]:
        return {h: geo.hex_vertices(h) for h in self.hexes}

    @cached_property
    def edge_vertices(self) -> dict[Edge, tuple[Vertex, Vertex]]:
        return {e: geo.edge_vertices(e) for e in self.edges}


@lru_cache(maxsize=32)  # keyed by the complete input (the set of hexes): it cannot go stale
def _shape_of(hexes: frozenset[Hex]) -> _Shape:
    return _Shape(hexes)


# --- reading a board from JSON -------------------------------------------------------------------

def _hex(value: Any, where: str) -> Hex:
    if (not isinstance(value, (list, tuple)) or len(value) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        raise BoardError([BoardProblem(None, Refusal("hex_not_pair", where=where, value=repr(value)))])
    return (value[0], value[1])


def board_from_json(data: Any, *, check: bool = True) -> Board:
    """Read a board as a person enters it (see docs/record-format.md).

    Raises :class:`BoardError` listing every problem, each naming its hex.
    """
    if not isinstance(data, dict):
        raise BoardError([BoardProblem(None, Refusal("board_not_object", kind=type(data).__name__))])
    problems: list[BoardProblem] = []
    tiles: dict[Hex, Tile] = {}
    raw_hexes = data.get("hexes")
    if not isinstance(raw_hexes, list) or not raw_hexes:
        raise BoardError([BoardProblem(None, Refusal("board_no_hexes"))])
    for i, entry in enumerate(raw_hexes):
        if not isinstance(entry, dict):
            problems.append(BoardProblem(None, Refusal("hex_entry_not_object", index=i)))
            continue
        try:
            h = _hex(entry.get("at"), f"board.hexes[{i}].at")
        except BoardError as e:
            problems.extend(e.problems)
            continue
        terrain = entry.get("terrain")
        number = entry.get("number")
        if h in tiles:
            problems.append(BoardProblem(h, Refusal("hex_listed_twice")))
            continue
        if terrain not in TERRAINS:
            problems.append(BoardProblem(h, Refusal("unknown_terrain", terrain=terrain, known=list(TERRAINS))))
            continue
        if number is not None and (not isinstance(number, int) or isinstance(number, bool)):
            problems.append(BoardProblem(h, Refusal("number_not_integer", number=repr(number))))
            continue
        islet, frame = entry.get("islet", False), entry.get("frame", False)
        if not isinstance(islet, bool) or not isinstance(frame, bool):
            problems.append(BoardProblem(h, Refusal("flags_not_bool", islet=repr(islet), frame=repr(frame))))
            continue
        tiles[h] = Tile(terrain, number, islet, frame)
    harbors: dict[Edge, str] = {}
    raw_harbors = data.get("harbors") or []
    if not isinstance(raw_harbors, list):
        problems.append(BoardProblem(None, Refusal("harbors_not_list", value=repr(raw_harbors))))
        raw_harbors = []
    for i, entry in enumerate(raw_harbors):
        where = f"board.harbors[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("edge"), list) or len(entry["edge"]) != 2:
            problems.append(BoardProblem(None, Refusal("harbor_entry_shape", index=i)))
            continue
        try:
            a, b = (_hex(x, f"{where}.edge") for x in entry["edge"])
        except BoardError as err:
            problems.extend(err.problems)
            continue
        if geo.distance(a, b) != 1:
            x, y = sorted((a, b))
            problems.append(BoardProblem(a, Refusal("harbor_hexes_apart", index=i, a=list(x), b=list(y))))
            continue
        e = geo.make_edge(a, b)

        trade = entry.get("trade")
        if trade not in HARBOR_TRADES:
            problems.append(BoardProblem(e[0], Refusal("harbor_trade_unknown", trade=trade, known=list(HARBOR_TRADES))))
            continue
        if e in harbors:
            problems.append(BoardProblem(e[0], Refusal("two_harbors", edge=json_spot(e))))
            continue
        harbors[e] = trade
    robber = pirate = None
    try:
        if data.get("robber") is not None:
            robber = _hex(data["robber"], "board.robber")
        if data.get("pirate") is not None:
            pirate = _hex(data["pirate"], "board.pirate")
    except BoardError as err:
        problems.extend(err.problems)
    if robber is None:
        deserts = sorted(h for h, t in tiles.items() if t.terrain == "desert")
        robber = deserts[0] if deserts else None
    board = Board(tiles, harbors, robber, pirate)
    if check:
        problems.extend(board_problems(board))  # every problem at once, not one per attempt
    if problems:
        raise BoardError(problems)
    return board


def board_problems(board: Board, *, standard: "BoardSpec | None" = None,
                   separate_red_numbers: bool = False, robber_on_desert: bool = False) -> list[BoardProblem]:
    """Every problem with ``board``, by hex.  With ``standard``, also the component counts; with
    ``robber_on_desert`` (a game's start where the rules put the robber on the desert), a robber elsewhere."""
    problems: list[BoardProblem] = []
    for h in sorted(board.tiles):
        t = board.tiles[h]
        if t.terrain in ("desert", "sea") and t.number is not None:
            problems.append(BoardProblem(h, Refusal("number_on_blank", terrain=t.terrain, number=t.number)))
        elif t.terrain not in ("desert", "sea") and t.number is None:
            problems.append(BoardProblem(h, Refusal("number_missing", terrain=t.terrain)))
        elif t.number is not None and t.number not in NUMBERS:
            problems.append(BoardProblem(h, Refusal("number_not_token", number=t.number)))
        if t.islet and not t.is_land:
            problems.append(BoardProblem(h, Refusal("islet_not_land")))
        if t.frame and t.is_land:
            problems.append(BoardProblem(h, Refusal("frame_not_sea")))
    for e, trade in sorted(board.harbors.items()):
        if not (board.is_land(e[0]) ^ board.is_land(e[1])):
            problems.append(BoardProblem(e[0], Refusal("harbor_not_coast", trade=trade, edge=json_spot(e))))
    for name, h in (("robber", board.robber), ("pirate", board.pirate)):
        if h is None:
            continue
        if h not in board.tiles:
            problems.append(BoardProblem(h, Refusal("figure_off_board", figure=name)))
        elif name == "robber" and not board.is_land(h):
            problems.append(BoardProblem(h, Refusal("robber_on_sea")))
        elif name == "pirate" and board.is_land(h):
            problems.append(BoardProblem(h, Refusal("pirate_on_land")))
    if robber_on_desert:
        problems.extend(robber_start_problems(board))
    if separate_red_numbers:
        for h in sorted(board.tiles):
            if board.tiles[h].number in (6, 8):
                for n in geo.neighbours(h):
                    if n > h and n in board.tiles and board.tiles[n].number in (6, 8):
                        problems.append(BoardProblem(h, Refusal("red_numbers_adjacent", number=board.tiles[h].number,
                                                                other=board.tiles[n].number, hex=list(n))))
    if standard is not None:
        problems.extend(standard.count_problems(board))
    return problems


#: What a table's own board may differ in from a dealt standard one and still be played as it lies: a set with
#: other counts (CatanAI's photos: three 10s and one 3, four hills and two mountains) and a 6 beside an 8 (a
#: table that laid its board so).  A real board read from a photo was refused for these, with no way on but to
#: untick "No 6 next to 8" and put tokens the table does not have on the screen.
AS_LAID = frozenset({"terrain_count", "numbers_missing", "numbers_extra", "red_numbers_adjacent"})


def may_be_as_laid(problems) -> bool:
    """Whether board ``problems`` (:func:`board_problems` with a ``standard``) are all differences a table's own
    board may have (``AS_LAID``, the deserts' count aside), none a board that cannot be played (a robber at sea,
    a hex missing) or an entry's slip.  The app asks this to offer "Use it as it is"."""
    def as_laid(p) -> bool:
        refusal = getattr(p, "refusal", None)
        if refusal is None or refusal.code not in AS_LAID:
            return False
        # a set has one desert per board (two at 5-6): one more or fewer is an entry's slip, not the table's set
        return not (refusal.code == "terrain_count" and refusal.params.get("terrain") == "desert")

    return bool(problems) and all(as_laid(p) for p in problems)


def robber_start_problems(board: Board) -> list[BoardProblem]:
    """The robber at a game's start stands on the desert (on one of them, the 5-6 board's two).

    A board without a desert has its robber beside the board (None), and a board read from JSON without a
    robber has it on its first desert: nothing to say.  A robber off the board or at sea is said by
    :func:`board_problems` already."""
    h = board.robber
    if h is None or not board.is_land(h) or board.tiles[h].terrain == "desert":
        return []
    deserts = sorted(d for d, t in board.tiles.items() if t.terrain == "desert")
    if not deserts:
        return []
    # board-wide (its words name both hexes): "the 8 fields: ... not on the 8 fields" said the place twice
    return [BoardProblem(None, Refusal("robber_not_on_desert", desert=list(deserts[0]), hex=list(h)))]


# --- standard boards ----------------------------------------------------------------------------

class BoardSpec(Value, frozen=True):
    """The official components of a standard board: land layout, terrains, tokens, harbors."""

    land: tuple[Hex, ...]
    terrains: Mapping[str, int]
    numbers: tuple[int, ...]
    harbors: Mapping[str, int]

    def count_problems(self, board: Board) -> list[BoardProblem]:
        problems = []
        counts: dict[str, int] = {}
        for t in board.tiles.values():
            counts[t.terrain] = counts.get(t.terrain, 0) + 1
        for terrain, want in self.terrains.items():
            if counts.get(terrain, 0) != want:
                problems.append(BoardProblem(None, Refusal("terrain_count", terrain=terrain,
                                                           have=counts.get(terrain, 0), want=want)))
        # the difference, not both whole sets: the user looks for the one token to add or take away
        have = Counter(t.number for t in board.tiles.values() if t.number is not None)
        want = Counter(self.numbers)
        if want - have:
            problems.append(BoardProblem(None, Refusal("numbers_missing", numbers=sorted((want - have).elements()))))
        if have - want:
            problems.append(BoardProblem(None, Refusal("numbers_extra", numbers=sorted((have - want).elements()))))

        return problems


def _hexagon(radius: int) -> tuple[Hex, ...]:
    return tuple(sorted((q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                        if geo.distance((q, r), (0, 0)) <= radius))


def _rows(widths: Iterable[int]) -> tuple[Hex, ...]:
    """Land laid out in rows of the given widths (the 5-6 player board is 3-4-5-6-5-4-3).

    Each row is offset half a hex from the one above: it starts half a hex further left while
    rows widen and half a hex further right while they narrow, which keeps the outline symmetric.
    """
    widths = list(widths)
    top = -(len(widths) // 2)
    out: list[Hex] = []
    q_start = 0
    for i, w in enumerate(widths):
        if i:
            # moving one row down shifts x = q + r/2 right by half a hex; q - 1 shifts it back left
            q_start += -1 if w > widths[i - 1] else 0
        r = top + i
        out.extend((q_start + k, r) for k in range(w))
    return tuple(sorted(out))


BASE_SPEC = BoardSpec(
    land=_hexagon(2),
    terrains={"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1},
    numbers=(2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12),
    harbors={"3:1": 4, "lumber": 1, "brick": 1, "wool": 1, "grain": 1, "ore": 1},
)

EXTENSION_SPEC = BoardSpec(  # the 5-6 player extension
    land=_rows((3, 4, 5, 6, 5, 4, 3)),
    terrains={"forest": 6, "pasture": 6, "fields": 6, "hills": 5, "mountains": 5, "desert": 2},
    numbers=(2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 8, 8, 8, 9, 9, 9, 10, 10, 10, 11, 11, 11, 12, 12),
    harbors={"3:1": 5, "lumber": 1, "brick": 1, "wool": 2, "grain": 1, "ore": 1},
)


def _coast_edges_in_order(land: frozenset[Hex]) -> list[Edge]:
    """Coast edges of a land mass, in order walking around it (for spacing harbors evenly)."""
    coast = [e for h in land for e in geo.hex_edges(h) if (e[0] in land) ^ (e[1] in land)]
    cx = sum(geo.pixel_center(h)[0] for h in land) / len(land)
    cy = sum(geo.pixel_center(h)[1] for h in land) / len(land)
    import math

    def angle(e: Edge) -> float:
        x, y = geo.edge_point(e)
        return math.atan2(y - cy, x - cx)

    return sorted(coast, key=angle)


def standard_board(seed: int | None = None, *, spec: BoardSpec = BASE_SPEC,
                   separate_red_numbers: bool = False) -> Board:
    """A random board with the official components, reproducible from ``seed``.

    With ``separate_red_numbers`` no 6 or 8 token lies next to another 6 or 8.
    """
    import random  # (here: a replay never makes a board, and the import costs a process start ~1 ms)

    rng = random.Random(seed)
    land = list(spec.land)
    terrains = [t for t, n in spec.terrains.items() for _ in range(n)]
    rng.shuffle(terrains)
    producing = [h for h, t in zip(land, terrains) if t != "desert"]
    for _ in range(10_000):
        numbers = list(spec.numbers)
        rng.shuffle(numbers)
        placed = dict(zip(producing, numbers))
        if not separate_red_numbers or not any(
                placed[h] in (6, 8) and placed.get(n) in (6, 8) for h in producing for n in geo.neighbours(h)):
            break
    else:  # pragma: no cover - 10,000 shuffles always find one on the official layouts
        raise RuntimeError("could not separate the 6 and 8 tokens")
    tiles: dict[Hex, Tile] = {}
    for h, t in zip(land, terrains):
        tiles[h] = Tile(t, placed.get(h))
    land_set = frozenset(land)
    for h in land:
        for n in geo.neighbours(h):
            if n not in land_set:
                tiles[n] = Tile("sea")
    coast = _coast_edges_in_order(land_set)
    trades = [t for t, n in spec.harbors.items() for _ in range(n)]
    rng.shuffle(trades)
    step = len(coast) / len(trades)
    offset = rng.randrange(len(coast))
    harbors = {coast[(offset + int(i * step)) % len(coast)]: trade for i, trade in enumerate(trades)}
    robber = min(h for h, t in tiles.items() if t.terrain == "desert")
    return Board(tiles, harbors, robber)
