"""What the pictures' list of "Scan the board" costs (issue 30; docs/board-reader.md, docs/performance.md).

    .venv/bin/python bench/bench_picture_list.py [--repeat 5] [--folder DIR]

Two costs: the small picture of each row (``picture_chooser.thumbnail``: the header, a scaled JPEG decode, a
resize; made on a thread of its own, one photo after another, newest first), timed on the 12 MP CatanAI
originals in ../shared/data/boards/catanai/photos (and on the 1000 px copies in tests/ for a phone's smaller
export); and the listing's order (``newest_first``: a stat of each file) on a folder of ``--files`` empty files
named as a camera names them.  Medians (min-max) of ``--repeat`` runs per photo, milliseconds, OpenCV held to
one thread.  The machine and its load are printed: give them with the figures.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from companion.ui.picture_chooser import is_picture_name, newest_first, thumbnail  # noqa: E402

ORIGINALS = ROOT.parent / "shared" / "data" / "boards" / "catanai" / "photos"
COPIES = ROOT / "tests" / "data" / "boards" / "catanai" / "photos"


class LocalFiles:
    """What FileChooser's ``sort_func`` is given: a file system that says what is a folder."""

    @staticmethod
    def is_dir(path: str) -> bool:
        return os.path.isdir(path)


def timed(work, repeat: int) -> list[float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        runs.append((time.perf_counter() - start) * 1000.0)
    return runs


def say(name: str, runs: list[float]) -> str:
    return f"{name}: {statistics.median(runs):.1f} ms ({min(runs):.1f}-{max(runs):.1f}, {len(runs)} runs)"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--files", type=int, default=1000)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"{os.cpu_count()} cores, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for folder, what in ((ORIGINALS, "12 MP originals"), (COPIES, "1024 px copies in tests/")):
        photos = sorted(p for p in folder.iterdir() if is_picture_name("", str(p)))
        if not photos:
            print(f"{folder}: no photos")
            continue
        runs = []
        for photo in photos:
            runs += timed(lambda photo=photo: thumbnail(str(photo)), args.repeat)
        print(say(f"small picture of a photo, {len(photos)} CatanAI {what}", runs))
    with tempfile.TemporaryDirectory() as tmp:
        now = time.time()
        for n in range(args.files):
            path = Path(tmp) / f"IMG_20261127_{n:06d}.jpg"
            path.touch()
            os.utime(path, (now - n * 60, now - n * 60))
        files = [str(p) for p in Path(tmp).iterdir()]
        print(say(f"newest first, {args.files} pictures", timed(lambda: newest_first(files, LocalFiles), args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
