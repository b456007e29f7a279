"""Longest Road is searched from the pieces, whatever changed them (issue 27's rebuild check).

``Game._route_lengths`` finds each player's blocked and own corners from the buildings' sides and keeps, per
player, the complete input of the last search with its length, compared whole before the remembered search is
asked.  These games check every player's route against a search from scratch (every piece, every other
player's building) after every event, every undo, every umpire's removal of a road or a building -- a
building taken off a corner mends the routes through it, one put back cuts them -- and in a copied game
played on apart.  A memo that compared the pieces but not the buildings on their corners fails here (the tide
sinks buildings beside roads) and in the scenarios' cut roads (tests/scenarios/longest_road_*).
"""

import random

import pytest

from companion.rules.routes import longest_route

from rebuild_games import fresh_game, played_with_undos, put_back_one_by_one, removed_one_by_one


def from_scratch(game):
    s = game.state
    out = []
    for player in range(game.n_players):
        mine = {e: kind for e, (p, kind) in s.pieces.items() if p == player}
        out.append(longest_route(mine, [v for v, (p, _) in s.buildings.items() if p != player],
                                 [v for v, (p, _) in s.buildings.items() if p == player]))
    return out


def check(game):
    expected = from_scratch(game)
    assert game._route_lengths() == expected
    assert game.state.route_lengths == expected


@pytest.mark.parametrize("kind, players, seed", [("base", 4, 2), ("base", 3, 8), ("base56", 5, 3),
                                                 ("seafarers", 4, 5), ("high-tide", 4, 6)])
def test_routes_equal_a_search_from_scratch_after_every_event_undo_and_removal(kind, players, seed):
    game = fresh_game(kind, players, seed)
    rng = random.Random(seed)
    for _ in played_with_undos(game, rng, check):
        pass
    assert max(game.state.route_lengths) >= 3 and len(game.state.buildings) >= players
    # the umpire takes the buildings off (routes through their corners mend), then every second road
    spots = sorted(game.state.buildings) + sorted(game.state.pieces)[::2]
    twin = removed_one_by_one(game, spots, check)
    put_back_one_by_one(game, spots, check)  # (each building put back cuts again)
    assert game.state.route_lengths == twin.state.route_lengths


def searched(game):
    assert game._route_lengths() == from_scratch(game)


def four_through(board, v):
    """Four edges in a row whose middle corner is ``v``: (A-B, B-v, v-C, C-D)."""
    e2, e4 = sorted(board.vertex_edges[v])[:2]
    b = next(x for x in board.edge_vertices[e2] if x != v)
    c = next(x for x in board.edge_vertices[e4] if x != v)
    e1 = next(e for e in sorted(board.vertex_edges[b]) if e != e2)
    e5 = next(e for e in sorted(board.vertex_edges[c]) if e != e4 and not set(board.edge_vertices[e]) & {b})
    return e1, e2, e4, e5


@pytest.mark.parametrize("kind, building_owner, kinds, length", [
    ("base", 1, ("road", "road"), 2),  # another's settlement at the middle corner: the route stops there
    ("base", 0, ("road", "road"), 4),
    ("seafarers", 0, ("road", "ship"), 4),  # the player's own: road and ship join there
    ("seafarers", 1, ("road", "ship"), 2),
    ("seafarers", None, ("road", "ship"), 2),  # no building: road and ship do not join
])
def test_the_last_piece_laid_reaching_a_building_decides_the_route(kind, building_owner, kinds, length):
    """Player 0's four pieces in a row through a corner, the piece reaching the corner from its far side laid
    last (so the search is asked for one new piece, the buildings unchanged since the last): the building at
    the corner decides whether the two halves make one route."""
    game = fresh_game(kind, 4, 21)
    s = game.state
    corner = next(v for v in sorted(game.board.land_vertices) if len(game.board.vertex_edges[v]) == 3
                  and all(len(game.board.vertex_edges[x]) == 3 for e in game.board.vertex_edges[v]
                          for x in game.board.edge_vertices[e]))
    if building_owner is not None:
        s.buildings[corner] = (building_owner, "settlement")
    searched(game)
    e1, e2, e4, e5 = four_through(game.board, corner)
    for e, piece in ((e1, kinds[0]), (e2, kinds[0]), (e5, kinds[1]), (e4, kinds[1])):
        s.pieces[e] = (0, piece)
        searched(game)
    assert game.route_length(0) == length


@pytest.mark.parametrize("kind, seed", [("base", 11), ("base", 12), ("seafarers", 13),
                                       ("seafarers", 14), ("seafarers", 15)])
def test_routes_equal_a_search_from_scratch_as_pieces_are_laid_among_buildings(kind, seed):
    """Pieces laid one by one, anywhere, among many buildings of every player: a new piece reaching a corner
    with another's building from its far side must stop the route there (with its own building: join road and
    ship), one at a time and also after the buildings change under the pieces.  Random play seldom brings a
    road to another player's building from both sides; here it happens in most steps."""
    game = fresh_game(kind, 4, seed)  # (the state set by hand: no event, so the state's own lengths stay)
    s = game.state
    rng = random.Random(seed)
    corners = sorted(game.board.vertices)
    edges = sorted(game.board.edges)
    rng.shuffle(edges)
    for v in rng.sample(corners, 18):
        s.buildings[v] = (rng.randrange(4), rng.choice(("settlement", "city")))
    searched(game)
    kinds = ("road", "ship") if kind == "seafarers" else ("road",)
    for step, e in enumerate(edges[:60]):
        s.pieces[e] = (rng.randrange(4), rng.choice(kinds))
        searched(game)
        if step % 9 == 8:  # a building taken off, or one built: the pieces then meet other corners
            v = rng.choice(corners)
            if v in s.buildings:
                del s.buildings[v]
            else:
                s.buildings[v] = (rng.randrange(4), "settlement")
            searched(game)
    twin = game.copy()
    for e in edges[:60:3]:  # taken off again (the pieces no longer the last ones with more after them)
        del s.pieces[e]
        searched(game)
        searched(twin)
