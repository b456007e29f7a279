"""Real photos with a die that is not a standard pip die laid on them: numerals, symbols, a blank face.

The labelled sets hold no such die, so tests and ``bench/bench_novelty_dice.py`` draw one: a die of the size
of the photo's own dice (85 % of their median side), in one of five body colours, showing a numeral 1-6 (Hershey
Simplex), a symbol (a five-pointed star, a ship, a gate: what an event die or a branded die shows) or nothing,
turned at random and laid on an empty part of the photo.  The classifier's training draws its "not a standard
die" examples otherwise (:mod:`vision.training.novelty_dice`: other fonts, other shapes), so these stay dice of
a kind it never saw.
"""

from __future__ import annotations

import math
import random
import statistics

import cv2
import numpy as np

from vision import dataset
from vision.evaluate import load_image

KINDS = ("numeral", "symbol", "blank")
BODIES = ((240, 240, 240), (30, 30, 200), (40, 40, 40), (200, 120, 30), (60, 180, 60))


def draw_novelty_die(image: np.ndarray, centre: tuple[float, float], side: float, kind: str,
                     rng: random.Random) -> None:
    """Lay a drawn die of ``side`` pixels showing a numeral, a symbol or nothing on ``image`` at ``centre``."""
    body = rng.choice(BODIES)
    ink = (20, 20, 20) if sum(body) > 400 else (245, 245, 245)
    s = int(side)
    die = np.zeros((2 * s, 2 * s, 3), np.uint8)
    mask = np.zeros((2 * s, 2 * s), np.uint8)
    h = s // 2
    cv2.rectangle(die, (s - h, s - h), (s + h, s + h), body, -1)
    cv2.rectangle(mask, (s - h, s - h), (s + h, s + h), 255, -1)

    def at(dx: float, dy: float) -> tuple[int, int]:
        return s + int(dx * s), s + int(dy * s)

    if kind == "numeral":
        text, scale, weight = str(rng.randint(1, 6)), s / 28, max(1, s // 10)
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, weight)
        cv2.putText(die, text, (s - tw // 2, s + th // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, weight, cv2.LINE_AA)
    elif kind == "symbol":
        symbol = rng.choice(("star", "ship", "gate"))
        if symbol == "star":
            points = [at(0.35 * (1 if k % 2 == 0 else 0.45) * math.cos(k * math.pi / 5 - math.pi / 2),
                         0.35 * (1 if k % 2 == 0 else 0.45) * math.sin(k * math.pi / 5 - math.pi / 2)) for k in range(10)]
            cv2.fillPoly(die, [np.array(points)], ink)
        elif symbol == "ship":
            cv2.fillPoly(die, [np.array([at(-0.35, 0.1), at(0.35, 0.1), at(0.2, 0.3), at(-0.2, 0.3)])], ink)
            cv2.fillPoly(die, [np.array([at(0, -0.35), at(0, 0.05), at(0.25, 0.05)])], ink)
        else:
            cv2.rectangle(die, at(-0.3, -0.1), at(0.3, 0.35), ink, -1)
            cv2.ellipse(die, at(0, -0.1), (int(0.3 * s), int(0.25 * s)), 0, 180, 360, ink, -1)
            cv2.rectangle(die, at(-0.12, 0.05), at(0.12, 0.35), body, -1)
    turn = cv2.getRotationMatrix2D((s, s), rng.uniform(0, 360), 1.0)
    die = cv2.warpAffine(die, turn, (2 * s, 2 * s))
    alpha = cv2.GaussianBlur(cv2.warpAffine(mask, turn, (2 * s, 2 * s)), (3, 3), 0)[..., None] / 255.0
    x0, y0 = int(centre[0] - s), int(centre[1] - s)
    under = image[y0:y0 + 2 * s, x0:x0 + 2 * s]
    image[y0:y0 + 2 * s, x0:x0 + 2 * s] = (under * (1 - alpha) + die * alpha).astype(np.uint8)


def empty_spot(width: int, height: int, dice, side: float, rng: random.Random):
    """A centre at least 1.3 sides from every labelled die and inside the photo; None if none found."""
    for _ in range(200):
        cx, cy = rng.uniform(side * 1.2, width - side * 1.2), rng.uniform(side * 1.2, height - side * 1.2)
        if all(abs(cx - d.centre[0]) > side * 1.3 or abs(cy - d.centre[1]) > side * 1.3 for d in dice):
            return cx, cy
    return None


def novelty_photo(item: dataset.LabelledImage, kind: str, rng: random.Random):
    """``item``'s photo with a drawn die of ``kind`` on an empty part of it: (image, labelled dice, centre, side),
    or None when the photo has no room (or no labelled die to take the size from)."""
    image = load_image(item.image_path).copy()
    height, width = image.shape[:2]
    labelled = item.read_dice(width, height)
    if not labelled:
        return None
    side = 0.85 * statistics.median(min(d.box[2], d.box[3]) for d in labelled)
    spot = empty_spot(width, height, labelled, side, rng)
    if spot is None:
        return None
    draw_novelty_die(image, spot, side, kind, rng)
    return image, labelled, spot, side
