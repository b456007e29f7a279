"""Time to read a board from a 12 MP phone photo on one core (issue 30; docs/performance.md).

    .venv/bin/python bench/bench_board_reader.py [PHOTO_DIR] [--repeat 5] [--paired]

PHOTO_DIR defaults to the full-resolution CatanAI photos (../shared/data/boards/catanai/photos, 4032 x 3024);
the downscaled copies in tests/data/boards are used when it is missing.  OpenCV is held to one thread.  Prints,
per photo, the median and spread (min-max) of ``--repeat`` whole readings (decode included) and of the stages
(decode as read_board_file does, token circles, lattice fit, terrain, robber, counting the tokens' prints), in milliseconds.
``--paired``: instead, the reading as read_board_file makes it (a 12 MP photo decoded at half size) and the same
photo decoded at full size, turn about in one process (the machine's load then weighs on both alike).
numpy's BLAS is held to one thread too (set before numpy loads): on a loaded 2-core machine its threads made
the tokens' one matrix product ~95 ms instead of ~7.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")  # one core: numpy's BLAS too, not only OpenCV

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.board import reader, terrain  # noqa: E402
from vision.board.discs import find_discs, token_sized  # noqa: E402
from vision.board.lattice import fit_lattice  # noqa: E402
from vision.board.token_print import print_of  # noqa: E402

DEFAULT = ROOT.parent / "shared" / "data" / "boards" / "catanai" / "photos"


def stages(path: Path) -> dict[str, float]:
    times = {}
    t = time.perf_counter()
    image = reader.load_photo(path, full=True, half=True)  # as read_board_file decodes it (12 MP: at half size)
    times["decode"] = time.perf_counter() - t
    t = time.perf_counter()
    scale = reader.WORK_SIZE / max(image.shape[:2])
    work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    discs = token_sized([d for d in find_discs(work) if d.is_beige])
    times["circles"] = time.perf_counter() - t
    t = time.perf_counter()
    lattice = fit_lattice(np.array([(d.x, d.y) for d in discs]))
    times["lattice"] = time.perf_counter() - t
    t = time.perf_counter()
    plane = terrain.corrected_plane(work, lattice)
    colours = terrain.relative(terrain.hex_colours(plane))
    terrains = {h: terrain.classify(c)[0] for h, c in colours.items()}
    times["terrain"] = time.perf_counter() - t
    t = time.perf_counter()
    reader.find_robber(plane, terrains)
    times["robber"] = time.perf_counter() - t
    t = time.perf_counter()
    for h, i in lattice.matched.items():
        print_of(image, discs[i].x / scale, discs[i].y / scale,
                 reader.TOKEN_RADIUS * reader.local_spacing(lattice, h) / scale)
    times["prints"] = time.perf_counter() - t
    return {k: v * 1000 for k, v in times.items()}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("folder", nargs="?", default=str(DEFAULT if DEFAULT.is_dir()
                                                         else ROOT / "tests/data/boards/catanai/photos"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--paired", action="store_true", help="half-size decode against full, turn about")
    args = parser.parse_args()
    cv2.setNumThreads(1)
    photos = sorted(p for p in Path(args.folder).iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    if args.paired:
        return paired(photos, args.repeat)
    all_medians = []
    for path in photos:
        size = cv2.imread(str(path), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape  # header-cheap size hint
        whole = []
        parts: dict[str, list[float]] = {}
        for _ in range(args.repeat):
            t = time.perf_counter()
            reader.read_board_file(path)
            whole.append((time.perf_counter() - t) * 1000)
            for k, v in stages(path).items():
                parts.setdefault(k, []).append(v)
        median = statistics.median(whole)
        all_medians.append(median)
        detail = ", ".join(f"{k} {statistics.median(v):.0f}" for k, v in parts.items())
        print(f"{path.name} (~{size[1] * 8}x{size[0] * 8}): {median:.0f} ms "
              f"({min(whole):.0f}-{max(whole):.0f}); {detail}")
    print(f"median over {len(photos)} photos: {statistics.median(all_medians):.0f} ms per photo")
    return 0


def paired(photos: list[Path], repeat: int) -> int:
    def full(path: Path) -> None:
        reader.read_board(reader.load_photo(path, full=True))

    ratios, halves, fulls = [], [], []
    for path in photos:
        times: dict[str, list[float]] = {"half": [], "full": []}
        for _ in range(repeat):
            for name, read in (("half", reader.read_board_file), ("full", full)):
                t = time.perf_counter()
                read(path)
                times[name].append((time.perf_counter() - t) * 1000)
        h, f = statistics.median(times["half"]), statistics.median(times["full"])
        halves.append(h)
        fulls.append(f)
        ratios.append(h / f)
        print(f"{path.name}: as read_board_file {h:.0f} ms, decoded at full size {f:.0f} ms")
    print(f"median over {len(photos)} photos: {statistics.median(halves):.0f} ms against "
          f"{statistics.median(fulls):.0f} ms (median ratio {statistics.median(ratios):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
