"""A number token's print counted, not matched: its dots, the digit's parts and the digit's holes.

The standard tokens print each number with as many dots as the ways two dice make it, so the dots, the
number of digits and the closed loops of the digits say which number it is without any known token:

    number  2  3  4  5  6  8  9  10  11  12
    dots    1  2  3  4  5  5  4   3   2   1
    digits  1  1  1  1  1  1  1   2   2   2
    holes   0  0  1  0  1  2  1   1   0   0

All three are the same however the token lies (no 6/9 question: a 6 has five dots, a 9 four).  They need
the photo's own pixels: a token is ~90 px in radius in a 12 MP photo of the board, ~22 px in a 1000 px one,
so the token is cut from the photo as decoded at full size (:func:`print_on_board`), and a token smaller than
``MIN_RADIUS`` px there is not counted (the matched reading stands alone).  Counting works down to about 20 px
(40 tokens x 12 turns: 478-480 of 480 from 27 px up, 472/480 at 20 px).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

#: (dots, digits, holes) of each number's print.
SIGNATURES = {2: (1, 1, 0), 3: (2, 1, 0), 4: (3, 1, 1), 5: (4, 1, 0), 6: (5, 1, 1), 8: (5, 1, 2),
              9: (4, 1, 1), 10: (3, 2, 1), 11: (2, 2, 0), 12: (1, 2, 0)}

SIDE = 192            # the token is resampled to this square, its radius RADIUS_PX
RADIUS_PX = 80.0
MIN_RADIUS = 20.0     # a token smaller than this in the photo (px) has dots too small to count (see above)


@dataclass(frozen=True)
class TokenPrint:
    dots: int
    digits: int
    holes: int

    def numbers(self) -> list[int]:
        """The numbers printed so (none when the count fits no token)."""
        return [n for n, s in SIGNATURES.items() if s == (self.dots, self.digits, self.holes)]


def _ink(crop: np.ndarray) -> np.ndarray:
    """The print's strength per pixel (0 card .. about 1 full ink): darker than the card, or red, inside the
    token's inner disc (its rim and the hex around are left out)."""
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    card = max(float(np.percentile(gray[_INNER], 75)), 1.0)  # the card, whatever the light
    red = crop[..., 2].astype(np.float32) - crop[..., 1]
    ink = np.clip(1.0 - gray / card, 0, 1) + np.clip(red / card, 0, 1)
    ink[~_INNER] = 0.0
    return ink


def _inner_disc() -> np.ndarray:
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    return np.hypot(xx - SIDE / 2 + 0.5, yy - SIDE / 2 + 0.5) <= RADIUS_PX * 0.78


_INNER = _inner_disc()
_WINDOW = np.hypot(*np.mgrid[0:SIDE, 0:SIDE] - SIDE / 2 + 0.5) <= RADIUS_PX * 1.15


INK = 0.30  # a pixel this much darker (or redder) than the card is print


def _dots_in_row(ink: np.ndarray, part: np.ndarray) -> int:
    """How many dots a thin part holds: dots printed close together touch at a photo's resolution, so the
    ink is summed across the row and the bumps along it are counted."""
    ys, xs = np.nonzero(part)
    weights = ink[ys, xs]
    points = np.stack([xs, ys], axis=1).astype(np.float32)
    centre = points.mean(axis=0)
    _, _, axes = np.linalg.svd(points - centre, full_matrices=False)
    along = (points - centre) @ axes[0]
    lo = int(np.floor(along.min()))
    profile = np.bincount((along - lo).astype(int), weights=weights).astype(np.float32)
    profile = cv2.GaussianBlur(profile.reshape(1, -1), (0, 0), 1.0).ravel()
    return _bumps(profile)


def _bumps(profile: np.ndarray) -> int:
    """Bumps along a profile: each rises to at least 60 % of the highest after a dip to 70 % of the bump
    before it (blurred dots leave only shallow dips between them)."""
    top = profile.max()
    peaks, peak, low_since = 0, 0.0, True
    for v in profile:
        if low_since and v >= 0.6 * top:
            peaks, peak, low_since = peaks + 1, v, False
        elif not low_since:
            peak = max(peak, v)
            if v < 0.7 * peak:
                low_since = True
    return max(1, peaks)


def centred(crop: np.ndarray) -> np.ndarray:
    """The crop shifted so the token's card is in its middle: the disc found can sit off the token (its
    rim and shadow at a slant), and the rim's dark arc must stay outside the part counted.  The card's middle
    is the centre of the largest circle inside its light area (the print filled in), sought within 1.15 radii
    of the crop's middle; nothing moves unless that circle is nearly the token's size."""
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    card = (gray >= 0.8 * np.percentile(gray[_INNER], 75)).astype(np.uint8)
    card[~_WINDOW] = 0
    contours, _ = cv2.findContours(card, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(card)
    cv2.drawContours(filled, contours, -1, 1, -1)
    inside = cv2.distanceTransform(filled, cv2.DIST_L2, 5)
    y, x = np.unravel_index(int(np.argmax(inside)), inside.shape)
    dx, dy = SIDE / 2 - 0.5 - x, SIDE / 2 - 0.5 - y
    if inside[y, x] < 0.75 * RADIUS_PX or np.hypot(dx, dy) > 0.35 * RADIUS_PX or np.hypot(dx, dy) < 1.5:
        return crop
    return cv2.warpAffine(crop, np.float32([[1, 0, dx], [0, 1, dy]]), (SIDE, SIDE), borderMode=cv2.BORDER_REPLICATE)


def count_print(crop: np.ndarray) -> TokenPrint:
    """Count the dots, digits and holes of a token resampled to SIDE x SIDE (radius RADIUS_PX)."""
    ink = _ink(centred(crop))
    mask = (ink > INK).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    area_unit = RADIUS_PX * RADIUS_PX
    dots = digits = holes = 0
    for i in range(1, n):
        area = stats[i, cv2.CC_STAT_AREA]
        if area < 0.0015 * area_unit:
            continue  # speck
        x0, y0 = stats[i, cv2.CC_STAT_LEFT], stats[i, cv2.CC_STAT_TOP]
        box = np.s_[y0:y0 + stats[i, cv2.CC_STAT_HEIGHT], x0:x0 + stats[i, cv2.CC_STAT_WIDTH]]
        part = (labels[box] == i).astype(np.uint8)
        (_, _), (w, h), _ = cv2.minAreaRect(np.column_stack(np.nonzero(part)).astype(np.float32))
        dot_sized = area <= 0.016 * area_unit and max(w, h) <= 2.2 * min(w, h) + 1
        if dot_sized and max(w, h) <= 1.6 * min(w, h) + 1:
            dots += 1  # a round dot (not profiled: a blurred dot's profile can show two bumps)
            continue
        thin = area <= 0.09 * area_unit and min(w, h) <= 0.2 * RADIUS_PX
        row = _dots_in_row(ink[box], part) if thin else 0
        if row >= 2:
            dots += row  # a row of touching dots
        elif dot_sized:
            dots += 1
        elif area > 0.025 * area_unit:
            digits += 1
            contours, hierarchy = cv2.findContours(part, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_NONE)
            if hierarchy is not None:
                holes += sum(1 for c, hh in zip(contours, hierarchy[0])
                             if hh[3] >= 0 and cv2.contourArea(c) >= 0.004 * area_unit)
    return TokenPrint(dots, digits, holes)


def token_crop(image: np.ndarray, x: float, y: float, radius: float) -> np.ndarray:
    """The token at (x, y) of ``radius`` (the image's pixels) resampled to SIDE x SIDE."""
    k = RADIUS_PX / radius
    matrix = np.float32([[k, 0, SIDE / 2 - k * x], [0, k, SIDE / 2 - k * y]])
    return cv2.warpAffine(image, matrix, (SIDE, SIDE), flags=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def print_on_board(image: np.ndarray, homography: np.ndarray, centre: tuple[float, float], radius: float,
                   radius_px: float) -> TokenPrint | None:
    """The print of the token lying at ``centre`` of the board's plane (``homography``: the plane to
    ``image``'s pixels, ``radius`` in the plane's units): cut through the homography, so a token seen at a
    slant (an ellipse in the photo) is counted round.  ``radius_px``: its radius in the photo, about; under
    MIN_RADIUS it is not counted (None)."""
    if radius_px < MIN_RADIUS:
        return None
    k = radius / RADIUS_PX  # plane units per crop pixel
    crop_to_plane = np.array([[k, 0, centre[0] - k * SIDE / 2], [0, k, centre[1] - k * SIDE / 2], [0, 0, 1]])
    crop = cv2.warpPerspective(image, homography @ crop_to_plane, (SIDE, SIDE),
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return count_print(crop)


def print_of(image: np.ndarray, x: float, y: float, radius: float) -> TokenPrint | None:
    """The token's print counted from ``image`` (full size), or None when it is too small there to count."""
    if radius < MIN_RADIUS:
        return None
    return count_print(token_crop(image, x, y, radius))
