"""SettlersEye's piece boxes as labels on the lattice: which piece stands at which corner or edge.

The export (``settlerseye/pieces``: ``images/*.jpg``, ``labels/*.txt`` in YOLO's format, classes in
``data.yaml``) gives a box round each piece, some beside the board (a player's supply).  A box belongs to the
corner (settlement, city) or edge (road) nearest its centre on the lattice; the lattice the reader fits to these
tokenless boards' outline is a fifth to a third of a hex off, so it is first refitted on the boxes themselves
(each box to its nearest slot, a homography through them, again), which brings the boxes within a tenth of a
hex of their slots.  A box further than LABEL_REACH from any slot, or whose nearest slot is off the land, is
beside the board and not a label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.board.pieces import CORNERS, EDGES, corner_point, edge_point

CLASS_NAMES = ("blue-city", "blue-road", "blue-settlement", "orange-city", "orange-road", "orange-settlement",
               "red-city", "red-road", "red-settlement", "white-city", "white-road", "white-settlement")
LABEL_REACH = 0.35   # canonical units: a box centre further than this from its slot is not on it
CORNER_POINTS = np.array([corner_point(v) for v in CORNERS])
EDGE_POINTS = np.array([edge_point(e) for e in EDGES])


@dataclass
class Box:
    color: str
    piece: str
    x: float          # centre, the photo's pixels
    y: float
    width: float
    height: float

    def holds(self, x: float, y: float, margin: float = 2.0) -> bool:
        return abs(x - self.x) <= self.width / 2 + margin and abs(y - self.y) <= self.height / 2 + margin


@dataclass
class LabelledPhoto:
    board: str        # the board's name in the export (its copies share it: folds keep them together)
    path: Path
    boxes: list[Box]


def load_export(folder: str | Path) -> list[LabelledPhoto]:
    folder = Path(folder)
    photos = []
    for image in sorted((folder / "images").glob("*.jpg")):
        height, width = cv2.imread(str(image)).shape[:2]
        boxes = []
        label = folder / "labels" / (image.stem + ".txt")
        for line in label.read_text().split("\n") if label.exists() else []:
            if not line.strip():
                continue
            k, x, y, w, h = line.split()
            color, piece = CLASS_NAMES[int(k)].split("-")
            boxes.append(Box(color, piece, float(x) * width, float(y) * height, float(w) * width, float(h) * height))
        board = re.match(r"(board\d+)", image.name)
        photos.append(LabelledPhoto(board.group(1) if board else image.stem, image, boxes))
    return photos


def _to_canonical(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points.reshape(-1, 1, 2).astype(np.float64),
                                    np.linalg.inv(homography)).reshape(-1, 2)


def snap(homography: np.ndarray, boxes: list[Box], scale: float) -> list[tuple[int, float]]:
    """Each box's nearest slot of its kind (index into EDGES for a road, CORNERS otherwise) and the distance."""
    canon = _to_canonical(homography, np.array([(b.x * scale, b.y * scale) for b in boxes]))
    out = []
    for (cx, cy), box in zip(canon, boxes):
        points = EDGE_POINTS if box.piece == "road" else CORNER_POINTS
        d = np.hypot(points[:, 0] - cx, points[:, 1] - cy)
        i = int(np.argmin(d))
        out.append((i, float(d[i])))
    return out


def refit_on_boxes(homography: np.ndarray, boxes: list[Box], scale: float, rounds: int = 6) -> np.ndarray:
    """The lattice refitted so the boxes sit on their slots (RANSAC: boxes beside the board drop out)."""
    pixels = np.array([(b.x * scale, b.y * scale) for b in boxes], np.float64)
    for _ in range(rounds):
        snapped = snap(homography, boxes, scale)
        slots = np.array([(EDGE_POINTS if b.piece == "road" else CORNER_POINTS)[i]
                          for b, (i, _) in zip(boxes, snapped)])
        spacing_px = np.linalg.norm(cv2.perspectiveTransform(np.array([[[0.0, 0.0]], [[1.0, 0.0]]]),
                                                             homography)[1, 0] - cv2.perspectiveTransform(
            np.array([[[0.0, 0.0]]]), homography)[0, 0])
        refit, _ = cv2.findHomography(slots, pixels, cv2.RANSAC, 0.2 * spacing_px)
        if refit is None:
            break
        homography = refit
    return homography


def slot_labels(homography: np.ndarray, boxes: list[Box], scale: float) -> tuple[dict[int, str], dict[int, str],
                                                                                  list[Box]]:
    """``(edges, corners, on_board)``: class names ("red road", "blue city") by slot index, and the boxes
    that stand on a slot (the others are beside the board)."""
    edges: dict[int, str] = {}
    corners: dict[int, str] = {}
    on_board = []
    for box, (i, d) in zip(boxes, snap(homography, boxes, scale)):
        if d > LABEL_REACH:
            continue
        (edges if box.piece == "road" else corners)[i] = f"{box.color} {box.piece}"
        on_board.append(box)
    return edges, corners, on_board
