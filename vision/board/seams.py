"""The lattice settled on the seams between the tiles: where the pieces stand.

The outline's lattice (vision/board/outline.py) follows the land's edge, which on a played board is ragged: the
beach's printed surf, pieces on the coast, a frame cut by the photo's edge.  On SettlersEye's played boards it
was right within a tenth of a hex on most photos but turned 10 degrees on one (its coast roads then half a hex
off) -- and the pieces are read at the corners and edges of the lattice, so every hex spacing of error there is
a piece lost (docs/board-reader.md, session 8).  The tiles' seams are the lattice itself: straight lines in
three directions across the whole board, seen between the pieces.  The photo's gradient (blurred by an eighth
of a hex) is aligned to the 72 land edges drawn in the canonical plane by OpenCV's ECC under a homography.  ECC
only finds the nearest optimum, so it starts from the lattice and from it turned by 6 and 12 degrees either
way; the start that aligns best wins.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board.lattice import LAND, SQRT3, Lattice, canonical_center, hex_distance

SCALE = 24.0          # pixels per canonical unit (hex circumradius) the seams are aligned at
HALF = 5.0            # the drawn canonical plane spans +-HALF units
BLUR = 0.12           # canonical units: the seams and the gradient blurred by this (ECC's reach)
TURNS = (0.0, -6.0, 6.0, -12.0, 12.0)  # degrees about the board's centre ECC starts from
TO_DRAWN = np.array([[SCALE, 0, HALF * SCALE], [0, SCALE, HALF * SCALE], [0, 0, 1]], np.float64)


def _drawn_seams() -> np.ndarray:
    """The 19 hexes' edges drawn as lines in the canonical plane, blurred by BLUR."""
    side = int(2 * HALF * SCALE)
    drawn = np.zeros((side, side), np.float32)
    for h in LAND:
        x, y = canonical_center(h)
        corners = [((x + math.cos(math.radians(30 + 60 * k)) + HALF) * SCALE,
                    (y + math.sin(math.radians(30 + 60 * k)) + HALF) * SCALE) for k in range(7)]
        for a, b in zip(corners, corners[1:]):
            cv2.line(drawn, tuple(int(round(c * 16)) for c in a), tuple(int(round(c * 16)) for c in b), 1.0, 1,
                     cv2.LINE_AA, 4)
    return cv2.GaussianBlur(drawn, (0, 0), BLUR * SCALE)


DRAWN_SEAMS = _drawn_seams()


def _gradient(image: np.ndarray, shrink: float) -> np.ndarray:
    """The photo's gradient magnitude at ``shrink`` times its size, blurred as the drawn seams are; the
    brightest 2 % (glare's edge, a white piece's) clipped so they do not outweigh the seams."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    magnitude = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    small = cv2.resize(magnitude, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), BLUR * SCALE)
    return np.minimum(small, np.percentile(small, 98))


def _align(gradient: np.ndarray, start: np.ndarray) -> tuple[float, np.ndarray] | None:
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 60, 1e-5)
    try:
        correlation, warp = cv2.findTransformECC(DRAWN_SEAMS, gradient, start.astype(np.float32),
                                                 cv2.MOTION_HOMOGRAPHY, criteria, None, 5)
    except cv2.error:
        return None  # did not converge from this start
    return float(correlation), warp.astype(np.float64)


def settle_on_seams(image: np.ndarray, homography: np.ndarray, turns: tuple[float, ...] = TURNS
                    ) -> tuple[np.ndarray, float] | None:
    """The lattice (canonical plane -> ``image`` pixels) aligned on the tiles' seams, and ECC's correlation;
    None when no start converged.  ``homography`` is the lattice to start from."""
    ends = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[SQRT3, 0.0]]]), homography).reshape(-1, 2)
    spacing = float(np.hypot(*(ends[1] - ends[0])))
    shrink = SCALE * SQRT3 / spacing  # a canonical unit SCALE pixels, as drawn
    gradient = _gradient(image, shrink)
    to_small = np.diag([shrink, shrink, 1.0])
    best: tuple[float, np.ndarray] | None = None
    for degrees in turns:
        a = math.radians(degrees)
        turn = np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]])
        start = to_small @ homography @ turn @ np.linalg.inv(TO_DRAWN)
        found = _align(gradient, start / start[2, 2])
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    if best is None:
        return None
    settled = np.linalg.inv(to_small) @ best[1] @ TO_DRAWN
    return settled / settled[2, 2], best[0]


#: ECC's correlation below this: the seams were not found (a start that settled well scored 0.49-0.66 on
#: SettlersEye's played boards; the outline's lattice 10 degrees off, settled from that one start, 0.40)
SEAM_FLOOR = 0.45


def settled_lattice(image: np.ndarray, lattice: Lattice) -> Lattice:
    """``lattice`` settled on the tiles' seams when they are found and the size stays within a fifth of the
    start's; ``lattice`` itself otherwise.  The tokens matched are not carried over (the caller matches
    again)."""
    settled = settle_on_seams(image, lattice.homography)
    if settled is None or settled[1] < SEAM_FLOOR:
        return lattice
    moved = Lattice(settled[0], {}, 0.0)
    centres = moved.to_image(np.array([canonical_center(h) for h in LAND]))
    moved.spacing = float(np.median([np.hypot(*(centres[i] - centres[j])) for i, a in enumerate(LAND)
                                     for j, b in enumerate(LAND) if hex_distance(a, b) == 1]))
    if not 0.8 * lattice.spacing < moved.spacing < 1.25 * lattice.spacing:
        return lattice
    return moved
