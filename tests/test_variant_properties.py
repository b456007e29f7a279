"""Property tests of the 5-6 extension, Seafarers and High Tide (hypothesis over random legal games)."""

import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.record import parse_record, replay
from companion.rules import board_from_json, game_class, standard_board
from companion.rules.board import EXTENSION_SPEC, Tile
from companion.rules.random_play import random_events
from companion.rules.routes import longest_route
from companion.rules.seafarers_board import seafarers_board as dealt_seafarers_board
from companion.rules.values import fields_of, replace

FAST = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BOARDS = Path(__file__).parents[1] / "companion" / "assets" / "boards"


def seafarers_board(seed):
    """Odd seeds: the map New game deals (islands, gold on them, the pirate on the frame); even seeds: a standard
    board with one hex turned to gold and the pirate on the sea round it (gold within reach of the first settlements)."""
    if seed % 2:
        return dealt_seafarers_board(seed, 3 + seed % 4)
    board = standard_board(seed)
    tiles = dict(board.tiles)
    some = sorted(h for h, t in tiles.items() if t.number is not None)[seed % 18]
    tiles[some] = Tile("gold", tiles[some].number)
    return replace(board, tiles=tiles, pirate=min(board.sea))


def new_game(kind, seed):
    if kind == "base56":
        return game_class("base56")(standard_board(seed, spec=EXTENSION_SPEC), 5 + seed % 2)
    if kind == "seafarers":
        return game_class("seafarers")(seafarers_board(seed), 3 + seed % 4)
    size = "5-6" if seed % 2 else "3-4"
    board = board_from_json(json.loads((BOARDS / f"high-tide-{size}.json").read_text()))
    cls = game_class("high-tide")
    options = cls.options_class.from_json({"leader_vp": 6, "spring_tide": seed % 3 == 0,
                                           "flood_all": seed % 5 == 0, "robber_to_desert": seed % 4 == 0})
    return cls(board, (5 if size == "5-6" else 3) + seed % 2, options)


KINDS = st.sampled_from(["base56", "seafarers", "high-tide"])


@FAST
@given(kind=KINDS, seed=st.integers(0, 10**6), budget=st.integers(50, 700))
def test_random_games_replay_the_same_from_their_record(kind, seed, budget):
    played = new_game(kind, seed)
    events = list(random_events(played, random.Random(seed), budget))
    record = parse_record({"format": "catan-record/1", "game": played.name, "options": _options_json(played),
                           "players": [{"name": f"P{i}", "color": c} for i, c in
                                       zip(range(played.n_players), ["red", "blue", "white", "orange", "green", "brown"])],
                           "board": played.initial_board.to_json(), "events": events})
    again = replay(record)
    assert again.summary() == played.summary()
    assert [o.to_json() for o in again.outcomes] == [o.to_json() for o in played.outcomes]


def _options_json(game):
    out = {}
    for name in fields_of(game.options):
        value = getattr(game.options, name)
        out[name] = dict(value) if name == "dike_cost" else value
    return out


@FAST
@given(kind=KINDS, seed=st.integers(0, 10**6), budget=st.integers(50, 600), back=st.integers(1, 80))
def test_undo_then_redo_restores_the_exact_state(kind, seed, budget, back):
    game = new_game(kind, seed)
    list(random_events(game, random.Random(seed), budget))
    before = (game.summary(), dict(game.state.buildings), dict(game.state.pieces), game.board.to_json())
    popped = [game.pop() for _ in range(min(back, len(game.events)))]
    for event in reversed(popped):
        game.push(event)
    assert (game.summary(), game.state.buildings, game.state.pieces, game.board.to_json()) == before


@FAST
@given(kind=KINDS, seed=st.integers(0, 10**6), budget=st.integers(100, 700))
def test_every_event_keeps_the_table_consistent(kind, seed, budget):
    """After every event: routes equal a fresh computation, no card is made or lost, the tide's
    leftovers are gone (nothing stands on sea alone, no road lies between two sea hexes)."""
    game = new_game(kind, seed)
    total = game.bank_size * len(game.resources)
    land_at_start = len(game.initial_board.land)
    for _ in random_events(game, random.Random(seed), budget):
        s = game.state
        assert s.route_lengths == [fresh_route_length(game, p) for p in range(game.n_players)]
        assert sum(s.bank.values()) + sum(p.hand.size for p in s.players) == total
        for p in range(game.n_players):
            for piece, limit in game.piece_limits.items():
                assert 0 <= game.pieces_left(p, piece) <= limit
        assert all(any(game.board.is_land(h) for h in v) for v in s.buildings)
        assert all(game.board.edge_is_land(e) for e, (_, kind) in s.pieces.items() if kind == "road")
        if kind == "high-tide":
            assert len(game.board.land) + len(game.tide.flooded) == land_at_start


def fresh_route_length(game, player):
    """The player's route searched from scratch over the whole board (no memo, every other building)."""
    s = game.state
    mine = {e: kind for e, (p, kind) in s.pieces.items() if p == player}
    return longest_route(mine, [v for v, (p, _) in s.buildings.items() if p != player],
                         [v for v, (p, _) in s.buildings.items() if p == player])
