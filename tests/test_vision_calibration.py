"""``measure_gains`` leaves the dice out of the balance when told where they are (the calibration screen's
"Balance on the tray" with dice lying in it), and measures as before when not."""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration, measure_gains


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
