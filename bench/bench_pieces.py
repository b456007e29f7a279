"""Time to read the pieces of a board photo, once its board is read (issue 30; docs/performance.md).

    .venv/bin/python bench/bench_pieces.py [PHOTO...] [--repeat 7]

For each photo (default: the CatanAI photos in tests/data/boards and the SettlersEye pieces export's first six
photos, when ../shared/data is there): the board is read once, then ``read_pieces`` (warp flat, 126 patches,
their features, the two classifiers) is timed ``--repeat`` times on the 1000 px image the lattice was fitted
at, with OpenCV held to one thread.  Prints the median and spread (min-max) in milliseconds, and the pieces said;
then the process's CPU time per reading (load-independent where wall time is not: on this shared machine the
wall time at load 15 is several times the CPU time) and the load average before and after.
Accuracy is not measured here: ``python -m vision.board.make_piece_model EXPORT --folds 3`` does that.
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

import cv2  # noqa: E402

from vision.board.pieces import read_pieces  # noqa: E402
from vision.board.reader import NoBoardError, read_board  # noqa: E402


def default_photos() -> list[Path]:
    photos = sorted((ROOT / "tests" / "data" / "boards" / "catanai" / "photos").glob("*.jpg"))
    export = ROOT.parent / "shared" / "data" / "boards" / "settlerseye" / "pieces" / "images"
    return photos + sorted(export.glob("*.jpg"))[:6]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("photos", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    medians, cpu_medians = [], []
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    for path in args.photos or default_photos():
        image = cv2.imread(str(path))
        try:
            reading = read_board(image)
        except (NoBoardError, IndexError) as error:
            print(f"{path.name}: no board ({error})")
            continue
        work = cv2.resize(image, None, fx=reading.scale, fy=reading.scale, interpolation=cv2.INTER_AREA)
        times, cpu, found = [], [], []
        outline = len(reading.lattice.matched) < 12   # fitted to the board's outline, not its tokens
        for _ in range(args.repeat):
            t, c = time.perf_counter(), time.process_time()
            found = read_pieces(work, reading.lattice.homography)
            times.append((time.perf_counter() - t) * 1000.0)
            cpu.append((time.process_time() - c) * 1000.0)
        medians.append(statistics.median(times))
        cpu_medians.append(statistics.median(cpu))
        print(f"{path.name[:24]:24s} {statistics.median(times):6.1f} ms ({min(times):.1f}-{max(times):.1f}), "
              f"CPU {statistics.median(cpu):6.1f} ms, {len(found)} pieces said{' (outline lattice)' if outline else ''}")
    if medians:
        print(f"median of the photos' medians: {statistics.median(medians):.1f} ms wall, "
              f"{statistics.median(cpu_medians):.1f} ms CPU; load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
