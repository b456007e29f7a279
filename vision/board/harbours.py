"""Harbours on the sea frame: where each one is and what it trades (issue 30; docs/board-reader.md).

Both frames in the labelled photos (CatanAI's printed 5th-edition frame, and harbour pieces laid on an older
one) show a harbour as a ship whose white sail carries the trade -- "3:1" with a "?", or "2:1" with the
resource's picture -- standing in the middle of a sea hex of the ring around the land, with two piers running
to the two corners of the coast edge it serves.  So nothing is searched for: the photo is warped flat through
the lattice's homography and each of the 18 sea hexes is looked at.

- **Is there a harbour?**  The share of sail-white pixels (saturation < 60, value > 150) within 0.45 of the hex
  middle: 0.06-0.18 where a ship stands, 0.00 at every other sea hex of the 8 labelled photos.
- **Which edge?**  A corner hex of the ring touches one land hex: its edge.  A side hex touches two, and of
  its three coast corners the piers reach two; the pier is the non-blue, non-sail stuff 0.45-0.65 of the way
  from the hex middle to a corner.  The end corner with more of it wins.
- **What trade?**  The sail's inside (its hull, less the sail's own white) as colour shares -- red (brick),
  yellow (grain), brown (lumber), dark grey (ore), black ink (the 3:1's big digits) and blue (its "?") --
  compared with the prototypes measured on the labelled photos (nearest, scaled by their spread); a set has
  four 3:1 harbours and one of each resource, so the best assignment under those counts is taken.

One routine for both boards, the board given as data: ``land`` (the 3-4 board's 19 hexes, or the 5-6 board's 30:
board56.LAND_56), its sea ring (the sea hexes touching it: 18, or 22) and ``harbour_set`` (the 3-4 set's nine, or
the 5-6 extension's eleven: five 3:1, two wool, one of each other resource -- the rules core's
``EXTENSION_SPEC.harbors``).  The flat view then spans the larger board (``half``).  The 5-6 figures are on
SYNTHETIC boards only (docs/board-reader.md): there is no photo of a real 5-6 frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.lattice import LAND, canonical_center, hex_distance

NEIGHBOURS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))


def sea_ring(land: tuple) -> tuple[tuple[int, int], ...]:
    """The sea hexes touching ``land`` (sorted): where a frame's harbours stand."""
    land = set(land)
    return tuple(sorted({(q + dq, r + dr) for q, r in land for dq, dr in NEIGHBOURS} - land))


SEA_RING = sea_ring(LAND)  # the 3-4 board's 18 (the ring at distance 3)
assert SEA_RING == tuple(sorted((q, r) for q in range(-3, 4) for r in range(-3, 4)
                                if hex_distance((q, r), (0, 0)) == 3))
TRADES = ("3:1", "brick", "grain", "lumber", "ore", "wool")
HARBOUR_SET = {"3:1": 4, "brick": 1, "grain": 1, "lumber": 1, "ore": 1, "wool": 1}
#: the 5-6 extension's frame: eleven harbours (the rules core's EXTENSION_SPEC.harbors; board56 checks they agree)
HARBOUR_SET_56 = {"3:1": 5, "brick": 1, "grain": 1, "lumber": 1, "ore": 1, "wool": 2}

SCALE = 60.0   # pixels per canonical unit (hex circumradius) in the flat view
HALF = 5.4     # the flat view spans +-HALF units: the land, the sea ring and a little more
PIER_MARGIN = 0.04  # a side hex's edge is unsure when its two ends show piers this close (a near tie; below)
SAIL_SHARE = 0.03  # a sea hex with more sail-white than this within 0.45 of its middle holds a ship


@dataclass
class Harbour:
    sea: tuple[int, int]
    land: tuple[int, int]
    trade: str
    sure: bool           # the trade: no other within a fifth of its cost
    colours: np.ndarray  # the sail's colour shares (FEATURES), for the bench and the prototypes
    edge_sure: bool = True   # the coast edge: a corner hex of the ring (one edge), or one pier clearly stronger
    pier_margin: float = 1.0  # the stronger end's pier share less the other's (1.0 where there is one edge)


def view_half(land: tuple) -> float:
    """How far the flat view reaches each way from canonical (0, 0) for ``land``: HALF for the 3-4 board; for
    another, its sea ring's farthest middle plus what HALF leaves beyond the 3-4 ring's (a hex and a little)."""
    if tuple(sorted(land)) == tuple(sorted(LAND)):
        return HALF
    reach = max(max(abs(c) for c in canonical_center(h)) for h in sea_ring(land))
    ring_34 = max(max(abs(c) for c in canonical_center(h)) for h in SEA_RING)
    return math.ceil((reach + (HALF - ring_34)) * 2 * SCALE) / (2 * SCALE)  # a whole number of pixels across


def flat_view(photo: np.ndarray, to_photo: np.ndarray, half: float = HALF) -> np.ndarray:
    """``photo`` warped so the board lies flat: canonical (0, 0) in the middle, SCALE px per unit, ``half``
    units each way.  ``to_photo`` maps the canonical plane to the photo's pixels."""
    size = int(2 * half * SCALE)
    to_view = np.array([[SCALE, 0, half * SCALE], [0, SCALE, half * SCALE], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(photo, to_view @ np.linalg.inv(to_photo), (size, size), flags=cv2.INTER_AREA)


def _pixel(point: tuple[float, float], half: float = HALF) -> tuple[int, int]:
    return int(round(point[0] * SCALE + half * SCALE)), int(round(point[1] * SCALE + half * SCALE))


def _disc(shape: tuple[int, int], centre: tuple[float, float], radius: float) -> tuple[tuple[slice, slice], np.ndarray]:
    """A disc in the flat view as (the window round it, the disc's mask inside the window): only the window's
    pixels are looked at (the whole view is 648 px square on a 3-4 board).  The view's ``half`` is read off its
    ``shape`` (square, 2 * half * SCALE px: flat_view)."""
    (x, y), r = _pixel(centre, _half_of(shape)), max(1, int(radius * SCALE))
    x0, y0 = max(0, x - r), max(0, y - r)
    x1, y1 = min(shape[1], x + r + 1), min(shape[0], y + r + 1)
    mask = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
    cv2.circle(mask, (x - x0, y - y0), r, 1, -1)
    return (slice(y0, y1), slice(x0, x1)), mask.astype(bool)


def _half_of(shape: tuple[int, ...]) -> float:
    """The ``half`` a flat view of this shape was made with (flat_view: int(2 * half * SCALE) px square); HALF's
    own view gives HALF exactly."""
    return HALF if shape[0] == int(2 * HALF * SCALE) else shape[0] / (2 * SCALE)


def _sail(hsv: np.ndarray) -> np.ndarray:
    return (hsv[..., 1] < 60) & (hsv[..., 2] > 150)


def _blue(hsv: np.ndarray) -> np.ndarray:
    return (hsv[..., 0] >= 90) & (hsv[..., 0] <= 125) & (hsv[..., 1] > 80)


def edge_corners(sea: tuple[int, int], land: tuple[int, int]) -> tuple[tuple[float, float], tuple[float, float]]:
    """The two corners of the edge between two neighbouring hexes, canonical plane."""
    (x0, y0), (x1, y1) = canonical_center(sea), canonical_center(land)
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    dx, dy = (x1 - x0) / math.sqrt(3), (y1 - y0) / math.sqrt(3)  # unit vector across the edge
    return (mx - dy / 2, my + dx / 2), (mx + dy / 2, my - dx / 2)


def pier_share(sea_or_sail: np.ndarray, sea: tuple[int, int], corner: tuple[float, float]) -> float:
    """How much pier (neither sea-blue nor sail-white) lies 0.45-0.65 of the way from ``sea``'s middle to
    ``corner``.  (Measured from the sail's own middle instead, the ship stands up to a fifth of a hex off the
    lattice's middle, 62 of 70 edges came out right, against 66 from the hex's middle.)"""
    cx, cy = canonical_center(sea)
    shares = []
    for t in (0.45, 0.55, 0.65):
        window, mask = _disc(sea_or_sail.shape, (cx + t * (corner[0] - cx), cy + t * (corner[1] - cy)), 0.06)
        shares.append(1.0 - float(np.mean(sea_or_sail[window][mask])) if mask.any() else 0.0)
    return float(np.mean(shares))


def harbour_land(sea_or_sail: np.ndarray, sea: tuple[int, int], land: tuple = LAND) -> tuple[int, int]:
    """The land hex whose edge with ``sea`` the harbour serves (its piers reach that edge's corners)."""
    return harbour_edge(sea_or_sail, sea, land)[0]


def harbour_edge(sea_or_sail: np.ndarray, sea: tuple[int, int], land: tuple = LAND) -> tuple[tuple[int, int], float]:
    """(the land hex the harbour serves, how much more pier its far corner shows than the other's): a side
    hex of the ring touches two land hexes, a corner hex one (margin 1.0: nothing to choose).  ``land``: the
    board's land hexes (the 3-4 board's, or board56.LAND_56)."""
    lands = [(sea[0] + dq, sea[1] + dr) for dq, dr in NEIGHBOURS if (sea[0] + dq, sea[1] + dr) in land]
    if len(lands) == 1:
        return lands[0], 1.0
    # the corner the two edges share (compared within a millionth of a unit: on the 5-6 board's hexes the two
    # ways of working it out differ in the last bits)
    others = edge_corners(sea, lands[1])
    shared = [p for p in edge_corners(sea, lands[0]) if any(math.dist(p, q) < 1e-6 for q in others)]
    def far_corner(land):  # the corner of this edge not shared with the other land hex
        a, b = edge_corners(sea, land)
        if not shared:
            return a
        return a if min(math.dist(a, s) for s in shared) > 1e-6 else b
    piers = sorted(((pier_share(sea_or_sail, sea, far_corner(land)), land) for land in lands), reverse=True)
    return piers[0][1], piers[0][0] - piers[1][0]


FEATURES = ("red", "yellow", "brown", "grey", "ink", "blue")


def sail_colours(hsv: np.ndarray, sails: np.ndarray, sea: tuple[int, int]) -> np.ndarray:
    """The colour shares (FEATURES) inside the sail's hull, over the hull's area (the sail's white left out).
    ``sails``: the view's sail-white pixels."""
    window, near = _disc(hsv.shape[:2], canonical_center(sea), 0.45)
    hsv, sails = hsv[window], sails[window]
    sail = (sails & near).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(sail)
    if count < 2:
        return np.zeros(len(FEATURES))
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    points = cv2.findNonZero((labels == biggest).astype(np.uint8))
    hull = np.zeros(sail.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(points), 1)
    inside = hull.astype(bool) & ~sails
    px = hsv[inside].astype(np.int32)
    area = max(1, int(hull.sum()))
    h, s, v = px[:, 0], px[:, 1], px[:, 2]
    red = ((h < 10) | (h > 170)) & (s > 90) & (v > 80)
    yellow = (h >= 15) & (h <= 35) & (s > 90) & (v > 140)
    brown = (h >= 5) & (h <= 35) & (s > 60) & (v <= 140) & (v > 50)
    grey = (s < 60) & (v >= 60) & (v <= 150)
    ink = v < 60
    blue = (h >= 100) & (h <= 140) & (s > 60) & (v >= 60)
    return np.array([m.sum() for m in (red, yellow, brown, grey, ink, blue)], np.float64) / area


# Each trade's sail colours (FEATURES) as the reader sees them (the flat view from its 1000 px copy): the median
# over the 71 labelled harbours of the 8 CatanAI photos (`bench/bench_harbours_held_out.py --prototypes`), and a
# spread each share is divided by.  At 1000 px the 3:1's black digits blur into grey: ink stays 0.
PROTOTYPES: dict[str, tuple[float, ...]] = {
    "3:1": (0.000, 0.000, 0.006, 0.052, 0.000, 0.029),
    "brick": (0.180, 0.000, 0.005, 0.026, 0.000, 0.034),
    "grain": (0.000, 0.205, 0.000, 0.021, 0.000, 0.026),
    "lumber": (0.000, 0.015, 0.114, 0.108, 0.000, 0.040),
    "ore": (0.000, 0.000, 0.029, 0.183, 0.000, 0.028),
    "wool": (0.000, 0.000, 0.072, 0.050, 0.000, 0.032),
}
# The same as a 5-6 board's ships look to its reader: its board and frame fill the picture with hexes ~0.65 of a
# 3-4 board's (lattice spacing 81-90 px at 1000 px, against 123-158), and a smaller sail's picture blurs into its
# white.  Measured on the REAL labelled photos shrunk so (``bench/bench_harbours_56.py --prototypes``: 8 photos,
# spacing 82-107 px, 71 harbours), not on the synthetic 5-6 boards the figures are taken on.
PROTOTYPES_56: dict[str, tuple[float, ...]] = {
    "3:1": (0.000, 0.000, 0.000, 0.014, 0.000, 0.022),
    "brick": (0.142, 0.000, 0.000, 0.010, 0.000, 0.030),
    "grain": (0.000, 0.206, 0.000, 0.010, 0.000, 0.031),
    "lumber": (0.000, 0.004, 0.063, 0.093, 0.000, 0.027),
    "ore": (0.000, 0.000, 0.017, 0.196, 0.000, 0.023),
    "wool": (0.000, 0.000, 0.023, 0.047, 0.000, 0.025),
}
# A 5-6 board's ships as its reader sees them in a sharper copy of a 12 MP photo (sharper_copy: the larger decode
# made for the tokens' prints, shrunk to SCALE px a unit): sharper than in the 1000 px copy (PROTOTYPES_56), as
# sharp as the 3-4 reader's (PROTOTYPES) only where the camera is.  Midway between the two, chosen on SYNTHETIC
# dev boards (bench_harbours_56.py seeds 0-5, 12 MP) of two kinds: ships cut at 160 px a unit from the 12 MP
# originals (the 3-4 prototypes: trades 502 of 505 right there, but on the other kind 474 of 528 with 23 wrong
# but sure, against 503 and 3 from the 1000 px copy) and ships cut at 80 px a unit from the 1024 px copies.
PROTOTYPES_SHARPER: dict[str, tuple[float, ...]] = {
    t: tuple(round((a + b) / 2, 4) for a, b in zip(PROTOTYPES[t], PROTOTYPES_56[t])) for t in PROTOTYPES}
SPREAD = np.full(len(FEATURES), 0.02)
# A 5-6 board's trade is sure only when every other trade costs 1.8 times its own (1.2 on a 3-4 board): its ships
# are smaller in the picture and their colours closer.  Chosen on the SYNTHETIC dev boards (bench_harbours_56.py
# seeds 0-2, 1000 x 750, 264 harbours): trades read wrong but sure 13 -> 2, trades read right but asked 77 -> 100.
SURE_MARGIN_56 = 1.8


def trade_costs(colours: np.ndarray, prototypes: dict | None = None) -> dict[str, float]:
    prototypes = PROTOTYPES if prototypes is None else prototypes
    return {t: float(np.linalg.norm((colours - np.array(p)) / SPREAD)) for t, p in prototypes.items()}


def assign_trades(costs: list[dict[str, float]], harbour_set: dict | None = None) -> list[str]:
    """The trades for the harbours found, cheapest in total under the set's counts (``harbour_set``: the 3-4
    set's four 3:1 and one of each resource by default; the 5-6 set's HARBOUR_SET_56; fewer harbours in sight
    leave some out)."""
    harbour_set = HARBOUR_SET if harbour_set is None else harbour_set
    resources = [t for t in TRADES if t != "3:1"]
    # Harbour by harbour, the cheapest way to each state: (each resource's harbours so far, how many 3:1 so far).
    best: dict[tuple[tuple, int], tuple[float, list[str]]] = {((0,) * len(resources), 0): (0.0, [])}
    for cost in costs:
        step: dict[tuple[tuple, int], tuple[float, list[str]]] = {}
        for (used, three), (total, trades) in best.items():
            options = [t for i, t in enumerate(resources) if used[i] < harbour_set.get(t, 0) and t in cost]
            options += ["3:1"] if three < harbour_set.get("3:1", 0) and "3:1" in cost else []
            for t in options:
                if t == "3:1":
                    state = (used, three + 1)
                else:
                    i = resources.index(t)
                    state = (used[:i] + (used[i] + 1,) + used[i + 1:], three)
                if state not in step or total + cost[t] < step[state][0]:
                    step[state] = (total + cost[t], trades + [t])
        best = step
    return min(best.values(), key=lambda v: v[0])[1] if best else []


def read_harbours(photo: np.ndarray, to_photo: np.ndarray, prototypes: dict | None = None, land: tuple = LAND,
                  harbour_set: dict | None = None, sure_margin: float = 1.2,
                  sharper: tuple[np.ndarray, np.ndarray] | None = None) -> list[Harbour]:
    """The harbours the frame shows, each at its sea hex and the land hex it serves (canonical lattice
    coordinates), with its trade.  A trade is unsure when another was within a fifth of its cost.  ``land``: the
    board's land hexes (the 3-4 board's 19, or board56.LAND_56), the sea ring round them looked at;
    ``harbour_set``: its frame's harbours (HARBOUR_SET, or HARBOUR_SET_56).  ``sure_margin``: a trade is sure when
    every other costs more than this many times its cost (1.2 on the 3-4 board; SURE_MARGIN_56 on the 5-6).
    ``sharper``: (a larger copy of the photo shrunk to SCALE px a unit, the map to it: :func:`sharper_copy`), from
    which the sails' colours are taken (told by ``prototypes``: PROTOTYPES_SHARPER); the ships are found and their
    coast edges told on ``photo`` all the same."""
    harbour_set = HARBOUR_SET if harbour_set is None else harbour_set
    ring = SEA_RING if land is LAND else sea_ring(land)
    hsv = cv2.cvtColor(flat_view(photo, to_photo, view_half(land)), cv2.COLOR_BGR2HSV)
    sails = _sail(hsv)
    blue = _blue(hsv)
    sea_or_sail = sails | blue
    # A ship is found by its sail: white, or cream in warm light -- anything not blue, much brighter than
    # the sea and not strongly coloured (the white rule alone missed every ship of two SettlersEye photos).
    sea_value = float(np.median(hsv[..., 2][blue])) if blue.any() else 150.0
    bright = ~blue & (hsv[..., 2] > sea_value + 40) & (hsv[..., 1] < 140) | sails
    shares = {}
    for sea in ring:
        window, near = _disc(hsv.shape[:2], canonical_center(sea), 0.45)
        if near.any() and float(np.mean(bright[window][near])) > SAIL_SHARE:
            shares[sea] = float(np.mean(bright[window][near]))
    # a set has nine harbours (the 5-6 frame eleven): beyond that, the ones with the least sail are glare or a
    # piece, not ships
    most = sorted(shares, key=shares.get, reverse=True)[:sum(harbour_set.values())]
    found = [sea for sea in ring if sea in most]
    if sharper is not None and found:
        sharp_hsv = cv2.cvtColor(flat_view(sharper[0], sharper[1], view_half(land)), cv2.COLOR_BGR2HSV)
        colours = [sail_colours(sharp_hsv, _sail(sharp_hsv), sea) for sea in found]
    else:
        colours = [sail_colours(hsv, sails, sea) for sea in found]
    prototypes = PROTOTYPES if prototypes is None else prototypes
    if not prototypes:
        return [_harbour(sea_or_sail, sea, "3:1", False, c, land) for sea, c in zip(found, colours)]
    costs = [trade_costs(c, prototypes) for c in colours]
    trades = assign_trades(costs, harbour_set)
    out = []
    for sea, c, cost, trade in zip(found, colours, costs, trades):
        runner_up = min(v for t, v in cost.items() if t != trade)
        out.append(_harbour(sea_or_sail, sea, trade, runner_up > sure_margin * cost[trade], c, land))
    return out


def sharper_copy(photo: np.ndarray, to_photo: np.ndarray, unit: float) -> tuple[np.ndarray, np.ndarray] | None:
    """``photo`` (whose canonical unit, a hex's circumradius, is ``unit`` pixels) shrunk by area averaging so that
    a unit is SCALE pixels, and the map from the canonical plane to it; None when ``photo`` is not larger than
    that.  A 5-6 board's ship is ~49 px a unit in the 1000 px copy the board is read from, and its sail's picture
    blurs into its white there; a 12 MP photo's larger decode (made for the tokens' prints) has ~100-200 px a
    unit: shrunk so and warped flat, its sails are sharper (warped straight from the larger decode, unshrunk, the
    colours alias: trades came out worse than from the 1000 px copy, 413 of 505 against 452)."""
    k = SCALE / unit
    if k >= 1.0:
        return None
    return (cv2.resize(photo, None, fx=k, fy=k, interpolation=cv2.INTER_AREA),
            np.diag([k, k, 1.0]) @ to_photo)


def asked_edges(harbours: list, turns: int = 0) -> list[list[list[int]]]:
    """The places of the harbours a person is asked to look at (the trade unsure, or the coast edge a near tie:
    the app rings them; the CLI's text line puts a ``?`` after them), for the JSON's ``unsure``: each the coast
    edge as the record's harbour writes it (``[land hex, sea hex]``, as in ``board.harbors``), turned ``turns``
    times 60 degrees as the board is; in the order ``harbors`` lists them."""
    from vision.board.lattice import turned
    return sorted([list(turned(h.land, turns)), list(turned(h.sea, turns))] for h in harbours
                  if not (h.sure and h.edge_sure))


def _harbour(sea_or_sail: np.ndarray, sea: tuple[int, int], trade: str, trade_sure: bool, colours,
             land: tuple = LAND) -> Harbour:
    served, margin = harbour_edge(sea_or_sail, sea, land)
    return Harbour(sea, served, trade, trade_sure, colours, margin >= PIER_MARGIN, margin)
