"""How many separate marks a die's face shows: a second opinion on dice the classifier half takes for novelty dice.

A pip face of two to six shows its pips apart, a mark each; a numeral, a star, a ship or a gate is one connected
stroke or shape (a blank face, none). The classifier's "not a standard die" class tells most of them from pips, but
its share for a numeral often sits between a pip die's (under 0.54 on every labelled die of the sets) and the
strict bar (``vision.reader.NOT_STANDARD_SHARE``, kept high for two motion-blurred desk dice whose smeared pips look
like bars). Between the two, a face of fewer than two marks is taken for a novelty die; the blurred dice show 3-4.
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


def marks_on_face(frame: np.ndarray, box: tuple[int, int, int, int]) -> int:
    """The number of separate marks (pips, strokes, shapes) on the face in ``box`` of a BGR ``frame``."""
    x, y, w, h = box
    x0, y0 = int(max(0, x + EDGE * w)), int(max(0, y + EDGE * h))
    x1, y1 = int(min(frame.shape[1], x + w - EDGE * w)), int(min(frame.shape[0], y + h - EDGE * h))
    if x1 - x0 < 6 or y1 - y0 < 6:
        return 0
    face = frame[y0:y1, x0:x1]
    zoom = SIDE / max(face.shape[:2])
    face = cv2.resize(face, (max(6, round(face.shape[1] * zoom)), max(6, round(face.shape[0] * zoom))),
                      interpolation=cv2.INTER_CUBIC)
    lab = cv2.cvtColor(face, cv2.COLOR_BGR2LAB).astype(np.float32)
    own = np.median(lab.reshape(-1, 3), axis=0)
    distance = np.sqrt(((lab - own) ** 2).sum(axis=2))
    farthest = float(np.percentile(distance, 99))
    if farthest < PLAIN:
        return 0
    height, width = distance.shape
    smallest, largest = MARK_AREA[0] * height * width, MARK_AREA[1] * height * width
    most = 0
    for level in INK_LEVELS:
        count, _labels, stats, _centres = cv2.connectedComponentsWithStats((distance > level * farthest).astype(np.uint8))
        found = 0
        for left, top, wide, tall, area in stats[1:]:
            # A blob touching the edge is the die's rim or a shadow, not a mark on the face.
            if smallest <= area <= largest and left > 0 and top > 0 and left + wide < width and top + tall < height:
                found += 1
        most = max(most, found)
    return most
