"""Benchmarks of camera dice reading (issue 5): time per frame on one core.

    .venv/bin/python bench/bench_vision.py [--repeat N] [--cpu] [--data ../shared/data/dice] [--model DIR]

Timed, with OpenCV held to one thread (``cv2.setNumThreads(1)``, as the reader does by default):
- reading a 640x640 photo with two dice (the Catan case; also with the calibration of an overhead camera,
  which adds the cocked-die shape test of ``vision.cocked``), a busy one (the nell-byler photo with the
  most dice) and an empty tray; each the median of N repeats;
- the reader's two stages apart: the detector on a 640x640 frame, the face classifier per die (read
  once, and at every turn as a doubtful die is), and the 2-dice photo with every die read at every turn;
- the roll detector's cost per frame while the dice move (a motion check only) and while it reads
  a settled tray;
- the median over every photo of each labelled set (as ``python -m vision evaluate`` reports it).
With ``--cpu`` each read is timed by ``time.process_time`` (the CPU this process spent) instead of the wall
clock: on a shared, busy machine the wall clock measures mostly the wait for a core.  To compare two versions
of the reader on such a machine, bench/bench_vision_paired.py times them turn about.
Timings are for reading, never pass/fail.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from vision import dataset, preprocess
from vision.calibration import Calibration
from vision import reader as reader_module
from vision.reader import DiceReader
from vision.rolls import RollDetector
from vision.tray import find_tray

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"


#: The clock the reads are timed by: the wall clock, or with --cpu this process's CPU time.
CLOCK = time.perf_counter


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = CLOCK()
        fn()
        out.append((CLOCK() - started) * 1000.0)
    return out


def row(name: str, times: list[float]) -> str:
    return (f"| {name} | {statistics.median(times):.2f} ms | {min(times):.2f}–{max(times):.2f} ms "
            f"| {len(times)} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=31)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--model", type=Path, help="folder with detector.onnx and faces.onnx (default: the committed models)")
    parser.add_argument("--cpu", action="store_true", help="time the CPU this process spends (time.process_time), "
                                                           "not the wall clock")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.process_time if args.cpu else time.perf_counter
    reader = DiceReader(args.model, threads=1)
    nell = dataset.list_images(args.data / "nell-byler-dice_detection")
    n3 = dataset.list_images(args.data / "N3VERS4YDIE-dice-recognition")

    def load(item):
        image = cv2.imread(str(item.image_path))
        return image, item.read_dice(image.shape[1], image.shape[0])

    square = [load(i) for i in n3 + nell]
    square = [(im, d) for im, d in square if im.shape[:2] == (640, 640)]
    two = next(im for im, d in square if len(d) == 2)
    busy_image, busy_dice = max(square, key=lambda x: len(x[1]))
    empty = np.full((640, 640, 3), 200, np.uint8)

    print(f"machine: {platform.platform()}, {platform.processor() or platform.machine()}, "
          f"Python {platform.python_version()}, OpenCV {cv2.__version__}, threads {cv2.getNumThreads()}, "
          f"{'CPU time' if args.cpu else 'wall clock'}, load average {os.getloadavg()[0]:.1f}")
    print("| measure | median | range | runs |")
    print("|---|---|---|---|")
    for _ in range(3):  # warm up
        reader.read(two)
    print(row("read a 640x640 photo with 2 dice", timed(lambda: reader.read(two), args.repeat)))
    print(row(f"read a busy 640x640 photo ({len(busy_dice)} dice)", timed(lambda: reader.read(busy_image),
                                                                           args.repeat)))
    overhead = DiceReader(args.model, Calibration(overhead=True), threads=1)
    print(row("read a 640x640 photo with 2 dice, calibrated overhead (cocked-die shape test)",
              timed(lambda: overhead.read(two), args.repeat)))
    lit = DiceReader(args.model, Calibration(floor=(150.0, 150.0, 150.0)), threads=1)
    print(row("read a 640x640 photo with 2 dice, colours named against the calibrated floor",
              timed(lambda: lit.read(two), args.repeat)))
    hd = np.full((1080, 1920, 3), (60, 90, 130), np.uint8)  # a camera's frame of the table: wood round the tray
    hd[220:860, 640:1280] = two
    wide = DiceReader(args.model, Calibration(tray=(640 / 1920, 220 / 1080, 1280 / 1920, 860 / 1080)), threads=1)
    print(row("read a 1920x1080 frame, its 640x640 tray (2 dice) calibrated: the tray alone, enlarged",
              timed(lambda: wide.read(hd), args.repeat)))
    print(row("read an empty 640x640 tray", timed(lambda: reader.read(empty), args.repeat)))
    busy_boxes = [d.box for d in reader.read(busy_image)]
    print(row(f"find the tray round the dice (calibration), busy 640x640 photo ({len(busy_boxes)} dice)",
              timed(lambda: find_tray(busy_image, busy_boxes), args.repeat)))
    print(row("detector alone, 640x640", timed(lambda: reader._detect(two), args.repeat)))
    patch = preprocess.die_patch(two, (320.0, 320.0), 40.0)
    print(row("face classifier, one die read once (a clear reading)",
              timed(lambda: reader._class_probabilities([patch]), args.repeat)))
    turned = [np.rot90(patch, k) for k in range(reader_module.TURNS)]
    print(row(f"face classifier, one die at {reader_module.TURNS} turns (a doubtful reading)",
              timed(lambda: reader._class_probabilities(turned), args.repeat)))
    clear, reader_module.CLEAR_READING = reader_module.CLEAR_READING, 2.0
    print(row(f"read a 640x640 photo with 2 dice, every die at {reader_module.TURNS} turns",
              timed(lambda: reader.read(two), args.repeat)))
    reader_module.CLEAR_READING = clear

    detector = RollDetector(reader)
    rng = np.random.default_rng(0)
    moving = [np.clip(two.astype(np.int16) + rng.integers(-40, 40, two.shape), 0, 255).astype(np.uint8)
              if i % 2 else two for i in range(args.repeat + 1)]
    detector.feed(moving[0])
    frames = iter(moving[1:])
    print(row("roll detector, a frame while moving (motion check)", timed(lambda: detector.feed(next(frames)),
                                                                          args.repeat)))
    still = RollDetector(reader, still_frames=1, agree_frames=10 ** 6)
    still.feed(two)
    print(row("roll detector, a frame while settling (motion + read)", timed(lambda: still.feed(two),
                                                                             args.repeat)))
    for name in sorted(p.name for p in args.data.iterdir() if p.is_dir()):
        times = []
        for item in dataset.list_images(args.data / name):
            image = cv2.imread(str(item.image_path))
            times += timed(lambda: reader.read(image), 1)
        print(row(f"every photo of {name} ({len(times)}), one read each", times))


if __name__ == "__main__":
    main()
