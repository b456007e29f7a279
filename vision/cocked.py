"""Telling a die cocked on an edge by the shape of its body, for a camera straight over the tray.

From straight above, a die lying flat shows one face: its body (the pixels of its colour) is a square
about the size of its box.  A die cocked on an edge shows two faces side by side, and its body runs past
the face the detector boxed: an oblong up to 1.4 faces long (cos + sin of the tilt).  The detector
often boxes only the wider face, and the classifier reads it as a plain face -- a guessed roll.

Only for an overhead camera (``Calibration.overhead``): a camera at an angle sees a side face of every
flat die, the same picture (on the angled desk photos this shape test flags 24 of 529 dice read; on
the overhead tray photos 2 of 1,001).  Two dice of one colour lying together also make one long body;
a body that reaches the centre of another die read in the frame is not taken for a cocked die.

For a camera of any angle (:func:`looks_cocked_at_any_angle`), the lit top face alone: a flat die's lies inside
the box the detector drew, the wider face of a cocked die's runs on past it, oblong (docs/vision.md).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.preprocess import area_shrunk

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


def _die_window(frame: np.ndarray, box: tuple[int, int, int, int], enlarge: bool, windows: dict | None = None):
    """The window round a die's box (1.2 box sides each way from its middle), in Lab, scaled to a die side of
    SHAPE_SIDE pixels (``enlarge``: small dice too; else only larger ones shrunk), with the die's colour (the median
    of the box's middle quarter) and the tray's (the window's border): ``(lab, body, tray, (mx, my), (x0, y0,
    zoom), side)``, the die's middle and side in the window's pixels; ``None`` when the window is too small or the
    die does not stand out from the tray.

    ``windows``, a dict kept for one frame, holds what was worked out for a box at a zoom: an overhead camera's two
    tests of one die (:func:`looks_cocked`, :func:`looks_cocked_at_any_angle`) shrink and convert one window, not
    two (the same figures: the same pixels worked the same way)."""
    x, y, w, h = box
    side = max(w, h, 1)
    cx, cy = x + w / 2, y + h / 2
    reach = int(1.2 * side)
    x0, y0 = int(max(0, cx - reach)), int(max(0, cy - reach))
    x1, y1 = int(min(frame.shape[1], cx + reach)), int(min(frame.shape[0], cy + reach))
    if x1 - x0 < 4 or y1 - y0 < 4:
        return None
    zoom = SHAPE_SIDE / side if enlarge else min(1.0, SHAPE_SIDE / side)
    resize = enlarge or zoom < 1.0
    side = SHAPE_SIDE if enlarge else side * zoom  # (exactly: side * (SHAPE_SIDE / side) may fall a hair short)
    quarter = max(1, int(side / 4))
    key = (box, zoom, resize, quarter)
    if windows is not None and key in windows:
        seen = windows[key]
    else:
        window = frame[y0:y1, x0:x1]
        if resize and zoom <= 0.5:
            window, _ = area_shrunk(window, zoom)  # in two steps (a die over 64 px): a third of the time
        elif resize:
            window = cv2.resize(window, (max(4, round((x1 - x0) * zoom)), max(4, round((y1 - y0) * zoom))),
                                interpolation=cv2.INTER_AREA)
        lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
        mx, my = int((cx - x0) * zoom), int((cy - y0) * zoom)
        core = lab[max(0, my - quarter):my + quarter, max(0, mx - quarter):mx + quarter].reshape(-1, 3)
        seen = None
        if core.size:
            body, tray = np.median(core, axis=0), border_colour(lab)
            if not np.linalg.norm((body - tray) * np.array([0.5, 1.0, 1.0], np.float32)) < 20:
                seen = lab, body, tray, (mx, my)
        if windows is not None:
            windows[key] = seen
    if seen is None:
        return None
    return *seen, (x0, y0, zoom), side


def _distance_in(lab: np.ndarray):
    """A pixel's distance from a colour in ``lab``: lightness counting less than colour (a shaded face of a die
    is still the die's)."""
    def distance(colour):
        return np.sqrt(((lab[..., 1:] - colour[1:]) ** 2).sum(axis=2)) + 0.4 * np.abs(lab[..., 0] - colour[0])
    return distance


def body_shape(frame: np.ndarray, box: tuple[int, int, int, int],
               windows: dict | None = None) -> tuple[float, float, np.ndarray, tuple] | None:
    """The die's body around ``box``: (long side, short side) in box sides, its mask, and the mask's
    top-left corner in the frame with its scale (mask pixels per frame pixel); ``None`` when the die's colour does not stand out from the tray
    (a white die on a white tray), so its shape cannot be told.

    A pixel is body when it is nearer the die's colour (the median of the box's middle) than the
    tray's (the median of the window's border), in Lab with lightness counting less than colour, so
    the shaded far face of a cocked die still counts; pips are closed over.
    """
    # Worked at a die side of SHAPE_SIDE pixels whatever the die's size: the same thresholds for a
    # big dice-tower die as for a small tray die, and a fraction of the cost for the big one.
    seen = _die_window(frame, box, enlarge=False, windows=windows)
    if seen is None:
        return None
    window, body, tray, (mx, my), (x0, y0, zoom), side = seen
    distance = _distance_in(window)
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
                 other_centres: list[tuple[float, float]], windows: dict | None = None) -> bool:
    """Whether the die in ``box`` shows two faces side by side, as a die cocked on an edge does from
    straight above.  ``other_centres`` are the centres of the other dice read in the frame; ``windows`` as
    :func:`_die_window` takes it."""
    shape = body_shape(frame, box, windows)
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


#: Whatever the camera's angle, a die whose lit top face is this many of its box's sides long ...
TOP_LENGTH = (1.2, 1.6)
#: ... and this oblong (short over long side of its turned rectangle) ...
TOP_SQUARENESS = (0.58, 0.8)
#: ... with at most this much more of the die's body beside it (a share of the top face) is cocked on an edge ...
BESIDE_TOP = 1.5
#: ... where the top face is the body's pixels whose lightness differs from the face's middle by at most a share
#: of it plus some levels ...
TOP_LIGHTNESS = (0.12, 6.0)
#: ... or by at most this many levels (of 255), whichever is more: a dark die's top face (a navy body, L 5-50 across
#: its face in the test's die 10) varies by more than 12 % of its lightness, and the face was a lace of pixels that
#: morphology joined in some frames of one still die (1.3 box sides) and not in others (0.75).
TOP_LIGHTNESS_FLOOR = 20.0
#: ... and its colour (Lab a, b) by at most this: a die's faces are one colour, a neighbour's piece beside it is not.
TOP_COLOUR = 12.0
#: Looked for only in frames of at most this many dice: in a heap the faces of dice lying together run into each
#: other and make the same long shapes (before :data:`TOP_COLOUR`, 5 of the 1,778 flat dice read right in the sets'
#: photos of more dice were taken for cocked; with it none, and the bar is kept as a margin).
TOP_MOST_DICE = 4


def top_face_shape(frame: np.ndarray, box: tuple[int, int, int, int], other_centres: list[tuple[float, float]],
                   windows: dict | None = None) -> tuple[float, float, float] | None:
    """The lit top face of the die in ``box``: (length in box sides, short over long side, the rest of the die's body
    beside it as a share of it), or ``None`` when the die does not stand out from the tray or its face reaches the
    centre of another die.

    The top face is the body's pixels (:func:`body_shape`'s rule) whose lightness is near that of the box's middle:
    the face turned away from the light, darker, is left beside it. A flat die's top face lies inside the box the
    detector drew (0.6-1.1 box sides long); the detector often boxes only the wider face of a cocked die, and the
    top face it measures, squeezed by the tilt and joined by the narrower face where the two are lit alike, runs
    past the box (1.1-1.7), oblong.
    """
    seen = _die_window(frame, box, enlarge=True, windows=windows)
    if seen is None:
        return None
    lab, body, tray, (mx, my), (x0, y0, zoom), _ = seen
    kernel = np.ones((max(3, int(SHAPE_SIDE / 5) | 1),) * 2, np.uint8)
    # _distance_in(lab)(body) in its two parts, each wanted again below (the same figures, worked out once).
    colour_off = np.sqrt(((lab[..., 1:] - body[1:]) ** 2).sum(axis=2))
    lightness_off = np.abs(lab[..., 0] - body[0])
    whole = (colour_off + 0.4 * lightness_off < _distance_in(lab)(tray)).astype(np.uint8)
    band = max(TOP_LIGHTNESS[0] * body[0] + TOP_LIGHTNESS[1], TOP_LIGHTNESS_FLOOR)
    lit = whole & (lightness_off < band).astype(np.uint8)
    lit &= (colour_off < TOP_COLOUR).astype(np.uint8)
    lit = cv2.morphologyEx(cv2.morphologyEx(lit, cv2.MORPH_CLOSE, kernel), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels = cv2.connectedComponents(lit)
    if not (0 <= my < labels.shape[0] and 0 <= mx < labels.shape[1]) or labels[my, mx] == 0:
        return None
    top = labels == labels[my, mx]
    for ox, oy in other_centres:
        ix, iy = int((ox - x0) * zoom), int((oy - y0) * zoom)
        if 0 <= iy < top.shape[0] and 0 <= ix < top.shape[1] and top[iy, ix]:
            return None  # two dice of one colour lying together
    (_, _), (a, b), _ = cv2.minAreaRect(np.column_stack(np.nonzero(top)[::-1]).astype(np.float32))
    _, bodies = cv2.connectedComponents(cv2.morphologyEx(whole, cv2.MORPH_CLOSE, kernel))
    beside = float(((bodies == bodies[my, mx]) & ~top).sum()) / max(1, int(top.sum())) if bodies[my, mx] else 0.0
    return max(a, b) / SHAPE_SIDE, min(a, b) / max(a, b, 1e-6), beside


def looks_cocked_at_any_angle(frame: np.ndarray, box: tuple[int, int, int, int],
                              other_centres: list[tuple[float, float]], windows: dict | None = None) -> bool:
    """Whether the die in ``box`` is cocked on an edge by its top face's shape (:func:`top_face_shape`), for a camera
    of any angle: a flat die seen at a slant shows its top face squeezed too, but inside the box the detector drew.
    ``windows`` as :func:`_die_window` takes it."""
    shape = top_face_shape(frame, box, other_centres, windows)
    if shape is None:
        return False
    length, squareness, beside = shape
    return (TOP_LENGTH[0] <= length <= TOP_LENGTH[1] and TOP_SQUARENESS[0] <= squareness <= TOP_SQUARENESS[1]
            and beside <= BESIDE_TOP)
