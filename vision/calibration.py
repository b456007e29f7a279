"""Calibration for one table: where the tray is, which dice count, and the light.

Stored as a small JSON file beside the app's ``settings.json`` (``DATA_DIR/vision-calibration.json``,
see :func:`default_path`), so it survives restarts; ``python -m vision watch``
shows its effect live.

- ``tray``: the part of the frame where dice are read; dice outside it (spare dice, dice on the board) are
  ignored.  Either a rectangle, fractions ``(x0, y0, x1, y1)`` of the frame, or four corners
  ``((x, y), (x, y), (x, y), (x, y))`` in order round the tray (a convex quadrilateral): a camera at
  an angle sees a rectangular tray as a trapezoid, and its bounding rectangle takes in a strip of the
  table -- where spare dice lie -- on each side.
- ``colours``: the die colours that belong to the game (e.g. ``("red", "yellow")``); others on the
  table are ignored.  Empty means every colour.
- ``gains``: per-channel (B, G, R) multipliers measured from a frame of the empty tray so that the
  tray looks neutral and mid-bright under warm or dim light (grey-world balance).
- ``overhead``: the camera looks straight down on the tray, so a flat die shows one face only and a
  die showing two faces side by side is cocked on an edge (:mod:`vision.cocked`).  Off by default: a
  camera at an angle sees a side face of every die.
- ``floor``: the colour (B, G, R, after ``gains``) of the tray's bare surface when the table was
  calibrated, or ``None``.  Die colours are then named relative to it: the reader measures the floor
  again in every frame and corrects each die's colour by the change, so a lamp switched on later, or
  the evening coming, does not rename a yellow die orange (and the colours that count stop counting).
  Faces are read as before.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

COLOURS = ("white", "black", "grey", "red", "orange", "yellow", "green", "blue", "purple", "pink")


class CalibrationError(ValueError):
    """A calibration file or value that cannot be used; the message names the file or field."""


Corners = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]


def is_corners(tray) -> bool:
    """Whether ``tray`` is given as four corners rather than a rectangle's four edges."""
    return len(tray) == 4 and all(isinstance(c, (tuple, list)) for c in tray)


def rectangle_corners(x0: float, y0: float, x1: float, y1: float) -> Corners:
    """A rectangle's corners, clockwise on the picture from the top left (y grows downwards)."""
    return (x0, y0), (x1, y0), (x1, y1), (x0, y1)


def turns(corners) -> list[float]:
    """The cross product at each corner of the polygon: all of one sign round a convex one."""
    n = len(corners)
    out = []
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = corners[i - 1], corners[i], corners[(i + 1) % n]
        out.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    return out


def is_convex(corners, least: float = 1e-6) -> bool:
    """Whether the corners, in order, go round a convex polygon (either way round) without folding."""
    signs = turns(corners)
    return all(t > least for t in signs) or all(t < -least for t in signs)


def _check_tray(tray) -> None:
    if is_corners(tray):
        if not all(len(c) == 2 and 0.0 <= c[0] <= 1.0 and 0.0 <= c[1] <= 1.0 for c in tray):
            raise CalibrationError(f"tray corners must be four (x, y) fractions within 0..1, got {tray}")
        if not is_convex(tray):
            raise CalibrationError(f"tray corners must go round a convex tray in order (no corner inside the "
                                   f"others, no edges crossing), got {tray}")
        return
    if len(tray) != 4 or any(isinstance(v, (tuple, list)) for v in tray):
        raise CalibrationError(f"tray must be (x0, y0, x1, y1) or four (x, y) corners, got {tray}")
    x0, y0, x1, y1 = tray
    if not (0.0 <= x0 < x1 <= 1.0 and 0.0 <= y0 < y1 <= 1.0):
        raise CalibrationError(f"tray must be fractions x0 < x1, y0 < y1 within 0..1, got {tray}")


@dataclass(frozen=True)
class Calibration:
    tray: tuple = (0.0, 0.0, 1.0, 1.0)
    colours: tuple[str, ...] = ()
    gains: tuple[float, float, float] = (1.0, 1.0, 1.0)
    overhead: bool = False
    floor: tuple[float, float, float] | None = None
    #: A die's side when the tray was calibrated, a share of the frame's width (None: no die was in the tray):
    #: what a speck on the floor is measured against when no other die lies beside it.
    die_side: float | None = None

    def __post_init__(self) -> None:
        _check_tray(self.tray)
        if is_corners(self.tray):
            # Tuples all the way down, so that equal calibrations compare equal however they were built.
            object.__setattr__(self, "tray", tuple((float(x), float(y)) for x, y in self.tray))
        unknown = [c for c in self.colours if c not in COLOURS]
        if unknown:
            raise CalibrationError(f"unknown die colour(s) {unknown}; known: {', '.join(COLOURS)}")
        if len(self.gains) != 3 or not all(0.2 <= g <= 5.0 for g in self.gains):
            raise CalibrationError(f"gains must be three multipliers in 0.2..5, got {self.gains}")
        if not isinstance(self.overhead, bool):
            raise CalibrationError(f"overhead must be true or false, got {self.overhead!r}")
        if self.floor is not None:
            if len(self.floor) != 3 or not all(1.0 <= v <= 255.0 for v in self.floor):
                raise CalibrationError(f"floor must be a colour of three levels in 1..255 (B, G, R) or null, "
                                       f"got {self.floor}")
            object.__setattr__(self, "floor", tuple(float(v) for v in self.floor))
        if self.die_side is not None:
            if isinstance(self.die_side, bool) or not isinstance(self.die_side, (int, float)) \
                    or not 0.0 < self.die_side < 1.0:
                raise CalibrationError(f"die_side must be a share of the frame's width in 0..1 or null, "
                                       f"got {self.die_side!r}")
            object.__setattr__(self, "die_side", float(self.die_side))

    @property
    def corners(self) -> Corners:
        """The tray's four corners, in order round it (a rectangle's clockwise from the top left)."""
        return self.tray if is_corners(self.tray) else rectangle_corners(*self.tray)

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """The rectangle ``(x0, y0, x1, y1)`` around the tray."""
        if not is_corners(self.tray):
            return self.tray
        xs, ys = [x for x, _ in self.tray], [y for _, y in self.tray]
        return min(xs), min(ys), max(xs), max(ys)

    def in_tray(self, fx: float, fy: float) -> bool:
        """Whether a point (fractions of the frame) lies in the tray, its edge included."""
        if not is_corners(self.tray):
            x0, y0, x1, y1 = self.tray
            return x0 <= fx <= x1 and y0 <= fy <= y1
        # Inside a convex polygon: on the same side of every edge as its corners turn.
        clockwise = turns(self.tray)[0] > 0
        for (ax, ay), (bx, by) in zip(self.tray, self.tray[1:] + self.tray[:1]):
            side = (bx - ax) * (fy - ay) - (by - ay) * (fx - ax)
            if (side < -1e-12) if clockwise else (side > 1e-12):
                return False
        return True

    def accepts_colour(self, colour: str) -> bool:
        return not self.colours or colour in self.colours

    def correct_lighting(self, frame: np.ndarray) -> np.ndarray:
        if self.gains == (1.0, 1.0, 1.0):
            return frame
        # A per-channel look-up table: one pass over the frame, no float copy of it.
        levels = np.arange(256, dtype=np.float32)[:, None] * np.array(self.gains, np.float32)[None, :]
        table = np.clip(np.round(levels), 0, 255).astype(np.uint8).reshape(1, 256, 3)
        return cv2.LUT(frame, table)

    def tray_pixels(self, width: int, height: int) -> tuple[int, int, int, int]:
        """The rectangle around the tray in pixels of a ``width`` × ``height`` frame: x0, y0, x1, y1 (end
        exclusive)."""
        x0, y0, x1, y1 = self.bounds
        return int(x0 * width), int(y0 * height), int(np.ceil(x1 * width)), int(np.ceil(y1 * height))

    def grown_pixels(self, width: int, height: int, margin: float) -> tuple[int, int, int, int]:
        """:meth:`tray_pixels` grown by ``margin`` of the tray's longer side on every side, cut at the frame's
        edges: the tray with its walls and rim (what the detector, a knocked camera's check and a roll's photo
        look at)."""
        x0, y0, x1, y1 = self.tray_pixels(width, height)
        grow = margin * max(x1 - x0, y1 - y0)
        return max(0, int(x0 - grow)), max(0, int(y0 - grow)), min(width, int(x1 + grow)), min(height, int(y1 + grow))

    def tray_polygon(self, width: int, height: int) -> np.ndarray:
        """The tray's corners in pixels of a ``width`` × ``height`` frame, as ``cv2.polylines`` and
        ``cv2.fillConvexPoly`` take them."""
        return np.array([(round(x * width), round(y * height)) for x, y in self.corners], np.int32)

    def tray_mask(self, width: int, height: int) -> np.ndarray | None:
        """Which pixels of the rectangle :meth:`tray_pixels` lie in the tray (a bool array of its size), or
        ``None`` when the tray is that rectangle."""
        if not is_corners(self.tray):
            return None
        x0, y0, x1, y1 = self.tray_pixels(width, height)
        mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
        cv2.fillConvexPoly(mask, self.tray_polygon(width, height) - np.array([x0, y0], np.int32), 1)
        return mask.astype(bool)

    # ------------------------------------------------------------------ storage

    def to_json(self) -> str:
        return json.dumps({k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}, indent=2)

    @classmethod
    def from_json(cls, text: str, where: str = "calibration") -> "Calibration":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise CalibrationError(f"{where}: not JSON: {error}") from None
        if not isinstance(data, dict):
            raise CalibrationError(f"{where}: expected a JSON object")
        extra = set(data) - {"tray", "colours", "gains", "overhead", "floor", "die_side"}
        if extra:
            raise CalibrationError(f"{where}: unknown field(s) {sorted(extra)}")
        try:
            tray = data.get("tray", [0, 0, 1, 1])
            if not isinstance(tray, list):
                raise ValueError(f"tray must be a list, got {tray!r}")
            tray = tuple(tuple(float(v) for v in c) if isinstance(c, list) else float(c) for c in tray)
            floor = data.get("floor")
            if floor is not None and not isinstance(floor, list):
                raise ValueError(f"floor must be a list of three levels (B, G, R) or null, got {floor!r}")
            return cls(tray=tray,
                       colours=tuple(str(v) for v in data.get("colours", ())),
                       gains=tuple(float(v) for v in data.get("gains", (1, 1, 1))),
                       overhead=data.get("overhead", False),
                       floor=None if floor is None else tuple(float(v) for v in floor),
                       die_side=data.get("die_side"))
        except (TypeError, ValueError) as error:
            raise CalibrationError(f"{where}: {error}") from None

    def save(self, path: str | Path | None = None) -> Path:
        path = Path(path) if path is not None else default_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(self.to_json())
        tmp.replace(path)  # atomic: a crash never leaves half a file
        return path

    @classmethod
    def load(cls, path: str | Path | None = None) -> "Calibration":
        """The stored calibration, or the default one when none was saved yet."""
        path = Path(path) if path is not None else default_path()
        if not path.exists():
            return cls()
        return cls.from_json(path.read_text(), str(path))


FILE_NAME = "vision-calibration.json"


def default_path(data_dir: str | Path | None = None) -> Path:
    """Where the calibration lives: beside the app's ``settings.json`` and journal in ``data_dir``
    (the app's ``--data-dir``), by default the user data directory."""
    if data_dir is None:
        import platformdirs

        data_dir = platformdirs.user_data_dir("catan-companion", appauthor=False)
    return Path(data_dir) / FILE_NAME


def bare_tray(frame: np.ndarray, tray: tuple = (0.0, 0.0, 1.0, 1.0), exclude=(), margin: float = 0.0,
              step: int = 1) -> np.ndarray:
    """The pixels (N × 3, BGR) of the tray's bare surface: inside ``tray`` (edges or corners, as
    ``Calibration.tray``) and outside the boxes ``exclude`` (``(x, y, width, height)`` in frame pixels: the
    dice), each box grown by ``margin`` of its size on every side (a die's shadow).  Every ``step``-th pixel
    of every ``step``-th row.  When the boxes cover the whole tray, the whole tray."""
    x0, y0, x1, y1 = Calibration(tray=tray).tray_pixels(frame.shape[1], frame.shape[0])
    keep = bare_mask(frame.shape, tray, exclude, margin)[y0:y1:step, x0:x1:step]
    region = frame[y0:y1:step, x0:x1:step]
    return region[keep] if keep.any() else region.reshape(-1, 3)


def bare_mask(shape, tray: tuple, exclude=(), margin: float = 0.0) -> np.ndarray:
    """Which pixels of a frame of ``shape`` are the tray's bare surface (a bool array of the frame's size):
    inside ``tray`` and outside the boxes ``exclude``, each grown by ``margin`` of its size on every side."""
    height, width = shape[:2]
    cal = Calibration(tray=tray)
    x0, y0, x1, y1 = cal.tray_pixels(width, height)
    bare = np.zeros((height, width), bool)
    inside = cal.tray_mask(width, height)
    bare[y0:y1, x0:x1] = True if inside is None else inside
    for bx, by, bw, bh in exclude:
        grow_x, grow_y = margin * bw, margin * bh
        bare[max(0, int(by - grow_y)):max(0, int(by + bh + grow_y)),
             max(0, int(bx - grow_x)):max(0, int(bx + bw + grow_x))] = False
    return bare


def measure_gains(empty_tray: np.ndarray, tray: tuple = (0.0, 0.0, 1.0, 1.0),
                  target: float = 150.0, exclude=()) -> tuple[float, float, float]:
    """Per-channel gains that make the empty tray neutral grey at ``target`` brightness.

    ``exclude``: boxes ``(x, y, width, height)`` in frame pixels left out of the measure -- the dice
    lying in the tray, so that a table need not clear its tray to be balanced (a yellow die would
    otherwise tint the balance blue).  When they cover the whole tray, the whole tray is measured.
    """
    means = np.maximum(bare_tray(empty_tray, tray, exclude).astype(np.float64).mean(axis=0), 1.0)
    return tuple(float(np.clip(target / m, 0.2, 5.0)) for m in means)  # type: ignore[return-value]


#: The floor is measured on every FLOOR_STEP-th pixel and row (a 640 px frame: ~6,000 pixels, ~0.3 ms).
FLOOR_STEP = 8


def floor_colour(frame: np.ndarray, tray: tuple = (0.0, 0.0, 1.0, 1.0), exclude=()) -> tuple[float, float, float]:
    """The colour (B, G, R) of the tray's bare surface in ``frame``: the median round the dice ``exclude``
    (boxes grown by a quarter for their shadows), so a hand or a die at the edge does not tint it."""
    pixels = bare_tray(frame, tray, exclude, margin=0.25, step=FLOOR_STEP)
    return tuple(float(np.clip(v, 1.0, 255.0)) for v in np.median(pixels, axis=0))  # type: ignore[return-value]


#: How far round a die its own floor is looked for, in die sides each way (:func:`floor_colours_near`).
FLOOR_REACH = 2.5
#: Fewer bare floor pixels than this near a die (sampled about 8 to a die's side): the whole tray's floor.
FLOOR_NEAR_MIN = 40


def floor_colours_near(frame: np.ndarray, tray: tuple, boxes, reach: float = FLOOR_REACH
                       ) -> list[tuple[float, float, float] | None]:
    """The colour of the tray's bare surface round each die of ``boxes`` (``(x, y, width, height)`` in frame
    pixels): the median of the tray within ``reach`` die sides of the box, outside every die (boxes grown by a
    quarter for their shadows); ``None`` for a die with too little bare tray round it (a heap, a corner).

    A lamp lighting half of the tray, or the shadow of the tray's wall, changes the light on one die and not
    on another: each die's colour is corrected by the light where it lies, not by the tray's average.
    """
    height, width = frame.shape[:2]
    bare = bare_mask(frame.shape, tray, boxes, margin=0.25)
    colours: list[tuple[float, float, float] | None] = []
    for bx, by, bw, bh in boxes:
        side = max(bw, bh)
        step = max(1, int(side / 8))  # ~2,500 pixels round any die: the median costs the same for all sizes
        left, top = max(0, int(bx - reach * side)), max(0, int(by - reach * side))
        right, bottom = min(width, int(bx + bw + reach * side)), min(height, int(by + bh + reach * side))
        keep = bare[top:bottom:step, left:right:step]
        if keep.sum() < FLOOR_NEAR_MIN:
            colours.append(None)
            continue
        pixels = frame[top:bottom:step, left:right:step][keep]
        colours.append(tuple(float(np.clip(v, 1.0, 255.0)) for v in np.median(pixels, axis=0)))
    return colours


def colour_name(bgr) -> str:
    """A coarse name for a BGR colour, from its hue, saturation and brightness."""
    pixel = np.uint8([[np.clip(np.asarray(bgr, np.float64), 0, 255)]])
    hue, sat, val = (int(v) for v in cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0])
    if val < 55:
        return "black"
    if sat < 60:
        return "white" if val > 150 else "grey"
    hue *= 2  # OpenCV hue is 0..179
    if hue < 15 or hue >= 335:
        return "pink" if sat < 120 and val > 180 else "red"
    if hue < 40:
        return "orange"
    if hue < 70:
        return "yellow"
    if hue < 170:
        return "green"
    if hue < 255:
        return "blue"
    if hue < 300:
        return "purple"
    return "pink"
