"""The reader on SYNTHETIC 5-6 player boards (issue 30's stretch; docs/board-reader.md): there are no photos of a
real 5-6 board, so each is laid from the real tiles and tokens of one labelled 3-4 photo (vision/board/
synthetic_boards.py), seen at a random turn and slant in another light.

    .venv/bin/python bench/bench_board_56.py [--seeds N]

For each of the 8 labelled CatanAI photos (tests/data/boards/catanai) and each seed: a 5-6 board (30 hexes) --
the reader must refuse it as a 5-6 board, never read 19 of its hexes as a 3-4 board -- and, as a control, the
same photo's own 19 hexes laid back in place through the same pipeline, which must still be read (terrains and
numbers compared with the reading of the real photo, up to the turn).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.board.labels import load_labels, rotate  # noqa: E402
from vision.board.lattice import LAND  # noqa: E402
from vision.board.reader import NoBoardError, read_board  # noqa: E402
from vision.board.synthetic_boards import flat_board, photo_of  # noqa: E402


def main() -> int:
    seeds = int(sys.argv[sys.argv.index("--seeds") + 1]) if "--seeds" in sys.argv else 3
    refused_56 = read_56 = 0
    control = {"read": 0, "photos": 0, "terrain": 0, "numbers": 0, "numbers_of": 0}
    for image, _record in load_labels(ROOT / "tests/data/boards/catanai"):
        original = cv2.imread(str(image))
        reading = read_board(original)
        work = cv2.resize(original, None, fx=reading.scale, fy=reading.scale, interpolation=cv2.INTER_AREA)
        for seed in range(seeds):
            rng = np.random.default_rng(seed)
            try:
                read_board(photo_of(flat_board(work, reading, rng)[0], rng))
                read_56 += 1
                print(f"{image.name} seed {seed}: 5-6 board READ as a 3-4 board (wrong)")
            except NoBoardError as error:
                refused_56 += "5-6" in str(error)
                print(f"{image.name} seed {seed}: 5-6 board refused: {error}")
            rng = np.random.default_rng(seed)
            control["photos"] += 1
            try:
                again = read_board(photo_of(flat_board(work, reading, rng, same_layout=True)[0], rng))
            except NoBoardError as error:
                print(f"{image.name} seed {seed}: control refused: {error}")
                continue
            control["read"] += 1
            turns = max(range(6), key=lambda k: sum(reading.terrains[rotate(h, k)] == t
                                                    for h, t in again.terrains.items()))
            control["terrain"] += sum(reading.terrains[rotate(h, turns)] == t for h, t in again.terrains.items())
            seen = [h for h in LAND if reading.numbers.get(rotate(h, turns)) is not None]
            control["numbers_of"] += len(seen)
            control["numbers"] += sum(again.numbers.get(h) == reading.numbers[rotate(h, turns)] for h in seen)
    total = refused_56 + read_56
    print(f"SYNTHETIC 5-6 boards: refused as 5-6 {refused_56}/{total}, read as a 3-4 board {read_56}/{total}")
    print(f"SYNTHETIC control (the 3-4 photos' own hexes through the same pipeline): read {control['read']}/"
          f"{control['photos']}, terrain as on the real photo {control['terrain']}/{19 * control['read']}, "
          f"numbers {control['numbers']}/{control['numbers_of']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
