"""How Check the board records a piece the photo shows and the game lacks (``piece_check.as_the_table_shows``):
as it is when the rules take it; as the umpire's entry (``forced``) when the rules refuse it only for its turn,
phase or cards -- the piece stands on the table already; not at all when it breaks a rule of where it stands.
Pure: a base game after its set-up, each case tried on it, the game left as it was."""

from __future__ import annotations

import pytest

from companion.rules import geometry as geo
from companion.ui import driver as d
from vision.board.piece_check import as_the_table_shows


def _game():
    """Aki's turn after a 5 in a 3-player base game; Aki holds a road's cards, Ben and Chie nothing known."""
    record, game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    for event in ({"type": "roll", "dice": [2, 3]},
                  {"type": "set_hand", "player": 0, "cards": {"brick": 1, "lumber": 1}}):
        game.push(event)
    return game


def _road_for(game, player):
    s = game.state
    for v, (owner, _kind) in sorted(s.buildings.items()):
        if owner == player:
            for e in game.board.vertex_edges[v]:
                if e not in s.pieces:
                    return {"type": "build", "player": player, "piece": "road", "at": [list(h) for h in e]}
    raise AssertionError("no free side by the player's buildings")


def _settlement_beside_a_building(game, player):
    s = game.state
    v = next(v for v, (owner, _k) in sorted(s.buildings.items()) if owner == player)
    w = next(w for w in geo.vertex_neighbours(v) if w in game.board.land_vertices and w not in s.buildings)
    return {"type": "build", "player": player, "piece": "settlement", "at": [list(h) for h in w]}


def _lone_settlement(game, player):
    """A corner two away from every building and beside none of ``player``'s roads."""
    s = game.state
    for v in sorted(game.board.land_vertices):
        near = {v, *geo.vertex_neighbours(v)}
        if near & set(s.buildings):
            continue
        if any(s.pieces.get(e, (None,))[0] == player for e in game.board.vertex_edges[v]):
            continue
        return {"type": "build", "player": player, "piece": "settlement", "at": [list(h) for h in v]}
    raise AssertionError("no lone corner")


@pytest.mark.parametrize("case, road_beside, recorded, forced, objection", [
    ("Aki's road, her turn, her cards", False, True, False, None),
    ("Ben's road out of turn", False, True, True, None),
    ("Ben's settlement beside a building", False, False, False, "distance_rule"),
    ("Ben's settlement far from his roads", False, False, False, "settlement_not_connected"),
    ("Ben's settlement far from his roads, his road beside it on the photo", True, True, True, None),
])
def test_a_piece_on_the_table_is_recorded_as_the_rules_allow(case, road_beside, recorded, forced, objection):
    game = _game()
    event = {"Aki's road, her turn, her cards": lambda: _road_for(game, 0),
             "Ben's road out of turn": lambda: _road_for(game, 1),
             "Ben's settlement beside a building": lambda: _settlement_beside_a_building(game, 1),
             }.get(case, lambda: _lone_settlement(game, 1))()
    before = (len(game.events), dict(game.state.buildings), dict(game.state.pieces))
    taken, why = as_the_table_shows(game, event, road_beside=road_beside)
    assert (len(game.events), dict(game.state.buildings), dict(game.state.pieces)) == before, "game unchanged"
    assert (taken is not None) == recorded, why
    if recorded:
        assert why is None and bool(taken.get("forced")) == forced
        assert {k: v for k, v in taken.items() if k != "forced"} == event
        game.push(taken)  # and the game takes it
    else:
        code = why.refusal.code
        assert code == objection


# --- the robber where the photo shows it ------------------------------------------------------------------

def _reading_of(game, turns: int) -> tuple[dict, dict]:
    """The game's board as a photo read in a lattice turned ``turns`` sixths from the game's (terrains, numbers)."""
    from vision.board.lattice import LAND, turned

    tiles = game.board.tiles
    terrains = {h: tiles[turned(h, turns)].terrain for h in LAND}
    numbers = {h: tiles[turned(h, turns)].number for h in LAND}
    return terrains, numbers


def _after_a_seven(game, discards: bool):
    if discards:
        game.push({"type": "set_hand", "player": 1, "cards": {"grain": 8}})
    game.push({"type": "roll", "dice": [3, 4]})
    return game


@pytest.mark.parametrize("case, turns, phase, forced", [
    ("Aki's turn, the robber on another hex", 0, "main", True),
    ("the same photo read turned", 4, "main", True),
    ("after a 7, the roller's move", 2, "move_robber", False),
])
def test_the_robber_where_the_photo_shows_it_is_moved_there(case, turns, phase, forced):
    from vision.board.lattice import turned
    from vision.board.piece_check import robber_difference

    game = _game() if phase == "main" else _after_a_seven(d.base_game_after_setup(("Aki", "Ben", "Chie"))[1], False)
    assert game.state.phase == phase
    was = game.state.robber
    target = next(h for h in sorted(game.board.land) if h != was and game.board.tiles[h].number == 6)
    terrains, numbers = _reading_of(game, turns)
    seen = turned(target, -turns % 6)  # where the photo's own lattice has it
    difference = robber_difference(seen, terrains, numbers, game)
    assert difference is not None and difference.at == (target,) and difference.what == "robber"
    assert difference.event == {"type": "move_robber", "to": list(target)}
    events = len(game.events)
    taken, why = as_the_table_shows(game, difference.event)
    assert why is None and bool(taken.get("forced")) == forced and len(game.events) == events
    game.push(taken)
    assert game.state.robber == target
    # outside a 7 the umpire's move asks nothing more; the 7's own move goes on to the steal as a tap would
    assert game.state.phase in (("main",) if phase == "main" else ("steal", "main"))


@pytest.mark.parametrize("case", ["where the game has it", "none on the photo", "a 7's discards owed"])
def test_no_robber_row_when_the_photo_agrees_or_the_move_must_wait(case):
    from vision.board.piece_check import robber_difference

    if case == "a 7's discards owed":
        game = _after_a_seven(d.base_game_after_setup(("Aki", "Ben", "Chie"))[1], True)
        assert game.state.phase == "discard"
        seen = next(h for h in sorted(game.board.land) if h != game.state.robber)
    else:
        game = _game()
        seen = None if case == "none on the photo" else game.state.robber
    terrains, numbers = _reading_of(game, 0)
    assert robber_difference(seen, terrains, numbers, game) is None
