"""The lattice settled on the seams between the tiles: where the pieces stand.

The outline's lattice (vision/board/outline.py) follows the land's edge, which on a played board is ragged: the
beach's printed surf, pieces on the coast, a frame cut by the photo's edge.  On SettlersEye's played boards it
was right within a tenth of a hex on most photos but turned 10 degrees on one (its coast roads then half a hex
off) -- and the pieces are read at the corners and edges of the lattice, so every hex spacing of error there is
a piece lost (docs/board-reader.md, session 8).  The tiles' seams are the lattice itself: straight lines in
three directions across the whole board, seen between the pieces.  The photo's gradient (blurred by an eighth
of a hex) is aligned to the 72 land edges drawn in the canonical plane by OpenCV's ECC under a homography.  ECC
only finds the nearest optimum, so it starts from the lattice and from it turned by 6 and 12 degrees either
way; the start that aligns best wins.  Then it starts again from where it settled, moved a fifth of a hex either
way along the direction the board recedes from the camera, and keeps the better alignment: on four slanted
SettlersEye photos ECC had stopped a sixth to a third of a hex from where the pieces stand, toward the camera,
at a lower correlation than it reaches from there (session 18).
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


def _drawn_seams(scale: float) -> np.ndarray:
    """The 19 hexes' edges drawn as lines in the canonical plane at ``scale`` pixels a unit, blurred by BLUR."""
    side = int(2 * HALF * scale)
    drawn = np.zeros((side, side), np.float32)
    for h in LAND:
        x, y = canonical_center(h)
        corners = [((x + math.cos(math.radians(30 + 60 * k)) + HALF) * scale,
                    (y + math.sin(math.radians(30 + 60 * k)) + HALF) * scale) for k in range(7)]
        for a, b in zip(corners, corners[1:]):
            cv2.line(drawn, tuple(int(round(c * 16)) for c in a), tuple(int(round(c * 16)) for c in b), 1.0, 1,
                     cv2.LINE_AA, 4)
    return cv2.GaussianBlur(drawn, (0, 0), BLUR * scale)


DRAWN_SEAMS = {SCALE: _drawn_seams(SCALE), SCALE / 2: _drawn_seams(SCALE / 2)}


def _magnitude(image: np.ndarray) -> np.ndarray:
    """The photo's gradient magnitude at its own size: computed once a settle, each start's level shrinks it."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))


def _gradient(magnitude: np.ndarray, shrink: float, scale: float) -> np.ndarray:
    """The photo's gradient ``magnitude`` (_magnitude) at ``shrink`` times its size, blurred as the drawn seams
    are; the brightest 2 % (glare's edge, a white piece's) clipped so they do not outweigh the seams."""
    small = cv2.resize(magnitude, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), BLUR * scale)
    return np.minimum(small, np.percentile(small, 98))


def _align(gradient: np.ndarray, start: np.ndarray, scale: float, iterations: int) -> tuple[float, np.ndarray] | None:
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-5)
    try:
        correlation, warp = cv2.findTransformECC(DRAWN_SEAMS[scale], gradient, start.astype(np.float32),
                                                 cv2.MOTION_HOMOGRAPHY, criteria, None, 5)
    except cv2.error:
        return None  # did not converge from this start
    return float(correlation), warp.astype(np.float64)


def _in_pixels(scale: float) -> np.ndarray:
    """Canonical units -> the drawn seams' pixels at ``scale``."""
    return np.array([[scale, 0, HALF * scale], [0, scale, HALF * scale], [0, 0, 1]], np.float64)


#: Hex radii the settled lattice is moved either way along the board's receding direction to start ECC again.
#: On 29 of SettlersEye's slanted development photos the lattice had settled 0.03-0.29 hex radii (mean over the
#: corners) from the one refitted on the piece boxes, and the four worst (0.16-0.29) lay almost wholly along that
#: direction, toward the camera: a second optimum of the seams, where the lines drawn lie on the edges of the
#: tiles' pictures, not on the frames between them.  Started again 0.2 away,
#: ECC settles 0.06-0.11 from the refit there, at a better correlation (0.582 -> 0.652 on board11); every other
#: photo stays within 0.01 of where it was.  0.15 and 0.3 either way did no better; six ways round at 0.2, the
#: same lattices at three times the cost (docs/board-reader.md, session 18).
RESTART = 0.2


def receding(homography: np.ndarray) -> np.ndarray:
    """The unit direction in the canonical plane along which the board recedes from the camera: where the
    homography's depth (its third row) grows fastest, the photo's most foreshortened direction.  Seen square
    from above, any direction: (0, 1)."""
    row = homography[2, :2] / homography[2, 2]
    length = float(np.hypot(*row))
    return row / length if length > 1e-12 else np.array([0.0, 1.0])


def settle_on_seams(image: np.ndarray, homography: np.ndarray, turns: tuple[float, ...] = TURNS
                    ) -> tuple[np.ndarray, float] | None:
    """The lattice (canonical plane -> ``image`` pixels) aligned on the tiles' seams, and ECC's correlation;
    None when no start converged.  ``homography`` is the lattice to start from.  Coarse to fine: every start
    at half the size, the best of them refined at full size (all five at full size cost 1.8 s of CPU).  Then
    ECC starts again at full size from the settled lattice moved RESTART either way along the board's receding
    direction; the best correlation of the three wins.  (Compared at half size first, the restarts missed
    board1's better optimum, 0.507 against 0.504 at full size.)  The photo's gradient at its own size is
    computed once for all of them; each shrinks it to its own start's size (session 19: 4 of these a settle)."""
    magnitude = _magnitude(image)
    best = _settle(magnitude, [homography @ _turn(degrees) for degrees in turns], ((SCALE / 2, 30), (SCALE, 40)))
    if best is None:
        return None
    way = receding(best[0]) * RESTART
    for sign in (-1.0, 1.0):
        # each restart on the photo shrunk to its own lattice's size, as the first start was: shrunk to the
        # settled lattice's size instead (1 % off), neither restart reached board1's better optimum
        again = _settle(magnitude, [best[0] @ _shift(sign * way)], ((SCALE, 40),))
        if again is not None and again[1] > best[1]:
            best = again
    return best


def _turn(degrees: float) -> np.ndarray:
    """The canonical plane turned ``degrees`` about the board's centre."""
    a = math.radians(degrees)
    return np.array([[math.cos(a), -math.sin(a), 0.0], [math.sin(a), math.cos(a), 0.0], [0.0, 0.0, 1.0]])


def _shift(by: np.ndarray) -> np.ndarray:
    """The canonical plane moved ``by`` (hex radii)."""
    return np.array([[1.0, 0.0, by[0]], [0.0, 1.0, by[1]], [0.0, 0.0, 1.0]])


def _settle(magnitude: np.ndarray, starts: list[np.ndarray], levels: tuple[tuple[float, int], ...]
            ) -> tuple[np.ndarray, float] | None:
    """ECC from each of ``starts`` at the first of ``levels`` (pixels a unit, iterations), the best of them
    refined at each next level: (the lattice, its correlation), or None when none converged.  The photo's
    gradient ``magnitude`` (_magnitude) is shrunk so the first start's hex spacing is as drawn."""
    ends = cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[SQRT3, 0.0]]]), starts[0]).reshape(-1, 2)
    spacing = float(np.hypot(*(ends[1] - ends[0])))
    best: tuple[float, np.ndarray] | None = None
    for level, (scale, iterations) in enumerate(levels):
        shrink = scale * SQRT3 / spacing  # a canonical unit ``scale`` pixels, as drawn
        gradient = _gradient(magnitude, shrink, scale)
        to_small = np.diag([shrink, shrink, 1.0])
        if level:  # the winner so far, refined
            if best is None:
                return None
            homographies, best = [best[1]], None
        else:
            homographies = starts
        for start in homographies:
            warp = to_small @ start @ np.linalg.inv(_in_pixels(scale))
            found = _align(gradient, warp / warp[2, 2], scale, iterations)
            if found is not None and (best is None or found[0] > best[0]):
                settled = np.linalg.inv(to_small) @ found[1] @ _in_pixels(scale)
                best = (found[0], settled / settled[2, 2])
    if best is None:
        return None
    return best[1], best[0]


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
