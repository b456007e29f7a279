"""Boards listing the same hexes share their corner and side tables (issue 27: a replay builds its board
anew from the record).  The rebuild check: whatever a board gets from the shared tables equals what its
own hexes give when computed afresh, and nothing that depends on terrain is shared."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import board_from_json, standard_board
from companion.rules import geometry as geo
from companion.rules.board import BASE_SPEC, EXTENSION_SPEC, Tile, _Shape
from companion.rules.values import replace

BOARDS = Path(__file__).resolve().parents[1] / "companion" / "assets" / "boards"
TABLES = ("vertices", "edges", "vertex_neighbours", "vertex_edges", "hex_corners", "edge_vertices")


def fresh_tables(hexes) -> dict:
    """The tables computed from the hexes alone, straight from the geometry (no board, no sharing)."""
    vertices = frozenset(v for h in hexes for v in geo.hex_vertices(h))
    edges = frozenset(e for h in hexes for e in geo.hex_edges(h))
    return {
        "vertices": vertices,
        "edges": edges,
        "vertex_neighbours": {v: tuple(n for n in geo.vertex_neighbours(v) if n in vertices) for v in vertices},
        "vertex_edges": {v: tuple(e for e in geo.vertex_edges(v) if e in edges) for v in vertices},
        "hex_corners": {h: geo.hex_vertices(h) for h in hexes},
        "edge_vertices": {e: geo.edge_vertices(e) for e in edges},
    }


def boards():
    yield standard_board(1, spec=BASE_SPEC)
    yield standard_board(2, spec=EXTENSION_SPEC)
    for path in sorted(BOARDS.glob("*.json")):
        yield board_from_json(json.loads(path.read_text()), check=False)


@pytest.mark.parametrize("board", list(boards()), ids=lambda b: f"{len(b.tiles)}-hexes")
def test_a_board_gets_the_tables_its_own_hexes_give(board):
    expected = fresh_tables(board.tiles)
    again = board_from_json(board.to_json(), check=False)  # a second board, same hexes: the shared tables
    for name in TABLES:
        assert getattr(board, name) == expected[name], name
        assert getattr(again, name) == expected[name], name
    assert again._shape is board._shape


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), drop=st.integers(0, 36))
def test_boards_with_other_hexes_or_other_terrain_keep_their_own_tables(seed, drop):
    board = standard_board(seed, spec=BASE_SPEC)
    # one hex fewer: other corners and sides, never the tables of the whole board
    hexes = sorted(board.tiles)
    smaller = replace(board, tiles={h: t for h, t in board.tiles.items() if h != hexes[drop % len(hexes)]})
    for name in TABLES:
        assert getattr(smaller, name) == fresh_tables(smaller.tiles)[name], name
    assert smaller._shape is not board._shape
    # the same hexes, one land hex turned to sea: shared corner tables, its own land tables
    land = sorted(board.land)[drop % len(board.land)]
    flooded = replace(board, tiles={**board.tiles, land: Tile("sea")})
    assert flooded._shape is board._shape
    assert flooded.land == board.land - {land}
    assert flooded.land_vertices == frozenset(v for v in flooded.vertices if any(flooded.is_land(h) for h in v))
    assert flooded.vertex_land == {v: tuple(h for h in v if flooded.is_land(h)) for v in flooded.vertices}


def test_the_shape_is_pure_geometry():
    hexes = frozenset(standard_board(3).tiles)
    assert {name: getattr(_Shape(hexes), name) for name in TABLES} == fresh_tables(hexes)
