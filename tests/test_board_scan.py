"""What "Scan the board" takes from the reader (vision/board/scan.py): a tap anywhere inside a hex of the photo
means that hex, also on a turned and slanted copy; corrections change only the hex tapped and take it off the
unsure list; the board handed on is one the rules accept in shape; the picture drawn is the photo's size."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.rules import board_from_json
from vision.board.lattice import LAND
from vision.board.scan import BoardScan, hex_corners

PHOTO = Path(__file__).parent / "data" / "boards" / "catanai" / "photos" / "testimg3.jpg"


@pytest.fixture(scope="module")
def scan() -> BoardScan:
    return BoardScan.of_file(PHOTO)


def slanted(image: np.ndarray) -> np.ndarray:
    """The photo turned 37 degrees and seen at a slant (a tablet held over the table's corner)."""
    h, w = image.shape[:2]
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), 37, 0.8)
    image = cv2.warpAffine(image, turn, (w, h), borderValue=(60, 90, 120))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[0.1 * w, 0.05 * h], [0.92 * w, 0], [w, h], [0, 0.93 * h]])
    return cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (w, h), borderValue=(60, 90, 120))


@pytest.mark.parametrize("copy", ["as taken", "turned and slanted"])
def test_a_tap_inside_a_hex_means_that_hex(scan, copy):
    s = scan if copy == "as taken" else BoardScan.of_image(slanted(cv2.imread(str(PHOTO), cv2.IMREAD_REDUCED_COLOR_4)))
    for h in LAND:
        assert s.hex_at(*s.centre(h)) == h
        # near each corner, a little inside: still that hex
        inner = s.reading.lattice.to_image(hex_corners(h, 0.8))
        for x, y in inner:
            assert s.hex_at(x, y) == h
    assert s.hex_at(2, 2) is None  # the photo's corner is table, not board


def test_corrections_change_the_hex_tapped_only(scan):
    s = BoardScan(scan.photo, scan.reading, dict(scan.terrains), dict(scan.numbers), set(scan.unsure), scan.robber)
    h = sorted(s.unsure)[0] if s.unsure else LAND[0]
    before = s.board_json()
    s.set_terrain(h, "pasture")
    s.set_number(h, 11)
    assert h not in s.unsure
    after = s.board_json()
    changed = [a for a, b in zip(before["hexes"], after["hexes"]) if a != b]
    at = list(s.in_record(h))
    assert all(entry["at"] == at for entry in changed)
    assert {"at": at, "terrain": "pasture", "number": 11} in after["hexes"]
    # the desert takes no number; a tap on a number there changes nothing
    s.set_terrain(h, "desert")
    s.set_number(h, 8)
    assert {"at": at, "terrain": "desert"} in s.board_json()["hexes"]
    with pytest.raises(ValueError):
        s.set_terrain(h, "sea")
    with pytest.raises(ValueError):
        s.set_number(h, 7)


def test_the_board_is_handed_on_turned_as_the_photo_shows_it(scan):
    # Drawn as the app draws a board (pointy-top, y down on screen), the hex at the photo's top is at the top:
    # each hex's direction from the centre agrees with the photo's within 30 degrees.
    import math

    from companion.rules.geometry import pixel_center

    at = {tuple(e["at"]): e for e in scan.board_json()["hexes"]}
    cx, cy = scan.centre((0, 0))
    for h in LAND:
        if h == (0, 0):
            continue
        x, y = scan.centre(h)
        px, py = pixel_center(scan.in_record(h))  # y up
        photo = math.atan2(y - cy, x - cx)
        drawn = math.atan2(-py, px)
        assert abs((photo - drawn + math.pi) % (2 * math.pi) - math.pi) < math.radians(31)
        assert at[scan.in_record(h)]["terrain"] == scan.terrains[h]


def test_the_board_handed_on_has_the_records_shape(scan):
    data = scan.board_json()
    board = board_from_json(data, check=False)
    assert len(data["hexes"]) == 37 and sum(t.is_land for t in board.tiles.values()) == 19
    # the harbours the frame shows come with it, each on a coast edge (land one side, sea the other)
    assert sorted(h["trade"] for h in data["harbors"]) == ["3:1"] * 4 + ["brick", "grain", "lumber", "ore", "wool"]
    assert all(sum(tuple(x) in LAND for x in h["edge"]) == 1 for h in data["harbors"])
    assert len(board.harbors) == 9
    assert tuple(data["robber"]) in LAND
    picture = scan.drawn({"forest": (0.1, 0.4, 0.2)}, selected=LAND[3])
    assert picture.shape == scan.photo.shape and not np.array_equal(picture, scan.photo)


def test_the_harbours_read_are_drawn_on_the_photo_by_ratio_and_resource_colour(scan):
    """Before "Use this board" a person sees each harbour read: a badge on its ship, white for 3:1, the colour
    of the terrain yielding its resource for 2:1 (no words: the app speaks two languages)."""
    colours = {"forest": (0.1, 0.4, 0.2), "hills": (0.8, 0.3, 0.1), "pasture": (0.5, 0.8, 0.3),
               "fields": (0.9, 0.8, 0.2), "mountains": (0.5, 0.5, 0.55), "desert": (0.9, 0.85, 0.6)}
    picture = scan.drawn(colours)
    terrain_of = {"lumber": "forest", "brick": "hills", "wool": "pasture", "grain": "fields", "ore": "mountains"}
    assert len(scan.reading.harbours) == 9
    for harbour in scan.reading.harbours:
        (x, y), radius = scan.harbour_badge(harbour)  # beside its ship (on it at the photo's edge)
        assert math.dist((x, y), scan.reading.lattice.center(harbour.sea)) < scan.reading.lattice.spacing
        b, g, r = picture[y + int(0.75 * radius), x]  # inside the badge, below its text
        want = (1.0, 1.0, 1.0) if harbour.trade == "3:1" else colours[terrain_of[harbour.trade]]
        assert max(abs(int(v) - round(w * 255)) for v, w in zip((r, g, b), want)) <= 12, harbour
