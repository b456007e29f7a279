"""Terrain from colour: each land hex is sampled in the perspective-corrected plane (the ring between the
token and the hex's edge, so neither the token nor the beige tile border counts) and its median colour in
CIE Lab is compared with one prototype per terrain.

The prototypes are the medians over the labelled CatanAI photos (tests/data/boards); the light of another
table moves all hexes together, so each hex's colour is taken relative to the board's own median first.
A hex whose two nearest terrains are nearly as close is reported as unsure.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board.lattice import LAND, Lattice, canonical_center

SCALE = 40.0      # pixels per canonical unit (hex circumradius) in the corrected plane
HALF = 4.2        # the corrected plane spans +-HALF canonical units: the land and a little sea

# Lab (OpenCV 8-bit scale) relative to the board's median hex; see module docstring.
# Medians of the 152 labelled hexes (8 photos, 3 boards); spreads (std) are 5-11 in L, 1-4 in a and b.
PROTOTYPES: dict[str, tuple[float, float, float]] = {
    "desert": (26.1, 0.0, 2.6),
    "fields": (26.8, 1.6, 13.5),
    "forest": (-51.5, -5.9, -19.3),
    "hills": (-14.1, 13.3, -2.8),
    "mountains": (-8.5, 3.5, -28.5),
    "pasture": (15.3, -20.1, 8.6),
}
# Lightness varies most with glare and shadow, the hue axes least: L counts 0.35 (at 0.5 a fields hex in shadow
# was read hills held out; 0.30 and under lost SettlersEye hexes: docs/board-reader.md).
WEIGHTS = np.array([0.35, 1.0, 1.0])
UNSURE_MARGIN = 1.5   # second-nearest / nearest distance below this: unsure


def corrected_plane(image: np.ndarray, lattice: Lattice) -> np.ndarray:
    """The photo warped so the board lies flat, canonical (0, 0) at the middle, SCALE px per unit."""
    size = int(2 * HALF * SCALE)
    to_plane = np.array([[SCALE, 0, HALF * SCALE], [0, SCALE, HALF * SCALE], [0, 0, 1]], np.float64)
    warp = to_plane @ np.linalg.inv(lattice.homography)
    return cv2.warpPerspective(image, warp, (size, size), flags=cv2.INTER_AREA)


def _hex_ring_mask(size: int, center: tuple[float, float], inner: float, outer: float) -> np.ndarray:
    mask = np.zeros((size, size), np.uint8)
    cx, cy = center
    corners = [(cx + outer * math.cos(math.radians(60 * i + 30)), cy + outer * math.sin(math.radians(60 * i + 30)))
               for i in range(6)]
    cv2.fillConvexPoly(mask, np.array(corners, np.int32), 255)
    cv2.circle(mask, (int(cx), int(cy)), int(inner), 0, -1)
    return mask


def hex_colours(plane: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    """Median Lab colour of each land hex's ring (between token and tile border)."""
    lab = cv2.cvtColor(plane, cv2.COLOR_BGR2LAB)
    size = plane.shape[0]
    out = {}
    for h in LAND:
        x, y = canonical_center(h)
        c = (x * SCALE + HALF * SCALE, y * SCALE + HALF * SCALE)
        mask = _hex_ring_mask(size, c, 0.45 * SCALE, 0.78 * SCALE)
        out[h] = np.median(lab[mask > 0], axis=0).astype(np.float64)
    return out


def hex_textures(plane: np.ndarray) -> dict[tuple[int, int], float]:
    """How busy each land hex's ring is: the median absolute Laplacian of its lightness (slightly blurred).
    The desert's sand is smooth, the fields' wheat is striped: on all 14 labelled photos (two tables) the
    desert measured 2.1-3.4, every fields hex 4.0-7.4."""
    gray = cv2.GaussianBlur(cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    busy = np.abs(cv2.Laplacian(gray, cv2.CV_32F))
    size = plane.shape[0]
    out = {}
    for h in LAND:
        x, y = canonical_center(h)
        mask = _hex_ring_mask(size, (x * SCALE + HALF * SCALE, y * SCALE + HALF * SCALE), 0.45 * SCALE, 0.78 * SCALE)
        out[h] = float(np.median(busy[mask > 0]))
    return out


def relative(colours: dict[tuple[int, int], np.ndarray]) -> dict[tuple[int, int], np.ndarray]:
    board = np.median(np.array(list(colours.values())), axis=0)
    return {h: c - board for h, c in colours.items()}


def distance(colour: np.ndarray, terrain: str) -> float:
    return float(np.linalg.norm((colour - np.array(PROTOTYPES[terrain])) * WEIGHTS))


def classify(colour: np.ndarray, exclude: tuple[str, ...] = ()) -> tuple[str, bool]:
    """(terrain, sure) for one hex's relative Lab colour; ``exclude``: terrains known not to be it."""
    ranked = sorted((float(np.linalg.norm((colour - np.array(p)) * WEIGHTS)), t) for t, p in PROTOTYPES.items()
                    if t not in exclude)
    (d1, best), (d2, _) = ranked[0], ranked[1]
    return best, d2 >= UNSURE_MARGIN * max(d1, 1e-6)
