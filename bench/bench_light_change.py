"""Die colours named after the room's light changed since calibration, with and without the stored floor (issue 5).

    PYTHONPATH=. .venv/bin/python bench/bench_light_change.py [--photos N] [--data ../shared/data/dice]

For each photo of the nell-byler tray set: the dice read as it was taken (their colours are the truth), the
tray's floor colour measured round them (``vision.calibration.floor_colour``, what the calibration screen
stores on Save), then the photo under a later light (per-channel factors: a warm lamp, a cold window, a dim
room, a brighter one, dusk) read again by a reader without the floor and by one with it.  Prints the share
of dice read again at their place in the same colour.  With a calibration that counts only the game's
colours, a renamed die is a die dropped.  A measurement, not a pass/fail test (tests/test_vision_reader.py).
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import cv2
import numpy as np

from vision import dataset
from vision.calibration import Calibration, floor_colour
from vision.reader import DiceReader

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
LIGHTS = {"a warm lamp": (0.7, 0.95, 1.25), "a cold window": (1.25, 1.0, 0.8), "a dim room": (0.45, 0.45, 0.45),
          "a brighter room": (1.4, 1.4, 1.4), "dusk (dim and warm)": (0.35, 0.45, 0.6)}


def same_colour(die, read) -> bool:
    return any(abs(o.centre[0] - die.centre[0]) < die.box[2] / 2 and abs(o.centre[1] - die.centre[1]) < die.box[3] / 2
               and o.colour == die.colour for o in read)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=0, help="only the first N photos (default: all)")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    plain = DiceReader(threads=1)
    items = dataset.list_images(args.data / "nell-byler-dice_detection")
    items = items[:args.photos] if args.photos else items
    kept = {light: [0, 0] for light in LIGHTS}
    total = 0
    for item in items:
        image = cv2.imread(str(item.image_path))
        dice = plain.read(image)
        floor = floor_colour(image, exclude=[d.box for d in dice])
        calibrated = DiceReader(calibration=Calibration(floor=floor), threads=1)
        total += len(dice)
        for light, gains in LIGHTS.items():
            lit = np.clip(image * np.array(gains), 0, 255).astype(np.uint8)
            kept[light][0] += sum(same_colour(d, plain.read(lit)) for d in dice)
            kept[light][1] += sum(same_colour(d, calibrated.read(lit)) for d in dice)
    print(f"machine: {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}; "
          f"{len(items)} photos, {total} dice")
    print("| later light | same colour, without the floor | same colour, with the floor |")
    print("|---|---|---|")
    for light, (without, with_floor) in kept.items():
        print(f"| {light} | {100 * without / total:.1f} % | {100 * with_floor / total:.1f} % |")


if __name__ == "__main__":
    main()
