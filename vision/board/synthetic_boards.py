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
FRAME_HALF = 7.0   # ... and with its frame's harbours (laid_board's ``harbours``): the sea ring round it too, the
                   # flat board then centred on the land's middle (FRAME_MIDDLE), not on canonical (0, 0)
FRAME_MIDDLE = tuple(float(v) for v in np.mean([canonical_center(h) for h in EXTENSION_SPEC.land], axis=0))
SHIP_HALF = 6.4    # the 3-4 photo warped flat this far each way for its ships (its sea ring's middles: 4.6-5.2)
SHIP_RADIUS = 0.8  # a ship's cut-out: a disc this many units about its sea hex's middle (the ship and its two
SHIP_FADE = 0.6    # piers to the coast's corners), faded out from SHIP_FADE units


def _hex_mask(size: int | tuple[int, int], centre: tuple[float, float], radius: float) -> np.ndarray:
    """A hex of ``radius`` about ``centre`` in an image of ``size`` (its side, or (height, width))."""
    corners = [(centre[0] + radius * math.cos(math.radians(30 + 60 * k)),
                centre[1] + radius * math.sin(math.radians(30 + 60 * k))) for k in range(6)]
    mask = np.zeros((size, size) if isinstance(size, int) else size, np.uint8)
    cv2.fillConvexPoly(mask, np.round(np.array(corners)).astype(np.int32), 1)
    return mask.astype(bool)


def _flat_sea(work: np.ndarray, reading: BoardReading, rng: np.random.Generator, unit: float = UNIT,
              half: float = BOARD_HALF) -> tuple[np.ndarray, np.ndarray]:
    """The 3-4 photo warped flat (SOURCE_HALF units each side) and an empty flat 5-6 board (BOARD_HALF units each
    side) of the photo's own sea colour, with a little noise: the sea is not one flat colour.  ``unit``: pixels per
    canonical unit of both (UNIT: terrain.corrected_plane's)."""
    source = corrected_plane(work, reading.lattice) if unit == UNIT else _plane(work, reading, unit)
    src_mid = SOURCE_HALF * unit
    size = int(2 * half * unit)
    land_34 = np.zeros(source.shape[:2], bool)
    for h in LAND:
        cx, cy = canonical_center(h)
        land_34 |= _hex_mask(source.shape[0], (cx * unit + src_mid, cy * unit + src_mid), unit * 1.05)
    sea = np.median(source[~land_34 & (source.sum(axis=2) > 0)], axis=0)
    board = np.empty((size, size, 3), np.float32)
    board[:] = sea
    board += rng.normal(0, 6, board.shape).astype(np.float32)
    return source, np.clip(board, 0, 255).astype(np.uint8)


def _plane(image: np.ndarray, reading: BoardReading, unit: float, half: float = SOURCE_HALF) -> np.ndarray:
    """terrain.corrected_plane at ``unit`` pixels per canonical unit: ``image`` warped flat through the reading's
    lattice (``reading.lattice`` in ``image``'s pixels), ``half`` units each way."""
    size = int(2 * half * unit)
    to_plane = np.array([[unit, 0, half * unit], [0, unit, half * unit], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(image, to_plane @ np.linalg.inv(reading.lattice.homography), (size, size),
                               flags=cv2.INTER_AREA)


def flat_board(work: np.ndarray, reading: BoardReading, rng: np.random.Generator, same_layout: bool = False
               ) -> tuple[np.ndarray, dict]:
    """The flat synthetic board (BGR, canonical (0, 0) in the middle, UNIT px per unit) and, for each of its
    land hexes, the 3-4 photo's hex it was cut from."""
    source, board = _flat_sea(work, reading, rng)
    src_mid, size, mid = SOURCE_HALF * UNIT, board.shape[0], BOARD_HALF * UNIT
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


def photo_of(board: np.ndarray, rng: np.random.Generator, shape: tuple[int, int] = (750, 1000),
             fill: tuple[float, float] = (1.0, 1.1)) -> np.ndarray:
    """``board`` (flat, BOARD_HALF units each side of its middle) seen by a camera: turned any way, slanted
    up to ~25 %, over a table, lit unevenly.  ``fill``: the flat square's width over the picture's height, drawn
    between the two (a board laid with its frame, FRAME_HALF: (0.95, 1.0) keeps every ship in the picture)."""
    h, w = shape
    size = board.shape[0]
    angle = rng.uniform(0, 2 * math.pi)
    span = rng.uniform(*fill) * min(h, w)  # the flat square's width: the land fills ~85 % of it (no frame)
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


#: a number token's radius in canonical units (reader.TOKEN_RADIUS of the neighbour spacing sqrt 3), and the
#: disc cut round it, faded out from 1.05 token radii: the token's edge and shadow come along
TOKEN_UNITS = 0.165 * math.sqrt(3)
TOKEN_CUT = 1.4 * TOKEN_UNITS


#: the robber's cut-out: it is looked for within ROBBER_SEARCH units of its hex's middle (it stands on the token
#: or the desert's middle), as the grey of its figure (HSV saturation < 75, value < 200: the CatanAI robber
#: 28-72 and 125-181 at its middle, the tiles round it 117-135 saturated), and cut as a disc ROBBER_GROW times
#: the figure's own radius (its lighter rim and shadow come along), faded out over its last quarter
ROBBER_SEARCH = 0.35
ROBBER_GROW = 1.35


def _robber_mask(source: np.ndarray, at: tuple[int, int], unit: float) -> tuple[np.ndarray, tuple[float, float],
                                                                                  float] | None:
    """(the disc of the source plane the robber on ``at`` covers, as 0-1 alpha over the whole plane; its centre
    in plane pixels; its radius) -- None when no grey figure is there."""
    x, y = canonical_center(at)
    mid = SOURCE_HALF * unit
    cx, cy = x * unit + mid, y * unit + mid
    hsv = cv2.cvtColor(source, cv2.COLOR_BGR2HSV)
    ys, xs = np.mgrid[0:source.shape[0], 0:source.shape[1]]
    near = np.hypot(xs - cx, ys - cy) <= ROBBER_SEARCH * unit
    grey = near & (hsv[..., 1] < 75) & (hsv[..., 2] < 200)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(grey.astype(np.uint8))
    if count < 2:
        return None
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    fx, fy = centroids[biggest]
    radius = ROBBER_GROW * float(np.sqrt(stats[biggest, cv2.CC_STAT_AREA] / np.pi))
    distance = np.hypot(xs - fx, ys - fy)
    alpha = np.clip((radius - distance) / (0.25 * radius), 0, 1)
    return alpha.astype(np.float32), (float(fx), float(fy)), radius


def robber_cutout(work: np.ndarray, reading: BoardReading, at: tuple[int, int], unit: float = UNIT
                  ) -> tuple[np.ndarray, np.ndarray, tuple[float, float]]:
    """The robber standing on hex ``at`` of a real 3-4 photo (``work``, read as ``reading``), cut from the photo
    warped flat at ``unit`` px a unit: (BGR square, its 0-1 alpha, the figure's offset from the hex's middle in
    units), for :func:`laid_board`'s ``robber``.  ValueError when no grey figure stands there."""
    source = corrected_plane(work, reading.lattice) if unit == UNIT else _plane(work, reading, unit)
    found = _robber_mask(source, at, unit)
    if found is None:
        raise ValueError(f"no robber (a grey figure) within {ROBBER_SEARCH} of hex {at}'s middle")
    alpha, (fx, fy), radius = found
    half = int(np.ceil(radius)) + 1
    x0, y0 = int(round(fx)) - half, int(round(fy)) - half
    square = cv2.copyMakeBorder(source, half, half, half, half, cv2.BORDER_REPLICATE)
    a = np.pad(alpha, half)
    patch = square[y0 + half:y0 + 3 * half + 1, x0 + half:x0 + 3 * half + 1].copy()
    cut = a[y0 + half:y0 + 3 * half + 1, x0 + half:x0 + 3 * half + 1].copy()
    hx, hy = canonical_center(at)
    mid = SOURCE_HALF * unit
    offset = ((x0 - (hx * unit + mid)) / unit, (y0 - (hy * unit + mid)) / unit)  # the square's corner
    return patch, cut, offset


def ship_cutouts(work: np.ndarray, reading: BoardReading, harbours: dict, unit: float = UNIT) -> dict:
    """The real ships of a 3-4 photo's frame (``work``, read as ``reading``), for :func:`laid_board`'s
    ``harbours``: trade -> [(BGR square, its 0-1 alpha, the angle in radians from the ship's sea hex to the land
    hex it serves, in the flat plane)].  ``harbours``: the photo's labelled harbours in the reading's hexes
    (:func:`label_harbours`); one whose edge was not labelled (its piers not told by eye) is left out.  Each is a
    disc SHIP_RADIUS units about its sea hex's middle, faded out from SHIP_FADE: the ship, its sail's picture
    and its two piers, with the frame's sea round them."""
    source = _plane(work, reading, unit, SHIP_HALF)
    mid, r = SHIP_HALF * unit, int(math.ceil(SHIP_RADIUS * unit))
    ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
    distance = np.hypot(xs, ys) / unit
    alpha = np.clip((SHIP_RADIUS - distance) / (SHIP_RADIUS - SHIP_FADE), 0, 1).astype(np.float32)
    out: dict[str, list] = {}
    for sea, (land, trade) in sorted(harbours.items()):
        if land is None:
            continue
        sx, sy = canonical_center(sea)
        lx, ly = canonical_center(land)
        x, y = int(round(sx * unit + mid)), int(round(sy * unit + mid))
        patch = source[y - r:y + r + 1, x - r:x + r + 1]
        if patch.shape[:2] != alpha.shape:
            continue  # too near the flat view's edge
        seen = cv2.erode((patch.sum(axis=2) > 0).astype(np.uint8), np.ones((5, 5), np.uint8)).astype(np.float32)
        out.setdefault(trade, []).append((patch.copy(), alpha * seen, math.atan2(ly - sy, lx - sx)))
    return out


def label_harbours(reading: BoardReading, label_board: dict) -> dict:
    """A labelled photo's harbours in the reading's hexes (turned as :func:`label_truth` turns): sea hex ->
    (the land hex it serves, or None where the label has no edge; its trade)."""
    from vision.board.labels import rotate

    label = {tuple(h["at"]): (h["terrain"], h.get("number")) for h in label_board["hexes"] if h["terrain"] != "sea"}
    turns = _label_turns(reading, label)
    back = (6 - turns) % 6
    out = {}
    for h in label_board.get("harbors", []):
        land = next((tuple(e) for e in h.get("edge", []) if tuple(e) != tuple(h["sea"])), None)
        out[rotate(tuple(h["sea"]), back)] = (rotate(land, back) if land else None, h["trade"])
    return out


def harbours_56(seed: int) -> dict:
    """The harbours of the rules core's standard 5-6 board ``seed`` (as :func:`layout_56` lays its land): sea hex
    -> (the land hex it serves, its trade); eleven, one a sea hex."""
    from companion.rules.board import standard_board

    board = standard_board(seed, spec=EXTENSION_SPEC, separate_red_numbers=True)
    land = set(EXTENSION_SPEC.land)
    out = {}
    for edge, trade in board.harbors.items():
        a, b = edge
        sea, coast = (b, a) if a in land else (a, b)
        out[sea] = (coast, trade)
    return out


def _lay_ships(board: np.ndarray, harbours: dict, ships: dict, rng: np.random.Generator, unit: float,
               mid: tuple[float, float]) -> None:
    """Each harbour (sea hex -> (land hex, trade)) gets a real ship of its trade, turned (by a multiple of 60
    degrees) so its piers reach the coast edge it serves.  The cut-out keeps its own frame's sea round the ship
    (shifting it to the board's sea colour tinted the white sails blue: tried, not kept)."""
    for sea, (land, trade) in sorted(harbours.items()):
        patch, alpha, angle = ships[trade][int(rng.integers(len(ships[trade])))]
        sx, sy = canonical_center(sea)
        lx, ly = canonical_center(land)
        turn = math.atan2(ly - sy, lx - sx) - angle  # the source's sea-to-land direction onto the target's
        r = patch.shape[0] // 2
        c, s_ = math.cos(-turn), math.sin(-turn)
        # each pixel of the turned square from the source square (warpAffine's inverse map)
        inverse = np.array([[c, -s_, r - c * r + s_ * r], [s_, c, r - s_ * r - c * r]], np.float64)
        turned_patch = cv2.warpAffine(patch, inverse, patch.shape[1::-1], flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                                      borderMode=cv2.BORDER_REPLICATE)
        turned_alpha = cv2.warpAffine(alpha, inverse, alpha.shape[::-1], flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR)
        x0, y0 = int(round(sx * unit + mid[0])) - r, int(round(sy * unit + mid[1])) - r
        window = board[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
        a = turned_alpha[:window.shape[0], :window.shape[1], None]
        window[:] = np.clip(window * (1 - a) + turned_patch[:window.shape[0], :window.shape[1]] * a, 0,
                            255).astype(np.uint8)


def laid_board(work: np.ndarray, reading: BoardReading, layout: dict, rng: np.random.Generator,
               truth: dict | None = None, unit: float = UNIT, robber: tuple | None = None,
               source_robber: tuple[int, int] | None | str = "read", harbours: tuple | None = None) -> np.ndarray:
    """A flat synthetic 5-6 board (as :func:`flat_board`) laid as ``layout`` says (land hex -> (terrain,
    number or None): a real 5-6 layout, e.g. companion.rules.standard_board(seed, spec=EXTENSION_SPEC)): each
    hex takes a tile of its terrain from the 3-4 photo, and on it a token of its number cut from a hex of the
    photo holding that number.  Only hexes the 3-4 reader read surely are taken (the truth is then the
    layout's, up to what the reader got wrong surely: 0 such hexes on the labelled photos) -- or, with
    ``truth`` (the photo's labels in the reading's hexes: hex -> (terrain, number or None); :func:`label_truth`),
    any hex, as labelled.  ``unit``: the flat board's pixels per canonical unit (a larger one, from a full-size
    photo and its lattice in that photo's pixels, keeps the tokens' print: see bench/bench_board_56.py).

    The robber: ``source_robber`` is the 3-4 photo's robber hex (``"read"``: where the reader read it; None: the
    photo shows none).  No tile or token is cut from that hex -- a board laid from it would show the photo's
    robber wherever that tile went -- except a terrain's only tile (the desert, when the robber stands on the
    photo's one desert), which is taken with the figure painted out (cv2.inpaint over its disc).  ``robber``:
    (land hex of the 5-6 board, :func:`robber_cutout`'s cut-out) pastes that one robber on that hex, over its tile
    and token, the figure as far from the hex's middle as it stood on its own; None, the board has no robber.

    ``harbours``: (sea hex -> (land hex, trade), e.g. :func:`harbours_56`; :func:`ship_cutouts`' ships by trade)
    lays the frame's harbours too: the board then spans FRAME_HALF units each way (its sea ring in sight), and
    each harbour gets a real ship of its trade turned to its coast edge.  None: no harbours, and the board is as it
    was before they could be laid (BOARD_HALF; the same random draws)."""
    half = BOARD_HALF if harbours is None else FRAME_HALF
    source, board = _flat_sea(work, reading, rng, unit, half)
    src_mid, size, mid = SOURCE_HALF * unit, board.shape[0], half * unit
    # where canonical (0, 0) lies on the flat board: its middle, or (with the frame) left of it by the land's
    mid_x, mid_y = (mid, mid) if harbours is None else (mid - FRAME_MIDDLE[0] * unit, mid - FRAME_MIDDLE[1] * unit)
    if source_robber == "read":
        source_robber = reading.robber
    if truth is None:
        truth = {h: (reading.terrains[h], reading.numbers.get(h)) for h in LAND
                 if h not in reading.unsure and h != source_robber}
    tiles = {t: [h for h, (t2, _) in truth.items() if t2 == t and h != source_robber]
             for t in {t for t, _ in truth.values()}}
    for t, hexes in tiles.items():
        if not hexes and source_robber is not None:
            found = _robber_mask(source, source_robber, unit)
            if found is not None:
                painted = cv2.dilate((found[0] > 0).astype(np.uint8), np.ones((3, 3), np.uint8))
                source = cv2.inpaint(source, painted, 3, cv2.INPAINT_TELEA)
            hexes.append(source_robber)
    # a token under the robber is hidden: none is cut from there
    tokens = {n: [h for h, (t, n2) in truth.items() if n2 == n and t != "desert" and h != source_robber]
              for n in range(2, 13)}
    def paste(to: tuple[int, int], frm: tuple[int, int], token: bool) -> None:
        """``frm``'s tile (its hex) or token (blended in from the token's edge outwards: a hard cut's edge is a
        second circle round the token, which the circle finder takes for another token) onto ``to``.  Only the
        window round ``to`` is touched (the rest of the board is left as it is)."""
        tx, ty = canonical_center(to)
        fx, fy = canonical_center(frm)
        cx, cy = tx * unit + mid_x, ty * unit + mid_y
        x0, y0 = max(0, int(cx - 1.1 * unit)), max(0, int(cy - 1.1 * unit))
        x1, y1 = min(size, int(cx + 1.1 * unit) + 2), min(size, int(cy + 1.1 * unit) + 2)
        shift = np.array([[1, 0, (tx - fx) * unit + mid_x - src_mid - x0],
                          [0, 1, (ty - fy) * unit + mid_y - src_mid - y0]], np.float64)
        moved = cv2.warpAffine(source, shift, (x1 - x0, y1 - y0))
        window = board[y0:y1, x0:x1]
        if not token:
            mask = _hex_mask((y1 - y0, x1 - x0), (cx - x0, cy - y0), unit * 1.0)
            window[mask] = moved[mask]
            return
        ys, xs = np.mgrid[y0:y1, x0:x1]
        distance = np.hypot(xs - cx, ys - cy) / unit
        alpha = np.clip((TOKEN_CUT - distance) / (TOKEN_CUT - 1.05 * TOKEN_UNITS), 0, 1)[..., None]
        window[:] = np.clip(window * (1 - alpha) + moved * alpha, 0, 255).astype(np.uint8)

    for to, (terrain, number) in layout.items():
        paste(to, tiles[terrain][int(rng.integers(len(tiles[terrain])))], token=False)
        if number is not None:
            paste(to, tokens[number][int(rng.integers(len(tokens[number])))], token=True)
    if robber is not None:
        at, (patch, alpha, (ox, oy)) = robber
        tx, ty = canonical_center(at)
        x0, y0 = int(round((tx + ox) * unit + mid_x)), int(round((ty + oy) * unit + mid_y))
        window = board[y0:y0 + patch.shape[0], x0:x0 + patch.shape[1]]
        a = alpha[:window.shape[0], :window.shape[1], None]
        window[:] = np.clip(window * (1 - a) + patch[:window.shape[0], :window.shape[1]] * a, 0, 255).astype(np.uint8)
    if harbours is not None:
        _lay_ships(board, harbours[0], harbours[1], rng, unit, (mid_x, mid_y))
    return board


def layout_56(seed: int) -> dict:
    """A random 5-6 layout with the 5-6 set's tiles and tokens, no 6 or 8 side by side (the rules core's standard
    board): land hex -> (terrain, number or None)."""
    from companion.rules.board import standard_board

    board = standard_board(seed, spec=EXTENSION_SPEC, separate_red_numbers=True)
    return {h: (t.terrain, t.number) for h, t in board.tiles.items() if t.terrain != "sea"}


def label_truth(reading: BoardReading, label_board: dict) -> dict:
    """A labelled photo's board (the record's board object) in the reading's hexes: hex -> (terrain, number or
    None), turned the way that agrees with the reading on most terrains."""
    from vision.board.labels import rotate

    label = {tuple(h["at"]): (h["terrain"], h.get("number")) for h in label_board["hexes"] if h["terrain"] != "sea"}
    turns = _label_turns(reading, label)
    return {h: label[rotate(h, turns)] for h in LAND}


def _label_turns(reading: BoardReading, label: dict) -> int:
    from vision.board.labels import rotate

    return max(range(6), key=lambda k: sum(label.get(rotate(h, k), ("",))[0] == reading.terrains[h] for h in LAND))


def label_robber(reading: BoardReading, label_board: dict) -> tuple[int, int] | None:
    """A labelled photo's robber hex in the reading's hexes (turned as :func:`label_truth` turns), None when the
    label has none."""
    from vision.board.labels import rotate

    if not label_board.get("robber"):
        return None
    label = {tuple(h["at"]): (h["terrain"], h.get("number")) for h in label_board["hexes"] if h["terrain"] != "sea"}
    turns = _label_turns(reading, label)
    return next(h for h in LAND if rotate(h, turns) == tuple(label_board["robber"]))
