"""What the roll detector says about dice cocked on an edge, and about flat dice lying close (issue 5).

    PYTHONPATH=. .venv/bin/python bench/bench_crooked_dice.py [--count N] [--seed S] [--overhead]
                                                              [--data ../shared/data/dice]

Synthetic rolls on the real, painted-out nell-byler tray (``vision.synthetic``): two dice tumble in
and settle.

- *cocked*: one die settles cocked on an edge at 30-60 degrees (two real faces of one body colour,
  each squeezed to its seen width, the far one shaded), the other flat.  The right answer is a
  re-roll; a roll is a guess.
- *close*: both dice settle flat, about 1.45 die sides apart, centre to centre (boxes nearly
  touching).  The right answer is a roll of their two faces; a re-roll is a false alarm.
- *apart*: both flat, far apart.  The right answer is a roll of their two faces.

``--overhead`` reads with the calibration of a camera straight over the tray (``Calibration.overhead``:
a die showing two faces side by side is unsure).  Prints the share of each outcome.  A measurement of
behaviour on generated sequences, not a pass/fail test (tests/test_vision_rolls.py holds the tests).
"""

from __future__ import annotations

import argparse
import collections
import platform
from pathlib import Path

import cv2
import numpy as np

from vision import dataset
from vision.calibration import Calibration
from vision.reader import DiceReader
from vision.rolls import RollDetector
from vision.synthetic import SequenceBuilder, cocked_dice, studio_tray_and_crops

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"


def outcome(events, expected_faces: tuple) -> str:
    """One sequence's events in a few words; ``expected_faces`` empty when no roll is right."""
    if len(events) != 1:
        return f"{len(events)} events"
    event = events[0]
    if event.kind == "roll":
        if not expected_faces:
            return "roll (a guess)"
        return "roll, right faces" if sorted(event.faces) == sorted(expected_faces) else "roll, wrong faces"
    return "re-roll: crooked" if event.reason_code == "cocked" else f"re-roll: {event.reason.split(',')[0]}"


def settle(tray, tumbling, ends, dice, seed: int):
    builder = SequenceBuilder(tray, seed=seed).still(5)
    builder.tumble(tumbling, ends, count=16, settle=dice).still(15)
    return builder.frames


def run(reader: DiceReader, frames) -> list:
    detector = RollDetector(reader)
    events = [detector.feed(frame, at=float(i)) for i, frame in enumerate(frames)]
    return [e for e in events if e is not None]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=100, help="sequences of each kind (default 100)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--overhead", action="store_true", help="calibrated for a camera straight over the tray")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    reader = DiceReader(threads=1)
    judge = DiceReader(calibration=Calibration(overhead=args.overhead), threads=1)
    tray, crops = studio_tray_and_crops(reader, dataset.list_images(args.data / "nell-byler-dice_detection")[:80])
    rng = np.random.default_rng(args.seed)
    tumbling = [[crops[int(rng.integers(len(crops)))] for _ in range(3)] for _ in range(2)]
    tallies = {kind: collections.Counter() for kind in ("cocked", "close", "apart")}
    for index, (leaning, flat) in enumerate(cocked_dice(tray, crops, args.count, args.seed)):
        frames = settle(tray, tumbling, [(240, 300), (400, 300)], [flat, leaning], index)
        tallies["cocked"][outcome(run(judge, frames), ())] += 1
    for index in range(args.count):
        first = crops[int(rng.integers(len(crops)))]
        alike = [c for c in crops if 0.85 < c.side / first.side < 1.18]
        second = alike[int(rng.integers(len(alike)))]
        gap = 1.45 * max(first.side, second.side)
        close = settle(tray, tumbling, [(320, 300), (320 + gap, 300)], [first, second], index)
        tallies["close"][outcome(run(judge, close), (first.face, second.face))] += 1
        apart = settle(tray, tumbling, [(200, 220), (440, 380)], [first, second], index)
        tallies["apart"][outcome(run(judge, apart), (first.face, second.face))] += 1
    print(f"machine: {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}; "
          f"{args.count} sequences of each kind, seed {args.seed}, overhead {args.overhead}")
    print("| dice | outcome | share |")
    print("|---|---|---|")
    for kind, tally in tallies.items():
        for name, count in tally.most_common():
            print(f"| {kind} | {name} | {100 * count / args.count:.0f} % ({count}) |")


if __name__ == "__main__":
    main()
