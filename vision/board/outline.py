"""The hex lattice from the board itself, without tokens: the land inside the blue sea frame.

A board laid before its tokens (or photographed too small for them to be found) still shows its outline: the
sea frame is the one large blue thing on the table, and what it encloses that is not blue is the 19 land hexes.
That land is matched to the canonical land (the record's layout drawn y-down, hex circumradius 1) by OpenCV's
ECC alignment under a homography, started from the land's centre and size at every 7.5 degrees (the land looks
the same turned by 60 degrees, so 0-52.5 covers every turn); the start that aligns best wins.  Perspective is
exact (a homography); which of the six turns the board lies in stays the reader's choice, as with tokens.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board.lattice import LAND, SQRT3, Lattice, canonical_center

ALIGN_SIZE = 256      # the land is aligned at this many pixels on the long side (enough for a hex: ~30 px)
CANON_SCALE = 24.0    # pixels per canonical unit in the drawn canonical land
CANON_HALF = 5.0      # the drawn canonical land spans +-CANON_HALF units
MIN_CORRELATION = 0.75  # ECC's correlation below this: the blue thing is not a board's frame
STARTS = tuple(range(0, 60, 8))  # degrees


FRAME_PIECE = 0.2  # a blue region this share of the largest's area or more is part of the sea frame


def sea_mask(image: np.ndarray) -> np.ndarray:
    """The sea frame's blue (the printed sea is a clear mid blue; a dark blue piece or the shade is not)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    return ((h >= 88) & (h <= 118) & (s >= 80) & (v >= 90)).astype(np.uint8)


def land_mask(image: np.ndarray) -> np.ndarray | None:
    """What the largest blue region's hull encloses that is not blue: the land; None when no blue region frames
    any."""
    blue = sea_mask(image)
    k = max(3, int(max(image.shape[:2]) / 200)) | 1
    blue = cv2.morphologyEx(blue, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(blue, 8)
    if count < 2:
        return None
    frame = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    frame_area = stats[frame, cv2.CC_STAT_AREA]  # kept: ``stats`` is the land's below
    if frame_area < 0.03 * blue.size:
        return None
    # The frame is six pieces: where their seams show, a piece (or two, SettlersEye's board8) is a region of its
    # own, and the hull of the largest alone cut the land in half.  Every blue region a fifth the largest's
    # size or more is frame (a blue piece is a hundredth of it).
    pieces = 1 + np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= FRAME_PIECE * frame_area)
    sea = np.isin(labels, pieces).astype(np.uint8)
    frame_area = int(sea.sum())
    # The frame is a convex hexagon: its hull encloses the land even where the ring is broken (a beach reaching
    # the frame's edge, the photo's edge cutting it).
    points = cv2.findNonZero(sea)
    filled = np.zeros_like(sea)
    cv2.fillConvexPoly(filled, cv2.convexHull(points), 1)
    land = (filled & (1 - sea)).astype(np.uint8)
    land = cv2.morphologyEx(land, cv2.MORPH_OPEN, np.ones((k, k), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(land, 8)
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[biggest, cv2.CC_STAT_AREA] < 0.25 * frame_area:
        return None  # a lake in a blue table cloth, not a board's land
    return (labels == biggest).astype(np.uint8)


#: The land as the photo shows it inside the blue is wider than the 19 hexes by the frame's beach: on the 8
#: CatanAI photos the outline fitted to the bare hexes came out 1.058-1.072 times the tokens' lattice.
BEACH = 1.065


def _canonical_land() -> np.ndarray:
    """The 19 hexes with the beach round them (each drawn BEACH times its size: only the outline counts)."""
    side = int(2 * CANON_HALF * CANON_SCALE)
    mask = np.zeros((side, side), np.uint8)
    for h in LAND:
        x, y = (BEACH * c for c in canonical_center(h))
        corners = [((x + BEACH * math.cos(math.radians(30 + 60 * k))) * CANON_SCALE + CANON_HALF * CANON_SCALE,
                    (y + BEACH * math.sin(math.radians(30 + 60 * k))) * CANON_SCALE + CANON_HALF * CANON_SCALE)
                   for k in range(6)]
        cv2.fillConvexPoly(mask, np.round(np.array(corners)).astype(np.int32), 1)
    return mask


CANONICAL_LAND = _canonical_land()
LAND_AREA = 19 * 1.5 * SQRT3 * BEACH ** 2  # canonical units (19 hexes of circumradius 1, and the beach)
# canonical units -> pixels of CANONICAL_LAND.  The land is drawn BEACH times larger than the hexes, so a
# canonical unit is CANON_SCALE pixels, not BEACH * CANON_SCALE: scaling this map by BEACH too (sessions 3-6)
# undid the beach, and the outline's lattice came out the beach's 6-7 % too large.
TO_CANON_PIXELS = np.array([[CANON_SCALE, 0, CANON_HALF * CANON_SCALE],
                            [0, CANON_SCALE, CANON_HALF * CANON_SCALE], [0, 0, 1]], np.float64)


def _ecc(template: np.ndarray, target: np.ndarray, warp: np.ndarray, motion: int, iterations: int
         ) -> tuple[float, np.ndarray] | None:
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, iterations, 1e-4)
    try:
        correlation, warp = cv2.findTransformECC(template, target, warp.astype(np.float32), motion, criteria, None, 5)
    except cv2.error:
        return None  # did not converge from this start
    return float(correlation), warp.astype(np.float64)


def fit_outline(image: np.ndarray) -> tuple[Lattice, float] | None:
    """The lattice (canonical -> ``image`` pixels) from the land's outline, and ECC's correlation; None when no
    framed land is found or none aligns well enough.

    Coarse to fine: an affine alignment from each start on the land shrunk to a quarter of ALIGN_SIZE, the best
    of them refined as a homography at ALIGN_SIZE."""
    land = land_mask(image)
    if land is None:
        return None
    shrink = ALIGN_SIZE / max(land.shape)
    small = cv2.resize(land.astype(np.float32), None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    moments = cv2.moments(small, binaryImage=False)
    if moments["m00"] <= 0:
        return None
    cx, cy = moments["m10"] / moments["m00"], moments["m01"] / moments["m00"]
    scale = math.sqrt(moments["m00"] / LAND_AREA)  # small pixels per canonical unit
    coarse = 0.25
    template = cv2.GaussianBlur(CANONICAL_LAND.astype(np.float32), (0, 0), 2.0)
    template_coarse = cv2.resize(template, None, fx=coarse, fy=coarse, interpolation=cv2.INTER_AREA)
    target = cv2.GaussianBlur(small, (0, 0), 2.0 * scale / CANON_SCALE + 0.5)
    target_coarse = cv2.resize(target, None, fx=coarse, fy=coarse, interpolation=cv2.INTER_AREA)
    down = np.diag([coarse, coarse, 1.0])
    best: tuple[float, np.ndarray] | None = None
    for degrees in STARTS:
        a = math.radians(degrees)
        start = np.array([[scale * math.cos(a), -scale * math.sin(a), cx],
                          [scale * math.sin(a), scale * math.cos(a), cy], [0, 0, 1]]) @ np.linalg.inv(TO_CANON_PIXELS)
        # the same map between the coarse images: canonical-coarse px -> canonical px -> small px -> coarse px
        start_coarse = down @ start @ np.linalg.inv(down)
        found = _ecc(template_coarse, target_coarse, start_coarse[:2], cv2.MOTION_AFFINE, 40)
        if found is not None and (best is None or found[0] > best[0]):
            best = found
    if best is None:
        return None
    affine = np.linalg.inv(down) @ np.vstack([best[1], [0, 0, 1]]) @ down
    refined = _ecc(template, target, affine, cv2.MOTION_HOMOGRAPHY, 50)
    if refined is None or refined[0] < MIN_CORRELATION:
        return None
    to_small = refined[1] @ TO_CANON_PIXELS  # canonical units -> small pixels
    homography = np.diag([1 / shrink, 1 / shrink, 1.0]) @ to_small
    homography /= homography[2, 2]
    lattice = Lattice(homography, {}, 0.0)
    centres = lattice.to_image(np.array([canonical_center(h) for h in LAND]))
    lattice.spacing = float(np.median([np.hypot(*(centres[i] - centres[j])) for i, a in enumerate(LAND)
                                       for j, b in enumerate(LAND) if _neighbours(a, b)]))
    # a warp that folded the land away (ECC can settle on one) is no board: the spacing must agree with the
    # land's area
    expected = SQRT3 * scale / shrink
    if not 0.6 * expected < lattice.spacing < 1.6 * expected:
        return None
    return lattice, refined[0]


def _neighbours(a: tuple[int, int], b: tuple[int, int]) -> bool:
    dq, dr = b[0] - a[0], b[1] - a[1]
    return (dq, dr) in ((1, 0), (0, 1), (-1, 1))
