"""CPU time of settling a tokenless board's lattice on the tiles' seams (vision/board/seams.py; docs/performance.md).

    .venv/bin/python bench/bench_seams.py [PHOTO...] [--repeat N] [--against FILE]

Each photo (default: the three played SettlersEye boards in tests/data/boards/settlerseye/pieces) is brought to
the reader's working size and its outline's lattice fitted once; then ``seams.settle_on_seams`` is timed from
that lattice, N times (default 7), CPU time of this process with one OpenCV thread; the median and the least are
printed with the load average.  ``--against FILE``: another copy of seams.py (e.g. ``git show
REV:vision/board/seams.py > /tmp/seams_old.py``) timed alternately with the checkout's, run for run, and whether
the two settle on the same lattice bit for bit.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.board import seams  # noqa: E402
from vision.board.outline import fit_outline  # noqa: E402
from vision.board.reader import WORK_SIZE  # noqa: E402

PHOTOS = sorted((ROOT / "tests" / "data" / "boards" / "settlerseye" / "pieces").glob("*.jpg"))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("photos", nargs="*", type=Path, default=PHOTOS)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    versions = {"checkout": seams}
    if args.against:
        spec = importlib.util.spec_from_file_location("seams_against", args.against)
        other = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(other)
        versions = {"against": other, "checkout": seams}
    print(f"load average {os.getloadavg()[0]:.1f}")
    for path in args.photos:
        image = cv2.imread(str(path))
        shrink = WORK_SIZE / max(image.shape[:2])
        work = cv2.resize(image, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_LINEAR)
        start = fit_outline(work)[0].homography
        times: dict[str, list[float]] = {name: [] for name in versions}
        results = {}
        for _ in range(args.repeat):
            for name, module in versions.items():  # alternated, so a change of load falls on both
                started = time.process_time()
                results[name] = module.settle_on_seams(work, start)
                times[name].append((time.process_time() - started) * 1000.0)
        line = " | ".join(f"{name} {statistics.median(t):.0f} ms (least {min(t):.0f})" for name, t in times.items())
        if args.against:
            a, b = results["against"], results["checkout"]
            same = (a is None and b is None) or (a is not None and b is not None and np.array_equal(a[0], b[0])
                                                 and a[1] == b[1])
            line += f" | same lattice: {'yes' if same else 'NO'}"
        print(f"{path.name[:24]}: {line}; load {os.getloadavg()[0]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
