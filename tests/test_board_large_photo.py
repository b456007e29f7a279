"""A phone's 12 MP photo read from a half-size decode (vision/board/reader.read_board_file; issue 30): the
reading is the same, its pixels are the file's own, and a board far off in the frame is read at full size."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.board import read_board
from vision.board.lattice import LAND
from vision.board.reader import COUNT_RADIUS, HALF_DECODE_FROM, read_board_file

PHOTO = Path(__file__).parent / "data" / "boards" / "catanai" / "photos" / "testimg3.jpg"


def test_a_12_mp_photo_reads_as_its_small_copy_in_the_files_own_pixels(tmp_path):
    small = cv2.imread(str(PHOTO))
    factor = 4032 / max(small.shape[:2])
    large = cv2.resize(small, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "phone.jpg"
    cv2.imwrite(str(path), large, [cv2.IMWRITE_JPEG_QUALITY, 92])
    assert max(large.shape[:2]) >= HALF_DECODE_FROM  # decoded at half size
    read, reference = read_board_file(path), read_board(small)
    turns = next(k for k in range(6) if all(read.terrains[h] == reference.terrains[_turn(h, k)] for h in LAND))
    assert sum(read.numbers.get(h) == reference.numbers.get(_turn(h, turns)) for h in LAND) >= 18
    spacing = reference.lattice.spacing / reference.scale * factor  # file pixels between hex centres
    for h in LAND:  # each hex's middle where the photo file has it, not where the half-size copy has it
        x, y = reference.pixel(_turn(h, turns))
        assert math.dist(read.pixel(h), (x * factor, y * factor)) < 0.05 * spacing


def test_a_board_far_off_in_a_large_frame_is_read_again_at_full_size_for_its_prints(tmp_path):
    small = cv2.imread(str(PHOTO))
    board = cv2.resize(small, None, fx=1300 / max(small.shape[:2]), fy=1300 / max(small.shape[:2]),
                       interpolation=cv2.INTER_CUBIC)
    frame = np.full((3024, 4032, 3), (45, 85, 140), np.uint8)  # a wooden table
    frame[1500:1500 + board.shape[0], 2500:2500 + board.shape[1]] = board
    path = tmp_path / "far.jpg"
    cv2.imwrite(str(path), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
    reading = read_board_file(path)
    radius = 0.165 * reading.lattice.spacing / reading.scale  # a token's radius in the file's pixels
    assert radius / 2 < COUNT_RADIUS <= radius + COUNT_RADIUS  # too small to count at half size
    counted = [p for p in reading.token_prints.values() if p is not None]
    assert len(counted) >= 15  # counted from the full-size decode (at half size none would be)
    x, y = reading.pixel((0, 0))
    assert 2500 < x < 2500 + board.shape[1] and 1500 < y < 1500 + board.shape[0]


def _turn(h, k):
    from vision.board.lattice import turned
    return turned(h, k)
