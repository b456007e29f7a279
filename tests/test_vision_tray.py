"""Finding the tray for calibration (``vision.tray.find_tray``) on real photographs: the floor round the dice,
its four corners, grown for dice leaning on the walls.

The tray of one photo was marked by hand (the inner edge of its black rim, in pixels of the 640×640 photo);
the same photo seen by a camera tilted towards the table (a perspective warp: the far edge narrower) must give
the slanted tray, not the rectangle.
"""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import dataset
from vision.calibration import Calibration, is_convex
from vision.reader import DiceReader
from vision.tray import find_tray

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
if not DATA.exists():
    DATA = Path(os.environ.get("CATAN_SHARED", "/work/shared")) / "data" / "dice"
TRAY_SET = DATA / "nell-byler-dice_detection"
PHOTO = TRAY_SET / "images" / "IMG_20191208_111328.jpg"
#: The tray's inner rim in PHOTO, marked by hand (pixels), clockwise from the top left.
MARKED = np.array([(75, 96), (592, 88), (605, 509), (72, 520)], np.float32)
#: A camera tilted towards the table: the photo's top edge seen narrower (the four frame corners go here).
TILTED = np.array([(110, 40), (530, 40), (640, 640), (0, 640)], np.float32)

needs_data = pytest.mark.skipif(not PHOTO.exists(), reason=f"dice photos not found at {TRAY_SET}")


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


def overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex polygons (pixels)."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return inter / (cv2.contourArea(a.astype(np.float32)) + cv2.contourArea(b.astype(np.float32)) - inter)


def in_pixels(corners, frame) -> np.ndarray:
    return np.array(corners, np.float32) * np.array([frame.shape[1], frame.shape[0]], np.float32)


@needs_data
def test_the_tray_found_round_the_dice_is_the_tray_marked_by_hand(reader):
    photo = cv2.imread(str(PHOTO))
    dice = reader.read(photo)
    corners = find_tray(photo, [d.box for d in dice])
    assert overlap(in_pixels(corners, photo), MARKED) > 0.8
    found = Calibration(tray=corners)
    assert all(found.in_tray(d.centre[0] / 640, d.centre[1] / 640) for d in dice)
    assert corners[0] == min(corners, key=sum)  # clockwise from the top left, as the screen's handles


@needs_data
def test_a_tilted_camera_gets_the_slanted_tray(reader):
    photo = cv2.imread(str(PHOTO))
    warp = cv2.getPerspectiveTransform(np.array([(0, 0), (640, 0), (640, 640), (0, 640)], np.float32), TILTED)
    tilted = cv2.warpPerspective(photo, warp, (640, 640), borderMode=cv2.BORDER_REPLICATE)
    marked = cv2.perspectiveTransform(MARKED.reshape(-1, 1, 2), warp).reshape(-1, 2)
    dice = reader.read(tilted)
    assert len(dice) >= 8, "the tilted photo must still show its dice"
    corners = find_tray(tilted, [d.box for d in dice])
    found = in_pixels(corners, tilted)
    assert overlap(found, marked) > 0.8
    # Slanted like the tray: the far (top) edge clearly shorter than the near one.
    assert np.linalg.norm(found[1] - found[0]) < 0.85 * np.linalg.norm(found[2] - found[3])


@needs_data
def test_every_die_of_the_tray_set_lies_in_the_tray_found(reader):
    """All 146 photos of the tray set: the tray found round the dice read holds every labelled die."""
    for item in dataset.list_images(TRAY_SET):
        photo = cv2.imread(str(item.image_path))
        height, width = photo.shape[:2]
        corners = find_tray(photo, [d.box for d in reader.read(photo)])
        assert corners is not None and is_convex(corners), item.image_path.name
        found = Calibration(tray=corners)
        missing = [d.centre for d in item.read_dice(width, height)
                   if not found.in_tray(d.centre[0] / width, d.centre[1] / height)]
        assert not missing, (item.image_path.name, missing)


def test_no_dice_no_tray():
    assert find_tray(np.full((120, 160, 3), 128, np.uint8), []) is None
    # Dice covering the whole picture leave no floor to go by.
    assert find_tray(np.full((120, 160, 3), 128, np.uint8), [(0, 0, 160, 120)]) is None


@needs_data
def test_spare_dice_on_the_table_are_left_out_of_the_tray_found(reader):
    """Two spare dice put on the table, one below the tray and one above it: the tray found round all the
    dice read is the tray, and leaves them out (so they never count)."""
    photo = cv2.imread(str(PHOTO))
    x, y, w, h = reader.read(photo)[0].box
    die = photo[y - 4:y + h + 4, x - 4:x + w + 4].copy()
    table = photo.copy()
    spares = [(300, 585), (500, 20)]  # top-left corners, on the white table round the tray
    for sx, sy in spares:
        table[sy:sy + die.shape[0], sx:sx + die.shape[1]] = die
    dice = reader.read(table)
    assert len(dice) == len(reader.read(photo)) + 2, "the spare dice must be read"
    found = Calibration(tray=find_tray(table, [d.box for d in dice]))
    outside = [d for d in dice if not found.in_tray(d.centre[0] / 640, d.centre[1] / 640)]
    corners = sorted((d.centre[0] - die.shape[1] / 2, d.centre[1] - die.shape[0] / 2) for d in outside)
    assert [v for c in corners for v in c] == pytest.approx([v for c in sorted(spares) for v in c], abs=6)


@needs_data
def test_a_corner_of_the_tray_is_not_cut_off_round_two_dice(reader):
    """Two dice thrown into the middle of the tray (the tray set's own tray with its dice painted out, real die
    crops; 8 throws): a die that lands in one of the tray's corners next time must lie in the tray found.

    The floor's outline is shaded off at a corner (a wall seen wider there); simplifying it to four of its own
    points cut that corner off with a diagonal, and left 13 of the 32 corner places outside the tray."""
    from vision.synthetic import SequenceBuilder, studio_tray_and_crops

    tray, crops = studio_tray_and_crops(reader, dataset.list_images(TRAY_SET)[:40])
    by_face = {f: [c for c in crops if c.face == f] for f in range(1, 7)}
    middle = MARKED.mean(axis=0)
    # A die's centre lies at least about its half diagonal (~ 40 px here) in from the rim's corner.
    corner_dice = [m + (middle - m) / np.linalg.norm(middle - m) * 40 for m in MARKED]
    left_out = []
    for throw in range(8):
        frame = SequenceBuilder(tray, seed=throw).throw(by_face, (2, 5), [(260, 280), (400, 330)],
                                                        pick=throw).still(1).frames[-1]
        dice = reader.read(frame)
        assert len(dice) >= 2, f"throw {throw}: the dice must be read"
        found = Calibration(tray=find_tray(frame, [d.box for d in dice]))
        left_out += [(throw, i) for i, (x, y) in enumerate(corner_dice) if not found.in_tray(x / 640, y / 640)]
    assert len(left_out) <= 4, left_out


@needs_data
def test_a_speck_on_the_tray_floor_is_no_die_once_the_tray_is_calibrated(reader):
    """Two dice on the tray set's own tray (real die crops, the dice painted out of the photo), the tray
    calibrated round them as "Find the tray" does: the reader then looks at the tray enlarged, where a dark dot
    on the floor (~10 px) was read as a white 1 beside the two 44 px dice (a third die: "roll again" on every
    throw at that table).  Seen by taps, in the calibration screen's summary."""
    from vision.synthetic import SequenceBuilder, studio_tray_and_crops

    tray, crops = studio_tray_and_crops(reader, dataset.list_images(TRAY_SET)[:40])
    by_face = {f: [c for c in crops if c.face == f] for f in range(1, 7)}
    frame = SequenceBuilder(tray, seed=5).throw(by_face, (3, 5), [(250, 300), (390, 320)]).still(1).frames[-1]
    calibrated = DiceReader(calibration=Calibration(tray=find_tray(frame, [d.box for d in reader.read(frame)])))
    dice = calibrated.read(frame)
    assert sorted(d.face for d in dice) == [3, 5], dice


@needs_data
def test_a_speck_in_an_empty_calibrated_tray_is_no_die(reader):
    """The same tray, calibrated with two dice in it (their side kept with the calibration, as Save keeps it),
    then emptied: the dot on its floor, alone, was read as a white 1 (the camera view said "still dice: 1").
    A die lying alone keeps being read: the rule is for what is far smaller than a die and unsure."""
    from vision.synthetic import SequenceBuilder, studio_tray_and_crops

    tray, crops = studio_tray_and_crops(reader, dataset.list_images(TRAY_SET)[:40])
    by_face = {f: [c for c in crops if c.face == f] for f in range(1, 7)}
    thrown = SequenceBuilder(tray, seed=5).throw(by_face, (3, 5), [(250, 300), (390, 320)]).still(1)
    frame = thrown.frames[-1]
    dice = reader.read(frame)
    side = float(np.median([max(d.box[2], d.box[3]) for d in dice])) / frame.shape[1]
    calibration = Calibration(tray=find_tray(frame, [d.box for d in dice]), die_side=side)
    assert Calibration.from_json(calibration.to_json()) == calibration  # kept as Save writes it
    calibrated = DiceReader(calibration=calibration)
    empty = thrown.pick_up().still(1).frames[-1]
    assert calibrated.read(empty) == []
    alone = SequenceBuilder(tray, seed=6).throw(by_face, (4,), [(320, 300)]).still(1).frames[-1]
    assert [d.face for d in calibrated.read(alone)] == [4]
