"""``measure_gains`` leaves the dice out of the balance when told where they are (the calibration screen's
"Balance on the tray" with dice lying in it), and measures as before when not; a tray given by four corners
(a camera at an angle sees a trapezoid) holds the points OpenCV says it holds, is stored, and is checked."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.calibration import Calibration, CalibrationError, measure_gains


def warm_tray_with_a_yellow_die() -> tuple[np.ndarray, tuple[int, int, int, int]]:
    frame = np.zeros((100, 120, 3), np.uint8)
    frame[:] = (60, 90, 140)  # BGR: a dim, orange-lit tray
    box = (40, 30, 40, 40)
    frame[30:70, 40:80] = (20, 220, 240)  # a big yellow die on it
    return frame, box


def test_dice_left_out_of_the_balance_leave_the_tray_neutral():
    frame, box = warm_tray_with_a_yellow_die()
    gains = measure_gains(frame, exclude=[box])
    tray = Calibration(gains=gains).correct_lighting(frame)[0:30].reshape(-1, 3).mean(axis=0)
    assert np.ptp(tray) < 3 and 140 < tray.mean() < 160
    # Measured with the die in it, the yellow die tints the balance: the tray comes out blue.
    tinted = Calibration(gains=measure_gains(frame)).correct_lighting(frame)[0:30].reshape(-1, 3).mean(axis=0)
    assert tinted[0] - tinted[2] > 20


def test_exclusions_outside_or_covering_the_tray():
    frame, box = warm_tray_with_a_yellow_die()
    assert measure_gains(frame, exclude=[]) == measure_gains(frame)
    # A box covering all of the tray leaves nothing to leave out: the whole tray is measured.
    assert measure_gains(frame, exclude=[(0, 0, 120, 100)]) == measure_gains(frame)
    # Only what lies inside the tray counts.
    tray = (0.0, 0.0, 0.3, 1.0)
    assert measure_gains(frame, tray, exclude=[box]) == measure_gains(frame, tray)


# ---------------------------------------------------------------- a tray of four corners

#: A camera at an angle sees a rectangular tray as a trapezoid, narrower at the far (top) edge.
TRAPEZOID = ((0.3, 0.1), (0.7, 0.1), (0.95, 0.9), (0.05, 0.9))

corner = st.floats(0.0, 0.25)


@st.composite
def quadrilaterals(draw):
    """Convex four-cornered trays, clockwise or not: each corner of the unit square pulled inwards."""
    tl = (draw(corner), draw(corner))
    tr = (1 - draw(corner), draw(corner))
    br = (1 - draw(corner), 1 - draw(corner))
    bl = (draw(corner), 1 - draw(corner))
    corners = [tl, tr, br, bl]
    if draw(st.booleans()):
        corners.reverse()
    start = draw(st.integers(0, 3))
    return tuple(corners[start:] + corners[:start])


@settings(max_examples=80, deadline=None)
@given(quadrilaterals(), st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=1, max_size=20))
def test_a_point_is_in_a_four_cornered_tray_as_opencv_says(corners, points):
    cal = Calibration(tray=corners)
    polygon = np.array(corners, np.float32).reshape(-1, 1, 2)
    for x, y in points:
        distance = cv2.pointPolygonTest(polygon, (x, y), True)
        if abs(distance) > 1e-6:  # on the edge either answer is fair
            assert cal.in_tray(x, y) == (distance > 0), (x, y, distance)


def test_a_rectangle_given_as_corners_is_the_same_tray_as_given_by_edges():
    edges = Calibration(tray=(0.1, 0.2, 0.8, 0.9))
    corners = Calibration(tray=((0.1, 0.2), (0.8, 0.2), (0.8, 0.9), (0.1, 0.9)))
    assert corners.bounds == edges.bounds == edges.tray
    assert corners.corners == edges.corners
    assert corners.tray_pixels(640, 480) == edges.tray_pixels(640, 480)
    for point in [(0.05, 0.5), (0.5, 0.5), (0.85, 0.5), (0.5, 0.15), (0.5, 0.95), (0.1, 0.2), (0.8, 0.9)]:
        assert corners.in_tray(*point) == edges.in_tray(*point), point


def test_the_trapezoid_leaves_out_the_table_beside_its_slanted_sides():
    cal = Calibration(tray=TRAPEZOID)
    assert cal.bounds == (0.05, 0.1, 0.95, 0.9)
    assert cal.in_tray(0.5, 0.5) and cal.in_tray(0.1, 0.85)
    assert not cal.in_tray(0.1, 0.15) and not cal.in_tray(0.9, 0.15)  # the top corners of the rectangle
    mask = cal.tray_mask(200, 100)
    x0, y0, x1, y1 = cal.tray_pixels(200, 100)
    assert mask.shape == (y1 - y0, x1 - x0)
    assert mask[mask.shape[0] // 2, mask.shape[1] // 2] and not mask[0, 0] and not mask[0, -1]
    assert 0.6 < mask.mean() < 0.8  # the trapezoid's area, 0.52, over its rectangle's, 0.72
    assert Calibration(tray=(0.1, 0.1, 0.9, 0.9)).tray_mask(200, 100) is None


def test_four_corners_are_stored_and_bad_ones_named(tmp_path):
    path = tmp_path / "cal.json"
    cal = Calibration(tray=TRAPEZOID, colours=("red",), overhead=False)
    cal.save(path)
    assert json.loads(path.read_text())["tray"] == [list(c) for c in TRAPEZOID]
    assert Calibration.load(path) == cal
    bad = {
        "[[0.3, 0.1], [0.7, 0.1], [0.05, 0.9], [0.95, 0.9]]": "convex",  # edges crossing: a bow tie
        "[[0.1, 0.1], [0.9, 0.1], [0.5, 0.2], [0.5, 0.9]]": "convex",    # a corner dented inwards
        "[[0.1, 0.1], [0.5, 0.1], [0.9, 0.1], [0.5, 0.9]]": "convex",    # three corners in a line
        "[[0.1, 0.1], [1.2, 0.1], [0.9, 0.9], [0.1, 0.9]]": "within 0..1",
        "[[0.1, 0.1], [0.9, 0.1], [0.9, 0.9]]": "four",
        "[[0.1, 0.1], 0.9, [0.9, 0.9], [0.1, 0.9]]": "four",
        '"all"': "list",
    }
    for tray, why in bad.items():
        path.write_text('{"tray": %s}' % tray)
        with pytest.raises(CalibrationError, match=f"cal.json: .*{why}"):
            Calibration.load(path)
        assert path.read_text() == '{"tray": %s}' % tray  # nothing rewritten


def test_the_light_is_balanced_on_the_trapezoid_not_on_the_table_beside_it():
    frame = np.zeros((100, 200, 3), np.uint8)
    frame[:] = (40, 120, 200)  # an orange table...
    cal = Calibration(tray=TRAPEZOID)
    cv2.fillConvexPoly(frame, cal.tray_polygon(200, 100), (90, 100, 110))  # ...round a grey-ish tray
    balanced = Calibration(gains=measure_gains(frame, TRAPEZOID)).correct_lighting(frame)
    tray = balanced[50, 100].astype(int)
    assert np.ptp(tray) <= 3 and 140 <= tray.mean() <= 160
