"""The exact pixel preparation shared by the reader at run time and the training script.

Both networks see what these functions produce, so training and reading cannot drift apart:
the detector sees the whole frame shrunk onto a square canvas (:func:`detector_input`), the face
classifier sees one die cut out of the full-resolution frame in colour (:func:`die_patch`).  Colour
matters: red pips on a blue die, or on a dark red die, all but vanish in grey.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Side of the square the detector reads; a 640x640 frame is halved.
DETECTOR_SIZE = 320
#: The detector's output grid is this many input pixels per cell.
DETECTOR_STRIDE = 4
#: Side of the colour square the face classifier reads.
PATCH_SIZE = 32
#: The patch covers the die's box enlarged by this factor, so a slightly off box still holds the face.
PATCH_MARGIN = 1.3
#: Grey used where the canvas extends past the frame.
PAD_VALUE = 114


def detector_scale(height: int, width: int) -> float:
    """Frame pixels -> detector input pixels."""
    return DETECTOR_SIZE / max(height, width)


def detector_input(frame: np.ndarray, scale: float | None = None,
                   out: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    """The frame shrunk (aspect kept) into the top-left of a square canvas, as a 1x3xSxS blob in 0..1.

    ``scale`` (frame pixels to input pixels) defaults to filling the canvas (:func:`detector_scale`); a
    smaller one leaves the rest of the canvas grey.  Returns the blob and the scale used.  ``out`` (a
    1x3xSxS float32 array) receives the blob, the same values, instead of a new array: the reader hands
    ``cv2.dnn`` the same buffer every frame (a new 1.2 MB blob each frame cost ~700 page faults, 2-3 ms of
    system time per read, docs/performance.md).
    """
    height, width = frame.shape[:2]
    scale = min(scale or detector_scale(height, width), detector_scale(height, width))
    canvas = np.full((DETECTOR_SIZE, DETECTOR_SIZE, 3), PAD_VALUE, np.uint8)
    new_w, new_h = max(1, round(width * scale)), max(1, round(height * scale))
    # Area averaging to shrink (no aliasing); a small tray cut from a frame may be enlarged instead.
    interpolation = cv2.INTER_AREA if scale <= 1.0 else cv2.INTER_LINEAR
    canvas[:new_h, :new_w] = cv2.resize(frame, (new_w, new_h), interpolation=interpolation)
    # Planes made contiguous in uint8 first, then one float multiply: the same values as
    # ``astype(float32) / 255`` on the transposed view, in a seventh of the time (0.1 ms, not 0.9).
    planes = np.ascontiguousarray(canvas.transpose(2, 0, 1))[None]
    if out is None:
        return planes.astype(np.float32) * np.float32(1.0 / 255.0), scale
    np.multiply(planes, np.float32(1.0 / 255.0), out=out, dtype=np.float32)
    return out, scale


def patch_transform(centre: tuple[float, float], side: float, angle_deg: float = 0.0) -> np.ndarray:
    """The 2x3 affine matrix taking a square of ``side`` pixels around ``centre`` onto the patch."""
    zoom = PATCH_SIZE / max(side * PATCH_MARGIN, 1e-3)
    matrix = cv2.getRotationMatrix2D(centre, angle_deg, zoom)
    matrix[0, 2] += PATCH_SIZE / 2 - centre[0]
    matrix[1, 2] += PATCH_SIZE / 2 - centre[1]
    return matrix


def die_patch(image: np.ndarray, centre: tuple[float, float], side: float, angle_deg: float = 0.0) -> np.ndarray:
    """The die around ``centre`` as a PATCH_SIZE square, HxWxC float32, contrast-stretched to 0..1.

    The stretch is measured on the middle of the patch (the die's face, not the tray around it)
    and applied to all channels alike, so the pips stand out of the face whatever the die's colour,
    the tray's or the light, while colour differences survive.  ``image`` is BGR (or grey).
    """
    # Work on a small window around the die: cheap, and a big die shrunk to 32 px is blurred
    # first in proportion to the shrink so its pips do not alias away.
    reach = int(side * PATCH_MARGIN * 0.75) + 2
    x0, y0 = int(centre[0]) - reach, int(centre[1]) - reach
    window = _window(image, x0, y0, 2 * reach + 1)
    shrink = side * PATCH_MARGIN / PATCH_SIZE
    local = (centre[0] - x0, centre[1] - y0)
    if shrink > 2.0:
        # Area-average the window down first, so the warp below shrinks it by only about 1.5:
        # as good against aliasing as a blur in proportion to the shrink, and a tenth of the cost.
        window, (used, _) = area_shrunk(window, 1.5 / shrink)
        factor = window.shape[1] / used
        local = ((local[0] + 0.5) * factor - 0.5, (local[1] + 0.5) * factor - 0.5)
        side *= factor
    matrix = patch_transform(local, side, angle_deg)
    patch = cv2.warpAffine(window, matrix, (PATCH_SIZE, PATCH_SIZE), flags=cv2.INTER_LINEAR,
                           borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    if patch.ndim == 2:
        patch = patch[..., None]
    return stretch_contrast(patch)


def area_shrunk(image: np.ndarray, zoom: float) -> tuple[np.ndarray, tuple[int, int]]:
    """``image`` shrunk to ``zoom`` (under 1) of its size by area averaging, and the (width, height) of the part of it
    shrunk, in its pixels: at a zoom of a half or less, the image cut to a multiple of ``k = int(1 / zoom)`` (its last
    k - 1 rows and columns at most left out) is first shrunk k times, OpenCV's fast path for a whole factor, then by
    the rest, a few pixels (a 482 px window to 77 px: 0.35 ms instead of 0.86 in one step at a factor of 6.26; the
    pixels within a level or two of the one step's, docs/performance.md). The result has ``round(side * zoom)``
    pixels a side, the side of the part shrunk."""
    height, width = image.shape[:2]
    step = int(1.0 / zoom) if zoom <= 0.5 else 1
    if step >= 2:
        width, height = width // step * step, height // step * step
        image = cv2.resize(image[:height, :width], (width // step, height // step), interpolation=cv2.INTER_AREA)
    size = (max(1, round(width * zoom)), max(1, round(height * zoom)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA), (width, height)


def stretch_contrast(patch: np.ndarray) -> np.ndarray:
    """A PATCH_SIZE patch (0..255) stretched to 0..1 by the percentiles of its middle (the face)."""
    inner = PATCH_SIZE // 4
    low, high = np.percentile(patch[inner:-inner, inner:-inner], (2, 98))
    return np.clip((patch - low) / max(float(high - low), 8.0), 0.0, 1.0).astype(np.float32)


def _window(image: np.ndarray, x0: int, y0: int, size: int) -> np.ndarray:
    """A ``size`` square of ``image`` from (x0, y0), edge pixels repeated where it leaves the image."""
    height, width = image.shape[:2]
    if x0 >= 0 and y0 >= 0 and x0 + size <= width and y0 + size <= height:
        return image[y0:y0 + size, x0:x0 + size]
    # Edge pixels repeated where the square leaves the image (same as clamping every index).
    left, top = max(0, x0), max(0, y0)
    right, bottom = min(width, x0 + size), min(height, y0 + size)
    if right <= left or bottom <= top:  # wholly outside: clamp to the nearest edge pixel
        xs = np.clip(np.arange(x0, x0 + size), 0, width - 1)
        ys = np.clip(np.arange(y0, y0 + size), 0, height - 1)
        return image[np.ix_(ys, xs)]
    return cv2.copyMakeBorder(image[top:bottom, left:right], top - y0, y0 + size - bottom, left - x0,
                              x0 + size - right, cv2.BORDER_REPLICATE)
