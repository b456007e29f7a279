"""A seeded Seafarers map in the spirit of the "new world" variant: a main island and islets in a sea frame.

Seed ``004`` prints no scenario maps, so this deals one: a main island at the centre, two to four
small islets out at sea (never touching the main island or each other, so reaching them takes
ships), the gold fields on the islets, number tokens with no 6 or 8 next to another 6 or 8 and none
on gold, the robber on the main island's desert, the pirate on the frame, the base game's harbours
on the main island's coast.  The same seed and table size always deal the same board.

Shape, by table size (``radius`` counts hexes from the centre):

- 3-4 players: main island = the hexes within 2 of the centre less 3 on its rim (16), three islets
  of 3, 3 and 2 hexes on the ring at 4, the frame on the ring at 5.
- 5-6 players: main island = within 3 less 9 on its rim (28), four islets of 3, 3, 2 and 2 on the
  ring at 5, the frame on the ring at 6.

A second family, "four islands" (:func:`four_islands_board`): four islands of the same size (5 hexes for 3-4
players, 7 for 5-6), each a hex and its ring less some, their centres on one ring a quarter turn apart, so a
sea hex lies between any two; initial settlements go on any of them.  :func:`deal_map` deals either by name.

Rim hexes only are taken off the main island: every rim hex touches the intact inner hexes, so the
island stays one piece.  Islets lie two rings out from the main island's rim, so a sea hex always
separates them from it; along their ring each islet is a run with at least one sea hex after it.
"""

from __future__ import annotations

from . import geometry as geo
from .board import BASE_SPEC, EXTENSION_SPEC, RESOURCES, TERRAIN_RESOURCE, Board, Tile, _coast_edges_in_order
from .geometry import Hex

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any, Mapping

_RESOURCE_TERRAIN = {r: t for t, r in TERRAIN_RESOURCE.items()}
_PRODUCING = tuple(_RESOURCE_TERRAIN[r] for r in RESOURCES)  # forest, hills, pasture, fields, mountains


class _Size:
    def __init__(self, main_radius: int, rim_removed: int, islets: tuple[int, ...], main_each: int,
                 golds: int, harbors: Mapping[str, int]):
        self.main_radius, self.rim_removed, self.islets = main_radius, rim_removed, islets
        self.main_each, self.golds, self.harbors = main_each, golds, harbors
        self.islet_ring = main_radius + 2
        self.frame_ring = main_radius + 3


SIZES = {
    # main island: 1 desert + 3 of each producing terrain = 16 hexes; islets 8: 2 gold + 6 others
    "3-4": _Size(2, 3, (3, 3, 2), 3, 2, BASE_SPEC.harbors),  # the box's 9 harbours round the main island
    # main island: 1 desert + 5 of each + 2 more = 28 hexes; islets 10: 3 gold + 7 others
    "5-6": _Size(3, 9, (3, 3, 2, 2), 5, 3, EXTENSION_SPEC.harbors),  # and the extension's 11
}

# Tokens dealt in this order of preference: the base game's 18, then more of the middling numbers.
_TOKENS = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12,
           3, 4, 5, 9, 10, 11, 4, 5, 9, 10, 6, 8, 3, 11, 2, 12, 5, 9, 4, 10)
_RED = (6, 8)


def size_for(players: int) -> str:
    return "5-6" if players >= 5 else "3-4"


def ring(radius: int) -> list[Hex]:
    """The hexes at ``radius`` from the centre, in order walking round (neighbours follow each other)."""
    h = (-radius, radius)  # DIRECTIONS[4] * radius
    out = []
    for direction in geo.DIRECTIONS:
        for _ in range(radius):
            out.append(h)
            h = geo.add(h, direction)
    return out


def land_masses(board: Board) -> list[frozenset[Hex]]:
    """The board's separate pieces of land (hexes joined through land neighbours), biggest first."""
    left, masses = set(board.land), []
    while left:
        todo = [left.pop()]
        mass = set(todo)
        while todo:
            for n in geo.neighbours(todo.pop()):
                if n in left:
                    left.discard(n)
                    mass.add(n)
                    todo.append(n)
        masses.append(frozenset(mass))
    return sorted(masses, key=lambda m: (-len(m), min(m)))


def seafarers_board(seed: int | None = None, players: int = 4) -> Board:
    """A Seafarers board for ``players`` (3-6), reproducible from ``seed``."""
    import random  # (here, as in standard_board: a replay never deals a board)

    size = SIZES[size_for(players)]
    rng = random.Random(seed)
    main = [h for r in range(size.main_radius) for h in ([(0, 0)] if r == 0 else ring(r))]
    rim = ring(size.main_radius)
    main += sorted(set(rim) - set(rng.sample(rim, size.rim_removed)))

    around = ring(size.islet_ring)
    share = len(around) // len(size.islets)  # each islet's stretch of the ring; its run leaves sea after it
    offset = rng.randrange(len(around))
    islets = [[around[(offset + i * share + k) % len(around)] for k in range(length)]
              for i, length in enumerate(size.islets)]
    islet_hexes = [h for islet in islets for h in islet]

    main_terrains = ["desert"] + [t for t in _PRODUCING for _ in range(size.main_each)]
    main_terrains += rng.sample(_PRODUCING, len(main) - len(main_terrains))
    rng.shuffle(main_terrains)
    islet_terrains = ["gold"] * size.golds
    others = list(_PRODUCING) * 2
    rng.shuffle(others)
    islet_terrains += others[:len(islet_hexes) - size.golds]
    rng.shuffle(islet_terrains)
    terrain = dict(zip(main, main_terrains)) | dict(zip(islet_hexes, islet_terrains))

    producing = sorted(h for h, t in terrain.items() if t != "desert")
    numbers = _deal_numbers(producing, terrain, rng)

    tiles: dict[Hex, Tile] = {h: Tile(t, numbers.get(h)) for h, t in terrain.items()}
    for r in range(1, size.frame_ring):
        for h in ring(r):
            tiles.setdefault(h, Tile("sea"))
    frame = ring(size.frame_ring)
    for h in frame:
        tiles[h] = Tile("sea", frame=True)

    coast = _coast_edges_in_order(frozenset(main))
    trades = [t for t, n in size.harbors.items() for _ in range(n)]
    rng.shuffle(trades)
    step = len(coast) / len(trades)
    start = rng.randrange(len(coast))
    harbors = {coast[(start + int(i * step)) % len(coast)]: trade for i, trade in enumerate(trades)}

    robber = next(h for h in main if terrain[h] == "desert")
    return Board(tiles, harbors, robber, rng.choice(frame))


#: The map families New game offers for Seafarers: the key a table picks, the function dealing it.
MAPS = ("new_world", "four_islands")


def deal_map(name: str, seed: int | None = None, players: int = 4) -> Board:
    """The Seafarers map ``name`` (one of :data:`MAPS`) for ``players``, reproducible from ``seed``."""
    if name == "four_islands":
        return four_islands_board(seed, players)
    if name == "new_world":
        return seafarers_board(seed, players)
    raise ValueError(f"no Seafarers map called {name!r} (known: {', '.join(MAPS)})")


class _IslandsSize:
    def __init__(self, frame_ring: int, island_hexes: int, golds: int, harbors: Mapping[str, int]):
        self.frame_ring, self.island_hexes, self.golds, self.harbors = frame_ring, island_hexes, golds, harbors


ISLANDS_SIZES = {
    # four islands of 5 hexes (20: a desert, 2 gold, 17 producing), the box's 9 harbours, frame on ring 5
    "3-4": _IslandsSize(5, 5, 2, BASE_SPEC.harbors),
    # four islands of 7 hexes (28: a desert, 3 gold, 24 producing), the extension's 11 harbours, frame on ring 6
    "5-6": _IslandsSize(6, 7, 3, EXTENSION_SPEC.harbors),
}


def four_islands_board(seed: int | None = None, players: int = 4) -> Board:
    """Seafarers "four islands": four islands of the same size, a sea hex at least between any two, so that every
    player may start on any of them and the others are reached by ship.  Each island is a hex and its ring less
    the hexes the table size leaves out; gold on different islands, never with a 6 or 8, one desert (the robber's,
    on an island without gold where there is one), no 6
    next to 8, the pirate on the frame, the harbours shared round the islands' coasts.  Same seed, same board."""
    import random

    size = ISLANDS_SIZES[size_for(players)]
    rng = random.Random(seed)
    centres = _island_centres(size.frame_ring - 2, rng)  # the islands reach the ring inside the frame
    islands = []
    for c in centres:
        around = [geo.add(c, d) for d in geo.DIRECTIONS]
        keep = sorted(rng.sample(around, size.island_hexes - 1)) if size.island_hexes < 7 else around
        islands.append([c, *keep])
    land = [h for island in islands for h in island]

    # gold on as many different islands (no island holds two), the desert on yet another where one is left
    gold = {rng.choice(islands[i]) for i in rng.sample(range(len(islands)), size.golds)}
    deserted = [i for i, island in enumerate(islands) if not gold & set(island)] or list(range(len(islands)))
    desert = rng.choice([h for h in islands[rng.choice(deserted)] if h not in gold])
    rest = [h for h in land if h not in gold and h != desert]
    terrains = [t for t in _PRODUCING for _ in range(len(rest) // len(_PRODUCING))]
    terrains += rng.sample(_PRODUCING, len(rest) - len(terrains))
    rng.shuffle(terrains)
    terrain = dict(zip(rest, terrains)) | dict.fromkeys(gold, "gold") | {desert: "desert"}
    producing = sorted(h for h, t in terrain.items() if t != "desert")
    numbers = _deal_numbers(producing, terrain, rng)

    tiles: dict[Hex, Tile] = {h: Tile(t, numbers.get(h)) for h, t in terrain.items()}
    for r in range(0, size.frame_ring):
        for h in ([(0, 0)] if r == 0 else ring(r)):
            tiles.setdefault(h, Tile("sea"))
    frame = ring(size.frame_ring)
    for h in frame:
        tiles[h] = Tile("sea", frame=True)

    trades = [t for t, n in size.harbors.items() for _ in range(n)]
    rng.shuffle(trades)
    harbors = {}
    for i, island in enumerate(islands):  # as even a share as the count allows, spaced round each coast
        mine = trades[i::len(islands)]
        coast = _coast_edges_in_order(frozenset(island))
        start = rng.randrange(len(coast))
        step = len(coast) / max(1, len(mine))
        for k, trade in enumerate(mine):
            harbors[coast[(start + int(k * step)) % len(coast)]] = trade

    robber = next(h for h in land if terrain[h] == "desert")
    return Board(tiles, harbors, robber, rng.choice(frame))


def _island_centres(radius: int, rng: Any) -> list[Hex]:
    """Four island centres on the ring at ``radius``, each pair 4 or more apart (two islands of a hex and its
    ring then keep a sea hex between them), at a seeded turn of the ring."""
    around = ring(radius)
    quarter = len(around) / 4
    offset = rng.randrange(len(around))
    centres = [around[(offset + round(i * quarter)) % len(around)] for i in range(4)]
    assert all(geo.distance(a, b) >= 4 for i, a in enumerate(centres) for b in centres[i + 1:]), centres
    return centres


def _deal_numbers(producing: list[Hex], terrain: dict[Hex, str], rng: Any) -> dict[Hex, int]:
    """Tokens for ``producing``: no 6/8 beside another 6/8, none on gold (gold pays a card of choice)."""
    tokens = list(_TOKENS[:len(producing)])
    for _ in range(10_000):
        rng.shuffle(tokens)
        placed = dict(zip(producing, tokens))
        if all(placed[h] not in _RED or (terrain[h] != "gold" and not any(placed.get(n) in _RED
                                                                         for n in geo.neighbours(h)))
               for h in producing):
            return placed
    raise RuntimeError("could not keep the 6 and 8 tokens apart")  # pragma: no cover - ~1 in 20 shuffles fits
