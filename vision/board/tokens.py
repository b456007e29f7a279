"""Number tokens: the digit read by matching the token against labelled tokens at 24 turns.

A token lies any way up, so each known token is compared at every 15 degrees; the dots under the digit
and the red ink of 6 and 8 are part of what is matched, which is what tells a 6 from a 9.  The ink's colour
is then checked on its own (:func:`red_ink`): a reading of 6 or 8 on a token printed black, or of another
number on one printed red, gives way to the best number of the right colour and is reported unsure.  The known
tokens come from the labelled CatanAI photos (``python -m vision.board.make_templates`` writes
``token_templates.npz``).  A token whose best two numbers score nearly alike is reported unsure.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import cv2
import numpy as np

from vision.board.token_print import SIGNATURES, TokenPrint

PATCH = 40            # token patch side, pixels
TURNS = 24            # matched every 15 degrees
UNSURE_GAP = 0.04     # best - second best score (normalised correlation) below this: unsure


def _disc_mask() -> np.ndarray:
    mask = np.zeros((PATCH, PATCH), np.uint8)
    cv2.circle(mask, (PATCH // 2, PATCH // 2), int(PATCH * 0.42), 1, -1)
    return mask.astype(bool)


MASK = _disc_mask()


def token_patch(image: np.ndarray, x: float, y: float, radius: float) -> np.ndarray:
    """The token at (x, y) as a PATCH x PATCH float image of its ink: dark digit and dots, red counted twice."""
    half = radius * 1.1
    src = np.float32([[x - half, y - half], [x + half, y - half], [x - half, y + half]])
    dst = np.float32([[0, 0], [PATCH, 0], [0, PATCH]])
    crop = cv2.warpAffine(image, cv2.getAffineTransform(src, dst), (PATCH, PATCH), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    b, g, r = crop[..., 0], crop[..., 1], crop[..., 2]
    gray = 0.114 * b + 0.587 * g + 0.299 * r
    card = np.percentile(gray[MASK], 80)  # the token's card, whatever the light
    ink = np.clip(1.0 - gray / max(card, 1.0), 0.0, 1.0)
    red = np.clip((r - g) / max(card, 1.0), 0.0, 1.0)  # red ink: 6 and 8
    return np.where(MASK, ink + red, 0.0).astype(np.float32)


#: How red a token's print is: Lab a* (OpenCV 8-bit scale) of its reddest pixels over its card's.  On the 137
#: labelled tokens not under the robber: red 6/8 read 24-39, black ones at most 10.  Between the two bounds
#: the colour decides nothing.
RED_INK, BLACK_INK = 18.0, 14.0


def red_ink(image: np.ndarray, x: float, y: float, radius: float) -> float:
    """How red the token's print is: the 95th percentile of a* (red-green) over the token's middle minus the
    card's median.  Only the middle is measured (the digit; the disc found may sit a little off the token and
    the hex around it is red on hills, green on forest)."""
    half = radius * 1.1
    src = np.float32([[x - half, y - half], [x + half, y - half], [x - half, y + half]])
    dst = np.float32([[0, 0], [PATCH, 0], [0, PATCH]])
    crop = cv2.warpAffine(image, cv2.getAffineTransform(src, dst), (PATCH, PATCH), flags=cv2.INTER_AREA,
                          borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
    lightness, a = lab[..., 0][INNER], lab[..., 1][INNER]
    card = a[lightness >= np.percentile(lightness, 60)]
    return float(np.percentile(a, 95) - np.median(card))


def _inner_mask() -> np.ndarray:
    yy, xx = np.mgrid[0:PATCH, 0:PATCH]
    return (xx - PATCH / 2 + 0.5) ** 2 + (yy - PATCH / 2 + 0.5) ** 2 <= (PATCH * 0.30) ** 2


INNER = _inner_mask()


def _normalised(patches: np.ndarray) -> np.ndarray:
    flat = patches.reshape(len(patches), -1).astype(np.float32)
    flat = flat - flat.mean(axis=1, keepdims=True)
    flat /= np.linalg.norm(flat, axis=1, keepdims=True) + 1e-9
    return flat


def turned(patch: np.ndarray) -> np.ndarray:
    """The patch at each of the TURNS rotations (TURNS x PATCH x PATCH)."""
    centre = (PATCH / 2 - 0.5, PATCH / 2 - 0.5)
    return np.stack([cv2.warpAffine(patch, cv2.getRotationMatrix2D(centre, 360.0 * k / TURNS, 1.0),
                                    (PATCH, PATCH), flags=cv2.INTER_LINEAR) for k in range(TURNS)])


class TokenReader:
    def __init__(self, patches: np.ndarray, numbers: np.ndarray):
        # The tokens read are turned, not the known ones: 24 turns of 18 tokens instead of 24 of 140.
        self.known = _normalised(np.asarray(patches, np.float32))
        self.known_numbers = np.asarray(numbers)

    def read(self, patch: np.ndarray) -> tuple[int, bool, dict[int, float]]:
        """(number, sure, best score per number) for one token patch."""
        return self.read_all([patch])[0]

    def scores(self, patches: list[np.ndarray]) -> np.ndarray:
        """Each known token's best match with each token at any turn (known x tokens)."""
        queries = _normalised(np.concatenate([turned(p) for p in patches]))  # (tokens * TURNS) x pixels
        return (self.known @ queries.T).reshape(len(self.known), len(patches), TURNS).max(axis=2)

    def looks_mirrored(self, patches: list[np.ndarray], scores: np.ndarray | None = None) -> bool:
        """Whether the tokens are printed back to front (a mirror-image photo: a front camera's picture, an
        export flipped to augment a data set): most match the known tokens better flipped than as they are.
        On the 8 labelled photos as taken 0-1 of 18 tokens match better flipped; flipped copies, 16-17 of 18,
        by 0.10-0.12 on average.  Nine tokens are enough to tell (half the cost); ``scores``: :meth:`scores`
        of ``patches`` when already known."""
        if len(patches) < 8:
            return False  # too few tokens to say
        some = slice(0, 9)
        as_is = (scores if scores is not None else self.scores(patches))[:, some].max(axis=0)
        flipped = self.scores([np.ascontiguousarray(p[:, ::-1]) for p in patches[some]]).max(axis=0)
        return bool((flipped > as_is).mean() >= 2 / 3 and (flipped - as_is).mean() > 0.03)

    def read_all(self, patches: list[np.ndarray], reds: list[float] | None = None,
                 scores: np.ndarray | None = None,
                 prints: list[TokenPrint | None] | None = None) -> list[tuple[int, bool, dict[int, float]]]:
        """:meth:`read` for many tokens in one matrix product; ``reds`` (:func:`red_ink` of each), when given,
        check the number against the colour of its print; ``scores``: :meth:`scores` when already known;
        ``prints`` (:func:`vision.board.token_print.print_of` of each, None where the photo is too small to
        count), when given, decide the number where they name one (:func:`_by_print`)."""
        if not patches:
            return []
        if scores is None:
            scores = self.scores(patches)
        labels = np.unique(self.known_numbers)
        per_number = np.stack([scores[self.known_numbers == n].max(axis=0) for n in labels])  # numbers x tokens
        out = []
        for column in per_number.T:
            order = np.argsort(-column)
            first, second = column[order[0]], (column[order[1]] if len(order) > 1 else -1.0)
            best = {int(n): float(v) for n, v in zip(labels, column)}
            number, sure = int(labels[order[0]]), bool(first - second >= UNSURE_GAP)
            if reds is not None:
                number, sure = _by_colour(number, sure, best, reds[len(out)])
            if prints is not None and prints[len(out)] is not None:
                red = reds[len(out)] if reds is not None else None
                number, sure = _by_print(prints[len(out)], (number, sure), red)
            out.append((number, sure, best))
        return out


RED_NUMBERS = (6, 8)


def _by_colour(number: int, sure: bool, best: dict[int, float], red: float) -> tuple[int, bool]:
    """The reading kept when its colour agrees with the print's; else the best number of the print's colour,
    unsure (a person is asked).  A print of no clear colour changes nothing."""
    if red >= RED_INK:
        fits = [n for n in best if n in RED_NUMBERS]
    elif red <= BLACK_INK:
        fits = [n for n in best if n not in RED_NUMBERS]
    else:
        return number, sure
    if number in fits or not fits:
        return number, sure
    return max(fits, key=lambda n: best[n]), False


def _by_print(counted: TokenPrint, matched: tuple[int, bool], red: float | None) -> tuple[int, bool]:
    """The number the print's dots, digits and holes name (vision/board/token_print.py), when they name one
    and the ink's colour does not contradict it: sure unless the reading by matching (and colour) was sure of
    another number (two readers disagreeing: a person is asked).  When the count names no number (a dot lost in glare),
    or the colour contradicts it, the reading by matching and colour stands, unsure -- unless it agrees with
    the digits and holes counted, which are seldom wrong, and with the dots give or take one."""
    named = counted.numbers()
    colour_says = (None if red is None else True if red >= RED_INK else False if red <= BLACK_INK else None)
    if named and (colour_says is None or (named[0] in RED_NUMBERS) == colour_says):
        number = named[0]
        return number, not (matched[1] and matched[0] != number)
    number, sure = matched
    dots, digits, holes = SIGNATURES[number]
    near = digits == counted.digits and holes == counted.holes and abs(dots - counted.dots) <= 1
    return number, sure and near


@lru_cache(maxsize=1)
def bundled_reader() -> TokenReader | None:
    try:
        data = resources.files("vision.board").joinpath("token_templates.npz").read_bytes()
    except (FileNotFoundError, OSError):
        return None
    import io
    with np.load(io.BytesIO(data)) as npz:
        return TokenReader(npz["patches"].astype(np.float32), npz["numbers"].astype(int))
