"""One photo in, one board reading out: the lattice, the terrains, the number tokens, the robber.

The photo is read at about 1000 px on its long side (a 12 MP JPEG is decoded at a quarter of its size
straight away, which is most of the time saved).  A hex is listed unsure when its colour is between two
terrains, when colour and token disagree about the desert, or when its number is unsure or unread
(docs/board-reader.md).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.board import terrain as terrain_mod
from vision.board import deduce
from vision.board import robber as robber_mod
from vision.board.deduce import STANDARD, TOKEN_SET, by_elimination, surplus_note, unsure_terrain
from vision.board.discs import find_discs, one_per_place, token_sized
from vision.board.harbours import asked_edges, read_harbours
from vision.board.lattice import (LAND, SQRT3, Lattice, _match, canonical_center, fit_lattice, hex_distance,
                                  turned)
from vision.board.outline import fit_outline
from vision.board.seams import settled_lattice
from vision.board.token_print import print_on_board
from vision.board.tokens import bundled_reader, red_ink, token_patch

WORK_SIZE = 1000  # long side, pixels, the board is read at
SEA = tuple(sorted((q, r) for q in range(-3, 4) for r in range(-3, 4) if hex_distance((q, r), (0, 0)) == 3))


TOKEN_RADIUS = 0.165  # a number token's radius over the distance between neighbouring hex centres


def local_spacing(lattice: Lattice, h: tuple[int, int]) -> float:
    """Distance from ``h``'s centre to its neighbours' in the image (perspective makes it vary)."""
    x, y = lattice.center(h)
    around = [lattice.center((h[0] + dq, h[1] + dr)) for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))]
    return float(np.mean([np.hypot(ax - x, ay - y) for ax, ay in around]))


MANY_DISCS_56 = 30  # token-like discs with no 19-hex lattice through them that make it a 5-6 board (below)
BEYOND_56 = 6  # token discs on hex middles beyond the 19 land hexes that make a photo a 5-6 board (below)
BEYOND = tuple(sorted((q, r) for q in range(-4, 5) for r in range(-4, 5) if 3 <= hex_distance((q, r), (0, 0)) <= 4))


def tokens_beyond_the_land(points: np.ndarray, lattice: Lattice) -> dict[tuple[int, int], int]:
    """Token candidates sitting on the middle of a hex one or two rings beyond the 19 land hexes (hex -> the
    candidate's index).  On a 3-4 board that ring is sea: its ships are not beige discs of a token's size (0 on
    every labelled photo); on a 5-6 board, 11 of its 30 land hexes lie there whichever 19 the lattice took."""
    if len(points) == 0:
        return {}
    return _match(np.asarray(points, np.float64), lattice.homography, 0.3, BEYOND)


class HeicError(OSError):
    """The photo is a HEIC file (an iPhone's), whatever its name: OpenCV cannot decode it (vision/board/heic.py)."""


class NoBoardError(ValueError):
    """The photo shows no board the reader can find (too few tokens on a hex lattice)."""


class OtherSizeError(NoBoardError):
    """The photo shows a board of the other size: ``players`` is the board's, "5-6" (30 land hexes) seen by the
    3-4 reader, or "3-4" (19) seen by the 5-6 reader (vision/board/board56.py)."""

    def __init__(self, message: str, players: str):
        super().__init__(message)
        self.players = players


@dataclass
class BoardReading:
    terrains: dict[tuple[int, int], str]
    has_token: dict[tuple[int, int], bool]
    robber: tuple[int, int] | None
    unsure: list[tuple[int, int]]
    numbers: dict[tuple[int, int], int | None]      # None: not read (no token found, or no known tokens)
    token_patches: dict[tuple[int, int], np.ndarray]
    token_reds: dict[tuple[int, int], float]   # how red each token's print is (tokens.red_ink)
    lattice: Lattice
    scale: float                      # work image pixels per original pixel
    ms: float = 0.0
    pieces: list[dict] = field(default_factory=list)
    mirrored: bool = False            # the photo was a mirror image; it was read flipped back (pixels too)
    token_centres: dict[tuple[int, int], tuple[float, float]] = field(default_factory=dict)  # work pixels
    token_prints: dict = field(default_factory=dict)  # hex -> token_print.TokenPrint, None: too small to count
    deduced: list = field(default_factory=list)  # hexes whose number or terrain the set gave, not the photo
    harbours: list = field(default_factory=list)  # harbours.Harbour, those the frame shows (lattice coordinates)
    robber_sure: bool = True          # False: the robber's hex (or that there is none) is asked (vision/board/robber.py)
    set_note: str | None = None       # said when the numbers read do not fit the standard set (deduce.surplus_note)

    def board_json(self) -> dict:
        """The record's board object (docs/record-format.md), numbers null until tokens are read; turned as
        the photo shows the board (:meth:`photo_turns`)."""
        return board_object(self.terrains, self.numbers, self.robber, self.photo_turns(), self.harbours)

    def photo_turns(self) -> int:
        """How many 60-degree turns put the board the way the photo shows it: the board drawn from the
        record (as the app draws it) then has the photo's top at its top, within 30 degrees."""
        (x0, y0), (x1, y1) = self.lattice.to_image(np.array([[0.0, 0.0], [1.0, 0.0]]))
        return round(math.degrees(math.atan2(y1 - y0, x1 - x0)) / 60.0) % 6

    def to_json(self, image_name: str) -> dict:
        turns = self.photo_turns()
        # the hexes asked, then the harbours asked (each its coast edge as board.harbors writes it)
        unsure = [list(turned(h, turns)) for h in self.unsure] + asked_edges(self.harbours, turns)
        return {"image": image_name, "board": self.board_json(), "pieces": self.pieces, "unsure": unsure,
                "ms": round(self.ms)}

    def pixel(self, h: tuple[int, int]) -> tuple[float, float]:
        """A hex's centre in the original photo's pixels."""
        x, y = self.lattice.center(h)
        return (x / self.scale, y / self.scale)


def board_object(terrains: dict, numbers: dict, robber: tuple[int, int] | None, turns: int,
                 harbours: list = (), land: tuple = LAND) -> dict:
    """The record's board object for the land hexes read (``land``: the 19 of the 3-4 board, or the 30 of the
    5-6 board) and the sea ring about them, each hex turned ``turns`` times 60 degrees (the lattice's own
    orientation is arbitrary), with the harbours read (harbours.Harbour)."""
    sea = SEA if tuple(land) == LAND else sea_ring(land)
    hexes = []
    for h in sorted(set(land) | set(sea), key=lambda h: turned(h, turns)):
        at = list(turned(h, turns))
        if h in terrains:
            entry: dict = {"at": at, "terrain": terrains[h]}
            if terrains[h] != "desert":
                entry["number"] = numbers.get(h)
        else:
            entry = {"at": at, "terrain": "sea"}
        hexes.append(entry)
    harbors = sorted(({"edge": [list(turned(h.land, turns)), list(turned(h.sea, turns))], "trade": h.trade}
                      for h in harbours), key=lambda e: e["edge"])
    return {"hexes": hexes, "harbors": harbors, "robber": list(turned(robber, turns)) if robber else None}


def sea_ring(land) -> tuple:
    """The hexes next to ``land`` that are not land: the sea frame's ring."""
    land = set(land)
    steps = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
    return tuple(sorted({(q + dq, r + dr) for q, r in land for dq, dr in steps} - land))


def load_photo(path: str | Path, full: bool = False, half: bool = False) -> np.ndarray:
    """Decode a photo, at a half or a quarter of its size when that still leaves WORK_SIZE pixels -- or, with
    ``full``, at its own size: the token's dots are counted from the photo's own pixels
    (vision/board/token_print.py), which costs about 0.1-0.2 s more for a 12 MP JPEG.  ``full`` and ``half``:
    at half its size when the photo is HALF_DECODE_FROM pixels long or more (read_board_file).

    The header is read first (as the dice reader does): a file that is not a PNG, JPEG or BMP, or that claims
    more pixels than a photo has, is refused with OSError naming it before anything is decoded; a HEIC photo
    (whatever its name: some phones call it .jpg) with HeicError, which says so (vision/board/heic.py)."""
    from vision.board.heic import heic_problem
    from vision.evaluate import MAX_PIXELS
    from vision.image_header import HeaderError, image_size

    try:
        width, height = image_size(path)
    except (HeaderError, OSError) as error:
        heic = heic_problem(path)
        if heic is not None:
            raise HeicError(heic) from None
        raise OSError(f"{path}: not a readable image ({error})") from None
    if width * height > MAX_PIXELS:
        raise OSError(f"{path}: {width} x {height} pixels is more than the {MAX_PIXELS / 1e6:.0f} megapixels "
                      f"a photo may have; scale it down")
    path = str(path)
    if full and half and max(width, height) >= HALF_DECODE_FROM:
        image = cv2.imread(path, cv2.IMREAD_REDUCED_COLOR_2)
        if image is not None:
            return image
    for flag, factor in (() if full else ((cv2.IMREAD_REDUCED_COLOR_4, 4), (cv2.IMREAD_REDUCED_COLOR_2, 2))):
        image = cv2.imread(path, flag)
        if image is None:
            break
        if max(image.shape[:2]) >= WORK_SIZE:
            return image
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"{path}: not an image this reader can decode")
    return image


#: A photo at least this long (pixels) is first decoded at half its size (libjpeg's scaled decode: a 12 MP JPEG
#: in ~0.1 s instead of ~0.3 s, and a quarter of the pixels to shrink to WORK_SIZE).  Its tokens' prints are then
#: counted at half size, which is as good while a token is COUNT_RADIUS pixels or more there.
HALF_DECODE_FROM = 3 * WORK_SIZE
COUNT_RADIUS = 30.0


def read_board_file(path: str | Path, tile_centres: np.ndarray | None = None, **options) -> BoardReading:
    """:func:`read_board` on a photo file (``options``: read_board's ``token_set``, ``robber_weights``).  ``scale`` and ``pixel`` are the file's own pixels, however it was
    decoded.  A large photo is read from a half-size decode; where its tokens come out smaller than
    COUNT_RADIUS there (a board far off in the frame), it is read again at full size for their prints."""
    start = time.perf_counter()
    if tile_centres is not None:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"{path}: not an image this reader can decode")
        reading = read_board(image, tile_centres, **options)
    else:
        image, reading = read_photo_file(path, **options)
        reading.scale *= _decoded_at(path, image)  # work pixels per pixel of the file, not of the decoded copy
    reading.ms = (time.perf_counter() - start) * 1000.0
    return reading


def read_photo_file(path: str | Path, **options) -> tuple[np.ndarray, BoardReading]:
    """(the photo as decoded, its reading): half size for a large photo, full size when its tokens come out
    too small there to count (COUNT_RADIUS).  The reading's pixels are the returned image's."""
    image = load_photo(path, full=True, half=True)
    reading = read_board(image, **options)
    if (_decoded_at(path, image) < 1.0
            and TOKEN_RADIUS * reading.lattice.spacing / reading.scale < COUNT_RADIUS):
        image = load_photo(path, full=True)
        reading = read_board(image, **options)
    return image, reading


def _decoded_at(path: str | Path, image: np.ndarray) -> float:
    """The decoded ``image``'s size over the file's (1.0, or 0.5 for a half-size decode; long sides compared, as
    the decoder turns a photo upright by its EXIF orientation)."""
    from vision.image_header import image_size
    return max(image.shape[:2]) / max(image_size(path))


def read_board(image: np.ndarray, tile_centres: np.ndarray | None = None, *, token_set: str = STANDARD,
               robber_weights: dict | None = None, settle: bool = True, _flipped: bool = False) -> BoardReading:
    """Read a BGR photo of a 3-4 player board; raises NoBoardError when none is found.

    The lattice is fitted to the number tokens; without enough of them, to the land's outline inside the blue
    sea frame (vision/board/outline.py), and no number is read then.  ``tile_centres`` (N x 2, the photo's
    pixels), when given, replace both: for photos whose tiles someone outlined (SettlersEye's labels).

    A mirror-image photo (its tokens printed back to front) is read flipped back: the board comes out as it
    lies on the table, not mirrored, and ``mirrored`` is set (the lattice's pixels are then the flipped
    photo's).

    ``token_set`` is the table's set of number tokens (vision/board/deduce.py): with the standard one (a
    player's assumption, and the only one the app plays), tokens the photo does not show surely -- the one under
    the robber -- are known by elimination when the others were read surely, and read surely; with ``OTHER``
    they stay asked.  ``robber_weights`` replaces the shipped robber classifier (held-out scoring).  ``settle``:
    the outline's lattice is settled on the tiles' seams (vision/board/seams.py; False: the outline's as it is).
    """
    start = time.perf_counter()
    scale = WORK_SIZE / max(image.shape[:2])
    work = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    if tile_centres is None:
        discs = one_per_place(token_sized([d for d in find_discs(work) if d.is_beige]))
        points = np.array([(d.x, d.y) for d in discs], np.float64).reshape(-1, 2)
    else:
        discs = []
        points = np.asarray(tile_centres, np.float64).reshape(-1, 2) * scale
    lattice = fit_lattice(points)
    if lattice is not None and tile_centres is None and len(tokens_beyond_the_land(points, lattice)) >= BEYOND_56:
        # the 19 hexes fitted are part of a bigger board: reading them as a 3-4 board would be silently wrong
        raise OtherSizeError(f"a 5-6 player board (30 land hexes): {len(tokens_beyond_the_land(points, lattice))} "
                             f"number tokens lie beyond the 3-4 board's 19 hexes; read it with --players 5-6", "5-6")
    by_outline = False
    if lattice is None and tile_centres is None and len(points) >= MANY_DISCS_56:
        # more token-like discs than a 3-4 board shows (at most 26 on the labelled photos: 18 tokens and the
        # robber's base, harbour pieces, ...) and no 19-hex lattice through them: a bigger board seen at a slant
        raise OtherSizeError(f"a 5-6 player board (30 land hexes)? {len(points)} token-like discs, more than a 3-4 "
                             f"board holds, on no 19-hex lattice; read it with --players 5-6", "5-6")
    if lattice is None and tile_centres is None:
        # No tokens to fit to (a board laid before them, or too few found): the land inside the sea frame.
        outlined = fit_outline(work)
        if outlined is not None:
            # the few tokens found still count where they sit on a hex (its number is read, the desert told)
            lattice = settled_lattice(work, outlined[0]) if settle else outlined[0]
            lattice.matched = _match(points, lattice.homography, 0.35, LAND) if len(points) else {}
            by_outline = True
            beyond = tokens_beyond_the_land(points, lattice)
            if len(beyond) >= BEYOND_56 and len(beyond) >= len(lattice.matched) / 2:
                # tokens on as many hexes beyond this "land" as on half of it: a bigger board (its outline
                # fitted as the 3-4 board's), not a 3-4 board with a few stray discs
                raise OtherSizeError(f"a 5-6 player board (30 land hexes): {len(beyond)} number tokens lie beyond "
                                     f"the 3-4 board's 19 hexes; read it with --players 5-6", "5-6")
    if lattice is None:
        raise NoBoardError(f"no board found: {len(points)} token-like discs, not 12 or more on one hex lattice, "
                           f"and no land framed by a blue sea")
    plane = terrain_mod.corrected_plane(work, lattice)
    colours = terrain_mod.relative(terrain_mod.hex_colours(plane))
    terrains, unsure, unsure_colour = {}, [], []
    has_token = {h: h in lattice.matched and bool(discs) for h in LAND}
    for h in LAND:
        t, sure = terrain_mod.classify(colours[h])
        terrains[h] = t
        if not sure:
            unsure_colour.append(h)
        if discs and t != "desert" and not has_token[h]:
            # no token found on a producing hex (the robber hides it, or glare): ask
            unsure.append(h)
    textures = terrain_mod.hex_textures(plane)
    _one_desert(terrains, colours, has_token, unsure_colour, textures)
    _no_smooth_fields(terrains, colours, textures, unsure_colour)
    _no_terrain_beyond_the_set(terrains, colours, unsure_colour)
    unsure.extend(unsure_colour)
    deduced = []
    by_set = unsure_terrain(terrains, set(unsure_colour))
    if by_set and by_set[1] != terrains[by_set[0]] and "desert" not in (by_set[1], terrains[by_set[0]]):
        # the one hex whose colour was unsure takes the one tile the set has left over (still asked)
        terrains[by_set[0]] = by_set[1]
        deduced.append(by_set[0])
    robber, robber_sure = read_robber(work, lattice, plane, terrains, robber_weights, rule=not by_outline)
    # The token's size comes from the lattice, not from the circle matched there: on some photos the
    # commonest circles are the hexes' own outlines, centred on the token but three times its size.
    centres = {h: (discs[i].x, discs[i].y) for h, i in lattice.matched.items() if terrains[h] != "desert" and discs}
    if discs and not by_outline:
        # A token the circle finder missed (seen at a slant it is an ellipse; glare cuts its edge) still lies at
        # its hex's middle: read it there.  Its hex is unsure already (no token found on it).
        centres.update({h: lattice.center(h) for h in LAND if terrains[h] != "desert" and h not in centres})
    patches = {h: token_patch(work, x, y, TOKEN_RADIUS * local_spacing(lattice, h)) for h, (x, y) in centres.items()}
    reds = {h: red_ink(work, x, y, TOKEN_RADIUS * local_spacing(lattice, h)) for h, (x, y) in centres.items()}
    numbers: dict[tuple[int, int], int | None] = {}
    unsure_number: list[tuple[int, int]] = []
    tokens = bundled_reader()
    # the token under a robber read surely is hidden; under one read unsure it is read (the robber may be elsewhere)
    readable = [h for h in LAND if terrains[h] != "desert" and h in patches and (h != robber or not robber_sure)]
    scores = tokens.scores([patches[h] for h in readable]) if tokens is not None and readable else None
    if scores is not None and not _flipped and tokens.looks_mirrored([patches[h] for h in readable], scores):
        reading = read_board(cv2.flip(image, 1), token_set=token_set, robber_weights=robber_weights, settle=settle,
                             _flipped=True)
        reading.mirrored = True
        return reading
    # the print counted from the photo itself (a 12 MP photo's dots are 6-10 px; at WORK_SIZE 1-2)
    prints = count_token_prints(image, lattice, scale, [(h, centres[h]) for h in readable])
    results = (tokens.read_all([patches[h] for h in readable], [reds[h] for h in readable], scores, prints)
               if scores is not None else [])
    for h, (number, sure, scores) in zip(readable, results):
        if by_outline and max(scores.values()) < NOT_A_TOKEN:
            continue  # a disc on a board read without its tokens that matches no token: a piece, not a number
        numbers[h] = number
        if not sure:
            unsure_number.append(h)
    not_sure_reads = list(unsure_number)  # before the surplus: a number read too often is asked on every hex
    unsure_number.extend(surplus_numbers(numbers))
    # a token the circle finder missed was read at its hex's middle: asked
    unsure_number.extend(h for h in numbers if terrains[h] != "desert" and not has_token[h])
    unsure.extend(unsure_number)
    if by_outline:
        # fewer than 12 tokens on the lattice: what was read of them (a stray disc may be a piece) is asked
        unsure.extend(h for h in numbers if terrains[h] != "desert")
    for h in LAND:
        if terrains[h] != "desert" and h not in numbers:
            numbers[h] = None  # no token seen, the robber stands on it, or no known tokens to compare
            unsure.append(h)
    # The numbers in sight: a token read under a robber that may stand there (asked) is left out -- the figure
    # may cover it -- of what is said about the set and of what is eliminated from.
    in_sight = {h: n for h, n in numbers.items() if h != robber}
    set_note = surplus_note(in_sight)
    # The token under the robber (or any token not read surely) is the one the standard set has left over, when
    # every other number was read surely and the desert is known: exact, as a player knows it -- read surely.
    # (the robber's base on the desert may be taken for a token; a token read under a robber that may stand
    # there is not used to eliminate from: the figure may cover it)
    desert_sure = all((not has_token[h] or (h == robber and robber_sure)) and h not in unsure_colour
                      for h in LAND if terrains[h] == "desert")
    eliminated = (by_elimination({h: numbers[h] for h in LAND if terrains[h] != "desert"}, terrains,
                                 set(not_sure_reads) | set(surplus_numbers(in_sight)) | {robber}
                                 | {h for h in numbers if terrains[h] != "desert" and not has_token[h]},
                                 desert_sure, token_set) if not by_outline else {})
    # hexes asked only because the token read under the robber made a number too many (a 10 read through the
    # figure beside the set's two 10s): once the set gave the robber's hex, they are not asked
    robbers_surplus = ((set(surplus_numbers(numbers)) - set(surplus_numbers(in_sight)) - set(not_sure_reads)
                        - {h for h in numbers if not has_token[h]}) if robber in eliminated else set())
    for h, number in eliminated.items():
        numbers[h] = number
        deduced.append(h)
    # a hex asked only for its number is not asked once the set gave it; its colour or the robber still may be
    unsure = [h for h in unsure if (h not in eliminated and h not in robbers_surplus) or h in unsure_colour]
    if not robber_sure and robber is not None:
        unsure.append(robber)  # ringed: the person looks whether the robber stands there
    reading = BoardReading(terrains, has_token, robber, sorted(set(unsure)), numbers, patches, reds, lattice, scale)
    reading.deduced = deduced
    reading.robber_sure = robber_sure
    reading.set_note = set_note
    # the harbours the frame shows (at 1000 px a sail is ~35 px across, its picture ~15 px: enough for colours)
    reading.harbours = read_harbours(work, lattice.homography)
    reading.token_centres = centres
    reading.token_prints = dict(zip(readable, prints))
    reading.ms = (time.perf_counter() - start) * 1000.0
    return reading


def count_token_prints(image: np.ndarray, lattice: Lattice, scale: float, tokens: list) -> list:
    """Each (hex, (x, y))'s print counted from ``image`` (the photo at its own size), cut square to the board's
    plane (a token seen at a slant is an ellipse in the photo) around the token's centre (x, y, work pixels;
    ``scale``: work pixels per pixel of ``image``).  The one count both readers use (this one and the 5-6
    board's, board56.read_56); None for a token too small in ``image`` to count (token_print.MIN_RADIUS), and
    for every token when the counts name a number on fewer than PRINTS_SEEN of them (:data:`PRINTS_SEEN`)."""
    to_photo = np.diag([1.0 / scale, 1.0 / scale, 1.0]) @ lattice.homography
    from_work = np.linalg.inv(lattice.homography)
    out = []
    for h, (x, y) in tokens:
        (cx, cy), = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), from_work)[0:1, 0]
        radius = TOKEN_RADIUS * SQRT3  # the token's radius on the plane (hex spacing sqrt 3)
        out.append(print_on_board(image, to_photo, (cx, cy), radius, TOKEN_RADIUS * local_spacing(lattice, h) / scale))
    counted = [p for p in out if p is not None]
    if counted and sum(bool(p.numbers()) for p in counted) < PRINTS_SEEN * len(counted):
        return [None] * len(out)  # the count does not see the print on this photo: the matching reads alone
    return out


#: The share of a photo's counted tokens whose dots, digits and holes must name a number for the counts to be
#: used.  A token's size in pixels is not its detail: a picture scaled up (SYNTHETIC 5-6 boards whose ~16 px
#: tokens were blown up to a 12 MP file, bench_board_56.py's "12 MP" kind) has large blurred tokens whose counts
#: named a number on 14-61 % of the tokens (3 boards) and the wrong one on most of those, said surely (wrong and
#: not asked 4 -> 12 of 690 hexes).  Tokens with their detail named one on 72-100 % (boards laid from sharper
#: tokens, 6 boards; the 3-4 CatanAI photos, copies and originals, 94-100 %).  Set looking at those 9 synthetic
#: boards and 6 real photos.
PRINTS_SEEN = 2 / 3


#: On a board whose lattice came from its outline, a disc matching no known token better than this is taken
#: for something else (a settlement seen from above).  Real tokens of layouts left out score 0.69-0.99 (5 %
#: under 0.77); the discs found on SettlersEye's tokenless boards 0.63-0.85.
NOT_A_TOKEN = 0.70


def surplus_numbers(numbers: dict[tuple[int, int], int | None]) -> list[tuple[int, int]]:
    """Hexes read with a number the board holds more of than a set has (three 8s: one of them is misread,
    which one is not known, so all three are asked)."""
    count: dict[int, int] = {}
    for n in numbers.values():
        if n is not None:
            count[n] = count.get(n, 0) + 1
    return [h for h, n in numbers.items() if n is not None and count[n] > TOKEN_SET.get(n, 0)]


def _one_desert(terrains: dict, colours: dict, has_token: dict, unsure: list, textures: dict | None = None) -> None:
    """A 3-4 board has one desert.  With ``textures`` (terrain.hex_textures): of the hexes whose colour is
    desert or fields (sunlit fields look like sand, sand in warm light like wheat), the one without a token --
    the smoothest of those -- is the desert; a hex whose colour said otherwise changes and is flagged unsure.
    Without them (as before): when colour finds more than one desert, one without a token keeps it -- the
    sandiest of those.  (A desert is kept even where a circle was found: the robber's base and the hex's own
    outline are round too.)"""
    deserts = [h for h, t in terrains.items() if t == "desert"]
    if textures is None:
        if len(deserts) <= 1:
            return
        keep = min(deserts, key=lambda h: (has_token[h], terrain_mod.distance(colours[h], "desert")))
    else:
        candidates = [h for h, t in terrains.items() if t in ("desert", "fields")]
        if not candidates:
            return
        keep = min(candidates, key=lambda h: (has_token[h], textures[h]))
        if terrains[keep] != "desert":
            terrains[keep] = "desert"
            unsure.append(keep)
    for h in deserts:
        if h != keep:
            terrains[h], _ = terrain_mod.classify(colours[h], exclude=("desert",))
            unsure.append(h)


#: Wheat is striped: every fields hex of the 14 labelled photos of both tables measured 3.7-7.4
#: (terrain.hex_textures); pasture 1.6-4.9, the desert 2.1-3.4.  A hex read fields smoother than this is not.
SMOOTHEST_FIELDS = 3.2


def _no_smooth_fields(terrains: dict, colours: dict, textures: dict, unsure: list) -> None:
    """A hex whose colour says fields but whose ring is smooth (sunlit pasture turns yellow) takes the
    nearest other producing terrain, unsure."""
    for h, t in terrains.items():
        if t == "fields" and textures[h] < SMOOTHEST_FIELDS:
            terrains[h], _ = terrain_mod.classify(colours[h], exclude=("fields", "desert"))
            unsure.append(h)


# The 3-4 board's terrains (companion.rules.board.BASE_SPEC).  A photo's board may hold one more of a terrain
# than this (CatanAI's mixed set has four hills and two mountains, labelled as seen), never two more.
TERRAIN_SET = {t: n for t, n in deduce.TERRAIN_SET.items() if t != "desert"}


def _no_terrain_beyond_the_set(terrains: dict, colours: dict, unsure: list) -> None:
    """A terrain read on two or more hexes beyond the set's count (warm light turns mountains into hills)
    gives up its least typical hexes -- those whose colour is nearest another terrain -- to that terrain,
    each flagged unsure, until it has one beyond the count at most."""
    for _ in range(19):
        over = [t for t, n in TERRAIN_SET.items() if sum(v == t for v in terrains.values()) > n + 1]
        if not over:
            return
        t = over[0]
        ranked = sorted((terrain_mod.distance(colours[h], t) - min(terrain_mod.distance(colours[h], o)
                                                                  for o in TERRAIN_SET if o != t), h)
                        for h, v in terrains.items() if v == t)
        h = ranked[-1][1]  # the least typical
        terrains[h], _ = terrain_mod.classify(colours[h], exclude=(t, "desert"))
        unsure.append(h)


def read_robber(work: np.ndarray, lattice: Lattice, plane: np.ndarray, terrains: dict[tuple[int, int], str],
                weights: dict | None = None, rule: bool = True, land: tuple = LAND,
                origin: tuple[float, float] | None = None) -> tuple[tuple[int, int] | None, bool]:
    """(the robber's hex or None, sure): the trained classifier's reading (vision/board/robber.py), checked
    against the dark-grey rule below (``rule``; a board read from its outline has no tokens for the robber to
    cover, and there the rule fired on 31 of SettlersEye's 57 photos and never on the robber's hex: session 8).  Where the two name the same hex it is sure; where the classifier is sure
    and the rule saw nothing (a robber in warm light) the classifier's hex is sure; where they disagree, or
    the classifier is unsure, the hex the classifier likes best is given, unsure (the app asks).  Without the
    model, the rule alone (sure, as before).  ``land`` and ``origin``: the board's land hexes and where the flat
    ``plane`` puts canonical (0, 0) (:func:`find_robber`) -- the 3-4 board's by default; the 5-6 reader
    (board56.read_56) gives its 30 hexes and its plane's."""
    ruled = find_robber(plane, terrains, land, origin) if rule else None
    probabilities = robber_mod.hex_probabilities(work, lattice, weights, land=land)
    if probabilities is None:
        return ruled, True
    return robber_mod.combine(ruled, *robber_mod.decide(probabilities))


#: The robber stands on the token (or the desert's middle) and covers it: on the 7 CatanAI photos with a robber
#: 22-87 % of the disc of 0.15 hex radius about its hex's middle is dark grey; the darkest forest of testimg2
#: (no robber on the board), grey round its token, 0 %.  A hex whose middle is not covered this much is no
#: robber's for the rule.
ROBBER_COVERS_MIDDLE = 0.1


def find_robber(plane: np.ndarray, terrains: dict[tuple[int, int], str], land: tuple = LAND,
                origin: tuple[float, float] | None = None) -> tuple[int, int] | None:
    """The hex whose middle (where the token lies) is most dark grey: the robber stands on the token or
    the desert.  Mountains are grey themselves and are skipped -- a robber there is not seen (a known gap).
    A hex whose very middle is not grey (ROBBER_COVERS_MIDDLE) is skipped too: a dark forest is grey round
    its token, the robber on it.  ``plane``: terrain.corrected_plane's (canonical (0, 0) at its middle), or
    another flat view at terrain.SCALE px a unit with canonical (0, 0) at ``origin`` pixels; ``land``: the
    hexes looked at.
    """
    hsv = cv2.cvtColor(plane, cv2.COLOR_BGR2HSV)
    grey = ((hsv[..., 1] < 50) & (hsv[..., 2] < 170)).astype(np.uint8)
    best, best_share = None, 0.0
    for h in land:
        if terrains[h] == "mountains" or _grey_share(grey, h, 0.15, origin) < ROBBER_COVERS_MIDDLE:
            continue
        share = _grey_share(grey, h, 0.3, origin)
        if share > best_share:
            best, best_share = h, share
    return best if best_share >= 0.1 else None


def _grey_share(grey: np.ndarray, h: tuple[int, int], radius: float,
                origin: tuple[float, float] | None = None) -> float:
    """The share of the flat plane's disc of ``radius`` (canonical units) about ``h``'s middle that is grey
    (canonical (0, 0) at ``origin`` pixels: the corrected plane's middle by default)."""
    half = terrain_mod.HALF * terrain_mod.SCALE
    ox, oy = origin if origin is not None else (half, half)
    x, y = canonical_center(h)
    mask = np.zeros(grey.shape, np.uint8)
    cv2.circle(mask, (int(x * terrain_mod.SCALE + ox), int(y * terrain_mod.SCALE + oy)),
               int(radius * terrain_mod.SCALE), 1, -1)
    return float((grey & mask).sum()) / max(1, int(mask.sum()))
