"""Synthetic board photos made from real ones: a 5-6 player board (30 land hexes) laid from the real tiles and
tokens of a 3-4 photo, seen at another angle and in another light (issue 30's stretch).

There are no photos of a real 5-6 board in the data, so these stand in -- and are said to be synthetic
wherever a figure comes from them.  A real photo is read by the reader (its lattice), warped flat (40 px per
hex radius), and each of the 30 land hexes of the 5-6 layout (``companion.rules.board.EXTENSION_SPEC``) takes
the pixels of one of the photo's 19 hexes, token and all (so every tile and token is a real one, photographed
on a real table); the sea between is the photo's own sea colour.  The flat board is then put back into a
picture through a random homography (turn, slant, scale) over a table colour, with a light gradient.

``same_layout=True`` lays the 3-4 photo's 19 hexes back at their own places instead: the same pipeline on a
board the reader knows, to show the synthetic pictures themselves are readable (a control).
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from companion.rules.board import EXTENSION_SPEC
from vision.board.lattice import LAND, canonical_center
from vision.board.reader import BoardReading
from vision.board.terrain import corrected_plane

UNIT = 40.0        # pixels per canonical unit (hex circumradius) in the flat views
SOURCE_HALF = 4.2  # the 3-4 flat view spans +-SOURCE_HALF units (terrain.corrected_plane)
BOARD_HALF = 6.6   # the 5-6 flat board spans +-BOARD_HALF units: its 7 rows and a sea margin


def _hex_mask(size: int, centre: tuple[float, float], radius: float) -> np.ndarray:
    corners = [(centre[0] + radius * math.cos(math.radians(30 + 60 * k)),
                centre[1] + radius * math.sin(math.radians(30 + 60 * k))) for k in range(6)]
    mask = np.zeros((size, size), np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.array(corners)).astype(np.int32), 1)
    return mask.astype(bool)


def flat_board(work: np.ndarray, reading: BoardReading, rng: np.random.Generator, same_layout: bool = False
               ) -> tuple[np.ndarray, dict]:
    """The flat synthetic board (BGR, canonical (0, 0) in the middle, UNIT px per unit) and, for each of its
    land hexes, the 3-4 photo's hex it was cut from."""
    source = corrected_plane(work, reading.lattice)
    src_mid = SOURCE_HALF * UNIT
    size = int(2 * BOARD_HALF * UNIT)
    mid = BOARD_HALF * UNIT
    land_34 = np.zeros(source.shape[:2], bool)
    for h in LAND:
        cx, cy = canonical_center(h)
        land_34 |= _hex_mask(source.shape[0], (cx * UNIT + src_mid, cy * UNIT + src_mid), UNIT * 1.05)
    sea = np.median(source[~land_34 & (source.sum(axis=2) > 0)], axis=0)
    board = np.empty((size, size, 3), np.float32)
    board[:] = sea
    board += rng.normal(0, 6, board.shape).astype(np.float32)  # the sea is not one flat colour
    board = np.clip(board, 0, 255).astype(np.uint8)
    if same_layout:
        cells = {h: h for h in LAND}
    else:
        order = list(LAND)
        rng.shuffle(order)
        cells = {h: order[i % len(order)] for i, h in enumerate(EXTENSION_SPEC.land)}
    for to, frm in cells.items():
        tx, ty = canonical_center(to)
        fx, fy = canonical_center(frm)
        shift = np.array([[1, 0, (tx - fx) * UNIT + mid - src_mid], [0, 1, (ty - fy) * UNIT + mid - src_mid]],
                         np.float64)
        moved = cv2.warpAffine(source, shift, (size, size))
        mask = _hex_mask(size, (tx * UNIT + mid, ty * UNIT + mid), UNIT * 1.0)
        board[mask] = moved[mask]
    return board, cells


def photo_of(board: np.ndarray, rng: np.random.Generator, shape: tuple[int, int] = (750, 1000)) -> np.ndarray:
    """``board`` (flat, BOARD_HALF units each side of its middle) seen by a camera: turned any way, slanted
    up to ~25 %, over a table, lit unevenly."""
    h, w = shape
    size = board.shape[0]
    angle = rng.uniform(0, 2 * math.pi)
    span = rng.uniform(1.0, 1.1) * min(h, w)  # the flat square's width: the land fills ~85 % of it
    corners = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float64) - size / 2
    rot = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    placed = corners @ rot.T * (span / size)
    squeeze = rng.uniform(0.75, 1.0)  # the far side smaller: a camera held at a slant
    placed[:, 1] *= rng.uniform(0.8, 1.0)
    far = placed[:, 1] < 0
    placed[far, 0] *= squeeze
    placed += np.array([w / 2, h / 2]) + rng.uniform(-0.04, 0.04, 2) * np.array([w, h])
    warp = cv2.getPerspectiveTransform(corners.astype(np.float32) + size / 2, placed.astype(np.float32))
    table = np.array([rng.uniform(40, 90), rng.uniform(60, 110), rng.uniform(90, 150)], np.float32)  # wood, BGR
    out = cv2.warpPerspective(board, warp, (w, h), borderMode=cv2.BORDER_CONSTANT,
                              borderValue=tuple(float(v) for v in table))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.uniform(0, 2 * math.pi)
    ramp = (xs * math.cos(direction) + ys * math.sin(direction)) / max(h, w)
    light = rng.uniform(0.85, 1.1) + rng.uniform(-0.15, 0.15) * ramp
    tint = rng.uniform(0.93, 1.07, 3).astype(np.float32)
    return np.clip(out.astype(np.float32) * light[..., None] * tint, 0, 255).astype(np.uint8)
