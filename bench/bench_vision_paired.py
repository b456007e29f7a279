"""Paired CPU time of two checkouts' dice reader (issue 29): is a change to the reader faster, on a shared machine?

    .venv/bin/python bench/bench_vision_paired.py BEFORE AFTER [--rounds 6] [--repeat 21] [--data ../shared/data/dice]

BEFORE and AFTER are checkouts (or ``git archive`` copies) holding ``vision/`` with its models.  Each round runs
one fresh process per checkout, the order turned about every round (before/after, after/before, ...), and each
process times its reader with ``time.process_time``: the CPU this process spent, which the other programs on a
busy machine do not add to as they add to wall time (they still slow it a little through the shared caches, so
the two sides are measured turn about and compared round by round).  Timed on bench_vision's frames, OpenCV held
to one thread: the 640x640 photo with two dice, the same with an overhead camera's calibration (the cocked-die
shape test), a 1920x1080 frame with that photo as its calibrated tray, an empty tray, and the detector alone.
Each figure is the median of ``--repeat`` reads, the five measures read turn about (one read of each in turn);
the table gives per measure the median over the rounds of each
side, the median of the per-round differences, and the minor page faults per read.  Timings are for reading,
never pass/fail.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
MEASURES = ("read a 640x640 photo with 2 dice", "the same, calibrated overhead (cocked-die shape test)",
            "a 1920x1080 frame, its 640x640 tray calibrated", "an empty 640x640 tray", "detector alone, 640x640")


def measure(root: str, repeat: int, data: Path) -> dict:
    """In this process: the checkout ``root``'s reader timed on each of :data:`MEASURES` (median CPU ms, faults)."""
    sys.path.insert(0, root)
    import cv2
    import numpy as np
    from vision import dataset
    from vision.calibration import Calibration
    from vision.reader import DiceReader

    square = []
    for name in ("N3VERS4YDIE-dice-recognition", "nell-byler-dice_detection"):
        for item in dataset.list_images(data / name):
            image = cv2.imread(str(item.image_path))
            if image.shape[:2] == (640, 640) and len(item.read_dice(640, 640)) == 2:
                square.append(image)
                break
    two = square[0]  # bench_vision's 2-dice photo: the first 640x640 photo of two labelled dice
    plain = DiceReader(None, threads=1)
    overhead = DiceReader(None, Calibration(overhead=True), threads=1)
    hd = np.full((1080, 1920, 3), (60, 90, 130), np.uint8)
    hd[220:860, 640:1280] = two
    wide = DiceReader(None, Calibration(tray=(640 / 1920, 220 / 1080, 1280 / 1920, 860 / 1080)), threads=1)
    empty = np.full((640, 640, 3), 200, np.uint8)
    runs = (lambda: plain.read(two), lambda: overhead.read(two), lambda: wide.read(hd), lambda: plain.read(empty),
            lambda: plain._detect(two))
    for run in runs:
        for _ in range(3):  # warm up
            run()
    # The measures read turn about, read by read: timed one block after another, a later block came out cheaper than
    # an earlier one doing strictly less work (session 14: the overhead row under the plain one), so no measure gets
    # the process's later, warmer share.
    times = {name: [] for name in MEASURES}
    faults = dict.fromkeys(MEASURES, 0)
    for _ in range(repeat):
        for name, run in zip(MEASURES, runs):
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            started = time.process_time()
            run()
            times[name].append((time.process_time() - started) * 1000.0)
            faults[name] += resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
    return {name: (statistics.median(times[name]), faults[name] / repeat) for name in MEASURES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", nargs="?")
    parser.add_argument("after", nargs="?")
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--measure", metavar="ROOT", help=argparse.SUPPRESS)  # one side, in a child process
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.repeat, args.data)))
        return
    if not args.before or not args.after:
        parser.error("give two checkouts: BEFORE AFTER")
    for root in (args.before, args.after):
        if not (Path(root) / "vision" / "reader.py").is_file():
            parser.error(f"{root}: no vision/reader.py there (a checkout of the project is needed)")
    sides = {"before": [], "after": []}
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, load average at start "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    for number in range(args.rounds):
        order = ("before", "after") if number % 2 == 0 else ("after", "before")
        for side in order:
            root = args.before if side == "before" else args.after
            done = subprocess.run([sys.executable, __file__, "--measure", str(Path(root).resolve()), "--repeat",
                                   str(args.repeat), "--data", str(args.data)], capture_output=True, text=True,
                                  check=True)
            sides[side].append(json.loads(done.stdout))
        print(f"round {number + 1}: " + "; ".join(
            f"{sides['before'][-1][m][0]:.2f} -> {sides['after'][-1][m][0]:.2f}" for m in MEASURES), flush=True)
    print(f"load average at the end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| measure (median CPU ms per read, over rounds) | before | after | after - before (median of rounds) "
          "| minor page faults per read, before / after |")
    print("|---|---|---|---|---|")
    for m in MEASURES:
        before = [r[m][0] for r in sides["before"]]
        after = [r[m][0] for r in sides["after"]]
        change = statistics.median(a - b for a, b in zip(after, before))
        faults = (statistics.median(r[m][1] for r in sides["before"]), statistics.median(r[m][1] for r in sides["after"]))
        print(f"| {m} | {statistics.median(before):.2f} | {statistics.median(after):.2f} | {change:+.2f} "
              f"| {faults[0]:.0f} / {faults[1]:.0f} |")


if __name__ == "__main__":
    main()
