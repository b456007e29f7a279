"""Refusals as data: every reason the rules core gives has a stable code, plain params and one English text.

The first tests read the rules core's source: each place that refuses (``Refusal(code, ...)``,
``self._require(condition, code, ...)``) names a code of ``refusals.TEMPLATES`` with exactly the
params its template uses, and no rule refuses with a bare English string any more.  The others push
real events onto real games and check what a user at the table would be told.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from companion.rules import BoardError, IllegalAction, board_from_json, board_problems, standard_board
from companion.rules.board import BASE_SPEC, Board, Tile
from companion.rules.game import Game
from companion.rules.high_tide import HighTideGame
from companion.rules.refusals import TEMPLATES, Breach, Refusal, fields
from companion.rules.seafarers import SeafarersGame

RULES = Path(__file__).resolve().parents[1] / "companion" / "rules"
GENERIC = {"malformed_event", "illegal_action", "board_format"}


def _emitted() -> dict[str, list[tuple[str, int, set[str]]]]:
    """code -> [(file, line, param names)] for every coded refusal in the rules core's source."""
    found: dict[str, list[tuple[str, int, set[str]]]] = {}
    for path in sorted(RULES.glob("*.py")):
        if path.name in ("errors.py", "refusals.py"):
            continue  # the machinery, which passes codes on
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
            if name == "Refusal" and node.args:
                code_node = node.args[0]
            elif name == "_require" and len(node.args) >= 2:
                code_node = node.args[1]
            else:
                continue
            if isinstance(code_node, ast.Name) and any(k.arg is None for k in node.keywords):
                continue  # the helpers that pass a code on: Refusal(code, **params)
            if not (isinstance(code_node, ast.Constant) and isinstance(code_node.value, str)):
                # one computed code per site, chosen between literal codes: look at both branches
                codes = [n.value for n in ast.walk(code_node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
                assert codes, f"{path.name}:{node.lineno}: a refusal code must be a literal"
            else:
                codes = [code_node.value]
            params = {k.arg for k in node.keywords}
            for code in codes:
                found.setdefault(code, []).append((path.name, node.lineno, params))
    return found


EMITTED = _emitted()


def test_every_refusal_in_the_core_names_a_known_code_with_exactly_its_templates_params():
    assert len(EMITTED) > 100
    for code, sites in EMITTED.items():
        assert code in TEMPLATES, f"{sites[0][0]}:{sites[0][1]}: unknown refusal code {code!r}"
        want = set(fields(TEMPLATES[code]))
        for file, line, params in sites:
            assert params == want, f"{file}:{line}: {code} gives {sorted(params)}, its template uses {sorted(want)}"


def test_every_code_of_the_table_is_used_somewhere():
    unused = set(TEMPLATES) - set(EMITTED) - GENERIC
    assert not unused, f"codes nothing raises: {sorted(unused)}"


def test_no_rule_refuses_with_a_bare_english_string():
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" and node.args:
                arg = node.args[0]
                assert not isinstance(arg, (ast.Constant, ast.JoinedStr)), \
                    f"{path.name}:{node.lineno}: IllegalAction with a bare text; give it a Refusal(code, ...)"


def test_params_are_plain_json_and_the_english_reads_as_before():
    r = Refusal("distance_rule", vertex=[[0, 0], [1, 0], [0, 1]], neighbour=[[0, 0], [1, -1], [1, 0]])
    assert json.loads(json.dumps(r.to_json())) == r.to_json()
    assert str(r) == ("vertex [[0, 0], [1, 0], [0, 1]] is next to a building at [[0, 0], [1, -1], [1, 0]] "
                      "(distance rule)")
    assert str(Refusal("wrong_phase", phase="move_robber", needs=["roll", "main"])) == \
        "not allowed now: the game is at move robber, this needs roll or main"


# --- real refusals through the Game API ------------------------------------------------------------------

def _spot(spot) -> list:
    return [list(h) for h in spot]


def _set_up(game: Game) -> None:
    """Every set-up placement, on the first legal spots."""
    while game.state.phase in ("setup_settlement", "setup_road"):
        who = game.waiting_for()
        if game.state.phase == "setup_settlement":
            game.push({"type": "build", "player": who, "piece": "settlement",
                       "at": _spot(game.legal_settlement_spots_setup()[0])})
        else:
            piece, e = game.legal_setup_links()[0]
            game.push({"type": "build", "player": who, "piece": piece, "at": _spot(e)})


def _refusal(game: Game, event: dict) -> IllegalAction:
    before = len(game.events)
    with pytest.raises(IllegalAction) as caught:
        game.push(event)
    assert len(game.events) == before  # a refusal changes nothing
    return caught.value


def test_out_of_turn_build_names_both_seats():
    game = Game(standard_board(3), 3)
    error = _refusal(game, {"type": "build", "player": 2, "piece": "settlement",
                            "at": _spot(game.legal_settlement_spots_setup()[0])})
    assert (error.code, error.params) == ("setup_wrong_player", {"expected": 0, "player": 2})
    _set_up(game)
    game.push({"type": "roll", "dice": [3, 5]})
    error = _refusal(game, {"type": "build", "player": 1, "piece": "road", "at": _spot(sorted(game.board.edges)[0])})
    assert (error.code, error.params) == ("out_of_turn", {"player": 1, "turn": 0})
    assert str(error) == "player 1 acts out of turn (it is player 0's turn)"


def test_distance_rule_gives_the_spot_and_the_neighbouring_building():
    game = Game(standard_board(3), 3)
    first = game.legal_settlement_spots_setup()[0]
    game.push({"type": "build", "player": 0, "piece": "settlement", "at": _spot(first)})
    game.push({"type": "build", "player": 0, "piece": "road", "at": _spot(game.legal_setup_links()[0][1])})
    near = next(n for n in game.board.vertex_neighbours[first] if n in game.board.land_vertices)
    error = _refusal(game, {"type": "build", "player": 1, "piece": "settlement", "at": _spot(near)})
    assert error.code == "distance_rule"
    assert error.params == {"vertex": _spot(near), "neighbour": _spot(first)}
    assert "(distance rule)" in str(error)


def test_cannot_afford_says_what_the_hand_holds():
    game = Game(standard_board(3), 3)
    _set_up(game)
    game.push({"type": "roll", "dice": [6, 6]})
    game.push({"type": "set_hand", "player": 0, "cards": {"wool": 1}})
    error = _refusal(game, {"type": "buy_development", "player": 0})
    assert error.code == "cannot_afford"
    assert error.params == {"player": 0, "cards": {"grain": 1, "wool": 1, "ore": 1}, "purpose": "development",
                            "holds": {"wool": 1}}
    assert str(error) == "player 0 cannot pay 1 grain, 1 ore, 1 wool for a development card (holds 1 wool)"


def test_wrong_discard_count_and_a_forced_breach_keeps_its_code():
    game = Game(standard_board(3), 3)
    _set_up(game)
    game.push({"type": "set_hand", "player": 1, "cards": {"wool": 5, "ore": 4}})
    game.push({"type": "roll", "dice": [3, 4]})
    assert game.state.phase == "discard"
    error = _refusal(game, {"type": "discard", "player": 1, "cards": {"wool": 2}})
    assert (error.code, error.params) == ("discard_count", {"player": 1, "owed": 4, "got": 2})
    error = _refusal(game, {"type": "end_turn"})
    assert (error.code, error.params) == ("wrong_phase", {"phase": "discard", "needs": ["main"]})
    outcome = game.push({"type": "discard", "player": 1, "cards": {"wool": 2}, "forced": True})
    (warning,) = outcome.warnings
    assert isinstance(warning, Breach) and warning == "player 1 must discard 4 cards, not 2"
    assert warning.refusal == Refusal("discard_count", player=1, owed=4, got=2)
    assert outcome.to_json()["warnings"] == ["player 1 must discard 4 cards, not 2"]


def test_seafarers_ship_and_high_tide_refusals_are_coded():
    game = SeafarersGame(standard_board(4), 3)
    first, land_edge = next((v, e) for v in game.legal_settlement_spots_setup() for e in game.board.vertex_edges[v]
                            if e in game.board.edges and not game.board.edge_is_water(e))
    game.push({"type": "build", "player": 0, "piece": "settlement", "at": _spot(first)})
    error = _refusal(game, {"type": "build", "player": 0, "piece": "ship", "at": _spot(land_edge)})
    assert (error.code, error.params) == ("ship_off_water", {"edge": _spot(land_edge)})
    tide = HighTideGame(standard_board(4), 3)
    _set_up(tide)
    tide.push({"type": "roll", "dice": [2, 3]})
    error = _refusal(tide, {"type": "build", "player": 0, "piece": "dike", "at": [0, 0]})
    assert error.code == "dike_too_early" and error.params == {}


def _problems_with(board, tiles):
    """What board entry finds wrong with ``board`` laid with ``tiles`` instead of its own (against the standard
    set)."""
    return board_problems(Board(tiles, board.harbors, board.robber, board.pirate), standard=BASE_SPEC)


def test_board_entry_problems_are_coded_by_hex():
    board = standard_board(5)
    h = next(h for h, t in sorted(board.tiles.items()) if t.terrain == "desert")
    tiles = dict(board.tiles)
    tiles[h] = Tile("desert", 5)
    problems = _problems_with(board, tiles)
    coded = {(p.at, p.code) for p in problems}
    assert (h, "number_on_blank") in coded and (None, "numbers_extra") in coded
    # the standard set told as the difference the user has to fix, not as two whole lists to compare
    extra = next(p for p in problems if p.code == "numbers_extra")
    assert extra.params == {"numbers": [5]} and str(extra) == "number tokens beyond the standard set: 5"
    tiles[h] = Tile("desert", None)
    six = next(h for h, t in sorted(tiles.items()) if t.number == 6)
    tiles[six] = Tile(tiles[six].terrain, 8)
    swapped = _problems_with(board, tiles)
    assert [(p.code, p.params) for p in swapped] == [("numbers_missing", {"numbers": [6]}),
                                                      ("numbers_extra", {"numbers": [8]})]
    on_blank = next(p for p in problems if p.code == "number_on_blank")
    assert on_blank.params == {"terrain": "desert", "number": 5}
    assert str(on_blank) == f"hex {list(h)}: desert must carry no number (has 5)"
    with pytest.raises(BoardError) as caught:
        board_from_json({"hexes": [{"at": [0, 0], "terrain": "lava"}]})
    assert caught.value.problems[0].code == "unknown_terrain"
