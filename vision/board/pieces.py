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

from companion.rules.geometry import hex_edges, hex_vertices
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
    confidence: float              # the classifier's probability for what it says

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


def patch_features(patch: np.ndarray, board_lab: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
    """A patch's colour figures: Lab percentiles (relative to the board's median), the share of its pixels in
    each of HUE_BANDS saturated hue bands and of pale unsaturated ones (a white piece), and a coarse Lab grid
    (where in the patch the colour is: a road fills its patch's length, a settlement does not)."""
    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32) - board_lab
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    percentiles = np.percentile(lab, (10, 50, 90), axis=0).ravel() / 64.0
    saturated = hsv[:, 1] > 90
    bands = np.bincount((hsv[saturated, 0] * HUE_BANDS / 180).astype(int) % HUE_BANDS, minlength=HUE_BANDS)
    pale = np.mean((hsv[:, 1] < 60) & (hsv[:, 2] > 150))
    dark = np.mean(hsv[:, 2] < 60)
    coarse = cv2.resize(cv2.cvtColor(patch, cv2.COLOR_BGR2LAB), grid, interpolation=cv2.INTER_AREA)
    coarse = (coarse.reshape(-1, 3).astype(np.float32) - board_lab).ravel() / 64.0
    return np.concatenate([percentiles, bands / max(1, len(hsv)), [pale, dark], coarse]).astype(np.float32)


def slot_features(image: np.ndarray, homography: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The features of every edge (len(EDGES) rows) and every corner (len(CORNERS) rows) of the board."""
    plane = flat_plane(image, homography)
    lab = cv2.cvtColor(plane, cv2.COLOR_BGR2LAB).reshape(-1, 3)
    inside = lab[(plane.reshape(-1, 3).sum(axis=1) > 0)]
    board_lab = np.median(inside if len(inside) else lab, axis=0).astype(np.float32)
    edges = np.stack([patch_features(_patch(plane, edge_point(e), edge_angle(e), EDGE_PATCH), board_lab, (4, 2))
                      for e in EDGES])
    corners = np.stack([patch_features(_patch(plane, corner_point(v), 0.0, (CORNER_PATCH, CORNER_PATCH)),
                                       board_lab, (3, 3)) for v in CORNERS])
    return edges, corners


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


def save_models(path, edge_model: Classifier, corner_model: Classifier) -> None:
    np.savez_compressed(path, **{f"{name}_{part}": getattr(model, part)
                                 for name, model in (("edge", edge_model), ("corner", corner_model))
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


#: A slot is said to hold a piece only when the classifier gives "none" less than this.  Chosen on the
#: training boards (make_piece_model): inventing a piece costs a wrong question in Check the board, missing
#: one costs the same, but a crowded board has far more empty slots than pieces.
NONE_BELOW = 0.5


def read_pieces(image: np.ndarray, homography: np.ndarray, scale: float = 1.0,
                models: tuple[Classifier, Classifier] | None = None) -> list[Piece]:
    """The pieces standing on the board in ``image`` (BGR), whose lattice maps the canonical plane to the
    image's pixels by ``homography``.  ``scale`` is the image's pixels per photo pixel (the reader works on a
    resized copy); a Piece's pixel is the photo's.  Empty when no classifier is bundled."""
    models = models or bundled_models()
    if models is None:
        return []
    edge_model, corner_model = models
    edge_features, corner_features = slot_features(image, homography)
    found: list[Piece] = []
    for slots, features, model, classes, where in ((EDGES, edge_features, edge_model, EDGE_CLASSES, edge_point),
                                                   (CORNERS, corner_features, corner_model, CORNER_CLASSES,
                                                    corner_point)):
        probabilities = model.probabilities(features)
        for slot, p in zip(slots, probabilities):
            if p[0] >= NONE_BELOW:
                continue
            best = 1 + int(np.argmax(p[1:]))
            colour, kind = classes[best].split(" ")
            x, y = cv2.perspectiveTransform(np.array([[where(slot)]], np.float64), homography)[0, 0]
            found.append(Piece(kind, colour, slot, (float(x) / scale, float(y) / scale), float(p[best])))
    return found


def pieces_of_photo(path, reading) -> list[Piece]:
    """The pieces on the photo at ``path``, whose board ``reading`` (vision.board.reader) has already been made:
    the photo is decoded again at the size the lattice was fitted at (WORK_SIZE on its long side) and turned
    back if the reader read it as a mirror image; each Piece's pixel is the photo file's own."""
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
    found = read_pieces(work, reading.lattice.homography, WORK_SIZE / max(width, height))
    if reading.mirrored:
        found = [Piece(p.piece, p.color, p.at, (width - 1 - p.pixel[0], p.pixel[1]), p.confidence) for p in found]
    return found


def add_pieces(out: dict, path, reading) -> dict:
    """The CLI's JSON object for a photo (BoardReading.to_json) given its ``pieces`` in the issue's shape, turned
    as its board is; ``ms`` then counts the pieces' reading too."""
    import time

    started = time.perf_counter()
    out["pieces"] = [p.to_json(reading.photo_turns()) for p in pieces_of_photo(path, reading)]
    out["ms"] = out.get("ms", 0) + round((time.perf_counter() - started) * 1000.0)
    return out
