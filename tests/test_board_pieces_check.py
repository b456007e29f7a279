"""The rules' check on a reading (vision.board.pieces.consistent, doubtful): a building the reader missed does not
take its roads with it when the photo shows a faint trace of it, and what the check drops but the photo shows
surely is asked about, not silenced.  Boards played by the rules (random legal games, companion.rules)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.geometry import vertex_edges, vertex_neighbours
from vision.board.pieces import (ASK_FLOOR, COLOURS, CORNER_CLASSES, CORNERS, EDGE_CLASSES, EDGES, LATENT_BUILDING,
                                 Piece, SlotReading, consistent, doubtful)
from test_board_pieces import _played_further, _reading_of


def _slots(pieces, faint: dict | None = None) -> SlotReading:
    """A reading whose classifiers say exactly ``pieces`` (each sure), and at the corners of ``faint`` (corner:
    colour) a building of that colour with LATENT_BUILDING -- too faint to be said (P(none) stays above 0.5)."""
    edges = np.zeros((len(EDGES), len(EDGE_CLASSES)))
    edges[:, 0] = 1.0
    corners = np.zeros((len(CORNERS), len(CORNER_CLASSES)))
    corners[:, 0] = 1.0
    for p in pieces:
        if p.piece == "road":
            edges[EDGES.index(p.at)] = np.eye(len(EDGE_CLASSES))[EDGE_CLASSES.index(f"{p.color} road")]
        else:
            corners[CORNERS.index(p.at)] = np.eye(len(CORNER_CLASSES))[CORNER_CLASSES.index(f"{p.color} {p.piece}")]
    for v, colour in (faint or {}).items():
        row = np.zeros(len(CORNER_CLASSES))
        row[0], row[1 + COLOURS.index(colour)] = 1.0 - LATENT_BUILDING, LATENT_BUILDING
        corners[CORNERS.index(v)] = row
    return SlotReading(edges, corners, np.eye(3))


def _a_building_holding_roads(pieces):
    """A building whose loss leaves some of its colour's roads touching nothing of their colour, or None."""
    for b in pieces:
        if b.piece == "road":
            continue
        rest = [p for p in pieces if p is not b]
        if len(consistent(rest)) < len(rest):
            return b
    return None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), events=st.integers(12, 300))
def test_a_missed_building_read_faintly_keeps_its_roads(seed, events):
    _, _, pieces = _reading_of(_played_further(seed, events), 0)
    missed = _a_building_holding_roads(pieces)
    if missed is None:
        return
    rest = [p for p in pieces if p is not missed]
    faint = _slots(rest, {missed.at: missed.color})
    assert sorted(consistent(rest, faint), key=repr) == sorted(rest, key=repr)
    # without the faint trace, the roads go with their building (the check before session 9 did so either way)
    assert len(consistent(rest, _slots(rest))) < len(rest)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), events=st.integers(12, 300), data=st.data())
def test_a_faint_trace_beside_a_building_anchors_nothing(seed, events, data):
    # The distance rule holds for what is not said too: a road touching nothing of its colour, with a faint
    # building of its colour at an end next to a kept building, is still taken for a misreading.
    _, _, pieces = _reading_of(_played_further(seed, events), 0)
    taken = {p.at for p in pieces}
    buildings = {p.at for p in pieces if p.piece != "road"}
    lone = [(e, v) for e in EDGES if e not in taken for v in CORNERS if len(set(v) & set(e)) == 2
            and any(n in buildings for n in vertex_neighbours(v))
            and not any(p.color == "blue" and (p.at in vertex_edges(w) or p.at == w)
                        for w in CORNERS if len(set(w) & set(e)) == 2 for p in pieces)]
    if not lone:
        return
    edge, corner = data.draw(st.sampled_from(lone[:20]))
    misread = Piece("road", "blue", edge, (0.0, 0.0), 0.6)
    said = pieces + [misread]
    assert sorted(consistent(said, _slots(said, {corner: "blue"})), key=repr) == sorted(pieces, key=repr)


def test_a_piece_the_rules_drop_is_asked_about_when_read_surely_and_dropped_silently_when_not():
    _, _, pieces = _reading_of(_played_further(7, 120), 0)
    taken = {p.at for p in pieces}
    lone = [e for e in EDGES if e not in taken and not any(
        p.color == "orange" and (p.at in vertex_edges(v) or p.at == v) for v in CORNERS if len(set(v) & set(e)) == 2
        for p in pieces)]
    sure = Piece("road", "orange", lone[0], (0.0, 0.0), ASK_FLOOR + 0.05)
    faint = Piece("road", "orange", lone[-1], (0.0, 0.0), ASK_FLOOR - 0.2)
    said = pieces + [sure, faint]
    assert sure not in consistent(said) and faint not in consistent(said)
    assert doubtful(said) == [sure]


def test_a_lone_misreading_is_left_out_of_what_is_listed_and_a_sure_one_is_asked():
    from vision.board.pieces import checked

    _, _, pieces = _reading_of(_played_further(11, 150), 0)
    taken = {p.at for p in pieces}
    lone = [e for e in EDGES if e not in taken and not any(
        p.color == "orange" and (p.at in vertex_edges(v) or p.at == v) for v in CORNERS if len(set(v) & set(e)) == 2
        for p in pieces)]
    slots = _slots(pieces)
    unsure_road = np.zeros(len(EDGE_CLASSES))
    unsure_road[0], unsure_road[EDGE_CLASSES.index("orange road")] = 0.4, 0.6
    slots.edges[EDGES.index(lone[0])] = unsure_road
    slots.edges[EDGES.index(lone[-1])] = np.eye(len(EDGE_CLASSES))[EDGE_CLASSES.index("orange road")]
    listed = {(p.piece, p.color, p.at) for p in checked(slots)}
    assert listed == {(p.piece, p.color, p.at) for p in pieces} | {("road", "orange", lone[-1])}


def test_the_cli_lists_as_unsure_the_places_of_pieces_the_rules_drop_but_the_photo_shows():
    # CatanAI's test4_1 (never trained on): what the rules' check takes for misread but the photo shows surely
    # (pieces.doubtful) is not in "pieces"; its place (an edge: two hexes, a corner: three) is in "unsure",
    # beside the unsure hexes, as the "unsure": [places] has it.
    import json
    import subprocess
    import sys
    from pathlib import Path

    from vision.board.pieces import pieces_of_photo
    from vision.board.reader import read_board_file

    root = Path(__file__).resolve().parent.parent
    photo = root / "tests" / "data" / "boards" / "catanai" / "photos" / "test4_1.jpg"
    run = subprocess.run([sys.executable, "-m", "vision", "board", str(photo), "--json"], cwd=root,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    reading = read_board_file(photo)
    asked: list = []
    pieces_of_photo(photo, reading, unsure=asked)
    assert asked, "test4_1: a white road and a white building read surely, apart from every white piece"
    places = [p.to_json(reading.photo_turns())["at"] for p in asked]
    assert all(place in out["unsure"] for place in places)
    assert not any(p["at"] in places for p in out["pieces"])
