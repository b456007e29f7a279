"""Two face classifiers timed in turn on the same frames (issue 29: the forked faces.onnx against the one before it).

    .venv/bin/python bench/bench_faces_paired.py --before DIR [--rounds 5] [--repeat 21] [--data ../shared/data/dice]

``DIR`` holds the other ``faces.onnx`` (the detector is the committed one for both; e.g. ``git show
1efdb78:vision/models/faces.onnx``, the ninth class as one more row of the last layer). On one core, per round and
per model, in CPU time of the process: the classifier on one die patch (read once; at four turns) and a whole read of the 640x640 photo with two
dice that bench_vision.py times. The two models alternate round by round, so a shared machine's load falls on both
alike; the load average is printed with each round. Timings are for reading, never pass/fail.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

from vision import dataset, preprocess
from vision.reader import DEFAULT_MODEL_DIR, DiceReader

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"


def median_ms(fn, repeat: int) -> float:
    """The median CPU time of the process (``time.process_time``) per call: on a shared machine the wall clock
    mostly measures the wait for a core (a 2-dice read took 160-225 ms of wall clock at a load of 11, 11 ms quiet)."""
    times = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        times.append((time.process_time() - started) * 1000.0)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", type=Path, required=True, help="folder with the other faces.onnx")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        shutil.copy(DEFAULT_MODEL_DIR / "detector.onnx", folder)
        shutil.copy(args.before / "faces.onnx", folder)
        readers = {"before": DiceReader(folder, threads=1), "now": DiceReader(threads=1)}
        square = []
        for item in dataset.list_images(args.data / "N3VERS4YDIE-dice-recognition"):
            image = cv2.imread(str(item.image_path))
            if image.shape[:2] == (640, 640) and len(item.read_dice(640, 640)) == 2:
                square.append(image)
                break
        two = square[0]
        patch = preprocess.die_patch(two, (320.0, 320.0), 40.0)
        turned = [np.rot90(patch, k) for k in range(4)]
        print("| round | load (1 min) | model | one die once | one die, 4 turns | 640x640 photo, 2 dice |")
        print("|---|---|---|---|---|---|")
        for name, reader in readers.items():
            for _ in range(3):  # warm up
                reader.read(two)
        for round_ in range(args.rounds):
            for name in (("before", "now") if round_ % 2 == 0 else ("now", "before")):
                reader = readers[name]
                once = median_ms(lambda: reader._class_probabilities([patch]), args.repeat)
                turns = median_ms(lambda: reader._class_probabilities(turned), args.repeat)
                photo = median_ms(lambda: reader.read(two), args.repeat)
                print(f"| {round_} | {os.getloadavg()[0]:.1f} | {name} | {once:.2f} ms | {turns:.2f} ms | {photo:.2f} ms |")


if __name__ == "__main__":
    main()
