"""Die colours named after the room's light changed since calibration, with and without the stored floor (issue 5).

    PYTHONPATH=. .venv/bin/python bench/bench_light_change.py [--photos N] [--data ../shared/data/dice]

For each photo of the nell-byler tray set: the dice read as it was taken (their colours are the truth), the
tray's floor colour measured round them (``vision.calibration.floor_colour``, what the calibration screen
stores on Save), then the photo under a later light (per-channel factors: a warm lamp, a cold window, a dim
room, a brighter one, dusk; a lamp or a shadow on half of the tray, a lamp fading across it) read again by a
reader without the floor, by one correcting by the whole tray's floor and by one correcting a die by the
floor round it where that is lit apart from the whole tray's (the reader's way, ``UNEVEN_LIGHT``).  Prints the share
of dice read again at their place in the same colour.  With a calibration that counts only the game's
colours, a renamed die is a die dropped.  A measurement, not a pass/fail test (tests/test_vision_reader.py).
"""

from __future__ import annotations

import argparse
import platform
from pathlib import Path

import cv2

from vision import dataset
from vision.calibration import Calibration, floor_colour
from vision.reader import DiceReader
from vision.synthetic import relit

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
LIGHTS = {"a warm lamp": (0.7, 0.95, 1.25), "a cold window": (1.25, 1.0, 0.8), "a dim room": (0.45, 0.45, 0.45),
          "a brighter room": (1.4, 1.4, 1.4), "dusk (dim and warm)": (0.35, 0.45, 0.6)}
#: Light that differs across the tray: (gains at the left edge, at the right edge, where the change is: the
#: fraction of the width over which it ramps, centred).
UNEVEN = {"a warm lamp on the left half": ((0.8, 1.05, 1.4), (1.0, 1.0, 1.0), 0.2),
          "the left half in shadow": ((0.45, 0.45, 0.5), (1.0, 1.0, 1.0), 0.1),
          "a lamp at the left, fading across": ((0.85, 1.1, 1.5), (0.55, 0.55, 0.6), 1.0)}


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
    lights = list(LIGHTS) + list(UNEVEN)
    kept = {light: [0, 0, 0] for light in lights}  # without the floor, the whole tray's floor, each die's own
    total = 0
    for item in items:
        image = cv2.imread(str(item.image_path))
        dice = plain.read(image)
        floor = floor_colour(image, exclude=[d.box for d in dice])
        whole = DiceReader(calibration=Calibration(floor=floor), threads=1)
        whole.floor_reach = 0.0
        near = DiceReader(calibration=Calibration(floor=floor), threads=1)
        total += len(dice)
        for light in lights:
            lit = relit(image, *UNEVEN[light]) if light in UNEVEN else relit(image, LIGHTS[light])
            for k, reader in enumerate((plain, whole, near)):
                kept[light][k] += sum(same_colour(d, reader.read(lit)) for d in dice)
    print(f"machine: {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}; "
          f"{len(items)} photos, {total} dice")
    print("| later light | same colour, without the floor | with the tray's floor | with the floor round a die lit apart |")
    print("|---|---|---|---|")
    for light, (without, with_whole, with_near) in kept.items():
        print(f"| {light} | {100 * without / total:.1f} % | {100 * with_whole / total:.1f} % | "
              f"{100 * with_near / total:.1f} % |")


if __name__ == "__main__":
    main()
