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
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board.lattice import LAND, canonical_center, hex_distance

SEA_RING = tuple(sorted((q, r) for q in range(-3, 4) for r in range(-3, 4) if hex_distance((q, r), (0, 0)) == 3))
NEIGHBOURS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))
TRADES = ("3:1", "brick", "grain", "lumber", "ore", "wool")
HARBOUR_SET = {"3:1": 4, "brick": 1, "grain": 1, "lumber": 1, "ore": 1, "wool": 1}

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


def flat_view(photo: np.ndarray, to_photo: np.ndarray) -> np.ndarray:
    """``photo`` warped so the board lies flat: canonical (0, 0) in the middle, SCALE px per unit.
    ``to_photo`` maps the canonical plane to the photo's pixels."""
    size = int(2 * HALF * SCALE)
    to_view = np.array([[SCALE, 0, HALF * SCALE], [0, SCALE, HALF * SCALE], [0, 0, 1]], np.float64)
    return cv2.warpPerspective(photo, to_view @ np.linalg.inv(to_photo), (size, size), flags=cv2.INTER_AREA)


def _pixel(point: tuple[float, float]) -> tuple[int, int]:
    return int(round(point[0] * SCALE + HALF * SCALE)), int(round(point[1] * SCALE + HALF * SCALE))


def _disc(shape: tuple[int, int], centre: tuple[float, float], radius: float) -> tuple[tuple[slice, slice], np.ndarray]:
    """A disc in the flat view as (the window round it, the disc's mask inside the window): only the window's
    pixels are looked at (the whole view is 650 px square)."""
    (x, y), r = _pixel(centre), max(1, int(radius * SCALE))
    x0, y0 = max(0, x - r), max(0, y - r)
    x1, y1 = min(shape[1], x + r + 1), min(shape[0], y + r + 1)
    mask = np.zeros((max(0, y1 - y0), max(0, x1 - x0)), np.uint8)
    cv2.circle(mask, (x - x0, y - y0), r, 1, -1)
    return (slice(y0, y1), slice(x0, x1)), mask.astype(bool)


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


def harbour_land(sea_or_sail: np.ndarray, sea: tuple[int, int]) -> tuple[int, int]:
    """The land hex whose edge with ``sea`` the harbour serves (its piers reach that edge's corners)."""
    return harbour_edge(sea_or_sail, sea)[0]


def harbour_edge(sea_or_sail: np.ndarray, sea: tuple[int, int]) -> tuple[tuple[int, int], float]:
    """(the land hex the harbour serves, how much more pier its far corner shows than the other's): a side
    hex of the ring touches two land hexes, a corner hex one (margin 1.0: nothing to choose)."""
    lands = [(sea[0] + dq, sea[1] + dr) for dq, dr in NEIGHBOURS if (sea[0] + dq, sea[1] + dr) in LAND]
    if len(lands) == 1:
        return lands[0], 1.0
    shared = set(edge_corners(sea, lands[0])) & set(edge_corners(sea, lands[1]))
    def far_corner(land):  # the corner of this edge not shared with the other land hex
        a, b = edge_corners(sea, land)
        return a if min(math.dist(a, s) for s in shared) > 1e-6 else b if shared else a
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
SPREAD = np.full(len(FEATURES), 0.02)


def trade_costs(colours: np.ndarray, prototypes: dict | None = None) -> dict[str, float]:
    prototypes = PROTOTYPES if prototypes is None else prototypes
    return {t: float(np.linalg.norm((colours - np.array(p)) / SPREAD)) for t, p in prototypes.items()}


def assign_trades(costs: list[dict[str, float]]) -> list[str]:
    """The trades for the harbours found, cheapest in total under the set's counts (four 3:1, one of each
    resource; fewer harbours in sight leave some out)."""
    # Harbour by harbour, the cheapest way to each state: (resources used, how many 3:1 so far).
    best: dict[tuple[frozenset, int], tuple[float, list[str]]] = {(frozenset(), 0): (0.0, [])}
    for cost in costs:
        step: dict[tuple[frozenset, int], tuple[float, list[str]]] = {}
        for (used, three), (total, trades) in best.items():
            options = [t for t in TRADES if t != "3:1" and t not in used and t in cost]
            options += ["3:1"] if three < HARBOUR_SET["3:1"] and "3:1" in cost else []
            for t in options:
                state = (used, three + 1) if t == "3:1" else (used | {t}, three)
                if state not in step or total + cost[t] < step[state][0]:
                    step[state] = (total + cost[t], trades + [t])
        best = step
    return min(best.values(), key=lambda v: v[0])[1] if best else []


def read_harbours(photo: np.ndarray, to_photo: np.ndarray, prototypes: dict | None = None) -> list[Harbour]:
    """The harbours the frame shows, each at its sea hex and the land hex it serves (canonical lattice
    coordinates), with its trade.  A trade is unsure when another was within a fifth of its cost."""
    hsv = cv2.cvtColor(flat_view(photo, to_photo), cv2.COLOR_BGR2HSV)
    sails = _sail(hsv)
    blue = _blue(hsv)
    sea_or_sail = sails | blue
    # A ship is found by its sail: white, or cream in warm light -- anything not blue, much brighter than
    # the sea and not strongly coloured (the white rule alone missed every ship of two SettlersEye photos).
    sea_value = float(np.median(hsv[..., 2][blue])) if blue.any() else 150.0
    bright = ~blue & (hsv[..., 2] > sea_value + 40) & (hsv[..., 1] < 140) | sails
    shares = {}
    for sea in SEA_RING:
        window, near = _disc(hsv.shape[:2], canonical_center(sea), 0.45)
        if near.any() and float(np.mean(bright[window][near])) > SAIL_SHARE:
            shares[sea] = float(np.mean(bright[window][near]))
    # a set has nine harbours: beyond that, the ones with the least sail are glare or a piece, not ships
    most = sorted(shares, key=shares.get, reverse=True)[:sum(HARBOUR_SET.values())]
    found = [sea for sea in SEA_RING if sea in most]
    colours = [sail_colours(hsv, sails, sea) for sea in found]
    prototypes = PROTOTYPES if prototypes is None else prototypes
    if not prototypes:
        return [_harbour(sea_or_sail, sea, "3:1", False, c) for sea, c in zip(found, colours)]
    costs = [trade_costs(c, prototypes) for c in colours]
    trades = assign_trades(costs)
    out = []
    for sea, c, cost, trade in zip(found, colours, costs, trades):
        runner_up = min(v for t, v in cost.items() if t != trade)
        out.append(_harbour(sea_or_sail, sea, trade, runner_up > 1.2 * cost[trade], c))
    return out


def _harbour(sea_or_sail: np.ndarray, sea: tuple[int, int], trade: str, trade_sure: bool, colours) -> Harbour:
    land, margin = harbour_edge(sea_or_sail, sea)
    return Harbour(sea, land, trade, trade_sure, colours, margin >= PIER_MARGIN, margin)
