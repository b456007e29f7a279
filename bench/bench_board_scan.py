"""What a tap on "Scan the board" costs the UI thread (issue 30; docs/performance.md).

    .venv/bin/python bench/bench_board_scan.py [--repeat 15]

The reading itself runs on a thread of its own (bench_board_reader.py times it).  On the UI thread each tap
that selects or corrects a hex redraws the photo with the board over it (``BoardScan.drawn``, OpenCV on the
1000 px photo) and uploads it as a texture; the upload itself needs a window, so this times the drawing, the
bytes handed to it (converted to RGB and flipped, as camera_picture.bgr_texture does) and the hex lookup of
a tap.  Medians (min-max) of ``--repeat`` runs,
milliseconds, OpenCV held to one thread.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from vision.board.lattice import LAND  # noqa: E402
from vision.board.scan import BoardScan  # noqa: E402

PHOTOS = ROOT / "tests" / "data" / "boards" / "catanai" / "photos"
COLOURS = {"forest": (0.13, 0.45, 0.2), "hills": (0.74, 0.38, 0.2), "pasture": (0.55, 0.8, 0.35),
           "fields": (0.93, 0.78, 0.3), "mountains": (0.55, 0.55, 0.6), "desert": (0.9, 0.84, 0.62)}


def timed(work, repeat: int) -> tuple[float, float, float]:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        runs.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(runs), min(runs), max(runs)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    for name in ("testimg3.jpg", "test4_2.jpg"):
        scan = BoardScan.of_file(PHOTOS / name)
        centres = [scan.centre(h) for h in LAND]
        draw = timed(lambda: scan.drawn(COLOURS, LAND[4]), args.repeat)
        picture = scan.drawn(COLOURS, LAND[4])
        # what camera_picture.bgr_texture hands the texture: RGB, bottom row first
        convert = timed(lambda: cv2.cvtColor(picture, cv2.COLOR_BGR2RGB)[::-1].copy().tobytes(), args.repeat)
        lookup = timed(lambda: [scan.hex_at(x, y) for x, y in centres], args.repeat)
        print(f"{name} ({picture.shape[1]}x{picture.shape[0]}): draw {draw[0]:.1f} ms ({draw[1]:.1f}-{draw[2]:.1f}); "
              f"texture bytes {convert[0]:.1f} ms ({convert[1]:.1f}-{convert[2]:.1f}); "
              f"19 tap lookups {lookup[0]:.1f} ms ({lookup[1]:.1f}-{lookup[2]:.1f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
