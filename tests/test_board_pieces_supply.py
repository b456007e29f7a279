"""A reading holds no colour with more pieces than a Catan set has (vision.board.pieces.SUPPLY, within_supply):
15 roads, 5 settlements, 4 cities.  A count of plastic, not a rule of play: the photo of a table playing with one
set cannot show more, so the least sure beyond it is read again (another colour, the other kind) or not said."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board.pieces import (COLOURS, CORNER_CLASSES, CORNERS, EDGE_CLASSES, EDGES, SUPPLY, SlotReading,
                                 read_slots)

PIECES = Path(__file__).parent / "data" / "boards" / "settlerseye" / "pieces"


def _reading(roads=(), buildings=()) -> SlotReading:
    """``roads``: (edge index, {class: probability}); ``buildings``: (corner index, colour, P(none), city share):
    a building of that colour, settlement and city splitting the rest by the share (no kind classifier)."""
    edges = np.zeros((len(EDGES), len(EDGE_CLASSES)))
    edges[:, 0] = 1.0
    corners = np.zeros((len(CORNERS), len(CORNER_CLASSES)))
    corners[:, 0] = 1.0
    for index, chances in roads:
        edges[index] = [chances.get(c, 0.0) for c in EDGE_CLASSES]
    for index, colour, none, share in buildings:
        row = np.zeros(len(CORNER_CLASSES))
        row[0] = none
        row[CORNER_CLASSES.index(f"{colour} settlement")] = (1 - none) * (1 - share)
        row[CORNER_CLASSES.index(f"{colour} city")] = (1 - none) * share
        corners[index] = row
    return SlotReading(edges, corners, np.eye(3))


def _red_roads(n: int, last: dict) -> list:
    """``n`` red roads read surely (0.99 down to 0.90), then one more read as ``last``."""
    sure = [(i, {"none": 0.01 + 0.006 * i, "red road": 0.99 - 0.006 * i}) for i in range(n)]
    return sure + [(n, last)]


CASES = {
    # 16 red roads: the least sure is read blue when blue beats "none" there, else not said
    "16th red road, blue likelier than nothing": (
        _reading(roads=_red_roads(15, {"none": 0.2, "red road": 0.5, "blue road": 0.3})),
        {"red road": 15, "blue road": 1}),
    "16th red road, nothing likelier than blue": (
        _reading(roads=_red_roads(15, {"none": 0.45, "red road": 0.5, "blue road": 0.05})),
        {"red road": 15}),
    # 6 white cities read: the two least like a city are settlements
    "6 white cities": (
        _reading(buildings=[(i, "white", 0.02, s) for i, s in enumerate((0.9, 0.85, 0.8, 0.75, 0.6, 0.55))]),
        {"white city": 4, "white settlement": 2}),
    # 8 orange settlements read: the three most like a city are cities
    "8 orange settlements": (
        _reading(buildings=[(i, "orange", 0.02, s) for i, s in enumerate((0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4,
                                                                         0.45))]),
        {"orange settlement": 5, "orange city": 3}),
    # 10 blue buildings: the least sure is not said (no other colour there)
    "10 blue buildings": (
        _reading(buildings=[(i, "blue", 0.01 * (i + 1), 0.5 + (0.04 if i % 2 else -0.04)) for i in range(10)]),
        {"blue settlement": 5, "blue city": 4}),
    # a whole set of each colour: read as it is
    "every piece of every colour": (
        _reading(roads=[(i, {"none": 0.1, f"{COLOURS[i // 15]} road": 0.9}) for i in range(60)],
                 buildings=[(i, COLOURS[i // 9], 0.05, 0.8 if i % 9 < 4 else 0.2) for i in range(36)]),
        {**{f"{c} road": 15 for c in COLOURS}, **{f"{c} settlement": 5 for c in COLOURS},
         **{f"{c} city": 4 for c in COLOURS}}),
}


@pytest.mark.parametrize("case", CASES)
def test_no_colour_is_read_with_more_pieces_than_a_set_has(case):
    slots, expected = CASES[case]
    said = Counter(f"{p.color} {p.piece}" for p in slots.all_pieces())
    assert dict(said) == expected


def test_a_played_boards_settlements_and_cities_are_told_apart_by_the_sets_count():
    """board11 `9f69f` (SettlersEye, CC BY 4.0), read by the shipped classifiers: 5 red cities and 3 white ones
    with 6 white settlements read before.  The red city least like one (a settlement labelled) is a settlement, the
    white settlement most like a city (a city labelled) is a city."""
    from vision.board.reader import read_board

    image = cv2.imread(str(PIECES / "board11_jpg.rf.9f69fd5553176ab18efcc4c69331d166.jpg"))
    reading = read_board(image)
    work = cv2.resize(image, None, fx=reading.scale, fy=reading.scale, interpolation=cv2.INTER_AREA)
    said = read_slots(work, reading.lattice.homography).all_pieces()
    counts = Counter((p.color, p.piece) for p in said)
    assert all(counts[(c, k)] <= SUPPLY[k] for c in COLOURS for k in SUPPLY), counts
    at = {p.at: (p.color, p.piece) for p in said}
    assert at[((-1, 0), (-1, 1), (0, 0))] == ("red", "settlement")
    assert at[((0, 1), (0, 2), (1, 1))] == ("white", "city")


def test_a_kind_the_count_chose_is_never_offered_as_sure():
    """5 white buildings all read as cities, surely coloured: the one least like a city is a settlement by the
    set's count, not by the photo, so Check the board does not offer it as sure; the 4 cities the photo shows
    (city share 0.95) are."""
    from types import SimpleNamespace

    from vision.board.pieces import sure_of

    far_apart = [0, 10, 20, 30, 40]   # corners no two of which are neighbours (the rules' check keeps all five)
    slots = _reading(buildings=[(i, "white", 0.02, 0.95 if k < 4 else 0.92) for k, i in enumerate(far_apart)])
    said = {p.at: p for p in slots.all_pieces()}
    assert [said[CORNERS[i]].piece for i in far_apart] == ["city"] * 4 + ["settlement"]
    sure = [sure_of(SimpleNamespace(what="missing_in_game", at=CORNERS[i]), slots, 0) for i in far_apart]
    assert sure == [True] * 4 + [False]


def test_the_command_asks_about_a_building_whose_kind_the_count_chose():
    """`python -m vision board PHOTO --json` on board11 `9f69f`: the red building the photo took for a city and
    the white one it took for a settlement are said in the kind the set's count leaves them (a settlement, a
    city), and their corners are in ``unsure``: a person is to look."""
    from vision.board.lattice import turned
    from vision.board.pieces import add_pieces
    from vision.board.reader import read_board_file

    path = PIECES / "board11_jpg.rf.9f69fd5553176ab18efcc4c69331d166.jpg"
    reading = read_board_file(path)
    out = add_pieces(reading.to_json(path.name), path, reading)
    turns = reading.photo_turns()
    for corner, colour, kind in ((((-1, 0), (-1, 1), (0, 0)), "red", "settlement"),
                                 (((0, 1), (0, 2), (1, 1)), "white", "city")):
        place = [list(h) for h in sorted(turned(h, turns) for h in corner)]
        assert {"piece": kind, "color": colour, "at": place} in [
            {k: p[k] for k in ("piece", "color", "at")} for p in out["pieces"]]
        assert place in out["unsure"], out["unsure"]
