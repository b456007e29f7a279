"""A real photo's board made a standard set by swapping one token: to test the elimination of a hidden token
(vision/board/deduce.py) on real robbers standing on real tokens.

The only labelled photos with tokens (CatanAI's) show a set with three 10s and one 3.  Where the robber hides
one of the 10s, the 17 tokens in sight look like a standard set short of a 3, and elimination would name a 3: the
set is not standard, so the labels say ``"token_set": "other"``.  Pasting the photo's own 3 token over one 10 in
sight gives a picture of a standard set (two 3s, two 10s with the hidden one) whose robber and hidden token are
the photo's own; where the robber hides another number (an 8), the same swap leaves the 8 to be eliminated.
The pasted token is the same photo's, scaled to the 10's size (tokens are round and read at any turn).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board.reader import TOKEN_RADIUS, BoardReading, local_spacing

SURPLUS, SHORT = 10, 3  # the CatanAI set holds one 10 more and one 3 fewer than the standard set


def token_at(reading: BoardReading, h: tuple[int, int]) -> tuple[float, float, float]:
    """(x, y, radius) of hex ``h``'s token in the pixels of the image ``reading`` was read from."""
    x, y = reading.token_centres.get(h, reading.lattice.center(h))
    return x / reading.scale, y / reading.scale, TOKEN_RADIUS * local_spacing(reading.lattice, h) / reading.scale


def swap_token(image: np.ndarray, reading: BoardReading, source: tuple[int, int], target: tuple[int, int]
               ) -> np.ndarray:
    """A copy of ``image`` with the token of hex ``source`` pasted over the token of hex ``target``."""
    sx, sy, sr = token_at(reading, source)
    tx, ty, tr = token_at(reading, target)
    k = tr / sr
    move = np.array([[k, 0.0, tx - k * sx], [0.0, k, ty - k * sy]])
    moved = cv2.warpAffine(image, move, (image.shape[1], image.shape[0]), flags=cv2.INTER_LINEAR)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.circle(mask, (round(tx), round(ty)), round(1.12 * tr), 1, -1)  # the token's rim and its shadow
    out = image.copy()
    out[mask > 0] = moved[mask > 0]
    return out


def made_standard(image: np.ndarray, reading: BoardReading) -> tuple[np.ndarray, tuple[int, int]] | None:
    """(``image`` with one 10 in sight turned into the set's 3 (read surely), the 10's hex), or None when the
    reading shows no such pair.  (The 10s may be asked: a set with three 10s in sight has each of them asked.)"""
    threes = [h for h, n in reading.numbers.items() if n == SHORT and h not in reading.unsure]
    tens = [h for h, n in reading.numbers.items() if n == SURPLUS and h != reading.robber]
    if not threes or not tens:
        return None
    return swap_token(image, reading, threes[0], tens[0]), tens[0]
