"""Whether the camera itself moved between two still views of the tray, and how.

A tablet on a stand beside the board gets knocked: the whole picture shifts (and turns a little) and
stays so.  Every die then lies somewhere new, and where motion passed over all of them: to the roll
detector that looks like a roll of the same faces.  The views before and after are compared on the
tray's own marks (its texture, its rim, the dice that did not move): corners matched between the two
(ORB) and the one shift-turn-scale that carries most of them (RANSAC, so the dice that were rolled
meanwhile do not count).  When that moves the picture by more than a pixel or two, the camera moved.
A plain tray with too few marks to match gives no answer, and the detector goes on as before.
"""

from __future__ import annotations

import cv2
import numpy as np

#: Corners looked for in each view (the views are small, ~320 px).
FEATURES = 400
#: At least this many matched corners must agree on the motion for it to be believed.
MIN_AGREEING = 20
#: ...and at least this share of the matches (a rolled die's marks disagree; the tray's agree).
MIN_AGREEING_SHARE = 0.33
#: The camera moved when the motion carries some corner of the view at least this far (view pixels).
MIN_MOTION = 1.5


def camera_motion(before: np.ndarray, after: np.ndarray) -> np.ndarray | None:
    """The 2×3 matrix carrying points of the grey view ``before`` to where they are in ``after``, when
    the camera moved between them; ``None`` when it did not, or when the views hold too little to tell."""
    if before.shape != after.shape:
        return None
    orb = cv2.ORB_create(FEATURES, edgeThreshold=15, patchSize=15)
    points_before, marks_before = orb.detectAndCompute(before, None)
    points_after, marks_after = orb.detectAndCompute(after, None)
    if marks_before is None or marks_after is None or len(points_before) < MIN_AGREEING \
            or len(points_after) < MIN_AGREEING:
        return None
    matches = cv2.BFMatcher(cv2.NORM_HAMMING, crossCheck=True).match(marks_before, marks_after)
    if len(matches) < MIN_AGREEING:
        return None
    src = np.float32([points_before[m.queryIdx].pt for m in matches])
    dst = np.float32([points_after[m.trainIdx].pt for m in matches])
    matrix, agreeing = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=2.0)
    if matrix is None:
        return None
    count = int(agreeing.sum())
    if count < MIN_AGREEING or count < MIN_AGREEING_SHARE * len(matches):
        return None
    height, width = before.shape[:2]
    corners = np.float32([(0, 0), (width, 0), (width, height), (0, height)])
    carried = corners @ matrix[:, :2].T + matrix[:, 2]
    if float(np.abs(carried - corners).max()) < MIN_MOTION:
        return None
    return matrix
