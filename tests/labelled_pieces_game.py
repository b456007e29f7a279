"""A game holding the pieces labelled on CatanAI's test4/test5 board (tests/data/pieces/catanai_test4.json), for
"Check the board": its UI test (tests/test_ui_board_check.py) and its rows' figures (bench/bench_check_rows.py).
The photos show exactly these pieces, so a difference Check the board lists against this game is a misreading,
except for a piece the game is built ``without``."""

from __future__ import annotations

import json
from pathlib import Path

LABELLED = Path(__file__).parent / "data" / "pieces" / "catanai_test4.json"
COLORS = ["red", "blue", "white", "orange"]


def labelled_pieces() -> list[tuple[str, str, tuple]]:
    """(piece, colour, at) of every labelled piece, ``at`` in the label's (and the game's) coordinates."""
    labels = json.loads(LABELLED.read_text())
    return [(p["piece"], p["color"], tuple(tuple(h) for h in p["at"])) for p in labels["pieces"]]


def record_of_the_labelled_board(without=None):
    """A 4-player base game on the labelled board holding every labelled piece but ``without``: the set-up in
    snake order with labelled settlements and their roads, the rest built as an umpire records what the table
    shows (``forced``); then Aki (red) has rolled a 5 and holds a brick and a lumber, so red may build a road."""
    from companion.record import Record, new_game
    from companion.rules.geometry import vertex_edges
    from vision.board.reader import board_object

    labels = json.loads(LABELLED.read_text())
    label = json.loads((LABELLED.parent / labels["board_label"]).read_text())["board"]
    terrains = {tuple(h["at"]): h["terrain"] for h in label["hexes"]}
    numbers = {tuple(h["at"]): h.get("number") for h in label["hexes"]}
    record = Record("base", [{"name": n, "color": c} for n, c in zip(("Aki", "Ben", "Chie", "Dan"), COLORS)],
                    board_object(terrains, numbers, tuple(label["robber"]), 0))
    game = new_game(record)
    spots: dict[tuple[str, str], list] = {}
    for p in labels["pieces"]:
        spots.setdefault((p["color"], p["piece"]), []).append(tuple(tuple(h) for h in p["at"]))

    def push(event):
        game.push(event)
        record.events.append(event)

    placed = {without}
    for player in (0, 1, 2, 3, 3, 2, 1, 0):
        color = COLORS[player]
        roads = [e for e in spots[(color, "road")] if e not in placed]
        settlement = next(v for v in spots[(color, "settlement")]
                          if v not in placed and any(e in roads for e in vertex_edges(v)))
        road = next(e for e in vertex_edges(settlement) if e in roads)
        for piece, at in (("settlement", settlement), ("road", road)):
            push({"type": "build", "player": player, "piece": piece, "at": [list(h) for h in at]})
            placed.add(at)
    for (color, piece), where in sorted(spots.items()):
        for at in where:
            if at not in placed:
                push({"type": "build", "player": COLORS.index(color), "piece": piece,
                      "at": [list(h) for h in at], "forced": True})
    push({"type": "roll", "dice": [2, 3]})
    push({"type": "set_hand", "player": 0, "cards": {"brick": 1, "lumber": 1}})
    return record, game
