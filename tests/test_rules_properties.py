"""Property tests of the rules core (hypothesis)."""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules import Game, standard_board
from companion.rules import geometry as geo
from companion.rules.random_play import random_events
from companion.rules.routes import longest_route, longest_route_brute_force

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(seed=st.integers(0, 10**6), budget=st.integers(20, 400))
def test_random_legal_games_replay_deterministically(seed, budget):
    board = standard_board(seed)
    played = Game(board, 4)
    events = list(random_events(played, random.Random(seed), budget))
    again = Game(board, 4)
    for event in events:
        again.push(event)
    assert again.summary() == played.summary()
    assert [o.to_json() for o in again.outcomes] == [o.to_json() for o in played.outcomes]


@FAST
@given(seed=st.integers(0, 10**6), budget=st.integers(20, 300), back=st.integers(1, 60))
def test_undo_then_redo_restores_the_exact_state(seed, budget, back):
    game = Game(standard_board(seed), 3)
    list(random_events(game, random.Random(seed), budget))
    before = (game.summary(), game.state.buildings.copy(), game.state.pieces.copy())
    popped = [game.pop() for _ in range(min(back, len(game.events)))]
    for event in reversed(popped):
        game.push(event)
    assert (game.summary(), game.state.buildings, game.state.pieces) == before


@FAST
@given(seed=st.integers(0, 10**6), budget=st.integers(50, 600))
def test_route_lengths_are_never_a_stale_cache(seed, budget):
    """The lengths the game holds equal a from-scratch computation after every event."""
    game = Game(standard_board(seed), 4)
    for _ in random_events(game, random.Random(seed), budget):
        assert game.state.route_lengths == [fresh_route_length(game, p) for p in range(4)]


def _transform(pieces, blocked, f):
    return ({geo.map_edge(e, f) for e in pieces}, {geo.map_vertex(v, f) for v in blocked})


@FAST
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 5), mirror=st.booleans())
def test_longest_road_is_invariant_under_turning_and_mirroring_the_board(seed, steps, mirror):
    rng = random.Random(seed)
    pieces, blocked = _random_road_set(rng, n_edges=rng.randint(1, 14))
    f = (lambda h: geo.rotate(geo.reflect(h), steps)) if mirror else (lambda h: geo.rotate(h, steps))
    moved, moved_blocked = _transform(pieces, blocked, f)
    assert longest_route(moved, moved_blocked) == longest_route(pieces, blocked)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_longest_road_matches_brute_force_on_small_road_sets(seed):
    rng = random.Random(seed)
    pieces, blocked = _random_road_set(rng, n_edges=rng.randint(1, 11))
    assert longest_route(pieces, blocked) == longest_route_brute_force(pieces, blocked)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_road_and_ship_routes_match_brute_force(seed):
    """Mixed routes change between road and ship only at the owner's buildings."""
    rng = random.Random(seed)
    edges, blocked = _random_road_set(rng, n_edges=rng.randint(1, 10))
    pieces = {e: rng.choice(("road", "ship")) for e in edges}
    corners = sorted({v for e in edges for v in geo.edge_vertices(e)})
    own = set(rng.sample(corners, k=min(len(corners), rng.randint(0, 4)))) - blocked
    assert longest_route(pieces, blocked, own) == longest_route_brute_force(pieces, blocked, own)


def _random_road_set(rng, n_edges):
    """A connected-ish random set of edges near the origin, with some opponent buildings on it."""
    region = [h for h in ((q, r) for q in range(-2, 3) for r in range(-2, 3)) if geo.distance(h, (0, 0)) <= 2]
    start = rng.choice([e for h in region for e in geo.hex_edges(h)])
    pieces = {start}
    while len(pieces) < n_edges:
        v = rng.choice([v for e in pieces for v in geo.edge_vertices(e)])
        if rng.random() < 0.15:  # sometimes a separate piece
            v = rng.choice(geo.hex_vertices(rng.choice(region)))
        pieces.add(rng.choice(geo.vertex_edges(v)))
    corners = sorted({v for e in pieces for v in geo.edge_vertices(e)})
    blocked = set(rng.sample(corners, k=min(len(corners), rng.choice((0, 0, 1, 2)))))
    return pieces, blocked


@FAST
@given(seed=st.integers(0, 10**6), budget=st.integers(5, 300), back=st.integers(1, 5))
def test_undo_after_a_bulk_replay_recomputes_the_earlier_state(seed, budget, back):
    from companion.record import COLORS, Record, new_game, replay

    board = standard_board(seed)
    record = Record("base", [{"name": c, "color": c} for c in COLORS[:3]], board.to_json())
    record.events = list(random_events(new_game(record), random.Random(seed), budget))
    game = replay(record)
    back = min(back, len(record.events))
    for _ in range(back):
        game.pop()
    assert game.summary() == replay(record, upto=len(record.events) - back).summary()


def fresh_route_length(game, player):
    """The player's route searched from scratch over the whole board (no memo, every other building)."""
    s = game.state
    mine = {e: kind for e, (p, kind) in s.pieces.items() if p == player}
    return longest_route(mine, [v for v, (p, _) in s.buildings.items() if p != player],
                         [v for v, (p, _) in s.buildings.items() if p == player])


def _moved(value, f):
    """Every hex ([q, r]) inside an event or board value, turned by ``f``."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value):
        return list(f(tuple(value)))
    if isinstance(value, list):
        return [_moved(x, f) for x in value]
    if isinstance(value, dict):
        return {k: (_moved(v, f) if k in ("at", "to", "from", "edge", "hexes", "harbors", "robber", "pirate") else v)
                for k, v in value.items()}
    return value


@FAST
@given(seed=st.integers(0, 10**6), budget=st.integers(50, 500), steps=st.integers(1, 5), mirror=st.booleans())
def test_a_whole_game_on_a_turned_or_mirrored_board_plays_the_same(seed, budget, steps, mirror):
    """The same game with every hex turned (and mirrored): the same awards, road lengths, hands and winner."""
    from companion.record import COLORS, Record, new_game, replay

    f = (lambda h: geo.rotate(geo.reflect(h), steps)) if mirror else (lambda h: geo.rotate(h, steps))
    board = standard_board(seed).to_json()
    record = Record("base", [{"name": c, "color": c} for c in COLORS[:4]], board)
    record.events = list(random_events(new_game(record), random.Random(seed), budget))
    turned = Record("base", record.players, _moved(board, f), events=[_moved(e, f) for e in record.events])
    a, b = replay(record).summary(), replay(turned).summary()
    assert b["robber"] == list(f(tuple(a["robber"])))
    a.pop("robber"), b.pop("robber")
    assert a == b


def test_the_route_search_names_every_corner_apart_and_its_tables_equal_a_fresh_computation():
    """The search names corners by ints (routes._vertex_id) and remembers each edge's two end ids
    (routes._edge_end_ids): two corners sharing a name would join roads that do not meet.  Every corner
    of a region larger than any board gets its own name, and the remembered ends equal a fresh computation."""
    from companion.rules import routes

    region = [(q, r) for q in range(-12, 13) for r in range(-12, 13) if geo.distance((q, r), (0, 0)) <= 12]
    corners = {v for h in region for v in geo.hex_vertices(h)}
    assert len({routes._vertex_id(v) for v in corners}) == len(corners)
    for e in {e for h in region for e in geo.hex_edges(h)}:
        a, b = geo.edge_vertices(e)
        assert routes._edge_end_ids(e) == (routes._vertex_id(a), routes._vertex_id(b))
