"""Writes the example High Tide maps into companion/assets/boards/ (run: python tools/make_high_tide_boards.py).

The book's printed layouts are not reproduced: these are our own maps with the scenario's
component counts (3-4: 32 hexes, 19 tokens, 9 harbors; 5-6: 53 hexes, 28 tokens, 10 harbors), a
main island and small islets.  Tables lay their own map by hand and enter it; any map that passes
validation is playable.  Edit the JSON directly, or change the seeds here and regenerate.
"""

import json
import random
from pathlib import Path

from companion.rules import geometry as geo
from companion.rules.board import EXTENSION_SPEC, Board, Tile, _coast_edges_in_order, board_problems

HERE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "boards"


def make(name, main_land, islets, terrains, numbers, harbor_trades, total, seed):
    rng = random.Random(seed)
    land = list(main_land) + list(islets)
    producing = list(terrains)
    rng.shuffle(producing)
    deserts = [h for h in main_land if geo.distance(h, (0, 0)) == 0 or h in DESERT_SPOTS][: terrains.count("desert")]
    tiles = {}
    others = [h for h in land if h not in deserts]
    kinds = [t for t in producing if t != "desert"]
    numbers = list(numbers)
    rng.shuffle(numbers)
    for h in deserts:
        tiles[h] = Tile("desert")
    for h, t, n in zip(others, kinds, numbers):
        tiles[h] = Tile(t, n, h in islets)
    assert len(others) == len(kinds) == len(numbers), (len(others), len(kinds), len(numbers))
    ring = sorted({n for h in land for n in geo.neighbours(h)} - set(land))
    for h in ring[: total - len(tiles)]:
        tiles[h] = Tile("sea")
    assert len(tiles) == total, len(tiles)
    coast = _coast_edges_in_order(frozenset(main_land))
    step = len(coast) / len(harbor_trades)
    harbors = {coast[int(i * step)]: trade for i, trade in enumerate(harbor_trades)}
    board = Board(tiles, harbors, deserts[0])
    assert not board_problems(board), board_problems(board)
    (HERE / name).write_text(json.dumps(board.to_json(), indent=1) + "\n")


DESERT_SPOTS = {(0, 0), (-1, 1)}
TRADES9 = ["3:1"] * 4 + ["lumber", "brick", "wool", "grain", "ore"]
TRADES10 = ["3:1"] * 5 + ["lumber", "brick", "wool", "grain", "ore"]
make("high-tide-3-4.json",
     main_land=[(q, r) for q in range(-2, 3) for r in range(-2, 3) if geo.distance((q, r), (0, 0)) <= 2],
     islets=[(4, -2)],
     terrains=["desert"] + ["gold"] + ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + ["hills"] * 3 + ["mountains"] * 3,
     numbers=[2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12, 10],
     harbor_trades=TRADES9, total=32, seed=7)
make("high-tide-5-6.json",
     main_land=[h for h in EXTENSION_SPEC.land if h != (2, 0)],
     islets=[(5, -1)],
     terrains=["desert"] * 2 + ["gold"] * 2 + ["forest"] * 6 + ["pasture"] * 6 + ["fields"] * 5 + ["hills"] * 5 + ["mountains"] * 4,
     numbers=list(EXTENSION_SPEC.numbers),
     harbor_trades=TRADES10, total=53, seed=11)
