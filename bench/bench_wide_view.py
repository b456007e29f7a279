"""A small tray in a wide view: the reader with the tray calibrated against the whole frame (issue 5).

    PYTHONPATH=. .venv/bin/python bench/bench_wide_view.py --fold-models DIR0 DIR1 [--sizes 1.5 2 3]
                                                           [--data ../shared/data/dice]

A camera on a stand beside the board sees the board and the table round the dice tray.  Each held-out photo
(folds 0 and 1, read by the models trained without that fold) is set in the middle of a plain wooden table
``size`` times its width and height, the tray calibrated to the photo, and read twice: as the whole frame
(``before``: the detector sees the whole view shrunk to its input, as it did before it read the calibrated
tray alone) and as the reader reads it now.  Scored by the rules of ``python -m vision evaluate``.
A measurement, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from vision import dataset
from vision.calibration import Calibration
from vision.evaluate import load_image, match
from vision.reader import DiceReader, detect_candidates

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
SETS = ("matteop65-Dice_Detection_Recognition", "nell-byler-dice_detection", "N3VERS4YDIE-dice-recognition")
TABLE = (60, 90, 130)  # BGR, a wooden table


class WholeFrameReader(DiceReader):
    """The reader as it was: the detector always sees the whole frame."""

    def _detect(self, frame):
        return detect_candidates(self.detector, frame)


def in_a_wide_view(image: np.ndarray, size: float, rng) -> tuple[np.ndarray, int, int]:
    height, width = image.shape[:2]
    view = np.empty((int(height * size), int(width * size), 3), np.uint8)
    view[:] = TABLE
    view = np.clip(view + rng.normal(0, 8, view.shape), 0, 255).astype(np.uint8)
    y0, x0 = (view.shape[0] - height) // 2, (view.shape[1] - width) // 2
    view[y0:y0 + height, x0:x0 + width] = image
    return view, x0, y0


def score(kind, models, folder: Path, size: float) -> str:
    scores, times = [], []
    for fold, model in enumerate(models):
        reader = kind(model, threads=1)
        rng = np.random.default_rng(fold)
        for item in dataset.split(dataset.list_images(folder), "held-out", fold):
            image = load_image(item.image_path)
            height, width = image.shape[:2]
            view, x0, y0 = in_a_wide_view(image, size, rng)
            reader.calibration = Calibration(tray=(x0 / view.shape[1], y0 / view.shape[0],
                                                   (x0 + width) / view.shape[1], (y0 + height) / view.shape[0]))
            labelled = [dataset.LabelledDie(d.face, (d.box[0] + x0, d.box[1] + y0, d.box[2], d.box[3]))
                        for d in item.read_dice(width, height)]
            started = time.perf_counter()
            read = reader.read(view)
            times.append(1000 * (time.perf_counter() - started))
            scores.append(match(labelled, read))
    dice = sum(s.labelled for s in scores)
    return (f"dice right {100 * sum(s.right for s in scores) / dice:5.1f} %  "
            f"photos fully right {100 * sum(s.fully_right for s in scores) / len(scores):5.1f} %  "
            f"missed {100 * sum(s.missed for s in scores) / dice:4.1f} %  "
            f"invented {100 * sum(s.invented for s in scores) / dice:4.1f} %  "
            f"median {statistics.median(times):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fold-models", nargs=2, required=True, metavar=("DIR0", "DIR1"),
                        help="models trained without fold 0 and without fold 1")
    parser.add_argument("--sizes", type=float, nargs="*", default=[1.5, 2.0, 3.0])
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}")
    for name in SETS:
        for size in args.sizes:
            for label, kind in (("before", WholeFrameReader), ("now", DiceReader)):
                print(f"{name[:12]:12} {size:.1f}x {label:6} {score(kind, args.fold_models, args.data / name, size)}",
                      flush=True)


if __name__ == "__main__":
    main()
