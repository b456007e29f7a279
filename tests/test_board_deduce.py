"""The hex a photo cannot show, filled from the standard set (vision/board/deduce.py; issue 30)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import cv2
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.board import read_board
from vision.board.deduce import TERRAIN_SET, TOKEN_SET, hidden_number, left_over, unsure_terrain
from vision.board.lattice import LAND

PHOTOS = Path(__file__).parent / "data" / "boards" / "catanai" / "photos"
TOKENS = [n for n, k in TOKEN_SET.items() for _ in range(k)]
TILES = [t for t, k in TERRAIN_SET.items() for _ in range(k)]


@st.composite
def standard_boards(draw):
    """A standard 3-4 board: the set's tiles and tokens dealt at random (the desert without a token)."""
    tiles = draw(st.permutations(TILES))
    terrains = dict(zip(sorted(LAND), tiles))
    producing = [h for h in sorted(LAND) if terrains[h] != "desert"]
    numbers = dict(zip(producing, draw(st.permutations(TOKENS))))
    return terrains, numbers, producing


@settings(max_examples=60, deadline=None)
@given(standard_boards(), st.data())
def test_the_token_under_the_robber_is_the_one_the_set_has_left_over(board, data):
    terrains, numbers, producing = board
    robber = data.draw(st.sampled_from(producing))
    seen = {**numbers, robber: None}
    assert hidden_number(seen, terrains, robber, set()) == (robber, numbers[robber])
    # another token read unsure or not at all: nothing is deduced, the robber's token stays asked
    other = data.draw(st.sampled_from([h for h in producing if h != robber]))
    assert hidden_number(seen, terrains, robber, {other}) is None
    assert hidden_number({**seen, other: None}, terrains, robber, set()) is None
    # the robber on the desert or off the board hides no token
    desert = next(h for h, t in terrains.items() if t == "desert")
    assert hidden_number(dict(numbers), terrains, desert, set()) is None
    assert hidden_number(seen, terrains, None, set()) is None


def test_a_surplus_number_is_another_set_or_a_misreading_and_deduces_nothing():
    assert left_over([n for n in TOKENS if n != 3] + [10], TOKEN_SET) is None  # three 10s: CatanAI's set
    assert left_over(TOKENS[1:], TOKEN_SET) == TOKENS[0]
    assert left_over(TOKENS[2:], TOKEN_SET) is None  # two missing: which is hidden is not known


@settings(max_examples=60, deadline=None)
@given(standard_boards(), st.data())
def test_the_one_unsure_terrain_takes_the_tile_the_set_has_left_over(board, data):
    terrains, _numbers, _producing = board
    h = data.draw(st.sampled_from(sorted(LAND)))
    wrong = data.draw(st.sampled_from(sorted(set(TERRAIN_SET) - {terrains[h]})))
    misread = {**terrains, h: wrong}
    assert unsure_terrain(misread, {h}) == (h, terrains[h])
    other = data.draw(st.sampled_from(sorted(set(LAND) - {h})))
    assert unsure_terrain(misread, {h, other}) is None  # two unsure: the set cannot tell which is which
    assert unsure_terrain(misread, set()) is None


def test_a_real_photo_fills_the_robbers_token_from_the_set_and_still_asks():
    """test4_3: the robber on a pasture's token, the 17 others read surely.  The set's last token is a 3, and
    it is filled in -- but the hex stays asked: this physical set has three 10s, and the hidden token is the
    third 10 (a deduction is not a reading)."""
    reading = read_board(cv2.imread(str(PHOTOS / "test4_3.jpg")))
    assert reading.robber is not None and reading.terrains[reading.robber] == "pasture"
    assert reading.deduced == [reading.robber]
    assert reading.numbers[reading.robber] == 3
    assert reading.robber in reading.unsure
    assert all(n is not None for n in reading.numbers.values())


def test_three_tens_in_sight_deduce_nothing_and_the_command_says_what_was_deduced():
    """test4_2 shows three 10s (more than a standard set holds): the robber's token stays null and asked.
    The command's text names a deduced hex as such."""
    reading = read_board(cv2.imread(str(PHOTOS / "test4_2.jpg")))
    assert reading.deduced == [] and reading.numbers[reading.robber] is None
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-m", "vision", "board", str(PHOTOS / "test4_3.jpg")], cwd=root,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("(deduced)?") == 1 and "pasture 3 (deduced)?" in out.stdout
