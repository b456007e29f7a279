"""Telling a die cocked on an edge by the shape of its body, for a camera straight over the tray.

From straight above, a die lying flat shows one face: its body (the pixels of its colour) is a square
about the size of its box.  A die cocked on an edge shows two faces side by side, and its body runs past
the face the detector boxed: an oblong up to 1.4 faces long (cos + sin of the tilt).  The detector
often boxes only the wider face, and the classifier reads it as a plain face -- a guessed roll.

Only for an overhead camera (``Calibration.overhead``): a camera at an angle sees a side face of every
flat die, the same picture (on the angled desk photos this shape test flags 24 of 529 dice read; on
the overhead tray photos 2 of 1,001).  Two dice of one colour lying together also make one long body;
a body that reaches the centre of another die read in the frame is not taken for a cocked die.
"""

from __future__ import annotations

import cv2
import numpy as np

#: The body is measured at this many pixels per die side (a bigger die is shrunk first).
SHAPE_SIDE = 32
#: A body at least this many box sides long...
COCKED_LENGTH = 1.25
#: ...and this oblong (long over short side of its turned rectangle) is a die cocked on an edge.
COCKED_OBLONG = (1.15, 1.6)


def border_colour(image: np.ndarray) -> np.ndarray:
    """The median colour of an image's outermost rows and columns: the tray around a die."""
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).astype(np.float32)
    return np.median(border, axis=0)


def body_shape(frame: np.ndarray, box: tuple[int, int, int, int]) -> tuple[float, float, np.ndarray, tuple] | None:
    """The die's body around ``box``: (long side, short side) in box sides, its mask, and the mask's
    top-left corner in the frame with its scale (mask pixels per frame pixel); ``None`` when the die's colour does not stand out from the tray
    (a white die on a white tray), so its shape cannot be told.

    A pixel is body when it is nearer the die's colour (the median of the box's middle) than the
    tray's (the median of the window's border), in Lab with lightness counting less than colour, so
    the shaded far face of a cocked die still counts; pips are closed over.
    """
    x, y, w, h = box
    side = max(w, h, 1)
    cx, cy = x + w / 2, y + h / 2
    reach = int(1.2 * side)
    x0, y0 = int(max(0, cx - reach)), int(max(0, cy - reach))
    x1, y1 = int(min(frame.shape[1], cx + reach)), int(min(frame.shape[0], cy + reach))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    # Worked at a die side of SHAPE_SIDE pixels whatever the die's size: the same thresholds for a
    # big dice-tower die as for a small tray die, and a fraction of the cost for the big one.
    zoom = min(1.0, SHAPE_SIDE / side)
    window = frame[y0:y1, x0:x1]
    if zoom < 1.0:
        window = cv2.resize(window, (max(4, round(window.shape[1] * zoom)), max(4, round(window.shape[0] * zoom))),
                            interpolation=cv2.INTER_AREA)
    window = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
    side *= zoom
    quarter = max(1, int(side / 4))
    mx, my = int((cx - x0) * zoom), int((cy - y0) * zoom)
    core = window[max(0, my - quarter):my + quarter, max(0, mx - quarter):mx + quarter].reshape(-1, 3)
    if core.size == 0:
        return None
    body = np.median(core, axis=0)
    tray = border_colour(window)
    if np.linalg.norm((body - tray) * np.array([0.5, 1.0, 1.0], np.float32)) < 20:
        return None

    def distance(colour):
        return np.sqrt(((window[..., 1:] - colour[1:]) ** 2).sum(axis=2)) + 0.4 * np.abs(window[..., 0] - colour[0])

    mask = (distance(body) < distance(tray)).astype(np.uint8)
    kernel = max(3, int(side / 5) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((kernel, kernel), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels = cv2.connectedComponents(mask)
    if not (0 <= my < labels.shape[0] and 0 <= mx < labels.shape[1]) or labels[my, mx] == 0:
        return None
    own = labels == labels[my, mx]
    points = np.column_stack(np.nonzero(own)[::-1]).astype(np.float32)
    (_, _), (a, b), _ = cv2.minAreaRect(points)
    return max(a, b) / side, min(a, b) / side, own, (x0, y0, zoom)


def looks_cocked(frame: np.ndarray, box: tuple[int, int, int, int],
                 other_centres: list[tuple[float, float]]) -> bool:
    """Whether the die in ``box`` shows two faces side by side, as a die cocked on an edge does from
    straight above.  ``other_centres`` are the centres of the other dice read in the frame."""
    shape = body_shape(frame, box)
    if shape is None:
        return False
    long, short, own, (x0, y0, zoom) = shape
    if long < COCKED_LENGTH or not COCKED_OBLONG[0] <= long / max(short, 1e-6) <= COCKED_OBLONG[1]:
        return False
    for cx, cy in other_centres:
        ix, iy = int((cx - x0) * zoom), int((cy - y0) * zoom)
        if 0 <= iy < own.shape[0] and 0 <= ix < own.shape[1] and own[iy, ix]:
            return False  # the body runs into another die: two dice of one colour lying together
    return True
