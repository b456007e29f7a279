"""An umpire's ``forced`` entry overrules a rule, not the board: a road or settlement at sea (or off the board), a
ship between two land hexes, a piece on a place already holding one are refused forced or not, and change nothing.

Before, a forced road at sea was recorded (the refusal kept as a warning) and the play screen offered "Record
anyway (umpire)" for it (tests/test_ui_road_at_sea.py).  A rule breach (a road not connected) is still recorded
forced, with its warning."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import IllegalAction, game_class, standard_board
from companion.rules.game import MAIN
from companion.rules.random_play import random_events
from companion.rules.refusals import NO_SUCH_PLACE
from companion.rules.seafarers_board import seafarers_board


def spot(at) -> list:
    return [list(h) for h in at]


def game_in_main_phase(name: str, seed: int, players: int = 4):
    board = seafarers_board(seed, players) if name == "seafarers" else standard_board(seed)
    game = game_class(name)(board, players)
    rng = random.Random(seed)
    for _ in random_events(game, rng, 400):
        if game.state.phase == MAIN and len(game.state.pieces) >= 2 * players + 2:
            break
    if game.state.phase != MAIN:
        pytest.skip("the random game did not stop in the main phase")  # (hypothesis tells)
    return game


def no_such_places(game):
    """(event, code) of a build at each kind of place that cannot hold the piece, for the player on turn."""
    board, s, me = game.board, game.state, game.state.turn_player
    sea_edge = next(e for e in sorted(board.edges) if not board.edge_is_land(e))
    sea_vertex = next(v for e in sorted(board.edges) if not board.edge_is_land(e)
                      for v in board.edge_vertices[e] if v not in board.land_vertices)
    taken_edge = next(e for e, (_who, kind) in sorted(s.pieces.items()) if kind == "road")
    taken_vertex = sorted(s.buildings)[0]
    cases = [({"piece": "road", "at": spot(sea_edge)}, "road_off_land"),
             ({"piece": "settlement", "at": spot(sea_vertex)}, "vertex_off_land"),
             ({"piece": "road", "at": spot(taken_edge)}, "edge_taken"),
             ({"piece": "settlement", "at": spot(taken_vertex)}, "vertex_taken")]
    if "ship" in game.link_pieces():
        inland = next(e for e in sorted(board.edges) if board.edge_is_land(e) and not board.edge_is_water(e))
        cases.append(({"piece": "ship", "at": spot(inland)}, "ship_off_water"))
    return [({"type": "build", "player": me, **event}, code) for event, code in cases]


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(["base", "seafarers"]), seed=st.integers(0, 10**6))
def test_a_place_that_cannot_hold_the_piece_is_refused_forced_too(name, seed):
    game = game_in_main_phase(name, seed)
    me = game.state.turn_player
    game.push({"type": "set_hand", "player": me,
               "cards": {"lumber": 5, "brick": 5, "wool": 5, "grain": 5, "ore": 5}})
    for event, code in no_such_places(game):
        assert code in NO_SUCH_PLACE
        before = (dict(game.state.pieces), dict(game.state.buildings), len(game.events))
        for forced in (False, True):
            with pytest.raises(IllegalAction) as refused:
                game.push({**event, "forced": forced})
            assert refused.value.code == code, (event, forced, refused.value)
            assert (dict(game.state.pieces), dict(game.state.buildings), len(game.events)) == before


def test_a_rule_an_umpire_overrules_is_still_recorded_forced():
    game = game_in_main_phase("base", 3)
    me, board, s = game.state.turn_player, game.board, game.state
    game.push({"type": "set_hand", "player": me, "cards": {"lumber": 1, "brick": 1}})
    far = next(e for e in sorted(board.edges) if board.edge_is_land(e) and e not in s.pieces
               and all(v not in s.buildings for v in board.edge_vertices[e])
               and not any(s.pieces.get(x, (None,))[0] == me for v in board.edge_vertices[e]
                           for x in board.vertex_edges[v]))
    outcome = game.push({"type": "build", "player": me, "piece": "road", "at": spot(far), "forced": True})
    assert outcome.warnings and game.state.pieces[far] == (me, "road")
