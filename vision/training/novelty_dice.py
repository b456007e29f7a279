"""Drawn dice that are *not* standard pip dice, for the face classifier's "not a standard die" class.

Tables bring numeral dice, branded dice with a logo on the six, event dice with ships and gates, blank
dice. Read as pips, each is a confident guess (issue 29: 83 % of drawn numeral dice were read as a pip
face). The photo sets hold none, so they are drawn on the same bodies as the drawn pip dice
(:func:`vision.training.synthetic_dice.drawn_die`: any colours, swirls, a side face, light across) with
numerals, letters, shapes or nothing on the face.

What ``bench/bench_novelty_dice.py`` draws is kept out on purpose, so its figures measure dice of a kind
the classifier never saw: its numerals are in Hershey Simplex (here every other Hershey font), its symbols
a five-pointed star, a ship and a gate (here polygons, crosses, arrows, crescents, rings, bars and strokes).
Nothing here is made of small round spots: a face of spots *is* a pip face.
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from vision.training.synthetic_dice import drawn_die

KINDS = ("numeral", "symbol", "blank")
#: Every Hershey font but Simplex (the bench's), some italic.
FONTS = (cv2.FONT_HERSHEY_PLAIN, cv2.FONT_HERSHEY_DUPLEX, cv2.FONT_HERSHEY_COMPLEX, cv2.FONT_HERSHEY_TRIPLEX,
         cv2.FONT_HERSHEY_COMPLEX_SMALL, cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, cv2.FONT_HERSHEY_SCRIPT_COMPLEX)
#: What a numeral or lettered die shows: d6 to d20 numbers, letters of word dice.
TEXTS = tuple(str(n) for n in range(0, 21)) + tuple("ABCDEFGHKLMNPRSTXYZ") + ("6.", "9.", "?", "!", "+", "%")
SHAPES = ("polygon", "cross", "arrow", "crescent", "ring", "bars", "stroke", "heart", "outline")


def _numeral(layer: np.ndarray, centre, side: float, colour, rng: random.Random) -> None:
    text = rng.choice(TEXTS)
    font = rng.choice(FONTS) | (cv2.FONT_ITALIC if rng.random() < 0.2 else 0)
    weight = max(1, int(side * rng.uniform(0.04, 0.12)))
    (width, height), _ = cv2.getTextSize(text, font, 1.0, weight)
    scale = side * rng.uniform(0.4, 0.75) / max(width, height, 1)
    (width, height), _ = cv2.getTextSize(text, font, scale, weight)
    origin = (int(centre[0] - width / 2), int(centre[1] + height / 2))
    cv2.putText(layer, text, origin, font, scale, colour.tolist(), weight, cv2.LINE_AA)
    if text in ("6", "9") and rng.random() < 0.5:  # the bar that tells a 6 from a 9
        y = origin[1] + weight * 2
        cv2.line(layer, (origin[0], y), (origin[0] + width, y), colour.tolist(), weight)


def _point(centre, side: float, x: float, y: float) -> tuple[int, int]:
    return int(centre[0] + x * side), int(centre[1] + y * side)


def _shape(layer: np.ndarray, centre, side: float, colour, rng: random.Random) -> None:
    shape = rng.choice(SHAPES)
    ink = colour.tolist()
    weight = max(1, int(side * rng.uniform(0.05, 0.12)))
    reach = rng.uniform(0.25, 0.38)  # half the mark's size, in die sides: far larger than a pip
    if shape in ("polygon", "outline"):
        # A filled shape of many corners is a disc: a big pip (the 1 of many dice), so filled ones keep 3-4.
        corners = rng.randint(3, 4) if shape == "polygon" else rng.randint(3, 8)
        start = rng.uniform(0, 2 * math.pi)
        points = np.array([_point(centre, side, reach * rng.uniform(0.6, 1.0) * math.cos(start + 2 * math.pi * k / corners),
                                  reach * rng.uniform(0.6, 1.0) * math.sin(start + 2 * math.pi * k / corners))
                           for k in range(corners)], np.int32)
        if shape == "polygon":
            cv2.fillPoly(layer, [points], ink)
        else:
            cv2.polylines(layer, [points], True, ink, weight)
    elif shape == "cross":
        for a in (0, math.pi / 2):
            a += rng.choice((0, math.pi / 4))
            cv2.line(layer, _point(centre, side, -reach * math.cos(a), -reach * math.sin(a)),
                     _point(centre, side, reach * math.cos(a), reach * math.sin(a)), ink, weight * 2)
    elif shape == "arrow":
        cv2.arrowedLine(layer, _point(centre, side, -reach, 0), _point(centre, side, reach, 0), ink, weight * 2,
                        tipLength=0.45)
    elif shape == "crescent":
        r = int(reach * side)
        cv2.circle(layer, _point(centre, side, 0, 0), r, ink, -1)
        body = layer[int(centre[1]), int(centre[0] - 0.48 * side)].tolist()  # the face's own colour, at its edge
        cv2.circle(layer, _point(centre, side, reach * 0.5, -reach * 0.2), r, body, -1)
    elif shape == "ring":
        cv2.circle(layer, _point(centre, side, 0, 0), int(reach * side), ink, weight)
    elif shape == "bars":
        count = rng.randint(1, 3)
        for k in range(count):
            y = (k - (count - 1) / 2) * 0.18
            cv2.line(layer, _point(centre, side, -reach, y), _point(centre, side, reach, y), ink, weight * 2)
    elif shape == "heart":
        r = int(reach * side * 0.5)
        cv2.circle(layer, _point(centre, side, -reach * 0.45, -reach * 0.3), r, ink, -1)
        cv2.circle(layer, _point(centre, side, reach * 0.45, -reach * 0.3), r, ink, -1)
        cv2.fillPoly(layer, [np.array([_point(centre, side, -reach * 0.9, -reach * 0.15),
                                       _point(centre, side, reach * 0.9, -reach * 0.15),
                                       _point(centre, side, 0, reach)], np.int32)], ink)
    else:  # a stroke: a letter-like curve
        points = np.array([_point(centre, side, rng.uniform(-reach, reach), rng.uniform(-reach, reach))
                           for _ in range(rng.randint(3, 6))], np.int32)
        cv2.polylines(layer, [points], False, ink, weight * 2)


def _blank(layer: np.ndarray, centre, side: float, colour, rng: random.Random) -> None:
    """Nothing on the face (a blank die, a die face-down under its sticker)."""


MARKS = {"numeral": _numeral, "symbol": _shape, "blank": _blank}


def drawn_novelty_die(background: np.ndarray, rng: random.Random, kind: str | None = None) -> np.ndarray:
    """A PATCH_SIZE patch, as :func:`~vision.training.synthetic_dice.drawn_die` gives one, of a drawn die
    showing a numeral or letter, a shape, or nothing (``kind`` one of :data:`KINDS`, else at random)."""
    kind = kind or rng.choice(KINDS)
    return drawn_die(background, 1, rng, marks=MARKS[kind])
