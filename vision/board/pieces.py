"""The players' pieces on a board photo: roads on edges, settlements and cities on corners, by colour.

The pieces are read where they can stand, not searched for anywhere: the fitted lattice (vision/board/lattice.py)
says where each of the 3-4 board's 54 corners and 72 edges lies in the photo.  The photo is warped flat
(PLANE_SCALE px per hex radius), and at every corner and edge a small patch is cut -- along the edge for an edge,
so a road always lies the same way in it.  Each patch becomes a short list of colour figures (CIE Lab
percentiles relative to the board's own median, the share of pixels in each hue band, a coarse Lab grid), and
a small classifier (one hidden layer, numpy only) says what stands there: nothing, or a road of one of the
four colours at an edge; nothing, a settlement or a city of one of the four colours at a corner.

The classifier's weights (``piece_model.npz``, a few kB) are learned from the SettlersEye photos' piece boxes
(CC BY 4.0) by ``python -m vision.board.make_piece_model``; how well it does, on boards it never saw, is in
docs/board-reader.md.  Names of corners and edges are the record's (companion.rules.geometry): the three or
two hexes around them, each list sorted.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import cv2
import numpy as np

from companion.rules.geometry import edge_vertices, hex_edges, hex_vertices, vertex_edges, vertex_neighbours
from vision.board.lattice import LAND, canonical_center, turned

COLOURS = ("red", "blue", "white", "orange")
PLANE_SCALE = 24.0   # pixels per canonical unit (hex circumradius) in the flat plane the pieces are read in
PLANE_HALF = 5.0     # the plane spans +-PLANE_HALF units: the land, its coast's corners and a little sea
CORNER_PATCH = 0.8   # a corner's patch: a square this many units wide
EDGE_PATCH = (1.0, 0.5)  # an edge's patch: this long along the edge, this wide across it

CORNERS = tuple(sorted({v for h in LAND for v in hex_vertices(h)}))
EDGES = tuple(sorted({e for h in LAND for e in hex_edges(h)}))
EDGE_CLASSES = ("none",) + tuple(f"{c} road" for c in COLOURS)
CORNER_CLASSES = ("none",) + tuple(f"{c} {k}" for k in ("settlement", "city") for c in COLOURS)


def corner_point(v) -> tuple[float, float]:
    xs, ys = zip(*(canonical_center(h) for h in v))
    return (sum(xs) / 3.0, sum(ys) / 3.0)


def edge_point(e) -> tuple[float, float]:
    (x1, y1), (x2, y2) = (canonical_center(h) for h in e)
    return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)


def edge_angle(e) -> float:
    """The edge's direction in the canonical plane (radians): across the line joining its two hexes."""
    (x1, y1), (x2, y2) = (canonical_center(h) for h in e)
    return math.atan2(y2 - y1, x2 - x1) + math.pi / 2.0


@dataclass(frozen=True)
class Piece:
    piece: str                     # "road", "settlement" or "city"
    color: str                     # one of COLOURS
    at: tuple                      # an edge (two hexes) or a corner (three hexes), the lattice's own orientation
    pixel: tuple[float, float]     # where it stands in the photo (the photo's own pixels)
    confidence: float              # the classifier's probability of a piece of this colour here (either kind)
    kind_share: float = 1.0        # of that, the share of the kind said (settlement or city; 1 for a road)

    def to_json(self, turns: int = 0) -> dict:
        """The issue's shape: ``{"piece", "color", "at", "pixel"}``, ``at`` turned as the board is."""
        at = sorted(turned(h, turns) for h in self.at)
        return {"piece": self.piece, "color": self.color, "at": [list(h) for h in at],
                "pixel": [round(self.pixel[0], 1), round(self.pixel[1], 1)]}


def flat_plane(image: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """The photo warped so the board lies flat, canonical (0, 0) in the middle, PLANE_SCALE px per unit."""
    size = int(2 * PLANE_HALF * PLANE_SCALE)
    to_plane = np.array([[PLANE_SCALE, 0, PLANE_HALF * PLANE_SCALE], [0, PLANE_SCALE, PLANE_HALF * PLANE_SCALE],
                         [0, 0, 1]], np.float64)
    return cv2.warpPerspective(image, to_plane @ np.linalg.inv(homography), (size, size), flags=cv2.INTER_AREA)


def _patch(plane: np.ndarray, centre: tuple[float, float], angle: float, size: tuple[float, float]) -> np.ndarray:
    """The plane's pixels in a rectangle ``size`` (units) about ``centre`` (units), its long side along ``angle``."""
    w, h = (max(2, int(round(s * PLANE_SCALE))) for s in size)
    cx, cy = (c * PLANE_SCALE + PLANE_HALF * PLANE_SCALE for c in centre)
    rotation = cv2.getRotationMatrix2D((cx, cy), math.degrees(angle), 1.0)
    rotation[0, 2] += w / 2.0 - cx
    rotation[1, 2] += h / 2.0 - cy
    return cv2.warpAffine(plane, rotation, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


HUE_BANDS = 12


def patch_features(patches: list[np.ndarray], board_lab: np.ndarray, grid: tuple[int, int],
                   keep: np.ndarray | None = None) -> np.ndarray:
    """Each patch's colour figures (one row per patch; the patches all of one size): Lab percentiles (relative
    to the board's median), the share of its pixels in each of HUE_BANDS saturated hue bands and of pale
    unsaturated ones (a white piece), and a coarse Lab grid (where in the patch the colour is: a road fills its
    patch's length, a settlement does not).  ``keep`` (a patch-sized mask) says which pixels the percentiles and
    shares count; the grid sees the whole patch.  All patches are converted and counted together: numpy's and
    OpenCV's per-call overhead on 126 small patches was most of this function's time."""
    n, h, w = len(patches), patches[0].shape[0], patches[0].shape[1]
    stacked = np.concatenate(patches, axis=0)   # one (n*h, w) image: colour conversions are per pixel
    lab_image = cv2.cvtColor(stacked, cv2.COLOR_BGR2LAB)
    lab = lab_image.reshape(n, h * w, 3).astype(np.float32) - board_lab
    hsv = cv2.cvtColor(stacked, cv2.COLOR_BGR2HSV).reshape(n, h * w, 3).astype(np.float32)
    if keep is not None:
        lab, hsv = lab[:, keep.reshape(-1)], hsv[:, keep.reshape(-1)]
    counted = lab.shape[1]
    percentiles = np.percentile(lab, (10, 50, 90), axis=1).transpose(1, 0, 2).reshape(n, 9) / 64.0
    saturated = hsv[:, :, 1] > 90
    band = (hsv[:, :, 0] * HUE_BANDS / 180).astype(int) % HUE_BANDS + HUE_BANDS * np.arange(n)[:, None]
    bands = np.bincount(band[saturated], minlength=n * HUE_BANDS).reshape(n, HUE_BANDS) / counted
    pale = np.mean((hsv[:, :, 1] < 60) & (hsv[:, :, 2] > 150), axis=1)
    dark = np.mean(hsv[:, :, 2] < 60, axis=1)
    coarse = np.stack([cv2.resize(lab_image[i * h:(i + 1) * h], grid, interpolation=cv2.INTER_AREA)
                       for i in range(n)]).reshape(n, -1, 3).astype(np.float32)
    coarse = (coarse - board_lab).reshape(n, -1) / 64.0
    return np.hstack([percentiles, bands, pale[:, None], dark[:, None], coarse]).astype(np.float32)


#: An edge's figures (percentiles, hue bands, pale, dark) count only the middle of its patch: this far (units)
#: either side of the edge's midpoint along it and across it -- the middle third of the edge, a road's width
#: (0.16) and a little.  The whole patch reached the buildings at the edge's ends (and, seen at a slant, their
#: lean), the commonest invented road (session 6: 242 on SettlersEye's development folds, most beside a building
#: of that colour); its ends' colour also muddied a road's own.  The coarse grid still sees the whole patch.
#: Chosen on the development folds (docs/board-reader.md, session 7): 0.10 across tied with 0.15 there (77.0
#: against 77.5 % found, 25.6 against 25.9 % invented); at 0.15 the sea's blue beside a coast edge of CatanAI's
#: test5_3 was a blue road said with 0.96, a misreading Check the board offered as sure.
EDGE_MIDDLE = (1.0 / 6.0, 0.10)


@lru_cache(maxsize=1)
def edge_keep() -> np.ndarray:
    """The pixels of an edge's patch its figures count (EDGE_MIDDLE): every edge patch lies along its edge
    the same way, so one mask serves them all."""
    w, h = (max(2, int(round(s * PLANE_SCALE))) for s in EDGE_PATCH)
    yy, xx = np.mgrid[0:h, 0:w] + 0.5
    along, across = (m * PLANE_SCALE for m in EDGE_MIDDLE)
    return (np.abs(xx - w / 2.0) <= along) & (np.abs(yy - h / 2.0) <= across)


def slot_features(image: np.ndarray, homography: np.ndarray,
                  lab_image: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The features of every edge (len(EDGES) rows) and every corner (len(CORNERS) rows) of the board;
    ``lab_image``: the photo in Lab when the caller has it (a reading converts the whole photo once, for this
    and :func:`outline_features`)."""
    plane = flat_plane(image, homography)
    lab = cv2.cvtColor(plane, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    inside = lab[(plane.reshape(-1, 3).sum(axis=1) > 0)]
    board_lab = np.median(inside if len(inside) else lab, axis=0).astype(np.float32)
    edges = patch_features([_patch(plane, edge_point(e), edge_angle(e), EDGE_PATCH) for e in EDGES], board_lab, (4, 2),
                           edge_keep())
    edges = np.hstack([edges, edge_profile_features(image, homography, board_lab, lab_image)])
    corners = patch_features([_patch(plane, corner_point(v), 0.0, (CORNER_PATCH, CORNER_PATCH)) for v in CORNERS],
                             board_lab, (3, 3))
    return edges, np.hstack([corners, corner_size_features(image, homography, board_lab)])


#: An edge's profile across it (edge_profile_features): the photo sampled at PROFILE_ACROSS (units, across the
#: edge) times PROFILE_ALONG (along its middle third).  A road is a raised bar lying on the edge's line and hiding
#: the seam; an empty edge is frame, seam, frame.  Aimed at white roads on the tiles' beige frames, which the
#: patch's percentiles hardly tell apart (session 17, docs/board-reader.md).
PROFILE_ACROSS = np.linspace(-0.24, 0.24, 13)
PROFILE_ALONG = np.linspace(-1.0 / 6.0, 1.0 / 6.0, 7)


def edge_profile_features(image: np.ndarray, homography: np.ndarray, board_lab: np.ndarray,
                          lab_image: np.ndarray | None = None) -> np.ndarray:
    """Per edge, its profile across: the median along the edge's middle third of the photo's Lab at each of
    PROFILE_ACROSS (relative to the board's median), and the spread along (40 figures).  Sampled in the photo
    itself through the lattice (all edges by one remap), not in the 24 px plane: a road is ~4 px wide there."""
    points = []
    for e in EDGES:
        (cx, cy), a = edge_point(e), edge_angle(e)
        along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
        points.append(np.array([[cx, cy]]) + PROFILE_ALONG[:, None, None] * along
                      + PROFILE_ACROSS[None, :, None] * across)
    pixels = cv2.perspectiveTransform(np.array(points, np.float64).reshape(-1, 1, 2), homography)
    pixels = pixels.reshape(1, -1, 2).astype(np.float32)
    lab_image = cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if lab_image is None else lab_image
    samples = cv2.remap(lab_image, pixels[..., 0], pixels[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    samples = samples.reshape(len(EDGES), len(PROFILE_ALONG), len(PROFILE_ACROSS), 3).astype(np.float32) - board_lab
    middle = np.median(samples, axis=1).reshape(len(EDGES), -1) / 64.0
    spread = samples.std(axis=1).mean(axis=1) / 32.0
    return np.hstack([middle, spread]).astype(np.float32)


FINE_SCALE = 48.0   # pixels per unit of the plane a corner's size is measured in (a settlement is ~0.3 units wide)


def corner_size_features(image: np.ndarray, homography: np.ndarray, board_lab: np.ndarray) -> np.ndarray:
    """How much of each corner's middle differs from the board, at twice the resolution: the share of pixels
    whose Lab distance from the board's median passes 20/35/50 within 0.1/0.2/0.3 units, that distance's
    quartiles within 0.15 and 0.3, and the share of saturated pixels.  A city covers more of its corner than a
    settlement; at PLANE_SCALE a settlement is 7 px and the coarse grid alone told them apart badly (held out,
    19 of CatanAI's 90 settlements read as cities; 12 with these figures)."""
    size = int(2 * PLANE_HALF * FINE_SCALE)
    to_plane = np.array([[FINE_SCALE, 0, PLANE_HALF * FINE_SCALE], [0, FINE_SCALE, PLANE_HALF * FINE_SCALE],
                         [0, 0, 1]], np.float64)
    plane = cv2.warpPerspective(image, to_plane @ np.linalg.inv(homography), (size, size), flags=cv2.INTER_AREA)
    distance = np.sqrt(((cv2.cvtColor(plane, cv2.COLOR_BGR2LAB).astype(np.float32) - board_lab) ** 2).sum(axis=2))
    saturation = cv2.cvtColor(plane, cv2.COLOR_BGR2HSV)[:, :, 1]
    half = int(0.35 * FINE_SCALE)
    yy, xx = np.mgrid[-half:half + 1, -half:half + 1] / FINE_SCALE
    radius = np.hypot(xx, yy)
    # every corner's window at once (54 x 35 x 35): one percentile and one mean per figure over all corners, not
    # 54 small calls each (numpy's per-call overhead was most of this function's time)
    spots = [tuple(int(round(c * FINE_SCALE + PLANE_HALF * FINE_SCALE)) for c in corner_point(v)) for v in CORNERS]
    d = np.stack([distance[cy - half:cy + half + 1, cx - half:cx + half + 1] for cx, cy in spots])
    s = np.stack([saturation[cy - half:cy + half + 1, cx - half:cx + half + 1] for cx, cy in spots])
    columns = [(d[:, radius < r] > t).mean(axis=1) for t in (20, 35, 50) for r in (0.1, 0.2, 0.3)]
    columns += [np.percentile(d[:, radius < r], q, axis=1) / 64 for r in (0.15, 0.3) for q in (25, 50, 75)]
    columns += [(s[:, radius < r] > 120).mean(axis=1) for r in (0.1, 0.2, 0.3)]
    return np.stack(columns, axis=1).astype(np.float32)


#: A building's outline is measured in a window of the photo itself (not the flattened plane: a city's tower
#: stands up out of it), OUTLINE_GRID samples a side spanning +-OUTLINE_REACH units about the corner.
OUTLINE_GRID = 40
OUTLINE_REACH = 0.6
OUTLINE_LIKENESS = (15, 25, 35)   # Lab distances from the building's own colour that count as "the building"


def _local_unit(homography: np.ndarray, point: tuple[float, float]) -> tuple[float, np.ndarray]:
    """The photo's pixels per canonical unit about ``point`` (perspective shrinks the far side), and the point's
    pixel."""
    c = np.array(point, np.float64)
    p = cv2.perspectiveTransform(np.array([[c, c + [0.05, 0], c + [0, 0.05]]], np.float64), homography)[0]
    return float(np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[2] - p[0])) / 2 / 0.05, p[0]


def outline_features(image: np.ndarray, homography: np.ndarray, lab_image: np.ndarray | None = None) -> np.ndarray:
    """At every corner, the size and shape of what stands there in its own colour, in units of the hex: the
    colour is the median of the corner's middle (a building covers it), "what stands there" the connected
    region of pixels within OUTLINE_LIKENESS of it that holds the middle.  Per likeness: its area, width,
    height, the spread along and across its long axis, and the share of the inner disc like the colour and
    of the region.  A city is a longer two-part silhouette, about 1.6 times a settlement's box on SettlersEye's
    labels (0.27 against 0.17 square units); these figures feed the kind classifier (Models.kind)."""
    lab_image = cv2.cvtColor(image, cv2.COLOR_BGR2LAB) if lab_image is None else lab_image
    step = 2 * OUTLINE_REACH / OUTLINE_GRID
    yy, xx = np.mgrid[0:OUTLINE_GRID, 0:OUTLINE_GRID]
    ux = (xx + 0.5) * step - OUTLINE_REACH
    uy = (yy + 0.5) * step - OUTLINE_REACH
    radius = np.hypot(ux, uy)
    middle = OUTLINE_GRID // 2
    # All 54 windows are cut by one remap and measured together (per-corner calls were most of the time): a
    # row of zeros below each window keeps its connected regions from running into the next one's.
    n, side = len(CORNERS), OUTLINE_GRID + 1
    map_x = np.zeros((n, side, OUTLINE_GRID), np.float32)
    map_y = np.full((n, side, OUTLINE_GRID), -1e4, np.float32)   # the separator samples far outside the image
    for i, v in enumerate(CORNERS):
        unit, centre = _local_unit(homography, corner_point(v))
        map_x[i, :-1] = centre[0] + ux * unit
        map_y[i, :-1] = centre[1] + uy * unit
    windows = cv2.remap(lab_image, map_x.reshape(-1, OUTLINE_GRID), map_y.reshape(-1, OUTLINE_GRID),
                        cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    windows = windows.reshape(n, side, OUTLINE_GRID, 3)[:, :-1]
    core = windows[:, radius < 0.08]
    distance = np.sqrt(((windows - np.median(core, axis=1)[:, None, None]) ** 2).sum(axis=3))
    inner = radius < 0.3
    columns = []
    for likeness in OUTLINE_LIKENESS:
        alike = np.zeros((n, side, OUTLINE_GRID), np.uint8)
        alike[:, :-1] = distance < likeness
        _, regions = cv2.connectedComponents(alike.reshape(-1, OUTLINE_GRID), connectivity=4)
        regions = regions.reshape(n, side, OUTLINE_GRID)[:, :-1]
        alike = alike[:, :-1]
        region = (regions == regions[:, middle, middle][:, None, None]) & (alike > 0)
        count = region.sum(axis=(1, 2)).astype(np.float64)
        # the region's spread along and across its long axis: the square roots of its covariance's eigenvalues,
        # worked out from its moments for 2 x 2 (numpy's general routines were slow here)
        x, y = xx * step, yy * step
        sx, sy = (region * x).sum(axis=(1, 2)), (region * y).sum(axis=(1, 2))
        sxx, syy, sxy = ((region * x * x).sum(axis=(1, 2)), (region * y * y).sum(axis=(1, 2)),
                         (region * x * y).sum(axis=(1, 2)))
        many = count > 2
        safe = np.where(many, count, 3.0)
        a, c, b = ((sxx - sx * sx / safe) / (safe - 1), (syy - sy * sy / safe) / (safe - 1),
                   (sxy - sx * sy / safe) / (safe - 1))
        mid, half = (a + c) / 2.0, np.hypot((a - c) / 2.0, b)
        across, along = np.sqrt(np.maximum(mid - half, 0.0)), np.sqrt(np.maximum(mid + half, 0.0))
        cols, rows_ = region.any(axis=1), region.any(axis=2)
        width = (OUTLINE_GRID - cols[:, ::-1].argmax(axis=1) - cols.argmax(axis=1)) * step
        height = (OUTLINE_GRID - rows_[:, ::-1].argmax(axis=1) - rows_.argmax(axis=1)) * step
        columns += [count * step * step, np.where(many, width, 0.0), np.where(many, height, 0.0),
                    np.where(many, across, 0.0), np.where(many, along, 0.0),
                    alike[:, inner].mean(axis=1), region[:, inner].mean(axis=1)]
    columns.append(np.std(core, axis=1).mean(axis=1) / 32)
    return np.stack(columns, axis=1).astype(np.float32)


@dataclass
class Classifier:
    """One hidden layer (ReLU) and a softmax over standardised features: small enough to ship as numbers and
    run with numpy, large enough to learn "a red bar along the patch" from "a red hills tile under it"."""
    mean: np.ndarray
    scale: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    PARTS = ("mean", "scale", "w1", "b1", "w2", "b2")

    def probabilities(self, features: np.ndarray) -> np.ndarray:
        hidden = np.maximum(0.0, ((features - self.mean) / self.scale) @ self.w1 + self.b1)
        logits = hidden @ self.w2 + self.b2
        logits -= logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True)


def train_classifier(features: np.ndarray, labels: np.ndarray, classes: int, *, hidden: int = 48,
                     steps: int = 600, l2: float = 1e-3, seed: int = 0) -> Classifier:
    """Full-batch gradient descent (Adam).  Rare classes weigh more (by the square root of their rarity): a
    board has far more empty slots than pieces, and a classifier that says "none" everywhere is 80 % right."""
    rng = np.random.default_rng(seed)
    mean = features.mean(axis=0)
    scale = features.std(axis=0) + 1e-3
    x = ((features - mean) / scale).astype(np.float32)
    y = np.eye(classes, dtype=np.float32)[labels]
    rarity = 1.0 / np.maximum(1, np.bincount(labels, minlength=classes))
    weight = np.sqrt(rarity / rarity.mean())[labels][:, None].astype(np.float32)
    params = [rng.normal(0, 1 / np.sqrt(x.shape[1]), (x.shape[1], hidden)).astype(np.float32),
              np.zeros(hidden, np.float32),
              rng.normal(0, 1 / np.sqrt(hidden), (hidden, classes)).astype(np.float32),
              np.zeros(classes, np.float32)]
    first = [np.zeros_like(p) for p in params]
    second = [np.zeros_like(p) for p in params]
    for step in range(1, steps + 1):
        w1, b1, w2, b2 = params
        pre = x @ w1 + b1
        hid = np.maximum(0.0, pre)
        logits = hid @ w2 + b2
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        p /= p.sum(axis=1, keepdims=True)
        d_logits = (p - y) * weight / weight.sum()
        d_hidden = d_logits @ w2.T * (pre > 0)
        grads = (x.T @ d_hidden + l2 * w1, d_hidden.sum(axis=0), hid.T @ d_logits + l2 * w2, d_logits.sum(axis=0))
        for i, g in enumerate(grads):
            first[i] = 0.9 * first[i] + 0.1 * g
            second[i] = 0.999 * second[i] + 0.001 * g * g
            params[i] -= 0.01 * (first[i] / (1 - 0.9 ** step)) / (np.sqrt(second[i] / (1 - 0.999 ** step)) + 1e-8)
    return Classifier(mean.astype(np.float32), scale.astype(np.float32), *params)


MODEL_FILE = "piece_model.npz"


def save_models(path, edge_model: Classifier, corner_model: Classifier, kind_model: Classifier | None = None) -> None:
    named = (("edge", edge_model), ("corner", corner_model)) + ((("kind", kind_model),) if kind_model else ())
    np.savez_compressed(path, **{f"{name}_{part}": getattr(model, part) for name, model in named
                                 for part in Classifier.PARTS})


@lru_cache(maxsize=1)
def bundled_models() -> tuple[Classifier, Classifier] | None:
    """The shipped classifiers (edge, corner), or None when the package holds none."""
    try:
        with resources.files("vision.board").joinpath(MODEL_FILE).open("rb") as handle:
            data = np.load(handle)
            return tuple(Classifier(*(data[f"{name}_{part}"] for part in Classifier.PARTS))
                         for name in ("edge", "corner"))  # type: ignore[return-value]
    except (FileNotFoundError, OSError, KeyError):
        return None


@lru_cache(maxsize=1)
def bundled_kind_model() -> Classifier | None:
    """The shipped kind classifier (settlement or city, from outline_features), or None."""
    try:
        with resources.files("vision.board").joinpath(MODEL_FILE).open("rb") as handle:
            data = np.load(handle)
            return Classifier(*(data[f"kind_{part}"] for part in Classifier.PARTS))
    except (FileNotFoundError, OSError, KeyError):
        return None


#: A slot is said to hold a piece only when the classifier gives "none" less than this.  Chosen on the
#: training boards (make_piece_model): inventing a piece costs a wrong question in Check the board, missing
#: one costs the same, but a crowded board has far more empty slots than pieces.
NONE_BELOW = 0.5


#: The kind classifier's weight in a building's city share (SlotReading.city_share), the corner classifier's the
#: rest.  Chosen on SettlersEye's development folds (make_piece_model; its sealed boards not looked at) from 0.3,
#: 0.5, 0.6, 0.7, 0.8: 0.6 gave the fewest kind errors there (127 of the buildings read in their colour, 129 at
#: 0.5).  Then scored once: the sealed boards' kind errors 34 -> 22 (found 73.0 -> 76.2 %, no rules' check),
#: CatanAI's test board 7 -> 3 (invented 2.5 -> 1.3 %).
KIND_WEIGHT = 0.6

#: The pieces of one colour a Catan set holds (the 3-4 box and the 5-6 extension alike): 15 roads, 5 settlements,
#: 4 cities.  A photo of a table playing with one set cannot show more of a colour than that, whatever the game
#: and its state: it is a count of plastic, not a rule of play (SlotReading.within_supply).  None of SettlersEye's
#: 29 development photos' labelled colours holds more (at most 15 / 5 / 4); their readings held more in 42 of the
#: 116 colour-photos (22 with more than 4 cities, 13 with more than 5 settlements, 7 with more than 15 roads).
SUPPLY = {"road": 15, "settlement": 5, "city": 4}


@dataclass
class SlotReading:
    """What the classifiers say of every slot: a probability per class (EDGE_CLASSES for each of EDGES,
    CORNER_CLASSES for each of CORNERS), and where the slots lie in the photo."""
    edges: np.ndarray
    corners: np.ndarray
    homography: np.ndarray
    scale: float = 1.0             # the image's pixels per photo pixel
    city_chance: np.ndarray | None = None   # per corner, the kind classifier's P(city | a building stands)

    def city_share(self, index: int, colour: int) -> float:
        """Of a building of ``colour`` at CORNERS[index], the chance it is a city: the corner classifier's
        share and the kind classifier's, weighed 1 - KIND_WEIGHT to KIND_WEIGHT.  Alone the corner classifier
        is sure and wrong too often (held out on SettlersEye, 27 of the 135 cities it gave 0.99 were
        settlements); the outline's figures see the building's size, which its patch hardly does at 7 px."""
        p = self.corners[index]
        settlement, city = float(p[1 + colour]), float(p[1 + len(COLOURS) + colour])
        share = city / max(settlement + city, 1e-9)
        if self.city_chance is None:
            return share
        return (1.0 - KIND_WEIGHT) * share + KIND_WEIGHT * float(self.city_chance[index])

    def pixel(self, point) -> tuple[float, float]:
        x, y = cv2.perspectiveTransform(np.array([[point]], np.float64), self.homography)[0, 0]
        return (float(x) / self.scale, float(y) / self.scale)

    def all_pieces(self) -> list[Piece]:
        """Every slot whose "none" is under NONE_BELOW, with its likeliest piece: at a corner the likeliest
        colour (settlement and city together), then the likelier kind of it; then held to the set's pieces
        (within_supply)."""
        found = []
        for e, p in zip(EDGES, self.edges):
            if p[0] < NONE_BELOW:
                best = 1 + int(np.argmax(p[1:]))
                found.append(Piece("road", COLOURS[best - 1], e, self.pixel(edge_point(e)), float(p[best])))
        for i, (v, p) in enumerate(zip(CORNERS, self.corners)):
            if p[0] < NONE_BELOW:
                settlement, city = p[1:1 + len(COLOURS)], p[1 + len(COLOURS):]
                colour = int(np.argmax(settlement + city))
                found.append(self._building(i, colour, float(settlement[colour] + city[colour])))
        return self.within_supply(found)

    def _building(self, index: int, colour: int, chance: float, kind: str | None = None) -> Piece:
        """The building of ``colour`` at CORNERS[index]: of the likelier kind, or of ``kind``."""
        city_share = self.city_share(index, colour)
        kind = kind or ("city" if city_share > 0.5 else "settlement")
        v = CORNERS[index]
        return Piece(kind, COLOURS[colour], v, self.pixel(corner_point(v)), chance,
                     city_share if kind == "city" else 1.0 - city_share)

    def within_supply(self, pieces: list[Piece]) -> list[Piece]:
        """``pieces`` (all_pieces' first reading) with no colour holding more roads, settlements or cities than a
        set has (SUPPLY).  Roads, then buildings, surest first, each keep their colour while it has pieces
        left; one beyond goes to the likeliest colour that has, when that colour beats "none" there, or is not
        said.  Then, per colour, the buildings most like a city are the cities: as many as the reading says,
        but at most SUPPLY["city"], and at least as many as leave SUPPLY["settlement"] settlements.  On
        SettlersEye's development folds (docs/board-reader.md, session 19) this took the pieces invented from
        27.0 to 25.3 % and found 71.5 -> 72.3 %, most of it settlements and cities told apart."""
        said: dict[tuple, Piece] = {}
        for kinds, chances, limit in ((("road",), self.edges, SUPPLY["road"]),
                                      (("settlement", "city"), self.corners,
                                       SUPPLY["settlement"] + SUPPLY["city"])):
            used = dict.fromkeys(COLOURS, 0)
            slots = EDGES if kinds == ("road",) else CORNERS
            for piece in sorted((p for p in pieces if p.piece in kinds), key=lambda p: -p.confidence):
                if used[piece.color] < limit:
                    used[piece.color] += 1
                    said[piece.at] = piece
                    continue
                index = slots.index(piece.at)
                p = chances[index]
                colour_chance = p[1:1 + len(COLOURS)] + (p[1 + len(COLOURS):] if len(p) > 1 + len(COLOURS)
                                                         else 0.0)
                room = [c for c in range(len(COLOURS)) if used[COLOURS[c]] < limit]
                if not room:
                    continue
                best = max(room, key=lambda c: colour_chance[c])
                if colour_chance[best] <= p[0]:
                    continue
                used[COLOURS[best]] += 1
                said[piece.at] = (Piece("road", COLOURS[best], piece.at, piece.pixel, float(colour_chance[best]))
                                  if kinds == ("road",) else self._building(index, best, float(colour_chance[best])))
        for colour in COLOURS:
            buildings = [p for p in said.values() if p.piece != "road" and p.color == colour]
            share = {p.at: self.city_share(CORNERS.index(p.at), COLOURS.index(colour)) for p in buildings}
            cities = sum(p.piece == "city" for p in buildings)
            cities = max(min(cities, SUPPLY["city"]), len(buildings) - SUPPLY["settlement"])
            for rank, p in enumerate(sorted(buildings, key=lambda p: -share[p.at])):
                kind = "city" if rank < cities else "settlement"
                if kind != p.piece:
                    said[p.at] = self._building(CORNERS.index(p.at), COLOURS.index(colour), p.confidence, kind)
        return [said[p.at] for p in pieces if p.at in said]

    def empty_chance(self, slot) -> float:
        """The classifier's probability that nothing stands at ``slot`` (a corner or an edge, the lattice's)."""
        if len(slot) == 2:
            return float(self.edges[EDGES.index(slot)][0])
        return float(self.corners[CORNERS.index(slot)][0])


def read_slots(image: np.ndarray, homography: np.ndarray, scale: float = 1.0,
               models: tuple[Classifier, Classifier] | None = None,
               kind_model: Classifier | None = None) -> SlotReading | None:
    """The classifiers' reading of every slot of the board in ``image`` (BGR), whose lattice maps the canonical
    plane to the image's pixels by ``homography``; None when no classifier is bundled.  The kind classifier
    (settlement or city) is the bundled one unless ``kind_model`` is given; without one the corner classifier
    says the kind alone.  A lattice fitted to the board's outline (no tokens) is read as it is: session 6
    also tried it shrunk by 0.93, the outline's lattice being 7 % too large then; vision/board/outline.py's fix
    (3d85430) made it the hexes' size, and the shrunk copy then lost the pieces (docs/board-reader.md)."""
    models = models or bundled_models()
    if models is None:
        return None
    kind_model = kind_model or bundled_kind_model()
    lab_image = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)  # once: both sets of figures sample the photo in Lab
    edge_features, corner_features = slot_features(image, homography, lab_image)
    city_chance = (kind_model.probabilities(outline_features(image, homography, lab_image))[:, 1]
                   if kind_model is not None else None)
    return SlotReading(models[0].probabilities(edge_features), models[1].probabilities(corner_features),
                       homography, scale, city_chance)


#: A road network with no building of its colour read at its ends is still anchored at a corner at its end where
#: the corner classifier gives a building of that colour at least this much (settlement and city together), when
#: no building is kept there or beside it: a building read too faintly to say is likelier there than a road
#: network standing on nothing.  Chosen on SettlersEye's development folds (bench/bench_pieces_check.py; the
#: sealed boards not looked at) from 0.05/0.1/0.2/0.3: on the reader's lattice the pieces the rules allow on the
#: true boards found 536 -> 554 of 921, invented 26.2 -> 25.9 % (0.05: 555, 26.4 %; 0.2: 548, 25.8 %); on
#: CatanAI's test board nothing changes (97.5 % found, 0.9 % invented).
LATENT_BUILDING = 0.1


def consistent(pieces: list[Piece], slots: SlotReading | None = None) -> list[Piece]:
    """The pieces the game's rules allow to stand together; the others are likelier misread than there.

    - The distance rule: of two buildings on neighbouring corners, the surer stays.
    - A road is part of its owner's network: it touches a building of its colour, or a road of its colour that
      does, and so on.  The network is followed through another colour's building too: that building may have
      been built on the road's end after the road (legal, and it cuts the longest road, not the road), so a
      photo cannot tell.  A road of a colour no building has on the board is taken off with the rest.
    - With ``slots`` (the reading the pieces came from), a network is also anchored by a building read too
      faintly to be said (LATENT_BUILDING): a missed building need not take its roads with it.
    Held out (docs/board-reader.md), this took the pieces invented on another table's board from 40 to 13
    and found one piece fewer.  On SettlersEye's boards it loses half the pieces found, but mostly because those
    boards are staged for the camera, not played: given their true pieces it keeps 1,116 of 1,968 (session 9).
    What it drops but was read surely is :func:`doubtful`: asked, not said."""
    buildings: dict[tuple, Piece] = {}
    for p in sorted((p for p in pieces if p.piece != "road"), key=lambda p: -p.confidence):
        if not any(n in buildings for n in vertex_neighbours(p.at)):
            buildings[p.at] = p
    roads = {p.at: p for p in pieces if p.piece == "road"}
    anchors = {(v, b.color) for v, b in buildings.items()}
    if slots is not None:
        corner_index = {v: i for i, v in enumerate(CORNERS)}
        for edge, road in roads.items():
            colour = COLOURS.index(road.color)
            for v in edge_vertices(edge):
                if v not in corner_index or v in buildings or any(n in buildings for n in vertex_neighbours(v)):
                    continue
                p = slots.corners[corner_index[v]]
                if p[1 + colour] + p[1 + len(COLOURS) + colour] >= LATENT_BUILDING:
                    anchors.add((v, road.color))
    linked: set = set()
    frontier = [e for e, r in roads.items() if any((v, r.color) in anchors for v in edge_vertices(e))]
    linked.update(frontier)
    while frontier:
        edge = frontier.pop()
        colour = roads[edge].color
        for v in edge_vertices(edge):
            for nxt in vertex_edges(v):
                if nxt in roads and nxt not in linked and roads[nxt].color == colour:
                    linked.add(nxt)
                    frontier.append(nxt)
    return [p for p in pieces if buildings.get(p.at) is p or (p.piece == "road" and p.at in linked)]


#: A piece the rules' check drops is still asked about (not said, not silent) when it was read with at least this.
#: On CatanAI's test board (a game played by the rules) the check drops 34 pieces in 6 photos, one of them real;
#: 10 were read with >= 0.9 (the real one among them).  On SettlersEye's development folds (staged boards that
#: break the rules) it drops 987 on the reader's lattice, 732 real; of the 679 read with >= 0.9, 584 are real.
ASK_FLOOR = 0.9


def doubtful(pieces: list[Piece], slots: SlotReading | None = None, kept: list[Piece] | None = None) -> list[Piece]:
    """The pieces :func:`consistent` drops that were read with at least ASK_FLOOR: the rules say no, the photo
    says yes -- a person at the table is to look (their places are in the CLI's ``unsure``).  ``kept``: what
    consistent(pieces, slots) gave, when the caller has it."""
    kept_ids = {id(p) for p in (consistent(pieces, slots) if kept is None else kept)}
    return [p for p in pieces if id(p) not in kept_ids and p.confidence >= ASK_FLOOR]


def checked(slots: SlotReading) -> list[Piece]:
    """What a reading says is on the board: the pieces the rules' check keeps and those it asks about
    (:func:`doubtful`); a piece that breaks the rules and was read unsurely is left out.  For Check the board's
    list: on CatanAI's test board (a game holding every piece shown) its misreading rows fall from 40 to 16 with
    every lacking piece still listed (317 of 324, 305 as sure), against listing every piece read."""
    every = slots.all_pieces()
    kept = consistent(every, slots)
    return kept + doubtful(every, slots, kept)


def read_pieces(image: np.ndarray, homography: np.ndarray, scale: float = 1.0,
                models: tuple[Classifier, Classifier] | None = None, rules: bool = True) -> list[Piece]:
    """The pieces standing on the board in ``image`` (BGR), whose lattice maps the canonical plane to the
    image's pixels by ``homography``.  ``scale`` is the image's pixels per photo pixel (the reader works on a
    resized copy); a Piece's pixel is the photo's.  With ``rules``, only those the game's rules let stand
    together (:func:`consistent`).  Empty when no classifier is bundled."""
    slots = read_slots(image, homography, scale, models)
    if slots is None:
        return []
    return consistent(slots.all_pieces(), slots) if rules else slots.all_pieces()


#: Check the board lists a difference as sure only when the photo is: a road or a settlement said with at least
#: PIECE_FLOOR that the rules' check keeps, or a slot empty with at least EMPTY_FLOOR.  Set looking at CatanAI's
#: board (never trained on; docs/board-reader.md, bench/bench_check_rows.py): a road the reader missed there
#: was called empty with up to 0.959; with these floors none of its 6 photos' 48 false differences is sure.
PIECE_FLOOR = 0.9
EMPTY_FLOOR = 0.98
#: A city is sure only when its kind is too: of a building said a city, SlotReading.city_share at least this.
#: Calibrated held out on SettlersEye's 3 folds (make_piece_model, refitted lattice, the rules' check): of the
#: cities said with this share, 57 of 64 were cities of that colour (89 %; by the corner classifier's share
#: alone 136 of 197); of those that were buildings of that colour, 71 of 76 were cities.  On CatanAI's held-out
#: board no settlement reaches 0.7.  With KIND_WEIGHT 0.6 (session 6): 45 of 46 right on the development folds,
#: 10 of 13 on the sealed boards (12 of 16 before).
CITY_FLOOR = 0.9


def sure_of(difference, slots: SlotReading, turns: int) -> bool:
    """Whether the photo is sure of ``difference`` (vision.board.piece_check.Difference, in the game's turn;
    ``turns`` lays the reading on the game's board, piece_check.best_turn): sure of the piece it shows, or sure
    the slot is empty.  An unsure one is to be looked at on the table, not tapped through.  A city is sure only
    when its kind is as well (CITY_FLOOR): seen from above a city and a settlement differ by a roof and a wing.
    A building whose kind the set's count chose against the photo (SlotReading.within_supply: its kind share
    under a half) is never sure: on SettlersEye's development folds the pieces offered as sure went from 29.9 %
    found / 15.0 % invented to 30.5 / 15.4 % with the count, and to 30.0 / 14.3 % with this (session 19)."""
    spot = tuple(sorted(turned(h, -turns % 6) for h in difference.at))
    if difference.what == "missing_on_photo":
        return slots.empty_chance(spot) >= EMPTY_FLOOR
    read = {p.at: p for p in consistent(slots.all_pieces(), slots)}.get(spot)
    return (read is not None and read.confidence >= PIECE_FLOOR and read.kind_share >= 0.5
            and (read.piece != "city" or read.kind_share >= CITY_FLOOR))


def pieces_of_photo(path, reading, rules: bool = True, unsure: list | None = None) -> list[Piece]:
    """The pieces on the photo at ``path``, whose board ``reading`` (vision.board.reader) has already been made:
    the photo is decoded again at the size the lattice was fitted at (WORK_SIZE on its long side) and turned
    back if the reader read it as a mirror image; each Piece's pixel is the photo file's own.  ``rules``: as
    read_pieces.  ``unsure``, a list, gets the pieces the rules' check drops but the photo shows surely
    (:func:`doubtful`), and the buildings said whose kind the set's count chose (SlotReading.within_supply: the
    photo took it for the other kind)."""
    from vision.board.reader import WORK_SIZE
    from vision.image_header import image_size

    width, height = image_size(path)
    image = None
    for flag in (cv2.IMREAD_REDUCED_COLOR_4, cv2.IMREAD_REDUCED_COLOR_2, cv2.IMREAD_COLOR):
        image = cv2.imread(str(path), flag)
        if image is not None and max(image.shape[:2]) >= WORK_SIZE or flag == cv2.IMREAD_COLOR:
            break
    if image is None:
        return []
    work_scale = WORK_SIZE / max(image.shape[:2])
    work = cv2.resize(image, None, fx=work_scale, fy=work_scale,
                      interpolation=cv2.INTER_AREA if work_scale < 1 else cv2.INTER_LINEAR)
    if reading.mirrored:
        work = cv2.flip(work, 1)
    slots = read_slots(work, reading.lattice.homography, WORK_SIZE / max(width, height))
    if slots is None:
        return []
    every = slots.all_pieces()
    found = consistent(every, slots) if rules else every
    asked = doubtful(every, slots, found) if rules else []
    # a building whose kind the set's count chose against the photo (within_supply): said, and asked
    asked += [p for p in found if p.piece != "road" and p.kind_share < 0.5]

    def in_photo(p: Piece) -> Piece:
        return Piece(p.piece, p.color, p.at, (width - 1 - p.pixel[0], p.pixel[1]), p.confidence, p.kind_share)

    if reading.mirrored:
        found, asked = [in_photo(p) for p in found], [in_photo(p) for p in asked]
    if unsure is not None:
        unsure.extend(asked)
    return found


def _place_key(place: list) -> frozenset:
    """A place of ``unsure`` (a hex ``[q, r]``, an edge or corner as a list of hexes) whatever its hexes' order."""
    if place and isinstance(place[0], (int, np.integer)):
        return frozenset([tuple(place)])
    return frozenset(tuple(h) for h in place)


def add_pieces(out: dict, path, reading) -> dict:
    """The CLI's JSON object for a photo (BoardReading.to_json) given its ``pieces`` in the issue's shape, turned
    as its board is; the places of the pieces the rules' check takes for misread but the photo shows surely
    (pieces.doubtful: a person is to look), and of the buildings whose kind the set's count chose, join the
    unsure hexes in ``unsure``, as the issue's "unsure":
    [places] has it; ``ms`` then counts the pieces' reading too.  Each place is listed once: a piece's place
    already there (a coast road on the edge of a harbour asked, written ``[land, sea]``) is not added again."""
    import time

    started = time.perf_counter()
    asked: list[Piece] = []
    out["pieces"] = [p.to_json(reading.photo_turns()) for p in pieces_of_photo(path, reading, unsure=asked)]
    unsure = list(out.get("unsure", []))
    listed = {_place_key(place) for place in unsure}
    for piece in asked:
        place = piece.to_json(reading.photo_turns())["at"]
        if _place_key(place) not in listed:
            listed.add(_place_key(place))
            unsure.append(place)
    out["unsure"] = unsure
    out["ms"] = out.get("ms", 0) + round((time.perf_counter() - started) * 1000.0)
    return out
