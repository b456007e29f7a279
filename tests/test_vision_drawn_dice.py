"""The drawn dice the face classifier is trained with (vision/training/synthetic_dice.py).

Training itself needs torch and is not run here; what a wrong drawing would teach the classifier is
checked instead: each face has its pip count in the layout of a real die, and the patch is shaped
and scaled like a cut from a photo.
"""

import random

import cv2
import numpy as np
import pytest

from vision.preprocess import PATCH_SIZE
from vision.training.synthetic_dice import PIPS, drawn_die, streak_mask


@pytest.mark.parametrize("face", range(1, 7))
def test_each_face_has_its_pip_count_laid_out_like_a_real_die(face):
    pips = PIPS[face]
    assert len(pips) == face
    # Every real die face looks the same turned half round.
    assert sorted(pips) == sorted((-x, -y) for x, y in pips)


@pytest.mark.parametrize("face", range(1, 7))
def test_a_drawn_die_is_a_patch_like_one_cut_from_a_photo(face):
    table = np.full((90, 90, 3), (60, 120, 40), np.uint8)
    patch = drawn_die(table, face, random.Random(face))
    assert patch.shape == (PATCH_SIZE, PATCH_SIZE, 3)
    assert patch.dtype == np.float32
    assert 0.0 <= patch.min() and patch.max() <= 1.0
    assert patch.max() - patch.min() > 0.5  # stretched: the die stands out of the table


def test_a_plain_drawn_die_shows_its_pips_as_separate_spots():
    # With a plain white body and black pips, the dark spots inside the face are the pips.
    for face in range(1, 7):
        for seed in range(40):
            rng = random.Random(seed)
            patch = drawn_die(np.full((90, 90, 3), 30, np.uint8), face, rng)
            grey = cv2.cvtColor((patch * 255).astype(np.uint8), cv2.COLOR_BGR2GRAY)
            body = grey > 200
            if body.sum() < 0.35 * grey.size:  # not a plain light body: try another draw
                continue
            contours, _ = cv2.findContours(body.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            face_area = np.zeros_like(grey)
            cv2.fillPoly(face_area, [cv2.convexHull(max(contours, key=cv2.contourArea))], 1)
            face_area = cv2.erode(face_area, np.ones((3, 3), np.uint8), iterations=2)
            dark_in_face = ((grey < 100) & (face_area > 0)).astype(np.uint8)
            count = cv2.connectedComponents(dark_in_face)[0] - 1
            assert count == face, f"face {face}, seed {seed}: {count} spots"
            break
        else:
            pytest.fail(f"no plain light die drawn for face {face} in 40 tries")


def _face(size: int = 128, side: float = 90.0):
    face = np.zeros((size, size), np.float32)
    half = side / 2
    face[int(size / 2 - half):int(size / 2 + half), int(size / 2 - half):int(size / 2 + half)] = 1.0
    return face, (size / 2, size / 2), side


def test_a_marbled_dies_streaks_are_thin_curves_across_its_face():
    # The dark marbled red-pip dice (docs/vision.md): the swirl's light streaks run across the face among the
    # pips, one to three, each a line 1-2 px wide at the patch's size -- what the classifier must learn is no pip.
    face, centre, side = _face()
    for seed in range(30):
        streak = streak_mask(face, centre, side, random.Random(seed))
        on = streak > 0.5
        assert on.any(), seed
        assert not (streak[face == 0] > 0).any(), seed  # on the face only
        assert on.sum() < 0.25 * face.sum(), seed  # thin: most of the face is the body
        ys, xs = np.nonzero(on)
        assert max(xs.max() - xs.min(), ys.max() - ys.min()) > 0.3 * side, seed  # across the face, not a blob or a pip
    one = streak_mask(face, centre, side, random.Random(3), count=1, width=4) > 0.5
    # one curve 4 px wide: its area is its length times its width (a line, not a filled shape)
    length = cv2.arcLength(max(cv2.findContours(one.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0],
                               key=cv2.contourArea), False) / 2
    assert 2.5 <= one.sum() / length <= 6.0


def test_a_drawn_marbled_die_is_dark_with_light_streaks_and_red_pips():
    for face in range(1, 7):
        for seed in range(10):
            patch = drawn_die(np.full((90, 90, 3), (40, 90, 40), np.uint8), face, random.Random(seed), marbled=True)
            middle = patch[8:24, 8:24]
            b, g, r = middle[..., 0], middle[..., 1], middle[..., 2]
            assert np.quantile(middle.max(axis=2), 0.3) < 0.45, (face, seed)  # a dark body round the marks
            assert (middle.min(axis=2) > 0.6).any(), (face, seed)  # something light in all channels: streak or rim
            assert ((r - np.maximum(g, b)) > 0.25).any(), (face, seed)  # red pips
