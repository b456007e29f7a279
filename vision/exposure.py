"""A dim table lifted before it is read: the picture brightened when even its brightest part is dark.

An evening table under one lamp, or a webcam that does not open its exposure, gives pictures whose brightest
pixels sit far below white.  The networks were trained on well-lit photos: read as they are, at a fifth of
the light the tray photos keep 68 % of their dice and the desk photos 27 %; brightened first so that their
brightest part is near white again, 98 % and 86 % (docs/vision.md, "A dim table").  The lift only happens
when the picture is dark by this test: no photo of the three sets at its own light is touched.

The brightest part is the 99th percentile of grey (a few white dice or the tray's rim), not the mean: a
black felt tray with white dice on it is well lit and is left alone.  The gain is the same for the three
channels (colours keep their hue) and capped: past it, noise would be lifted as much as the dice.
"""

from __future__ import annotations

import cv2
import numpy as np

#: A picture whose brightest part (99th percentile of grey) is below this is dim, and lifted...
DIM_BELOW = 100.0
#: ...so that its brightest part comes up to this...
LIFT_TO = 220.0
#: ...by at most this gain (a nearly black picture is noise, not dice).
MAX_GAIN = 12.0
#: The percentile of grey that stands for "the brightest part".
BRIGHT_PERCENTILE = 99


def brightest(grey: np.ndarray) -> float:
    """The level of the brightest part of ``grey`` (its :data:`BRIGHT_PERCENTILE`), 255 for an empty one."""
    if grey.size == 0:
        return 255.0
    # The percentile from OpenCV's histogram (the same level, within one, as np.percentile; 0.05 ms for a
    # 320 px view against 0.15 ms by numpy's bincount and more by np.percentile).
    counts = np.cumsum(cv2.calcHist([np.ascontiguousarray(grey)], [0], None, [256], [0, 256]))
    return float(np.searchsorted(counts, counts[-1] * BRIGHT_PERCENTILE / 100))


def too_dark(grey: np.ndarray) -> bool:
    """Whether even the strongest lift leaves ``grey`` dim: the light is off, or the lens covered."""
    return brightest(grey) * MAX_GAIN < DIM_BELOW


def gain_for(grey: np.ndarray) -> float:
    """The gain that lifts ``grey`` (a grey picture, or a part of one) when it is dim; 1.0 when it is not."""
    bright = brightest(grey)
    if bright >= DIM_BELOW:
        return 1.0
    return min(MAX_GAIN, LIFT_TO / max(bright, 1.0))


def frame_gain(frame: np.ndarray, box: tuple[int, int, int, int] | None = None) -> float:
    """:func:`gain_for` the part ``box`` (x0, y0, x1, y1; default all) of a BGR ``frame``, measured on every
    fourth pixel each way (0.25 ms for 640x640, 0.55 ms for 1280x720: a few % of a read)."""
    return gain_for(sampled_grey(frame, box))


def sampled_grey(frame: np.ndarray, box: tuple[int, int, int, int] | None = None) -> np.ndarray:
    """Every fourth pixel each way of the part ``box`` of ``frame``, grey: enough to judge its light."""
    x0, y0, x1, y1 = box or (0, 0, frame.shape[1], frame.shape[0])
    part = frame[y0:y1:4, x0:x1:4]
    return part if part.ndim == 2 else cv2.cvtColor(part, cv2.COLOR_BGR2GRAY)


def lifted(picture: np.ndarray, gain: float) -> np.ndarray:
    """``picture`` (BGR or grey, uint8) times ``gain``, clipped to white; itself when the gain is 1."""
    if gain == 1.0:
        return picture
    return cv2.convertScaleAbs(picture, alpha=gain)
