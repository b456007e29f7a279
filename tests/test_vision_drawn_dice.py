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
from vision.training.synthetic_dice import PIPS, drawn_die


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
