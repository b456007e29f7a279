"""What the roll detector does when the camera is knocked askew between two rolls (issue 5).

    PYTHONPATH=. .venv/bin/python bench/bench_camera_knock.py [--seeds N] [--off] [--plain-tray] [--during]
                                                              [--data ../shared/data/dice]

Synthetic rolls on the real, painted-out nell-byler tray (``vision.synthetic``): two dice are rolled
and settle; the camera's stand is knocked (the whole view shifts by 15-100 px and turns by 0-5 degrees,
over four frames, and stays so); then two other dice are rolled.  Right: exactly the two rolls.  Also
counted: camera moves found in plain play (four rolls and a hand passing, no knock; right: none),
and the time one comparison of two views takes (``vision.camera_motion.camera_motion``, once per
settled reading, not per frame).  ``--off`` measures the detector without following the camera;
``--plain-tray`` paints the tray one flat colour (no texture, no rim: only the dice to go by).
``--during``: the knock in the same motion as the second roll (the throwing arm hits the stand), the tray
calibrated on its floor (``FLOOR``), so that after the larger knocks a die lies outside the tray as calibrated.
A measurement on generated sequences, not a pass/fail test (tests/test_vision_rolls.py holds the tests).
"""

from __future__ import annotations

import argparse
import collections
import platform
import statistics
import time
from pathlib import Path

import cv2

import vision.rolls
from vision import dataset
from vision.calibration import Calibration
from vision.camera_motion import camera_motion
from vision.reader import DiceReader
from vision.rolls import RollDetector
from vision.synthetic import SequenceBuilder, studio_tray_and_crops

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
SHIFTS = (15, 30, 60, 100)  # pixels (the frame is 640 px; a die ~40 px)
TURNS = (0, 2, 5)  # degrees
FLOOR = (0.15, 0.2, 0.88, 0.77)  # the painted-out tray's floor, as fractions of the frame




def events_of(reader: DiceReader, frames, calibration=None) -> tuple[list, RollDetector]:
    if calibration is not None:
        reader.calibration = calibration  # a detector that followed a knock moved the reader's tray
    detector = RollDetector(reader)
    events = [detector.feed(frame, at=float(i)) for i, frame in enumerate(frames)]
    return [e for e in events if e is not None], detector


def describe(events) -> str:
    return ", ".join(f"roll {'+'.join(map(str, sorted(e.faces)))}" if e.kind == "roll" else "re-roll"
                     for e in events) or "nothing"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=5, help="sequences of each knock (default 5)")
    parser.add_argument("--off", action="store_true", help="do not follow the camera (the detector before)")
    parser.add_argument("--plain-tray", action="store_true", help="a tray of one flat colour")
    parser.add_argument("--during", action="store_true",
                        help="knock in the second roll's motion, the tray calibrated on its floor")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    if args.off:
        vision.rolls.camera_motion = lambda before, after: None
    calibration = Calibration(tray=FLOOR) if args.during else None
    reader = DiceReader(threads=1)
    tray, crops = studio_tray_and_crops(reader, dataset.list_images(args.data / "nell-byler-dice_detection")[:60])
    by_face = {f: [c for c in crops if c.face == f][:3] for f in range(1, 7)}
    if args.plain_tray:
        tray = tray.copy()
        tray[:] = tray.reshape(-1, 3).mean(axis=0).astype(tray.dtype)
    outcomes: collections.Counter = collections.Counter()
    for seed in range(1, args.seeds + 1):
        for shift in SHIFTS:
            for turn in TURNS:
                builder = SequenceBuilder(tray, seed=seed).still(8)
                builder.throw(by_face, (3, 5), [(250, 300), (380, 340)], 0)
                builder.still(12).knock_camera(shift, shift / 2, turn)
                if not args.during:
                    builder.still(12)
                # During: one die near the far wall, outside the calibrated floor once the view moved.
                builder.throw(by_face, (6, 2), [(300, 260), (500, 330) if args.during else (420, 330)], 1)
                builder.still(12)
                events, _ = events_of(reader, builder.frames, calibration)
                outcomes[describe(events)] += 1
    plain_moves = plain_right = 0
    for seed in range(1, 2 * args.seeds + 1):
        builder = SequenceBuilder(tray, seed=seed).still(8)
        rolls = [(3, 5), (1, 4), (6, 6), (2, 3)]
        for k, faces in enumerate(rolls):
            builder.throw(by_face, faces, [(200 + 20 * k, 300), (400, 280 + 15 * k)], k)
            builder.still(12)
        builder.hand_pass(count=10).still(12)
        events, detector = events_of(reader, builder.frames, calibration)
        plain_moves += detector.camera_moves
        plain_right += [tuple(sorted(e.faces)) for e in events] == [tuple(sorted(r)) for r in rolls]
    # One comparison of two views, as the detector makes it once per settled reading.
    before = cv2.cvtColor(cv2.resize(tray, (320, 320), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    knocked = SequenceBuilder(tray, seed=1).knock_camera(30, 15, 2, count=1).frames[-1]
    after = cv2.cvtColor(cv2.resize(knocked, (320, 320), interpolation=cv2.INTER_AREA), cv2.COLOR_BGR2GRAY)
    cv2.setNumThreads(1)
    times = []
    for _ in range(31):
        start = time.perf_counter()
        camera_motion(before, after)
        times.append(1000 * (time.perf_counter() - start))
    total = args.seeds * len(SHIFTS) * len(TURNS)
    print(f"machine: {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}; "
          f"{args.seeds} seeds, following the camera: {not args.off}, plain tray: {args.plain_tray}, "
          f"knock during the roll: {args.during}")
    print(f"knocks ({len(SHIFTS)} shifts x {len(TURNS)} turns x {args.seeds} seeds = {total}):")
    for name, count in outcomes.most_common():
        print(f"  {name}: {count} ({100 * count / total:.0f} %)")
    print(f"plain play ({2 * args.seeds} sequences of 4 rolls and a hand): all rolls right in {plain_right}, "
          f"camera moves found {plain_moves}")
    print(f"one comparison of two 320 px views: median {statistics.median(times):.2f} ms (31 runs, one thread)")


if __name__ == "__main__":
    main()
