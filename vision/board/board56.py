"""The 5-6 player board (30 land hexes, rows 3-4-5-6-5-4-3): its lattice, terrains and numbers (issue 30's stretch).

Measured on SYNTHETIC boards only (vision/board/synthetic_boards.py: real tiles and tokens of the 3-4 photos
laid as a 5-6 board; there is no photo of a real one).  The 3-4 reader refuses a 5-6 photo by name
(reader.OtherSizeError); ``python -m vision board --players 5-6`` (or the default ``auto``, which reads a photo
the 3-4 reader refuses as a 5-6 board with :func:`read_56_file`) and the app's Scan the board in a 5-6 game read
it here.  The robber is read as on the 3-4 board, by the same routine (reader.read_robber: the trained net
on each of the 30 hexes' crops, one softmax over them and "none", checked by the dark-grey rule on the flat
plane; figures on SYNTHETIC boards in docs/board-reader.md); not seen, it is null and asked, and the app puts it
on a desert, where the game starts it.  The harbours of the 5-6 frame (eleven: five 3:1, two wool, one of each
other resource) are read as on the 3-4 frame, by the same routine (harbours.read_harbours with the 30 hexes'
sea ring of 22 and the 5-6 set; figures on SYNTHETIC boards in docs/board-reader.md); a harbour whose trade or
coast edge is unsure is ringed in the app, as on a 3-4 board.  No pieces are read on it (the pieces' model knows
the 19 hexes only).

The 30 land hexes are the rules core's (``EXTENSION_SPEC.land``).  Their shape is not the same at every
60-degree turn (only at 180 degrees), so the token lattice is fitted over all six turns
(lattice.fit_lattice's ``cells``).  Terrain is read as on the 3-4 board (each hex's ring colour relative to the
board's median, the nearest prototype; terrain.py), numbers by matching the known tokens (tokens.py), checked by
the print's colour and by its dots, digits and holes counted from the photo's own pixels (token_print.py, the 3-4
reader's routine: reader.count_token_prints) where a token is large enough there; the token under a robber
read surely is not read (the set's one number left over when all the others were read).  The set has
two deserts: a hex coloured desert or fields with no token on it is desert.  What is not read surely is in
``unsure``.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.rules.board import EXTENSION_SPEC
from vision.board import terrain as terrain_mod
from vision.board.discs import find_discs, one_per_place, token_sized
from vision.board.harbours import (HARBOUR_SET_56, PROTOTYPES_56, PROTOTYPES_SHARPER, SURE_MARGIN_56, asked_edges,
                                   read_harbours, sharper_copy)
from vision.board.lattice import SQRT3, Lattice, canonical_center, fit_lattice, hex_distance
from vision.board.reader import (COUNT_RADIUS, NoBoardError, OtherSizeError, _decoded_at, board_object,
                                 count_token_prints, load_photo, read_robber)
from vision.board.tokens import bundled_reader, red_ink, token_patch

LAND_56 = tuple(sorted(tuple(h) for h in EXTENSION_SPEC.land))
SET_56 = Counter(EXTENSION_SPEC.numbers)  # the 5-6 set's number tokens
assert HARBOUR_SET_56 == dict(EXTENSION_SPEC.harbors)  # the 5-6 frame's eleven harbours, as the rules core has them
TOKENS_56 = 28            # 30 land hexes, two deserts
A_TOKEN = 0.70            # a hex's middle matching a known token this well holds one (reader.NOT_A_TOKEN)
BEYOND_19 = 6             # token discs beyond the best 19-hex part that make it a 5-6 board (as reader.BEYOND_56)
WORK_SIZE = 1000
TOKEN_RADIUS = 0.165      # a token's radius over the neighbour spacing (as reader.TOKEN_RADIUS)
HALF = 6.0                # the flat plane spans +-HALF canonical units about the land's middle
MIDDLE = tuple(np.mean([canonical_center(h) for h in LAND_56], axis=0))
#: where :func:`flat_plane` puts canonical (0, 0), in its pixels (reader.find_robber's ``origin``)
PLANE_ORIGIN = ((HALF - MIDDLE[0]) * terrain_mod.SCALE, (HALF - MIDDLE[1]) * terrain_mod.SCALE)


class No56BoardError(NoBoardError):
    """No 30-hex lattice goes through the photo's tokens."""


@dataclass
class Reading56:
    """A 5-6 board read; what vision.board.scan.BoardScan and the CLI use of a reader.BoardReading (the robber
    and the harbours read; no pieces read; the board lies in the record's 5-6 layout, turned the way of the two that shows
    the photo's top at its top)."""

    terrains: dict[tuple[int, int], str]
    numbers: dict[tuple[int, int], int | None]
    unsure: list[tuple[int, int]]
    lattice: Lattice
    has_token: dict[tuple[int, int], bool] = field(default_factory=dict)
    scale: float = 1.0                # work pixels per pixel of the photo given (read_56_file: of the file)
    ms: float = 0.0
    robber: tuple[int, int] | None = None  # the robber's hex as read (None: not seen)
    robber_sure: bool = True          # False: its hex, or that none was seen, is asked (reader.read_robber)
    harbours: list = field(default_factory=list)
    pieces: list = field(default_factory=list)
    mirrored: bool = False
    deduced: list = field(default_factory=list)
    land: tuple = LAND_56

    @property
    def set_note(self) -> str | None:
        over = [(n, k, SET_56.get(n, 0)) for n, k in sorted(Counter(v for v in self.numbers.values() if v).items())
                if k > SET_56.get(n, 0)]
        if not over:
            return None
        said = ", ".join(f"{n} read {k} times (the set has {has})" for n, k, has in over)
        return f"{said}: a misreading, or not the 5-6 set of tokens"

    def photo_turns(self) -> int:
        return 0  # the lattice was turned as the photo shows it when it was fitted (_photo_way_up)

    def board_json(self) -> dict:
        return board_object(self.terrains, self.numbers, self.robber, 0, self.harbours, land=LAND_56)

    def to_json(self, image_name: str) -> dict:
        return {"image": image_name, "board": self.board_json(), "pieces": self.pieces,
                "unsure": [list(h) for h in self.unsure] + asked_edges(self.harbours), "ms": round(self.ms)}

    def pixel(self, h: tuple[int, int]) -> tuple[float, float]:
        x, y = self.lattice.center(h)
        return (x / self.scale, y / self.scale)


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


def _photo_way_up(lattice: Lattice) -> Lattice:
    """The lattice, or the same turned 180 degrees about the land's middle (the one turn that lays the 30 hexes
    on themselves, :func:`mirrored`): the one whose rows run down the photo as the record's rows run down (the
    app then draws the board with the photo's top at its top, as it does a 3-4 board's)."""
    (x0, y0), (x1, y1) = lattice.to_image(np.array([MIDDLE, (MIDDLE[0], MIDDLE[1] + 1.0)]))
    if y1 >= y0:
        return lattice
    # p -> 2 * MIDDLE - p in the canonical plane takes hex h's centre to mirrored(h)'s
    half_turn = np.array([[-1.0, 0.0, 2 * MIDDLE[0]], [0.0, -1.0, 2 * MIDDLE[1]], [0.0, 0.0, 1.0]])
    return Lattice(lattice.homography @ half_turn, {mirrored(h): i for h, i in lattice.matched.items()},
                   lattice.spacing)


def read_56_file(path: str | Path) -> Reading56:
    """:func:`read_56` on a photo file (:func:`read_56_photo`); ``scale`` and ``pixel`` are the file's own
    pixels."""
    start = time.perf_counter()
    image, reading = read_56_photo(path)
    reading.scale *= _decoded_at(path, image)  # work pixels per pixel of the file, not of the decoded copy
    reading.ms = (time.perf_counter() - start) * 1000.0
    return reading


def read_56_photo(path: str | Path) -> tuple[np.ndarray, Reading56]:
    """(the photo as decoded, its reading): read from a decode at a quarter or half its size when that leaves
    WORK_SIZE pixels (refused as the 3-4 reader refuses: OSError naming the file); its tokens' prints counted
    from a larger decode (:func:`_larger_decode`).  The reading's pixels are the returned image's."""
    image = load_photo(path)
    return image, read_56(image, larger=_larger_decode(path, image))


def _larger_decode(path: str | Path, image: np.ndarray):
    """For a reduced decode ``image`` of ``path``: a function of the tokens' radius in ``image`` giving the photo
    decoded larger for their prints -- at half size when they are COUNT_RADIUS pixels there (as the 3-4 reader
    counts: reader.read_photo_file), else at full size; None when ``image`` is the photo at its own size."""
    reduced = _decoded_at(path, image)
    if reduced >= 1.0:
        return None

    def larger(radius: float) -> np.ndarray:
        return load_photo(path, full=True, half=radius / reduced / 2 >= COUNT_RADIUS)
    return larger


def read_56(image: np.ndarray, larger=None, robber_weights: dict | None = None) -> Reading56:
    """Read a BGR photo of a 5-6 board; raises No56BoardError when no 30-hex lattice fits its tokens, and
    reader.OtherSizeError (players "3-4") when the tokens lie on a 3-4 board's 19 hexes.  ``larger``: when
    ``image`` is a reduced decode, a function of the tokens' radius in it giving the photo decoded larger, for
    the prints of tokens smaller than COUNT_RADIUS in ``image`` (:func:`_larger_decode`).  ``robber_weights``
    replaces the shipped robber classifier (as read_board's)."""
    start = time.perf_counter()
    scale = WORK_SIZE / max(image.shape[:2])
    work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    discs = one_per_place(token_sized([d for d in find_discs(work) if d.is_beige]))
    points = np.array([(d.x, d.y) for d in discs], np.float64).reshape(-1, 2)
    lattice = fit_lattice(points, min_matched=20, cells=LAND_56, enough=TOKENS_56)
    if lattice is None:
        raise No56BoardError(f"no 5-6 board found: no 30-hex lattice through the photo's tokens ({len(points)} "
                             f"token-like discs)")
    beyond = min(sum(hex_distance(h, c) > 2 for h in lattice.matched) for c in LAND_56)
    if beyond < BEYOND_19:
        # every token but a few stray discs (ships, the robber's base) inside 19 hexes: a 3-4 board
        raise OtherSizeError(f"a 3-4 player board (19 land hexes): only {beyond} token discs lie beyond its 19 "
                             f"hexes; read it with --players 3-4", "3-4")
    lattice = _photo_way_up(lattice)
    plane = flat_plane(work, lattice)
    colours = terrain_mod.relative(_ring_colours(plane))
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
    # the robber as the 3-4 reader reads it (reader.read_robber: the trained net on each hex's crop, one softmax
    # over the 30 hexes and "none", checked by the dark-grey rule on the flat plane)
    robber, robber_sure = read_robber(work, lattice, plane, terrains, robber_weights, land=LAND_56,
                                      origin=PLANE_ORIGIN)
    colour, colour_sure = terrain_mod.classify(colours[robber]) if robber is not None else (None, False)
    if robber is not None and robber_sure and has_token[robber] and colour == "desert":
        # the disc on a sandy hex the robber surely stands on is its base, not a token (the 3-4 reader keeps a
        # desert so too): a desert, asked unless its colour was sure
        has_token[robber], terrains[robber] = False, "desert"
        if colour_sure:
            unsure.remove(robber)
    numbers: dict[tuple[int, int], int | None] = {h: None for h in LAND_56 if terrains[h] != "desert"}
    # the token under a robber read surely is hidden (its middle covered): not read; under one read unsure it is
    read = [h for h in numbers if has_token[h] and (h != robber or not robber_sure)]
    photo, photo_scale = image, scale  # the larger decode, once made for the prints (below)
    if reader is not None and read:
        patches = [token_patch(work, *centres[h], radius) for h in read]
        reds = [red_ink(work, *centres[h], radius) for h in read]
        # the print counted from the photo's own pixels (a 5-6 board's token is ~16 px in radius at WORK_SIZE,
        # under token_print.MIN_RADIUS: counted only from a larger photo), as the 3-4 reader counts it
        if larger is not None and TOKEN_RADIUS * lattice.spacing / scale < COUNT_RADIUS:
            photo = larger(TOKEN_RADIUS * lattice.spacing / scale)
            photo_scale = WORK_SIZE / max(photo.shape[:2])
        prints = count_token_prints(photo, lattice, photo_scale, [(h, centres[h]) for h in read])
        for h, (number, sure, _scores) in zip(read, reader.read_all(patches, reds, prints=prints)):
            numbers[h] = number
            if not sure or h not in lattice.matched:
                unsure.append(h)
    if robber in numbers and robber_sure and numbers[robber] is None:
        # the hidden token is the one the 5-6 set has left over when every other number was read: sure when they
        # all were read surely (as the 3-4 reader's elimination, reader.read_board)
        left = SET_56 - Counter(n for h, n in numbers.items() if n is not None)
        if sum(left.values()) == 1 and all(n is not None for h, n in numbers.items() if h != robber):
            numbers[robber] = next(iter(left))
            if any(h in unsure for h in numbers if h != robber):
                unsure.append(robber)
    unsure.extend(h for h, n in numbers.items() if n is None)
    # a number read more often than the 5-6 set holds it: one of them is misread, which one is not known
    count = Counter(n for n in numbers.values() if n is not None)
    unsure.extend(h for h, n in numbers.items() if n is not None and count[n] > SET_56.get(n, 0))
    if robber is not None and not robber_sure:
        unsure.append(robber)  # ringed: the person looks whether the robber stands there
    # the harbours the frame shows, as the 3-4 reader reads them (its sea ring: the 22 sea hexes round the 30)
    # and its ships' colours as they look at a 5-6 board's scale (harbours.PROTOTYPES_56, SURE_MARGIN_56) -- or,
    # where a larger decode was made for the prints (a 12 MP photo), the sails' colours from it, shrunk to the
    # flat view's scale (harbours.sharper_copy, PROTOTYPES_SHARPER).  On the SYNTHETIC 12 MP dev boards
    # (bench_harbours_56.py seeds 0-5, docs/board-reader.md) trades right 452 -> 490 of 505, asked 337 -> 295.
    sharper = None
    if photo is not image:
        sharper = sharper_copy(photo, np.diag([1 / photo_scale, 1 / photo_scale, 1.0]) @ lattice.homography,
                               lattice.spacing / SQRT3 / photo_scale)
    harbours = read_harbours(work, lattice.homography, PROTOTYPES_56 if sharper is None else PROTOTYPES_SHARPER,
                             land=LAND_56, harbour_set=HARBOUR_SET_56, sure_margin=SURE_MARGIN_56, sharper=sharper)
    reading = Reading56(terrains, numbers, sorted(set(unsure)), lattice, has_token, scale=scale,
                        ms=(time.perf_counter() - start) * 1000.0, robber=robber, robber_sure=robber_sure,
                        harbours=harbours)
    return reading


def mirrored(h: tuple[int, int]) -> tuple[int, int]:
    """``h`` turned 180 degrees about the land's middle (between (-1, 0) and (0, 0)): the one turn that lays
    the 30 hexes on themselves, so a reading is known only up to it."""
    return (-1 - h[0], -h[1])
