"""Finding the dice tray in a picture, so that calibration starts from its corners, not the whole frame.

The dice lie on the tray's floor, so the floor's colour is the colour around them.  The tray is the
region of that colour holding the dice (felt, a box lid, a wooden board: anything of one colour), taken
as the four-cornered shape round it and grown by a die's side, for the dice that come to rest leaning
on the tray's walls.  A round tray gets the square round it.  With no dice in the picture there is no
floor to go by, and nothing is found.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np

from vision.calibration import Corners, is_convex, rectangle_corners

#: The picture is searched at this size (long side, pixels): the tray is large, detail does not matter.
WORK_SIZE = 320
#: A pixel is floor when its Lab colour lies within this of the floor's (the median round the dice).
FLOOR_DISTANCE = 22.0
#: An outline of more sides than this is taken as round (every choice of four sides would be tried).
MOST_SIDES = 12
#: A corner put back where two sides meet lies at most this share of the outline outside the floor: a shaded
#: corner is put back, a spike where two sides that nearly run parallel meet far off is not.
CORNER_REACH = 0.04
#: Corners put back where the sides meet may add at most this much to the floor's area (a corner cut off by a
#: shaded wall adds a few per cent; sides that only nearly meet would add far more).
GROWTH_LIMIT = 1.25


def find_tray(frame: np.ndarray, dice_boxes) -> Corners | None:
    """The tray's four corners (fractions of the frame, clockwise from the top left) round the dice in
    ``dice_boxes`` (``(x, y, width, height)`` in frame pixels), or ``None`` when there are none."""
    boxes = [tuple(float(v) for v in box) for box in dice_boxes]
    if not boxes:
        return None
    height, width = frame.shape[:2]
    scale = WORK_SIZE / max(height, width)
    small = cv2.resize(frame, (max(1, round(width * scale)), max(1, round(height * scale))),
                       interpolation=cv2.INTER_AREA)
    if small.ndim == 2:
        small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
    lab = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2LAB).astype(np.float32)
    dice = np.zeros(small.shape[:2], np.uint8)
    for x, y, w, h in boxes:
        cv2.rectangle(dice, (int(x * scale), int(y * scale)), (int((x + w) * scale), int((y + h) * scale)), 1, -1)
    side = float(np.median([max(w, h) for _x, _y, w, h in boxes]))
    reach = max(3, int(side * scale / 2)) | 1
    ring = (cv2.dilate(dice, np.ones((reach, reach), np.uint8)) > 0) & (dice == 0)
    if not ring.any():
        return None  # the dice cover the picture: no floor in view
    floor_colour = np.median(lab[ring], axis=0)
    floor = ((np.linalg.norm(lab - floor_colour, axis=2) < FLOOR_DISTANCE) | (dice > 0)).astype(np.uint8)
    # Pips, shadows and specks closed over; thin bridges to a table of a like colour cut.
    floor = cv2.morphologyEx(floor, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    floor = cv2.morphologyEx(floor, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    _count, regions = cv2.connectedComponents(floor)
    under = [regions[min(regions.shape[0] - 1, int((y + h / 2) * scale)), min(regions.shape[1] - 1, int((x + w / 2) * scale))]
             for x, y, w, h in boxes]
    under = [r for r in under if r]
    if not under:
        return None
    region = max(set(under), key=under.count)  # the floor most of the dice lie on
    hull = cv2.convexHull(cv2.findNonZero((regions == region).astype(np.uint8)))
    corners = _four_corners(hull)
    # Grown by a die's side from its middle: dice leaning on the walls lie past the floor's edge.
    middle = corners.mean(axis=0)
    grown = []
    for point in corners:
        out = point - middle
        grown.append(middle + out * (1 + side * scale / max(float(np.linalg.norm(out)), 1.0)))
    fractions = np.array(grown) / np.array([small.shape[1], small.shape[0]], np.float64)
    fractions = np.clip(fractions, 0.0, 1.0)
    ordered = _clockwise_from_top_left([(round(float(x), 4), round(float(y), 4)) for x, y in fractions])
    if not is_convex(ordered):  # corners cut off by the frame's edges fold onto one another
        x0, y0 = fractions.min(axis=0)
        x1, y1 = fractions.max(axis=0)
        return rectangle_corners(round(float(x0), 4), round(float(y0), 4), round(float(x1), 4), round(float(y1), 4))
    return ordered


def _four_corners(hull: np.ndarray) -> np.ndarray:
    """Four corners for a convex hull: the smallest four-sided shape round it whose sides lie along sides of
    its outline (a tray seen square or slanted, a corner of its floor hidden or shaded off), else the
    smallest rectangle round it (a round tray, an outline of too many sides).

    Simplifying the outline to four of its own points would drop a corner the floor's colour does not
    reach (a wall seen wider there) and cut the tray's corner off with a diagonal: a die that lands in it
    would then lie outside the tray.  Sides of the outline, met again, give the corner back; of all the
    ways to choose four, the smallest shape is the one that follows the tray's own sides."""
    outline = cv2.arcLength(hull, True)
    approx = cv2.approxPolyDP(hull, 0.01 * outline, True).reshape(-1, 2).astype(np.float64)
    best, best_area = None, GROWTH_LIMIT * cv2.contourArea(hull)
    if 4 <= len(approx) <= MOST_SIDES:
        sides = [(approx[i], approx[(i + 1) % len(approx)]) for i in range(len(approx))]
        for chosen in itertools.combinations(range(len(sides)), 4):  # in order round the outline
            corners = [_meet(sides[chosen[k - 1]], sides[chosen[k]]) for k in range(4)]
            if any(c is None for c in corners):
                continue
            quad = np.array(corners, np.float32)
            if not cv2.isContourConvex(quad):
                continue
            area = cv2.contourArea(quad)
            if area < best_area and all(cv2.pointPolygonTest(quad, (float(x), float(y)), True) > -1.0
                                        for x, y in approx) \
                    and all(-cv2.pointPolygonTest(hull, (float(x), float(y)), True) <= CORNER_REACH * outline
                            for x, y in quad):
                best, best_area = quad.astype(np.float64), area
    if best is not None:
        return best
    return cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64)


def _meet(first, second) -> np.ndarray | None:
    """Where the lines through two sides (each a pair of points) cross; None when they run parallel."""
    (a, b), (c, d) = first, second
    r, s = b - a, d - c
    across = r[0] * s[1] - r[1] * s[0]
    if abs(across) < 1e-9:
        return None
    t = ((c - a)[0] * s[1] - (c - a)[1] * s[0]) / across
    return a + t * r


def _clockwise_from_top_left(points: list[tuple[float, float]]) -> Corners:
    """The corners in the order the calibration screen's handles take: clockwise on the picture (y down),
    starting from the one nearest the top left."""
    cx = sum(x for x, _ in points) / 4
    cy = sum(y for _, y in points) / 4
    around = sorted(points, key=lambda p: np.arctan2(p[1] - cy, p[0] - cx))  # y down: clockwise
    start = min(range(4), key=lambda i: around[i][0] + around[i][1])
    return tuple(around[start:] + around[:start])  # type: ignore[return-value]
