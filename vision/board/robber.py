"""The robber's hex, read by a small trained classifier where colour rules fail (issue 30).

The robber is a grey figure standing on a hex.  On CatanAI's table it is the darkest grey thing on the board
and a rule on each hex's middle finds it (``reader.find_robber``); on SettlersEye's table, in warm light, its
grey-brown is as saturated as the sand and grass around it and the rule scores its hex 0.00-0.01.  It stands
out there by shape and shading -- a figure rising from the hex with its shadow -- which a small convolutional
net sees in each hex's crop.

Each land hex is cut from the photo (the work copy the reader uses) as a square standing upright in the photo
(a figure stands up in the picture whatever the board's turn), ``WINDOW`` neighbour spacings wide and raised by
``RAISE`` spacing (the figure rises from its base towards the top of the picture), resized to ``CROP`` px.
The net (``robber_model.npz``, trained by ``python -m vision.board.make_robber_model``) gives each crop the
probability the robber stands on that hex; it runs here in numpy (three 3x3 convolutions, ~20 ms for 19 hexes).

The hex with the highest probability is the robber's when it reaches ``SURE``; between ``SEEN`` and ``SURE``
(or when a second hex comes within ``MARGIN`` of it) it is given as the robber's hex but **unsure**, so the app
asks; under ``SEEN`` no robber is read, and that is unsure too (the app asks where it stands).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from vision.board.lattice import LAND, Lattice

CROP = 48          # pixels of the net's input square
WINDOW = 1.2       # the crop's side, in distances between neighbouring hex centres
RAISE = 0.15       # the crop's centre is raised this many spacings above the hex's middle (the figure stands up)
SEEN = 0.5         # best hex's probability under this: no robber read
SURE = 0.9         # ... at least this (and no runner-up within MARGIN): read sure
MARGIN = 0.3
MODEL_PATH = Path(__file__).with_name("robber_model.npz")


def hex_crop(image: np.ndarray, centre: tuple[float, float], spacing: float, size: int = CROP,
             window: float = WINDOW) -> np.ndarray:
    """The square of ``window`` spacings around ``centre`` (raised by RAISE spacing) as size x size BGR."""
    side = window * spacing
    cx, cy = centre[0], centre[1] - RAISE * spacing
    scale = size / side
    warp = np.array([[scale, 0.0, size / 2 - cx * scale], [0.0, scale, size / 2 - cy * scale]], np.float64)
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(image, warp, (size, size), flags=interpolation, borderMode=cv2.BORDER_REPLICATE)


def hex_spacing(lattice: Lattice, h: tuple[int, int]) -> float:
    """Distance from ``h``'s centre to its neighbours' in the image (perspective makes it vary)."""
    x, y = lattice.center(h)
    around = [lattice.center((h[0] + dq, h[1] + dr)) for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))]
    return float(np.mean([np.hypot(ax - x, ay - y) for ax, ay in around]))


def land_crops(image: np.ndarray, lattice: Lattice, size: int = CROP, window: float = WINDOW,
               land: tuple = LAND) -> np.ndarray:
    """The land hexes' crops (in ``land``'s order: the 3-4 board's 19, or board56.LAND_56's 30),
    N x size x size x 3, uint8 BGR."""
    return np.stack([hex_crop(image, lattice.center(h), hex_spacing(lattice, h), size, window) for h in land])


def as_input(crops: np.ndarray) -> np.ndarray:
    """uint8 BGR crops (N x H x W x 3) to the net's input: N x 3 x H x W, each crop's own brightness and
    colour cast taken out (another table's light moves a whole crop together)."""
    x = crops.astype(np.float32) / 255.0
    mean = x.mean(axis=(1, 2), keepdims=True)
    std = x.std(axis=(1, 2, 3), keepdims=True) + 0.05
    return ((x - mean) / std).transpose(0, 3, 1, 2).copy()


def _conv_relu(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """3x3 convolution, padding 1, then ReLU: x N x C x H x W, weight K x C x 3 x 3."""
    n, c, h, w = x.shape
    padded = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    windows = np.lib.stride_tricks.sliding_window_view(padded, (3, 3), axis=(2, 3))  # N C H W 3 3
    out = np.einsum("nchwij,kcij->nkhw", windows, weight, optimize=True) + bias[None, :, None, None]
    return np.maximum(out, 0.0)


def _pool(x: np.ndarray) -> np.ndarray:
    n, c, h, w = x.shape
    return x[:, :, :h // 2 * 2, :w // 2 * 2].reshape(n, c, h // 2, 2, w // 2, 2).max(axis=(3, 5))


def logits(weights: dict, x: np.ndarray) -> np.ndarray:
    """The net's score for each input row; the layers as make_robber_model builds."""
    for i in range(3):
        x = _pool(_conv_relu(x, weights[f"conv{i}.weight"], weights[f"conv{i}.bias"]))
    return (x.reshape(len(x), -1) @ weights["fc.weight"].T + weights["fc.bias"])[:, 0]


def forward(weights: dict, x: np.ndarray) -> np.ndarray:
    """Each input row's probability on its own (a model trained hex by hex: make_robber_model's first cut)."""
    return 1.0 / (1.0 + np.exp(-logits(weights, x)))


def photo_probabilities(weights: dict, x: np.ndarray) -> np.ndarray:
    """The hexes' probabilities from their crops' input ``x`` (one row a hex).  A model trained photo by photo
    (``softmax`` in its file: the robber stands on one hex or on none, so the hexes' scores -- 19 in training,
    30 on a 5-6 board -- and a "none" score of 0 share one softmax) reads each crop and its mirror image and averages the two scores; one trained hex by hex,
    a sigmoid each."""
    if not float(weights.get("softmax", 0.0)):
        return forward(weights, x)
    score = (logits(weights, x) + logits(weights, x[..., ::-1].copy())) / 2
    top = max(float(score.max()), 0.0)
    e = np.exp(np.append(score, 0.0) - top)
    return e[:-1] / e.sum()


@lru_cache(maxsize=1)
def bundled_weights() -> dict | None:
    if not MODEL_PATH.exists():
        return None
    with np.load(MODEL_PATH) as data:
        return {k: data[k].astype(np.float32) for k in data.files}


def hex_probabilities(image: np.ndarray, lattice: Lattice, weights: dict | None = None,
                      land: tuple = LAND) -> dict | None:
    """Each land hex's probability that the robber stands on it (None without a model); ``land``: the board's
    land hexes in the lattice's coordinates (the 3-4 board's 19, or board56.LAND_56's 30 -- one softmax over
    them all and "none", so a 5-6 board's probabilities are spread over 31 outputs)."""
    weights = weights if weights is not None else bundled_weights()
    if weights is None:
        return None
    window = float(weights.get("window", WINDOW))
    p = photo_probabilities(weights, as_input(land_crops(image, lattice, window=window, land=land)))
    return dict(zip(land, (float(v) for v in p)))


def decide(probabilities: dict) -> tuple[tuple[int, int] | None, bool]:
    """(robber's hex or None, sure) from each hex's probability."""
    ranked = sorted(probabilities.items(), key=lambda kv: -kv[1])
    (best, p), (_, runner_up) = ranked[0], ranked[1]
    if p < SEEN:
        return None, False  # not seen: a game always has the robber somewhere, so the app asks
    return best, p >= SURE and p - runner_up >= MARGIN


def combine(ruled: tuple[int, int] | None, learned: tuple[int, int] | None, learned_sure: bool
            ) -> tuple[tuple[int, int] | None, bool]:
    """The net's reading checked against the dark-grey rule's hex (reader.find_robber): the same hex, sure; the
    rule seeing nothing (a robber in warm light), the net's reading as it is; the two disagreeing, the net's
    hex where it read one, else the rule's, unsure either way -- the app asks.  (Held out by board, giving the
    net's hex on a disagreement put 19 of 65 photos' robbers right, giving the rule's unless the net was sure
    14: docs/board-reader.md.)"""
    if ruled is not None and ruled == learned:
        return ruled, True
    if ruled is None:
        return learned, learned_sure
    return (learned if learned is not None else ruled), False
