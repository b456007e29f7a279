"""Number-token candidates: round, light, beige discs.

Tokens are the one thing on a board that is a perfect circle of one size, so a circle finder that insists
on round edges (OpenCV's HOUGH_GRADIENT_ALT) finds them on any terrain; harbour tokens and the robber's base
are found too and are sorted out by the lattice fit and by colour.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Disc:
    x: float
    y: float
    radius: float
    hue: float         # OpenCV hue, 0..180 (beige is about 20)
    saturation: float  # 0..255
    value: float       # 0..255

    @property
    def is_beige(self) -> bool:
        # Token card: warm hue, little colour, bright.  Loose bounds: a dim table or a warm lamp shifts them.
        return 8 <= self.hue <= 38 and self.saturation <= 150 and self.value >= 110


def find_discs(image: np.ndarray) -> list[Disc]:
    """Round discs 0.6 %..6 % of the image's long side in radius, with their mean colour."""
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    long_side = max(image.shape[:2])
    found = cv2.HoughCircles(gray, cv2.HOUGH_GRADIENT_ALT, dp=1.5, minDist=max(8, long_side // 60),
                             param1=150, param2=0.75, minRadius=max(3, long_side // 160),
                             maxRadius=max(6, long_side // 16))
    if found is None:
        return []
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    discs = []
    for x, y, r in found[0]:
        # the colour of the disc's inner part (the digit is dark but small beside the card)
        x0, y0 = int(max(0, x - r)), int(max(0, y - r))
        x1, y1 = int(min(image.shape[1], x + r + 1)), int(min(image.shape[0], y + r + 1))
        if x1 <= x0 or y1 <= y0:
            continue
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.circle(mask, (int(x - x0), int(y - y0)), max(1, int(r * 0.8)), 255, -1)
        h, s, v = cv2.mean(hsv[y0:y1, x0:x1], mask)[:3]
        discs.append(Disc(float(x), float(y), float(r), h, s, v))
    return discs


def token_sized(discs: list[Disc]) -> list[Disc]:
    """The discs of the commonest size (tokens are all one size; the hexes and pips also look round)."""
    if not discs:
        return []
    radii = np.array([d.radius for d in discs])
    support = [(np.abs(radii / r - 1.0) <= 0.2).sum() for r in radii]
    typical = float(np.median(radii[np.abs(radii / radii[int(np.argmax(support))] - 1.0) <= 0.2]))
    return [d for d in discs if abs(d.radius / typical - 1.0) <= 0.25]


def one_per_place(discs: list[Disc]) -> list[Disc]:
    """One disc per place: of two discs whose centres lie within half a radius of each other (a token's rim
    and the coloured ring inside it, both token-sized when the board is small in the frame), the larger.  Left
    in, they made the median distance to the nearest disc 0 and no lattice was fitted (6 of 10 SYNTHETIC 5-6
    boards, test4_1's tokens, bench_board_56.py).  Both readers use it (reader.read_board, board56.read_56)."""
    kept: list[Disc] = []
    for d in sorted(discs, key=lambda d: -d.radius):
        if all(np.hypot(d.x - k.x, d.y - k.y) > 0.5 * k.radius for k in kept):
            kept.append(d)
    return kept
