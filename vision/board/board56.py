"""The 5-6 player board (30 land hexes, rows 3-4-5-6-5-4-3): its lattice, terrains and numbers (issue 30's stretch).

A first cut, measured on SYNTHETIC boards only (vision/board/synthetic_boards.py: real tiles and tokens of the
3-4 photos laid as a 5-6 board; there is no photo of a real one).  The reader itself still refuses a 5-6 photo
(reader.NoBoardError); :func:`read_56` is what a later step wires in.

The 30 land hexes are the rules core's (``EXTENSION_SPEC.land``).  Their shape is not the same at every
60-degree turn (only at 180 degrees), so the token lattice is fitted over all six turns
(lattice.fit_lattice's ``cells``).  Terrain is read as on the 3-4 board (each hex's ring colour relative to the
board's median, the nearest prototype; terrain.py), numbers by matching the known tokens (tokens.py) -- no print
count and no robber yet.  The set has two deserts: a hex coloured desert or fields with no token on it is desert.
What is not read surely is in ``unsure``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.rules.board import EXTENSION_SPEC
from vision.board import terrain as terrain_mod
from vision.board.discs import find_discs, token_sized
from vision.board.lattice import Lattice, canonical_center, fit_lattice, hex_distance
from vision.board.tokens import bundled_reader, red_ink, token_patch

LAND_56 = tuple(sorted(tuple(h) for h in EXTENSION_SPEC.land))
SET_56 = Counter(EXTENSION_SPEC.numbers)  # the 5-6 set's number tokens
TOKENS_56 = 28            # 30 land hexes, two deserts
A_TOKEN = 0.70            # a hex's middle matching a known token this well holds one (reader.NOT_A_TOKEN)
BEYOND_19 = 6             # token discs beyond the best 19-hex part that make it a 5-6 board (as reader.BEYOND_56)
WORK_SIZE = 1000
TOKEN_RADIUS = 0.165      # a token's radius over the neighbour spacing (as reader.TOKEN_RADIUS)
HALF = 6.0                # the flat plane spans +-HALF canonical units about the land's middle
MIDDLE = tuple(np.mean([canonical_center(h) for h in LAND_56], axis=0))


class No56BoardError(ValueError):
    """No 30-hex lattice goes through the photo's tokens."""


@dataclass
class Reading56:
    terrains: dict[tuple[int, int], str]
    numbers: dict[tuple[int, int], int | None]
    unsure: list[tuple[int, int]]
    lattice: Lattice
    has_token: dict[tuple[int, int], bool] = field(default_factory=dict)


def flat_plane(image: np.ndarray, lattice: Lattice) -> np.ndarray:
    """The photo warped flat about the land's middle, terrain.SCALE px per canonical unit."""
    scale = terrain_mod.SCALE
    to_plane = np.array([[scale, 0, (HALF - MIDDLE[0]) * scale], [0, scale, (HALF - MIDDLE[1]) * scale], [0, 0, 1]])
    size = int(2 * HALF * scale)
    return cv2.warpPerspective(image, to_plane @ np.linalg.inv(lattice.homography), (size, size),
                               flags=cv2.INTER_AREA)


def _ring_colours(plane: np.ndarray) -> dict[tuple[int, int], np.ndarray]:
    lab = cv2.cvtColor(plane, cv2.COLOR_BGR2LAB)
    scale = terrain_mod.SCALE
    out = {}
    for h in LAND_56:
        x, y = canonical_center(h)
        centre = ((x - MIDDLE[0] + HALF) * scale, (y - MIDDLE[1] + HALF) * scale)
        mask = terrain_mod._hex_ring_mask(plane.shape[0], centre, 0.45 * scale, 0.78 * scale)
        out[h] = np.median(lab[mask > 0], axis=0).astype(np.float64)
    return out


def read_56(image: np.ndarray) -> Reading56:
    """Read a BGR photo of a 5-6 board; raises No56BoardError when no 30-hex lattice fits its tokens."""
    scale = WORK_SIZE / max(image.shape[:2])
    work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    discs = token_sized([d for d in find_discs(work) if d.is_beige])
    points = np.array([(d.x, d.y) for d in discs], np.float64).reshape(-1, 2)
    lattice = fit_lattice(points, min_matched=20, cells=LAND_56, enough=TOKENS_56)
    if lattice is None:
        raise No56BoardError(f"no 30-hex lattice through the photo's tokens ({len(points)} token-like discs)")
    beyond = min(sum(hex_distance(h, c) > 2 for h in lattice.matched) for c in LAND_56)
    if beyond < BEYOND_19:
        # every token but a few stray discs (ships, the robber's base) inside 19 hexes: a 3-4 board
        raise No56BoardError(f"a 3-4 board: only {beyond} token discs lie beyond its 19 hexes")
    colours = terrain_mod.relative(_ring_colours(flat_plane(work, lattice)))
    reader = bundled_reader()
    radius = TOKEN_RADIUS * lattice.spacing
    centres = {h: (discs[i].x, discs[i].y) for h, i in lattice.matched.items()}
    looks_like_token: set[tuple[int, int]] = set()
    if reader is not None:
        # a token the circle finder missed (at a slant it is an ellipse) still lies at its hex's middle: a hex
        # whose middle matches a known token as well as real tokens do may have one.  A desert's middle (the
        # robber's base, the sand) scored 0.40-0.88 on the synthetic boards, a fields hex's 0.51-0.85: on a
        # hex coloured desert it only makes the desert asked.
        missed = [h for h in LAND_56 if h not in centres]
        middles = [lattice.center(h) for h in missed]
        if missed:
            best = reader.scores([token_patch(work, x, y, radius) for x, y in middles]).max(axis=0)
            looks_like_token = {h for h, score in zip(missed, best) if score >= A_TOKEN}
            centres.update({h: c for h, c in zip(missed, middles)
                            if h in looks_like_token and terrain_mod.classify(colours[h])[0] != "desert"})
    has_token = {h: h in centres for h in LAND_56}
    terrains, unsure = {}, []
    for h in LAND_56:
        t, sure = terrain_mod.classify(colours[h])
        if not has_token[h] and t in ("desert", "fields"):
            # sunlit wheat looks like sand: a tokenless sandy hex is a desert -- sure only when its colour said
            # so and its middle does not look like a token (a fields hex may merely have lost its disc)
            t, sure = "desert", sure and t == "desert" and h not in looks_like_token
        elif has_token[h] and t == "desert":
            t, sure = terrain_mod.classify(colours[h], exclude=("desert",))[0], False
        terrains[h] = t
        if not sure or (t != "desert" and not has_token[h]):
            unsure.append(h)
    numbers: dict[tuple[int, int], int | None] = {h: None for h in LAND_56 if terrains[h] != "desert"}
    read = [h for h in numbers if has_token[h]]
    if reader is not None and read:
        patches = [token_patch(work, *centres[h], radius) for h in read]
        reds = [red_ink(work, *centres[h], radius) for h in read]
        for h, (number, sure, _scores) in zip(read, reader.read_all(patches, reds)):
            numbers[h] = number
            if not sure or h not in lattice.matched:
                unsure.append(h)
    unsure.extend(h for h, n in numbers.items() if n is None)
    # a number read more often than the 5-6 set holds it: one of them is misread, which one is not known
    count = Counter(n for n in numbers.values() if n is not None)
    unsure.extend(h for h, n in numbers.items() if n is not None and count[n] > SET_56.get(n, 0))
    return Reading56(terrains, numbers, sorted(set(unsure)), lattice, has_token)


def mirrored(h: tuple[int, int]) -> tuple[int, int]:
    """``h`` turned 180 degrees about the land's middle (between (-1, 0) and (0, 0)): the one turn that lays
    the 30 hexes on themselves, so a reading is known only up to it."""
    return (-1 - h[0], -h[1])
