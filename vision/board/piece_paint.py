"""Pieces painted on a real board photo: the lattice the reader fits to the photo says where each corner and edge
lies, and a road (a bar along its edge), a settlement (a small house) or a city (a larger one) is painted there
in a player's colour.  Synthetic boards for training (make_piece_model --painted: real photos of other tables,
pieces painted at random, colour, size and place jittered) and for tests (a real photo whose board is known,
with a game's own pieces painted on it, for "Check the board")."""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board.lattice import turned
from vision.board.pieces import CORNERS, EDGES, corner_point, edge_angle, edge_point

PAINT = {"red": (40, 40, 200), "blue": (170, 90, 30), "white": (225, 230, 235), "orange": (20, 130, 245)}


def _polygon(homography: np.ndarray, points) -> np.ndarray:
    pts = np.array(points, np.float64).reshape(-1, 1, 2)
    return np.round(cv2.perspectiveTransform(pts, homography).reshape(-1, 2)).astype(np.int32)


def _shape(piece: str, at, size: float = 1.0, shift=(0.0, 0.0)) -> list[tuple[float, float]]:
    """The piece's outline in the canonical plane (hex circumradius 1), ``size`` times the usual, moved by
    ``shift``."""
    if piece == "road":
        (cx, cy), a = edge_point(at), edge_angle(at)
        cx, cy = cx + shift[0], cy + shift[1]
        half_long, half_wide = 0.33 * size, 0.08 * size
        ux, uy, vx, vy = math.cos(a), math.sin(a), -math.sin(a), math.cos(a)
        return [(cx + sx * half_long * ux + sy * half_wide * vx, cy + sx * half_long * uy + sy * half_wide * vy)
                for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    cx, cy = corner_point(at)
    cx, cy = cx + shift[0], cy + shift[1]
    r = (0.14 if piece == "settlement" else 0.21) * size
    if piece == "settlement":  # a house: a square and its roof's peak
        return [(cx - r, cy + r), (cx + r, cy + r), (cx + r, cy - 0.2 * r), (cx, cy - 1.1 * r), (cx - r, cy - 0.2 * r)]
    return [(cx - r, cy + r), (cx + r, cy + r), (cx + r, cy - 0.5 * r), (cx + 0.1 * r, cy - 0.5 * r),
            (cx + 0.1 * r, cy - r), (cx - 0.45 * r, cy - 1.3 * r), (cx - r, cy - r)]


def draw_pieces(work: np.ndarray, homography: np.ndarray, pieces, rng: np.random.Generator | None = None
                ) -> np.ndarray:
    """``work`` (the photo at the reader's size) with ``pieces`` painted: (piece, colour, at) in the lattice's
    own coordinates.  With ``rng``, each piece's paint, size and place vary a little (for training)."""
    out = work.copy()
    for piece, color, at in pieces:
        size, shift, paint = 1.0, (0.0, 0.0), np.array(PAINT[color], np.float64)
        if rng is not None:
            size = rng.uniform(0.8, 1.2)
            shift = tuple(rng.normal(0.0, 0.04, 2))
            paint = np.clip(paint * rng.uniform(0.75, 1.1) + rng.normal(0, 12, 3), 0, 255)
        outline = _polygon(homography, _shape(piece, at, size, shift))
        cv2.fillPoly(out, [outline], tuple(int(c) for c in paint))
        cv2.polylines(out, [outline], True, tuple(int(c) for c in paint * 0.55), 1, cv2.LINE_AA)
    return out


def random_pieces(rng: np.random.Generator, count: int = 30) -> list[tuple[str, str, tuple]]:
    """``count`` pieces on distinct random corners and edges, random colours, two roads to a building."""
    colours = ("red", "blue", "white", "orange")
    edges = rng.choice(len(EDGES), size=count * 2 // 3, replace=False)
    corners = rng.choice(len(CORNERS), size=count - len(edges), replace=False)
    return ([("road", colours[rng.integers(4)], EDGES[i]) for i in edges]
            + [(("settlement", "city")[rng.integers(2)], colours[rng.integers(4)], CORNERS[i]) for i in corners])


def in_lattice(spot, turns: int):
    """A game's corner or edge in the lattice's coordinates, given the turn laying the lattice on the game."""
    return tuple(sorted(turned(h, -turns % 6) for h in spot))
