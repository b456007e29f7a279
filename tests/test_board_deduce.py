"""The hexes a photo cannot show, known from the set as a player knows them (vision/board/deduce.py; issue 30)."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.board import read_board
from vision.board.deduce import (OTHER, TERRAIN_SET, TOKEN_SET, by_elimination, left_over, surplus_note,
                                 unsure_terrain)
from vision.board.labels import load_labels, rotate
from vision.board.lattice import LAND
from vision.board.standard_copy import made_standard

DATA = Path(__file__).parent / "data" / "boards" / "catanai"
PHOTOS = DATA / "photos"
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


@settings(max_examples=80, deadline=None)
@given(standard_boards(), st.data())
def test_the_token_under_the_robber_is_known_from_the_other_17(board, data):
    terrains, numbers, producing = board
    robber = data.draw(st.sampled_from(producing))
    seen = {**numbers, robber: None}
    assert by_elimination(seen, terrains, set()) == {robber: numbers[robber]}
    # the other set, or a desert in doubt: nothing is eliminated, the token stays asked
    assert by_elimination(seen, terrains, set(), token_set=OTHER) == {}
    assert by_elimination(seen, terrains, set(), desert_sure=False) == {}
    # nothing hidden: nothing to deduce
    assert by_elimination(dict(numbers), terrains, set()) == {}


@settings(max_examples=80, deadline=None)
@given(standard_boards(), st.data())
def test_a_second_unknown_token_is_known_only_when_both_left_over_are_the_same_number(board, data):
    """An unsure neighbour, or a second token not read (glare), with the robber's: the two tokens left over
    name both hexes only when they are the same number (two 10s); otherwise both stay asked."""
    terrains, numbers, producing = board
    robber = data.draw(st.sampled_from(producing))
    other = data.draw(st.sampled_from([h for h in producing if h != robber]))
    same = numbers[other] == numbers[robber]
    unsure_neighbour = by_elimination({**numbers, robber: None}, terrains, {other})
    two_hidden = by_elimination({**numbers, robber: None, other: None}, terrains, set())
    for got in (unsure_neighbour, two_hidden):
        assert got == ({robber: numbers[robber], other: numbers[other]} if same else {})


@settings(max_examples=60, deadline=None)
@given(standard_boards(), st.data())
def test_a_misread_neighbour_makes_a_surplus_and_nothing_is_eliminated(board, data):
    """A sure number read wrong is the one thing that could make the elimination wrong; where it shows as a
    number read more often than the set holds, nothing is eliminated (and the reading says so)."""
    terrains, numbers, producing = board
    robber = data.draw(st.sampled_from(producing))
    other = data.draw(st.sampled_from([h for h in producing if h != robber and numbers[h] != numbers[robber]]))
    misread = data.draw(st.sampled_from([n for n in TOKEN_SET if n != numbers[other]]))
    seen = {**numbers, robber: None, other: misread}
    surplus = Counter(v for v in seen.values() if v is not None)[misread] > TOKEN_SET[misread]
    got = by_elimination(seen, terrains, set())
    if surplus:
        assert got == {} and surplus_note(seen).startswith(f"{misread} read ")
    else:  # read as the hidden number: the 17 "sure" ones leave the misread hex's number, asked nowhere
        assert misread == numbers[robber] and got == {robber: numbers[other]}


def test_a_non_standard_set_in_sight_eliminates_nothing_and_says_so():
    """CatanAI's set: three 10s and one 3.  With the robber on a 5, the 17 in sight hold three 10s."""
    terrains = dict(zip(sorted(LAND), TILES))
    producing = [h for h in sorted(LAND) if terrains[h] != "desert"]
    catanai = sorted(TOKENS)
    catanai[catanai.index(3)] = 10
    numbers = dict(zip(producing, catanai))
    robber = next(h for h in producing if numbers[h] == 5)
    seen = {**numbers, robber: None}
    assert by_elimination(seen, terrains, set()) == {}
    assert surplus_note(seen) == "10 read 3 times (the set has 2): a misreading, or not the standard set of tokens"


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


def _labelled(name):
    return next(record for image, record in load_labels(DATA) if image.name == name)


@pytest.mark.parametrize("name", ["test4_2.jpg", "test4_3.jpg"])
def test_a_real_robber_on_a_real_token_of_a_standard_set_is_known_surely(name):
    """A real photo of the robber standing on a token (an 8 on test4_2, a 10 on test4_3), its set made standard
    by pasting the photo's own 3 over one 10 in sight (standard_copy): the hidden token is read by elimination,
    surely (not asked), and is the labelled one."""
    image = cv2.imread(str(PHOTOS / name))
    standard, _ten = made_standard(image, read_board(image))
    reading = read_board(standard)
    record = _labelled(name)
    labels = {tuple(h["at"]): h for h in record["board"]["hexes"]}
    turns = max(range(6), key=lambda k: sum(labels[rotate(h, k)]["terrain"] == t for h, t in reading.terrains.items()))
    hidden = labels[tuple(record["board"]["robber"])]["number"]
    assert list(rotate(reading.robber, turns)) == record["board"]["robber"]
    assert reading.deduced == [reading.robber] and reading.numbers[reading.robber] == hidden
    # the number is sure; the hex stays ringed only when the robber's place itself is asked
    assert (reading.robber in reading.unsure) == (not reading.robber_sure) and reading.set_note is None
    # every other number as labelled but the one 10 turned into a 3: the standard set, read whole
    wrong = [h for h in LAND if reading.numbers.get(h) != labels[rotate(h, turns)].get("number")]
    assert [(labels[rotate(h, turns)]["number"], reading.numbers[h]) for h in wrong] == [(10, 3)]
    assert sorted(n for n in reading.numbers.values() if n is not None) == TOKENS


def test_the_photos_own_set_decides_what_elimination_says():
    """test4_3 as photographed: the robber hides the third 10 of a set with three 10s.  The 17 in sight look
    like a standard set short of a 3 -- no photo can tell -- so the table's set decides: called standard, the
    3 is given as sure (what a player with a standard set would know; wrong for this set); called "other" (as
    the labels call CatanAI's set), the token stays null and asked."""
    image = cv2.imread(str(PHOTOS / "test4_3.jpg"))
    as_standard = read_board(image)
    assert as_standard.deduced == [as_standard.robber] and as_standard.numbers[as_standard.robber] == 3
    assert (as_standard.robber in as_standard.unsure) == (not as_standard.robber_sure)  # ringed for the robber only
    other = read_board(image, token_set=OTHER)
    assert other.deduced == [] and other.robber in other.unsure
    assert _labelled("test4_3.jpg")["token_set"] == OTHER


def test_three_tens_in_sight_deduce_nothing_and_the_command_says_so():
    """test4_2 shows three 10s (more than a standard set holds): the robber's token stays null and asked, and
    the command's text says why.  With --set other the robber's token on test4_3 stays asked; by default the
    text names the eliminated hex as deduced, not asked."""
    reading = read_board(cv2.imread(str(PHOTOS / "test4_2.jpg")))
    assert reading.deduced == [] and reading.robber in reading.unsure
    root = Path(__file__).resolve().parents[1]

    def board(*args):
        out = subprocess.run([sys.executable, "-m", "vision", "board", *args], cwd=root, capture_output=True,
                             text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout

    assert "10 read 3 times (the set has 2): a misreading, or not the standard set of tokens" in board(
        str(PHOTOS / "test4_2.jpg"))
    assert "pasture 3 (deduced)" in board(str(PHOTOS / "test4_3.jpg"))  # "?" after it: the robber is asked
    other = board("--set", "other", str(PHOTOS / "test4_3.jpg"))
    assert "(deduced)" not in other
