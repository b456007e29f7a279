"""A dim table: the photos read at a fraction of their light, with and without the lift (``vision.exposure``).

    PYTHONPATH=. .venv/bin/python bench/bench_dim_table.py [--every 2] [--rolls 6]

Each photo of the three sets (every n-th) is darkened to 40 / 25 / 15 / 8 % of its light with a camera's noise
(grey levels, sigma 2) and read by the committed reader, once as it reads now (the picture lifted when its
brightest part is dim) and once without the lift; scored against the labels as ``vision evaluate`` does (dice
right, photos fully right).  Then ``--rolls`` synthetic throws of two held-in die crops onto the tray at each
light and noise (sigma 2, 4, 6) through the roll detector: rolls right / wrong or re-roll / none seen.  These
are the committed models on photos they were trained on: the figures compare the light levels and the lift, not
the reader against new photos.  A measurement, not a pass/fail test (tests/test_vision_reader.py,
tests/test_vision_rolls.py).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.exposure as exposure  # noqa: E402
from vision import dataset  # noqa: E402
from vision.evaluate import load_image, match  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.rolls import RollDetector  # noqa: E402
from vision.synthetic import SequenceBuilder, studio_tray_and_crops  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "dice"
SETS = ("matteop65-Dice_Detection_Recognition", "nell-byler-dice_detection", "N3VERS4YDIE-dice-recognition")
LIGHTS = (1.0, 0.4, 0.25, 0.15, 0.08)
LIFT = exposure.lifted


def dimmed(image: np.ndarray, light: float, noise: float, rng) -> np.ndarray:
    if light == 1.0:
        return image
    return np.clip(image.astype(np.float32) * light + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)


def lift(on: bool) -> None:
    exposure.lifted = LIFT if on else (lambda picture, gain: picture)


def photos(reader: DiceReader, every: int) -> None:
    print("set, light: dice right / photos fully right -- lifted | as it came")
    for name in SETS:
        items = dataset.list_images(DATA / name)[::every]
        for light in LIGHTS:
            scores = {True: [0, 0, 0], False: [0, 0, 0]}
            for n, item in enumerate(items):
                image = load_image(item.image_path)
                labelled = item.read_dice(image.shape[1], image.shape[0])
                dim = dimmed(image, light, 2.0, np.random.default_rng(n))
                for on in (True, False):
                    lift(on)
                    score = match(labelled, reader.read(dim))
                    scores[on][0] += score.right
                    scores[on][1] += score.labelled
                    scores[on][2] += score.fully_right
            lift(True)
            print(f"{name[:12]:12s} {light:4.2f}: " + " | ".join(
                f"{s[0] / s[1]:6.1%} / {s[2] / len(items):6.1%}" for s in (scores[True], scores[False])), flush=True)


def rolls(reader: DiceReader, count: int) -> None:
    tray, crops = studio_tray_and_crops(reader, dataset.list_images(DATA / SETS[1])[:40])
    by_face = {f: [c for c in crops if c.face == f] for f in range(1, 7)}
    print(f"throws ({count} per cell), light, noise: right / wrong or re-roll / none -- lifted | as it came")
    for light in LIGHTS[1:]:
        for noise in (2.0, 4.0, 6.0):
            tallies = {}
            for on in (True, False):
                lift(on)
                rng, tally = np.random.default_rng(1), [0, 0, 0]
                for seed in range(count):
                    faces = tuple(int(x) for x in rng.integers(1, 7, 2))
                    frames = SequenceBuilder(tray, seed=seed).still(8).throw(
                        by_face, faces, [(250, 300), (390, 330)]).still(14).hand_pass().still(14).frames
                    detector, events = RollDetector(reader), []
                    for frame in frames:
                        event = detector.feed(dimmed(frame, light, noise, rng))
                        if event is not None:
                            events.append(event)
                    if not events:
                        tally[2] += 1
                    elif len(events) == 1 and events[0].kind == "roll" and sorted(events[0].faces) == sorted(faces):
                        tally[0] += 1
                    else:
                        tally[1] += 1
                tallies[on] = tally
            lift(True)
            print(f"{light:4.2f} sigma {noise:.0f}: " + " | ".join(
                "/".join(str(x) for x in tallies[on]) for on in (True, False)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=2, help="every n-th photo of each set")
    parser.add_argument("--rolls", type=int, default=6, help="throws per light and noise")
    args = parser.parse_args()
    print(f"# {platform.platform()}, Python {platform.python_version()}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, every {args.every}. photo")
    reader = DiceReader()
    photos(reader, args.every)
    rolls(reader, args.rolls)


if __name__ == "__main__":
    main()
