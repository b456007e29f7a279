"""Drawn dice for the face classifier: any body colour, any pip colour, swirls, a side face showing.

The labelled photos hold a few dozen kinds of dice; a die of a kind never seen (red with yellow pips,
a dark swirl with red pips) is where the classifier fails on new photos.  Drawing dice with random
colours teaches it that the face is the *count and layout* of the pips, whatever their colours.
Used only in training, mixed with the real dice (a minority of the face examples).
"""

from __future__ import annotations

import math
import random

import cv2
import numpy as np

from vision.preprocess import PATCH_MARGIN, PATCH_SIZE, stretch_contrast

#: Drawn at this many times the patch size, then area-shrunk: smooth pip edges as a camera gives.
SUPERSAMPLE = 4
_G = 0.27  # pip offset from the face centre, in die sides
PIPS = {
    1: [(0, 0)],
    2: [(-_G, -_G), (_G, _G)],
    3: [(-_G, -_G), (0, 0), (_G, _G)],
    4: [(-_G, -_G), (_G, -_G), (-_G, _G), (_G, _G)],
    5: [(-_G, -_G), (_G, -_G), (0, 0), (-_G, _G), (_G, _G)],
    6: [(-_G, -_G), (_G, -_G), (-_G, 0), (_G, 0), (-_G, _G), (_G, _G)],
}


def _colour(rng: random.Random) -> np.ndarray:
    """A random BGR colour, from HSV so that greys, pastels, deep and bright colours all occur."""
    hsv = np.uint8([[[rng.randint(0, 179), rng.choice((0, rng.randint(0, 255))), rng.randint(20, 255)]]])
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)


def _pip_colour(body: np.ndarray, rng: random.Random) -> np.ndarray:
    if rng.random() < 0.25:  # any colour, low contrast included (red pips on dark red), but visible
        for _ in range(20):
            colour = _colour(rng)
            if float(np.abs(colour - body).max()) >= 60:
                return colour
    light = float(body.mean()) > 110
    base = rng.uniform(0, 60) if light else rng.uniform(190, 255)
    if rng.random() < 0.4:  # coloured pips (yellow on red, red on black)
        return np.clip(_colour(rng) * (0.5 if light else 1.3), 0, 255)
    return np.full(3, base, np.float32)


def _rounded_square(canvas: np.ndarray, centre, side: float, radius: float, value) -> None:
    cx, cy = centre
    h = side / 2
    x0, y0, x1, y1 = int(cx - h), int(cy - h), int(cx + h), int(cy + h)
    r = int(radius)
    cv2.rectangle(canvas, (x0 + r, y0), (x1 - r, y1), value, -1)
    cv2.rectangle(canvas, (x0, y0 + r), (x1, y1 - r), value, -1)
    for px, py in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(canvas, (px, py), r, value, -1)


def _draw_pips(layer: np.ndarray, centre, side: float, colour: np.ndarray, face: int, rng: random.Random,
               rim: tuple[float, np.ndarray] | None = None) -> None:
    """The pips of ``face`` in the real layout, on the face of ``side`` pixels round ``centre``; with ``rim``
    (width in pixels, colour) each pip sits in a ring of that colour (the white rim of a marbled die's red pips)."""
    pip_radius = side * rng.uniform(0.065, 0.1)
    if face == 1 and rng.random() < 0.3:
        pip_radius = side * rng.uniform(0.12, 0.18)
    turn = rng.choice((0, 90))  # the six's columns either way
    cos, sin = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    for gx, gy in PIPS[face]:
        x, y = gx * cos - gy * sin, gx * sin + gy * cos
        at = (int(centre[0] + x * side), int(centre[1] + y * side))
        if rim is not None:
            cv2.circle(layer, at, int(pip_radius + rim[0]), rim[1].tolist(), -1)
        cv2.circle(layer, at, int(pip_radius), colour.tolist(), -1)


#: Share of the marbled drawn dice (:func:`drawn_die` with ``marbled=True``) whose body is blue-black
#: rather than dark red or dark green (the tray set's ``111932`` kind).
_BLUE_BLACK = 0.2


def _marbled_body(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """A dark die body and the second colour of its swirl (BGR): dark red with dark green, or the reverse."""
    red = (rng.choice((rng.randint(0, 8), rng.randint(170, 179))), rng.randint(120, 255), rng.randint(25, 80))
    green = (rng.randint(45, 85), rng.randint(80, 255), rng.randint(20, 70))
    if rng.random() < _BLUE_BLACK:
        red = (rng.randint(100, 130), rng.randint(60, 200), rng.randint(15, 50))
    first, second = (red, green) if rng.random() < 0.5 else (green, red)
    convert = lambda hsv: cv2.cvtColor(np.uint8([[hsv]]), cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32)
    return convert(first), convert(second)


def streak_mask(face_mask: np.ndarray, centre, side: float, rng: random.Random, count: int | None = None,
                width: float | None = None) -> np.ndarray:
    """Thin curves across a die's face, as the white swirl of a marbled die shows them: a float32 mask
    (0..1) the shape of ``face_mask``, inside it.

    Each of ``count`` curves (1 to 3 when not given) is a cubic Bezier from one edge of the face to another
    through two random points on the face, so it bends into an arc, an S or a loop and runs between or
    across the pip places; ``width`` pixels wide (1/32 to 1/16 of the side when not given: 1-2 px at patch
    size), soft-edged."""
    count = rng.randint(1, 3) if count is None else count
    width = side * rng.uniform(1 / 32, 1 / 16) if width is None else width
    mask = np.zeros(face_mask.shape, np.float32)
    half = side / 2
    for _ in range(count):
        a, b = rng.uniform(0, 2 * math.pi), rng.uniform(0, 2 * math.pi)
        ends = [(centre[0] + 0.75 * half * math.cos(t), centre[1] + 0.75 * half * math.sin(t)) for t in (a, b)]
        if math.dist(*ends) < 0.6 * half:  # both ends near one place: across to the other side instead
            ends[1] = (2 * centre[0] - ends[0][0], 2 * centre[1] - ends[0][1])
        inner = [(centre[0] + rng.uniform(-0.9, 0.9) * half, centre[1] + rng.uniform(-0.9, 0.9) * half)
                 for _ in range(2)]
        p0, p1, p2, p3 = np.float32(ends[0]), np.float32(inner[0]), np.float32(inner[1]), np.float32(ends[1])
        t = np.linspace(0, 1, 64, dtype=np.float32)[:, None]
        curve = ((1 - t) ** 3) * p0 + 3 * ((1 - t) ** 2) * t * p1 + 3 * (1 - t) * t * t * p2 + t ** 3 * p3
        points = np.round(curve * 16).astype(np.int32).reshape(-1, 1, 2)  # 4 fractional bits
        cv2.polylines(mask, [points], False, 1.0, max(1, int(round(width))), cv2.LINE_AA, shift=4)
    return np.clip(mask, 0, 1) * face_mask


def drawn_die(background: np.ndarray, face: int, rng: random.Random, marks=None, marbled: bool = False) -> np.ndarray:
    """A PATCH_SIZE float32 patch (contrast-stretched like :func:`vision.preprocess.die_patch`) of a
    drawn die showing ``face`` on ``background`` (a BGR uint8 picture of table, any size).

    ``marks(layer, centre, side, colour, rng)`` draws something else than pips on the face (numerals,
    symbols, nothing: :mod:`vision.training.novelty_dice`); ``face`` is then not used.

    ``marbled``: the tray set's hard kind (docs/vision.md, "The dark marbled dice with red pips"): a dark
    body with a red-and-green swirl, one to three thin light curves across the face (:func:`streak_mask`),
    and red or dark-red pips each in a thin light rim; the face is still the pip count."""
    size = PATCH_SIZE * SUPERSAMPLE
    back = cv2.resize(background, (size, size), interpolation=cv2.INTER_LINEAR).astype(np.float32)
    side = size / PATCH_MARGIN * rng.uniform(0.8, 1.1)
    centre = (size / 2 + rng.uniform(-0.08, 0.08) * side, size / 2 + rng.uniform(-0.08, 0.08) * side)
    body, swirl_colour = _marbled_body(rng) if marbled else (_colour(rng), None)
    layer = np.zeros((size, size, 3), np.float32)
    alpha = np.zeros((size, size), np.float32)
    radius = side * rng.uniform(0.08, 0.2)
    if rng.random() < 0.5:  # a side face in view: the die seen a little from the side
        angle = rng.uniform(0, 2 * math.pi)
        reach = side * rng.uniform(0.08, 0.25)
        shifted = (centre[0] + reach * math.cos(angle), centre[1] + reach * math.sin(angle))
        shade = body * rng.uniform(0.45, 0.8)
        for t in np.linspace(0, 1, 6):
            c = (centre[0] + t * (shifted[0] - centre[0]), centre[1] + t * (shifted[1] - centre[1]))
            _rounded_square(layer, c, side, radius, shade.tolist())
            _rounded_square(alpha, c, side, radius, 1.0)
    face_mask = np.zeros((size, size), np.float32)  # the top face alone: where a swirl may run
    _rounded_square(face_mask, centre, side, radius, 1.0)
    _rounded_square(layer, centre, side, radius, body.tolist())
    alpha = np.maximum(alpha, face_mask)
    if marbled or rng.random() < 0.35:  # a swirl of a second colour through the body
        noise = cv2.GaussianBlur(np.float32(np.random.default_rng(rng.randrange(1 << 30)).random((size, size))),
                                 (0, 0), size / 12)
        noise = (noise - noise.min()) / max(float(noise.max() - noise.min()), 1e-6)
        swirl = np.clip((noise - 0.5) * rng.uniform(3, 8) + 0.5, 0, 1)[..., None] * face_mask[..., None]
        layer = layer * (1 - swirl) + (_colour(rng) if swirl_colour is None else swirl_colour) * swirl
    if marbled:
        light = np.full(3, rng.uniform(170, 255), np.float32) * np.float32([rng.uniform(0.85, 1.0) for _ in range(3)])
        streak = streak_mask(face_mask, centre, side, rng)[..., None] * rng.uniform(0.6, 1.0)
        layer = layer * (1 - streak) + light * streak
        pip = np.float32([rng.uniform(10, 60), rng.uniform(10, 60), rng.uniform(90, 230)])
        rim = (side * rng.uniform(1 / 40, 1 / 20), light)
        _draw_pips(layer, centre, side, pip, face, rng, rim if rng.random() < 0.85 else None)
        pip = None
    else:
        pip = _pip_colour(body, rng)
    if pip is None:
        pass
    elif marks is None:
        _draw_pips(layer, centre, side, pip, face, rng)
    else:
        marks(layer, centre, side, pip, rng)
    # Turn the whole die, then lay it on the table with a soft edge and a little shadow.
    matrix = cv2.getRotationMatrix2D(centre, rng.uniform(0, 360), 1.0)
    layer = cv2.warpAffine(layer, matrix, (size, size))
    alpha = cv2.GaussianBlur(cv2.warpAffine(alpha, matrix, (size, size)), (0, 0), SUPERSAMPLE * 0.5)[..., None]
    shadow = cv2.GaussianBlur(np.roll(alpha[..., 0], (SUPERSAMPLE * 2, SUPERSAMPLE * 2), (0, 1)), (0, 0),
                              SUPERSAMPLE * 2)[..., None]
    picture = back * (1 - 0.4 * shadow) * (1 - alpha) + layer * alpha
    light = rng.uniform(0.7, 1.2)  # light falls across the die
    gradient = np.linspace(1 - (light - 1) / 2, 1 + (light - 1) / 2, size, dtype=np.float32)
    picture = picture * (gradient[None, :, None] if rng.random() < 0.5 else gradient[:, None, None])
    patch = cv2.resize(picture, (PATCH_SIZE, PATCH_SIZE), interpolation=cv2.INTER_AREA)
    patch += np.float32(np.random.default_rng(rng.randrange(1 << 30)).normal(0, rng.uniform(0, 3), patch.shape))
    return stretch_contrast(np.clip(patch, 0, 255))
