"""The marks on a die's face, looked at apart from the classifier: a second opinion on dice it half takes for novelty dice.

A pip face of two to six shows its pips apart, a mark each; a numeral, a star, a ship or a gate is one connected
stroke or shape (a blank face, none). The classifier's "not a standard die" class tells most of them from pips, but
its share for a numeral often sits between a pip die's (under 0.4 on all but four of the sets' labelled dice) and
the strict bar (``vision.reader.NOT_STANDARD_SHARE``, kept high for two motion-blurred desk dice whose smeared pips
look like bars). Two looks decide there:

- :func:`marks_on_face`: a face of fewer than two marks is not a pip face of two to six;
- :func:`stroke_without_pips`: a face whose ink holds a long stroke (a numeral's, most of the face long) and not one
  mark shaped as a pip (filled and round) is not a pip face at all, a 1 included (its pip is round);
- :func:`round_pips`: a real face shows most of the pips of the number read, filled and round; a numeral's ink
  breaks into pieces of other shapes (a 3 read as 3 showed 3 marks, one of them round).

The last two take the face's own colour from the middle of the box alone: a die turned in the picture fills only
the middle of its box, the table the corners, and a numeral's ink with the die's body and the table made three
colours of which the median over the whole box was the table's -- the die's whole body became one blob of ink
and the numeral inside it was never seen (four of the seven drawn numerals still read as pips, session 6).
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
#: The face's own colour (for :func:`stroke_without_pips` and :func:`round_pips`) is the median of the pixels within
#: this share of the face's side from its middle: the die's body there even when the die is turned 45 degrees in
#: the picture (the box's corners are then the table) and the middle holds a numeral's ink (a third of it at most).
OWN_REACH = 0.4
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


def _ink_levels(frame: np.ndarray, box: tuple[int, int, int, int],
                own_from_middle: bool = False) -> list[tuple[int, np.ndarray, np.ndarray]]:
    """The face in ``box`` as ink at each of :data:`INK_LEVELS`: (count, labels, stats) of its connected blobs as
    ``cv2.connectedComponentsWithStats`` gives them; an empty list for a face too small or plain to hold marks.
    The face's own colour is the median of the whole box, or with ``own_from_middle`` of its middle
    (:data:`OWN_REACH`). :func:`marks_on_face` keeps the whole box's: with the middle's, a motion-blurred four
    of four_50.jpg counted 6 marks, and the strict bar's "marks are not the face read" took it for a novelty die."""
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
    if own_from_middle:
        rows, cols = np.mgrid[:lab.shape[0], :lab.shape[1]]
        middle = ((rows - (lab.shape[0] - 1) / 2) ** 2 + (cols - (lab.shape[1] - 1) / 2) ** 2
                  <= (OWN_REACH * min(lab.shape[:2])) ** 2)
        own = np.median(lab[middle], axis=0)
    else:
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


def blob_shapes(frame: np.ndarray, box: tuple[int, int, int, int]) -> list[list[tuple[float, bool]]]:
    """Per ink level, each blob of ink inside the face (not touching its edge, not a speck) as (length, pip): its
    longest span as a share of the face's side, and whether it is shaped as a pip (:data:`PIP_AREA`,
    :data:`PIP_FILL`, :data:`PIP_ELONGATION`)."""
    levels = []
    for count, labels, stats in _ink_levels(frame, box, own_from_middle=True):
        height, width = labels.shape
        side, area_of_face = max(height, width), height * width
        blobs = []
        for index in range(1, count):
            left, top, wide, tall, area = stats[index]
            if area < MARK_AREA[0] * area_of_face or not _inside(stats[index], width, height):
                continue
            ys, xs = np.nonzero(labels[top:top + tall, left:left + wide] == index)
            points = np.stack([xs, ys], axis=1).astype(np.int32)
            hull = cv2.convexHull(points)
            corners = hull[:, 0, :].astype(np.float64)
            length = np.sqrt(((corners[:, None, :] - corners[None, :, :]) ** 2).sum(axis=2)).max() + 1
            # The hull runs through pixel centres: half a pixel round it is the blob's own.
            fill = area / (cv2.contourArea(hull) + 0.5 * cv2.arcLength(hull, True) + 1)
            spread = np.linalg.eigvalsh(np.cov(points.T.astype(np.float64)) + np.eye(2) / 12) if area > 2 else (1, 1)
            elongation = float(np.sqrt(spread[1] / spread[0]))
            blobs.append((float(length / side), bool(PIP_AREA[0] * area_of_face <= area <= PIP_AREA[1] * area_of_face
                                                     and fill >= PIP_FILL and elongation <= PIP_ELONGATION)))
        levels.append(blobs)
    return levels


def stroke_without_pips(frame: np.ndarray, box: tuple[int, int, int, int], levels: list | None = None) -> bool:
    """Whether the face in ``box`` shows a long stroke (:data:`STROKE_LENGTH`) at some ink level and no mark shaped
    as a pip at any: a numeral or a symbol drawn in lines, where a pip die, even blurred or seen at a slant, shows
    at least one filled round pip. ``levels``: :func:`blob_shapes` of the same face when worked out already (the
    same answer; ~4 ms of a 200 px die's not worked twice)."""
    levels = blob_shapes(frame, box) if levels is None else levels
    stroke = any(length >= STROKE_LENGTH for blobs in levels for length, _pip in blobs)
    return stroke and not any(pip for blobs in levels for _length, pip in blobs)


def round_pips(frame: np.ndarray, box: tuple[int, int, int, int], levels: list | None = None) -> int:
    """The most marks shaped as a pip (filled and round) that the face in ``box`` shows at any one ink level;
    ``levels`` as :func:`stroke_without_pips` takes it."""
    levels = blob_shapes(frame, box) if levels is None else levels
    return max((sum(pip for _length, pip in blobs) for blobs in levels), default=0)
