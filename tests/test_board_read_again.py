"""A record's board read again is the same board, and only then (issue 27: a replay reads its board anew).

``new_game`` keeps the boards it read, keyed by the record's board data spelt out with its types
(``format._board_read``); boards are immutable, so a board read again shares its land tables.  The rebuild
checks: a board's terrain tables equal what its tiles give afresh; the same data gives the same board; data
changed in any way -- a hex's terrain, the robber, ``true`` for ``2`` -- gives its own board or its own refusal.
"""

from __future__ import annotations

import copy

import pytest

from companion.record import COLORS, Record, RecordError, new_game, replay
from companion.rules import board_from_json, standard_board
from companion.rules.board import BASE_SPEC

from test_board_shape import boards  # every board the app ships, and both generated sizes


@pytest.mark.parametrize("board", list(boards()), ids=lambda b: f"{len(b.tiles)}-hexes")
def test_land_tables_are_what_the_tiles_say(board):
    land = {h for h, t in board.tiles.items() if t.terrain != "sea"}
    assert board.land == land
    assert all(board.is_land(h) == (h in land) for h in board.tiles) and not board.is_land((99, 99))
    assert board.land_vertices == {v for v in board.vertices if set(v) & land}
    assert board.vertex_land == {v: tuple(h for h in v if h in land) for v in board.vertices}
    numbers = {}
    for h in sorted(board.tiles):
        if board.tiles[h].number is not None and h in land:
            numbers.setdefault(board.tiles[h].number, []).append(h)
    assert board.hexes_by_number == {n: tuple(hs) for n, hs in numbers.items()}
    for e in board.edges:
        assert board.edge_is_land(e) == bool(set(e) & land)
        assert board.edge_is_water(e) == (not set(e) <= land)


def record(board_json):
    return Record("base", [{"name": f"P{i}", "color": COLORS[i]} for i in range(4)], board_json)


def test_the_same_board_data_gives_the_same_board_and_other_data_its_own():
    data = standard_board(5, spec=BASE_SPEC).to_json()
    first = new_game(record(data)).board
    assert new_game(record(copy.deepcopy(data))).board is first  # equal data, read once

    moved = copy.deepcopy(data)
    moved["robber"] = next(e["at"] for e in data["hexes"] if e["terrain"] == "forest")
    assert new_game(record(moved)).board.robber == tuple(moved["robber"]) != first.robber

    changed = copy.deepcopy(data)
    hex_ = next(e for e in changed["hexes"] if e["terrain"] == "forest")
    hex_["terrain"] = "hills"  # (the counts are not checked outside a standard set: a board anybody lays out)
    board = new_game(record(changed)).board
    assert board is not first and board.tiles[tuple(hex_["at"])].terrain == "hills"
    assert new_game(record(data)).board is first

    # the record's own dict changed after a replay: read afresh, not the board of the data it held before
    game = record(copy.deepcopy(data))
    replay(game)
    game.board["hexes"][0]["terrain"], game.board["hexes"][1]["terrain"] = \
        game.board["hexes"][1]["terrain"], game.board["hexes"][0]["terrain"]
    swapped = new_game(game).board
    h0, h1 = (tuple(game.board["hexes"][i]["at"]) for i in (0, 1))
    assert (swapped.tiles[h0].terrain, swapped.tiles[h1].terrain) == \
        (game.board["hexes"][0]["terrain"], game.board["hexes"][1]["terrain"])


def test_a_bad_board_is_refused_every_time_even_beside_its_good_twin():
    data = standard_board(6, spec=BASE_SPEC).to_json()
    new_game(record(data))
    bad = copy.deepcopy(data)
    numbered = next(e for e in bad["hexes"] if e.get("number") == 3)
    numbered["number"] = 3.0  # equal to 3 in Python (and hashed alike), not a number token
    assert bad == data
    for _ in range(2):
        with pytest.raises(RecordError, match="board"):
            new_game(record(bad))
    assert new_game(record(data)).board.tiles == board_from_json(data).tiles
