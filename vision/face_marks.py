"""The marks on a die's face, looked at apart from the classifier: a second opinion on dice it half takes for novelty dice.

A pip face of two to six shows its pips apart, a mark each; a numeral, a star, a ship or a gate is one connected
stroke or shape (a blank face, none). The classifier's "not a standard die" class tells most of them from pips, but
its share for a numeral often sits between a pip die's (under 0.4 on all but four of the sets' labelled dice) and
the strict bar (``vision.reader.NOT_STANDARD_SHARE``, kept high for two motion-blurred desk dice whose smeared pips
look like bars). Two looks decide there:

- :func:`marks_on_face`: a face of fewer than two marks is not a pip face of two to six;
- :func:`stroke_without_pips`: a face whose ink holds a long stroke (a numeral's, most of the face long) and not one
  mark shaped as a pip (filled and round) is not a pip face at all, a 1 included (its pip is round).
"""

from __future__ import annotations

import cv2
import numpy as np

#: The face is looked at this many pixels across whatever the die's size.
SIDE = 48
#: Left out at each side of the box: the die's edges and the table beyond them are not marks.
EDGE = 0.08
#: A mark is a blob of this share of the face's area: smaller is a speck, larger is the face's shading.
MARK_AREA = (0.004, 0.15)
#: A pixel is ink when its colour lies farther than this share of the face's farthest colour (99th percentile)
#: from the face's own colour; the most marks found at any of these levels counts (a faint pip, a dark one).
INK_LEVELS = (0.3, 0.45, 0.6)
#: A face whose colours all lie this close (Lab units) to its own colour has no marks at all.
PLAIN = 15.0
#: A stroke: a blob of ink (not touching the face's edge) at least this share of the face's side long. A pip is a
#: fifth to a third of it; a drawn numeral is 0.66-0.97 (bench_novelty_dice's); two pips run together by motion
#: blur 0.79 (four_50.jpg), which is why a stroke alone is not enough.
STROKE_LENGTH = 0.6
#: A pip: a blob of this share of the face's area ...
PIP_AREA = (0.008, 0.15)
#: ... filling at least this share of its convex hull (a numeral's 2, 3 or 5 fills 0.4-0.6 of it) ...
PIP_FILL = 0.8
#: ... and at most this many times as long as it is wide (by its second moments; a pip seen at a slant 1.1-1.9).
PIP_ELONGATION = 2.0


def _ink_levels(frame: np.ndarray, box: tuple[int, int, int, int]) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """The face in ``box`` as ink at each of :data:`INK_LEVELS`: (count, labels, stats) of its connected blobs as
    ``cv2.connectedComponentsWithStats`` gives them; an empty list for a face too small or plain to hold marks."""
    x, y, w, h = box
    x0, y0 = int(max(0, x + EDGE * w)), int(max(0, y + EDGE * h))
    x1, y1 = int(min(frame.shape[1], x + w - EDGE * w)), int(min(frame.shape[0], y + h - EDGE * h))
    if x1 - x0 < 6 or y1 - y0 < 6:
        return []
    face = frame[y0:y1, x0:x1]
    zoom = SIDE / max(face.shape[:2])
    face = cv2.resize(face, (max(6, round(face.shape[1] * zoom)), max(6, round(face.shape[0] * zoom))),
                      interpolation=cv2.INTER_CUBIC)
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    own = np.median(lab.reshape(-1, 3), axis=0)
    distance = np.sqrt(((lab - own) ** 2).sum(axis=2))
    farthest = float(np.percentile(distance, 99))
    if farthest < PLAIN:
        return []
    return [cv2.connectedComponentsWithStats((distance > level * farthest).astype(np.uint8))[:3]
            for level in INK_LEVELS]


def _inside(stats_row, width: int, height: int) -> bool:
    """A blob touching the edge is the die's rim or a shadow, not a mark on the face."""
    left, top, wide, tall = stats_row[:4]
    return left > 0 and top > 0 and left + wide < width and top + tall < height


def marks_on_face(frame: np.ndarray, box: tuple[int, int, int, int]) -> int:
    """The number of separate marks (pips, strokes, shapes) on the face in ``box`` of a BGR ``frame``."""
    most = 0
    for _count, labels, stats in _ink_levels(frame, box):
        height, width = labels.shape
        smallest, largest = MARK_AREA[0] * height * width, MARK_AREA[1] * height * width
        found = sum(1 for row in stats[1:] if smallest <= row[4] <= largest and _inside(row, width, height))
        most = max(most, found)
    return most


def stroke_without_pips(frame: np.ndarray, box: tuple[int, int, int, int]) -> bool:
    """Whether the face in ``box`` shows a long stroke (:data:`STROKE_LENGTH`) at some ink level and no mark shaped
    as a pip (:data:`PIP_AREA`, :data:`PIP_FILL`, :data:`PIP_ELONGATION`) at any: a numeral or a symbol drawn in
    lines, where a pip die, even blurred or seen at a slant, shows at least one filled round pip."""
    stroke = pip = False
    for count, labels, stats in _ink_levels(frame, box):
        height, width = labels.shape
        side, area_of_face = max(height, width), height * width
        for index in range(1, count):
            left, top, wide, tall, area = stats[index]
            if area < MARK_AREA[0] * area_of_face or not _inside(stats[index], width, height):
                continue
            ys, xs = np.nonzero(labels[top:top + tall, left:left + wide] == index)
            points = np.stack([xs, ys], axis=1).astype(np.int32)
            hull = cv2.convexHull(points)
            corners = hull[:, 0, :].astype(np.float64)
            length = np.sqrt(((corners[:, None, :] - corners[None, :, :]) ** 2).sum(axis=2)).max() + 1
            stroke |= length >= STROKE_LENGTH * side
            # The hull runs through pixel centres: half a pixel round it is the blob's own.
            fill = area / (cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True) + 1)
            spread = np.linalg.eigvalsh(np.cov(points.T.astype(np.float64)) + np.eye(2) / 12) if area > 2 else (1, 1)
            elongation = float(np.sqrt(spread[1] / spread[0]))
            pip |= (PIP_AREA[0] * area_of_face <= area <= PIP_AREA[1] * area_of_face
                    and fill >= PIP_FILL and elongation <= PIP_ELONGATION)
    return stroke and not pip
