"""Fitting the hex lattice: which image point is the centre of which land hex.

The canonical board is the record's pointy-top axial layout drawn y-down with hexes of circumradius 1:
hex ``(q, r)`` has its centre at ``(sqrt3 * (q + r/2), 1.5 * r)``.  A homography maps that plane onto the
photo, so perspective (a tablet held at an angle) and any rotation are both exact.  The fit starts from
the token centres: the vectors between neighbours fall in three directions, whose medians give an affine
first guess (a similarity from the median spacing and the six-fold mean angle is the fallback); integer
axial coordinates follow, and the homography is refitted on the matched tokens until the matching stops
changing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

SQRT3 = math.sqrt(3.0)
LAND = tuple(sorted((q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2))  # the 19 hexes


def canonical_center(h: tuple[int, int]) -> tuple[float, float]:
    q, r = h
    return (SQRT3 * (q + r / 2.0), 1.5 * r)


def turned(h: tuple[int, int], turns: int) -> tuple[int, int]:
    """``h`` turned ``turns`` times 60 degrees about the centre hex (clockwise as drawn, y down)."""
    q, r = h
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def hex_distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass
class Lattice:
    homography: np.ndarray        # canonical plane -> image pixels
    matched: dict[tuple[int, int], int]  # land hex -> index of the point found at its centre
    spacing: float                # median distance between neighbouring centres in the image, pixels

    def to_image(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)

    def center(self, h: tuple[int, int]) -> tuple[float, float]:
        x, y = self.to_image(np.array([canonical_center(h)]))[0]
        return (float(x), float(y))


def _direction_and_spacing(points: np.ndarray) -> tuple[float, float] | None:
    """The lattice's direction (radians, mod 60 degrees) and spacing from nearest-neighbour vectors."""
    diff = points[None, :, :] - points[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    np.fill_diagonal(dist, np.inf)
    nearest = dist.min(axis=1)
    spacing = float(np.median(nearest))
    if not np.isfinite(spacing) or spacing <= 0:
        return None
    near = (dist < 1.3 * spacing) & (dist > 0.7 * spacing)
    vectors = diff[near]
    if len(vectors) < 6:
        return None
    angles = np.arctan2(vectors[:, 1], vectors[:, 0]) * 6.0  # six-fold symmetry folded away
    angle = math.atan2(np.sin(angles).mean(), np.cos(angles).mean()) / 6.0
    return angle, spacing


def _neighbour_axes(points: np.ndarray, spacing: float) -> tuple[np.ndarray, np.ndarray] | None:
    """The image vectors of the canonical steps (1, 0) and (0, 1), from the three directions neighbour
    vectors cluster in.  An affine guess: a board seen at a slant squashes one direction, which a
    similarity (one spacing, one angle) cannot follow far from the anchor."""
    diff = points[None, :, :] - points[:, None, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    near = (dist < 1.45 * spacing) & (dist > 0.55 * spacing)
    vectors = diff[near]
    if len(vectors) < 6:
        return None
    folded = np.where((vectors[:, 1] < 0) | ((vectors[:, 1] == 0) & (vectors[:, 0] < 0)), -1.0, 1.0)[:, None] * vectors
    angles = np.degrees(np.arctan2(folded[:, 1], folded[:, 0]))  # 0..180
    histogram = np.histogram(angles, bins=36, range=(0, 180))[0]
    groups = []
    for _ in range(3):
        peak = int(np.argmax(histogram))
        centre = (peak + 0.5) * 5.0
        close = np.abs(((angles - centre + 90) % 180) - 90) < 20
        if close.sum() < 2:
            return None
        ref = folded[close][0]
        signed = folded[close] * np.sign(folded[close] @ ref)[:, None]
        groups.append(np.median(signed, axis=0))
        for b in range(36):  # clear this direction's bins before looking for the next
            if abs(((b + 0.5) * 5.0 - centre + 90) % 180 - 90) < 20:
                histogram[b] = 0
    u = groups[0]
    for g in groups[1:]:
        for v in (g, -g):
            if u[0] * v[1] - u[1] * v[0] > 0 and u @ v > 0:
                return u, v
    return None


def _axes_guess(origin: np.ndarray, u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """The affine map (as a 3x3 homography) taking canonical steps (1, 0), (0, 1) to ``u``, ``v``."""
    canon = np.array([[SQRT3, SQRT3 / 2], [0.0, 1.5]])  # columns: canonical centres of (1, 0) and (0, 1)
    linear = np.column_stack([u, v]) @ np.linalg.inv(canon)
    return np.array([[linear[0, 0], linear[0, 1], origin[0]], [linear[1, 0], linear[1, 1], origin[1]], [0, 0, 1.0]])


def _similarity_guess(origin: np.ndarray, angle: float, spacing: float) -> np.ndarray:
    """A similarity (as a 3x3 homography) putting canonical (0, 0) at ``origin``."""
    scale = spacing / SQRT3
    c, s = math.cos(angle) * scale, math.sin(angle) * scale
    return np.array([[c, -s, origin[0]], [s, c, origin[1]], [0.0, 0.0, 1.0]])


_CENTRES: dict[tuple, np.ndarray] = {}


def _centres(cells: tuple) -> np.ndarray:
    """The canonical centres of ``cells`` (N x 2), made once per set of cells."""
    if cells not in _CENTRES:
        _CENTRES[cells] = np.array([canonical_center(c) for c in cells], np.float64).reshape(-1, 2)
    return _CENTRES[cells]


def _match(points: np.ndarray, homography: np.ndarray, tolerance: float,
           cells: tuple[tuple[int, int], ...]) -> dict[tuple[int, int], int]:
    """Each cell's nearest point if within ``tolerance`` (in canonical units) of the cell's centre."""
    inverse = np.linalg.inv(homography)
    canon = cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64), inverse).reshape(-1, 2)
    centres = _centres(tuple(cells))
    # every cell against every point at once (the lattice search calls this thousands of times a 5-6 board)
    d = np.hypot(centres[:, None, 0] - canon[None, :, 0], centres[:, None, 1] - canon[None, :, 1])
    nearest = np.argmin(d, axis=1)
    near = d[np.arange(len(cells)), nearest] <= tolerance
    matched: dict[tuple[int, int], int] = {cell: int(i) for cell, i, ok in zip(cells, nearest, near) if ok}
    # a point claimed by two cells goes to neither (never happens with a sane tolerance)
    counts: dict[int, int] = {}
    for i in matched.values():
        counts[i] = counts.get(i, 0) + 1
    return {cell: i for cell, i in matched.items() if counts[i] == 1}


def _refit(points: np.ndarray, matched: dict[tuple[int, int], int]) -> np.ndarray | None:
    src = np.array([canonical_center(c) for c in matched], np.float64)
    dst = np.array([points[i] for i in matched.values()], np.float64)
    if len(src) < 4:
        return None
    homography, _ = cv2.findHomography(src, dst, 0)
    if homography is None or abs(np.linalg.det(homography)) < 1e-12:
        return None
    return homography


def _turn(k: int) -> np.ndarray:
    """The canonical plane turned by 60 * k degrees about (0, 0), as a 3x3 matrix (maps lattice to lattice)."""
    c, s = math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def fit_lattice(points: np.ndarray, min_matched: int = 12, cells: tuple[tuple[int, int], ...] = LAND,
                enough: int = 18) -> Lattice | None:
    """Fit the 19-hex land lattice to candidate token centres (N x 2); None when no lattice explains them.
    ``cells``: another board's land hexes (the 5-6 board's 30: vision/board/board56.py), whose shape is not
    the same at every 60-degree turn, so each turn is tried too; ``enough``: tokens matched that end the search
    (the board's tokens less one)."""
    turns = (0,) if set(cells) == set(LAND) else tuple(range(6))
    points = np.asarray(points, np.float64).reshape(-1, 2)
    if len(points) < min_matched:
        return None
    guess = _direction_and_spacing(points)
    if guess is None:
        return None
    angle, spacing = guess
    # Anchor the lattice on a token near the middle: a real centre, so rounding is exact there.  The point
    # nearest the median may be the robber or a stray circle, so several are tried, nearest first.
    median = np.median(points, axis=0)
    order = np.argsort(np.hypot(*(points - median).T))
    best: tuple[int, float, dict, np.ndarray] | None = None
    axes = _neighbour_axes(points, spacing)
    guesses = [lambda anchor: _similarity_guess(anchor, angle, spacing)]
    if axes is not None:
        guesses.insert(0, lambda anchor: _axes_guess(anchor, *axes))
    for guess, anchor, turn in ((g, a, t) for g in guesses for a in points[order[:8]] for t in turns):
        base = guess(anchor) @ _turn(turn)
        # The anchor may be any of the land hexes: try each, keep what explains the most tokens.
        for shift in cells:
            sx, sy = canonical_center(shift)
            move = np.array([[1.0, 0.0, -sx], [0.0, 1.0, -sy], [0.0, 0.0, 1.0]])
            homography = base @ move
            matched = _match(points, homography, 0.6, cells)
            if len(matched) < min(min_matched, 4) or (best is not None and len(matched) + 3 < best[0]):
                continue
            for _ in range(4):  # perspective: refit on what matched, match again
                refit = _refit(points, matched)
                if refit is None:
                    break
                again = _match(points, refit, 0.45, cells)
                homography = refit
                if again == matched:
                    break
                matched = again
            if len(matched) < 4:
                continue
            err = _residual(points, matched, homography)
            if best is None or (len(matched), -err) > (best[0], -best[1]):
                best = (len(matched), err, matched, homography)
        if best is not None and best[0] >= enough and best[1] < 0.1:
            break  # every token explained: no need to try another anchor
    if best is None or best[0] < min_matched or best[1] > 0.25:
        return None
    return Lattice(best[3], best[2], spacing)


def _residual(points: np.ndarray, matched: dict[tuple[int, int], int], homography: np.ndarray) -> float:
    """Median distance (canonical units) between matched tokens and the centres they were matched to."""
    inverse = np.linalg.inv(homography)
    idx = list(matched.values())
    canon = cv2.perspectiveTransform(points[idx].reshape(-1, 1, 2), inverse).reshape(-1, 2)
    want = np.array([canonical_center(c) for c in matched])
    return float(np.median(np.hypot(*(canon - want).T)))
