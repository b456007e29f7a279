"""The top face of a die seen from a low camera, where the detector's box holds the die's side face too.

A camera low and close over the table sees a die's top face foreshortened to a strip along one side of the
die and a side face beside it; the detector boxes the whole body (1.6-2 times the top face across) and the
classifier, reading the box as one face, counts the side face's pips with the top's (a 1 read as 6), and is
unsure of it.  The box is cut, across its shorter side, into the two strips a top face can be (one at each end),
each stretched back to a square -- the foreshortening undone -- and read alone: a strip read clearly as a face
(:data:`CLEAR_STRIP`) is the top face; failing that, the strip lit more than the other (lit from above, the top
face is the lighter: :data:`LIGHTER_BY`) when it is read fairly well (:data:`LIT_STRIP`).  Only a die whose whole
box was read without confidence (:data:`DOUBTFUL`) is looked at, in frames of few dice (the reader's).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.preprocess import PATCH_MARGIN, PATCH_SIZE, stretch_contrast

#: A box at least this much longer than wide may hold a side face beside the top (a die seen from above is boxed
#: square, 0.8-1.25).
OBLONG = 1.1
#: The top face's share of the box's shorter side (the labelled top faces of the mixed set's low-camera dice are
#: 0.55-0.7 of it).
TOP_SHARE = 0.65
#: The top strip's middle must be this much lighter than the other strip's (grey levels) to be told for the top.
LIGHTER_BY = 12.0
#: A die read from its whole box with less confidence than this is looked at (the mixed set's side-face misreadings
#: were read at 0.15-0.40; right readings of dice with oblong boxes mostly above 0.5).
DOUBTFUL = 0.45
#: A strip whose face share reaches this (and "not a die" stays under :data:`STRIP_NOT_A_DIE`) is the top face.
CLEAR_STRIP = 0.85
#: The lit strip's face share must reach this.
LIT_STRIP = 0.65
#: A strip whose "not a die" probability reaches this is no face (the table beside a die, half a die).
STRIP_NOT_A_DIE = 0.3


def top_strips(box: tuple[int, int, int, int]) -> list[tuple[float, float, float, float]]:
    """The two strips (x, y, w, h) at either end of the box's shorter side, each :data:`TOP_SHARE` of it;
    none when the box is square enough to be a die seen from above."""
    x, y, w, h = box
    if max(w, h) < OBLONG * min(w, h):
        return []
    if w >= h:
        side = h * TOP_SHARE
        return [(x, y, w, side), (x, y + h - side, w, side)]
    side = w * TOP_SHARE
    return [(x, y, side, h), (x + w - side, y, side, h)]


def strip_lightness(grey: np.ndarray, strip: tuple[float, float, float, float]) -> float:
    """The median grey of the strip's middle half (its face; the pips are a minority of it)."""
    x, y, w, h = strip
    x0, x1 = int(round(x + w / 4)), int(round(x + 3 * w / 4))
    y0, y1 = int(round(y + h / 4)), int(round(y + 3 * h / 4))
    height, width = grey.shape[:2]
    part = grey[max(0, y0):min(height, max(y1, y0 + 1)), max(0, x0):min(width, max(x1, x0 + 1))]
    return float(np.median(part)) if part.size else 0.0


def strip_patch(frame: np.ndarray, strip: tuple[float, float, float, float]) -> np.ndarray:
    """The strip as the classifier's square patch: its margin as a die's, each axis stretched on its own."""
    x, y, w, h = strip
    cx, cy = x + w / 2, y + h / 2
    zoom_x, zoom_y = PATCH_SIZE / max(w * PATCH_MARGIN, 1e-3), PATCH_SIZE / max(h * PATCH_MARGIN, 1e-3)
    matrix = np.array([[zoom_x, 0.0, PATCH_SIZE / 2 - cx * zoom_x], [0.0, zoom_y, PATCH_SIZE / 2 - cy * zoom_y]])
    source = frame
    if min(zoom_x, zoom_y) < 0.5:  # a big die: blur in proportion so its pips do not alias away
        sigma = 0.5 / min(zoom_x, zoom_y)
        reach = int(max(w, h) * PATCH_MARGIN) + int(3 * sigma) + 2
        x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
        source = cv2.GaussianBlur(frame[y0:int(cy) + reach, x0:int(cx) + reach], (0, 0), sigma)
        matrix[0, 2] += x0 * zoom_x
        matrix[1, 2] += y0 * zoom_y
    patch = cv2.warpAffine(source, matrix, (PATCH_SIZE, PATCH_SIZE), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    if patch.ndim == 2:
        patch = patch[..., None]
    return stretch_contrast(patch)


def lit_top_strip(frame: np.ndarray, box: tuple[int, int, int, int]) -> tuple[float, float, float, float] | None:
    """The strip of an oblong box that is the die's top face (the lighter end by :data:`LIGHTER_BY`), or None."""
    strips = top_strips(box)
    if not strips:
        return None
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    first, second = (strip_lightness(grey, s) for s in strips)
    if abs(first - second) < LIGHTER_BY:
        return None
    return strips[0] if first > second else strips[1]


def top_face_reading(frame: np.ndarray, box: tuple[int, int, int, int], class_probabilities) -> tuple[int, float] | None:
    """(face, confidence) of the top face found in an oblong ``box`` of a die seen from a low camera, or None.

    ``class_probabilities(patches)`` is the reader's classifier (rows: not a die, faces 1..6, ...); each strip is
    read at four right-angle turns and averaged, as an unclear die is.
    """
    strips = top_strips(box)
    if not strips:
        return None
    patches = [np.rot90(strip_patch(frame, s), k) for s in strips for k in range(4)]
    probs = class_probabilities(patches).reshape(len(strips), 4, -1).mean(axis=1)
    readings = []
    for row in probs:
        faces = row[1:7] / max(float(row[1:7].sum()), 1e-6)
        best = int(np.argmax(faces))
        readings.append((best + 1, float(faces[best]), float(row[0])))
    clear = [r for r in readings if r[1] >= CLEAR_STRIP and r[2] < STRIP_NOT_A_DIE]
    if clear:
        face, share, not_a_die = max(clear, key=lambda r: r[1])
        return face, share * (1.0 - not_a_die)
    lit = lit_top_strip(frame, box)
    if lit is not None:
        face, share, not_a_die = readings[strips.index(lit)]
        if share >= LIT_STRIP and not_a_die < STRIP_NOT_A_DIE:
            return face, share * (1.0 - not_a_die)
    return None
