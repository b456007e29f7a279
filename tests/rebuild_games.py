"""Games for issue 27's rebuild checks: what the core keeps (claims, VP, routes) against a count from scratch.

One way to deal the game, one way to play it -- random legal events, each checked, now and then undone and
pushed again -- and one way for the umpire to take pieces off and put them back, for
tests/test_production_claims.py, test_vp_from_pieces.py and test_route_inputs.py.
"""

from __future__ import annotations

from companion.assets import read_json
from companion.record import COLORS, Record, new_game
from companion.rules import standard_board
from companion.rules.board import BASE_SPEC, EXTENSION_SPEC
from companion.rules.random_play import random_events
from companion.rules.seafarers_board import seafarers_board

#: High Tide as these checks play it: the tide comes early and takes hexes under buildings and roads.
EARLY_FLOODS = {"leader_vp": 4, "flood_all": True}


def fresh_game(kind, players, seed, *, high_tide_options=EARLY_FLOODS):
    """A new ``kind`` game: the base games play on to 30 VP (every piece the supply has is built), Seafarers
    on its dealt map (gold on the islets, ships meeting roads at settlements), High Tide on its board."""
    if kind == "high-tide":
        board = read_json("boards", f"high-tide-{'5-6' if players >= 5 else '3-4'}.json")
    elif kind == "seafarers":
        board = seafarers_board(seed, players).to_json()
    else:
        board = standard_board(seed, spec=EXTENSION_SPEC if players >= 5 else BASE_SPEC).to_json()
    options = {"vp_target": 30} if kind in ("base", "base56") else {}
    if kind == "high-tide":
        options = dict(high_tide_options)
    return new_game(Record(kind, [{"name": f"P{i}", "color": COLORS[i]} for i in range(players)], board,
                           options=options))


def played_with_undos(game, rng, check, events=700):
    """Push up to ``events`` random legal events, yielding each just pushed; then ``check(game)``, and one time
    in twenty the event is undone and pushed again, checked after each step."""
    for event in random_events(game, rng, events):
        yield event
        check(game)
        if rng.random() < 0.05:
            event = game.pop()
            check(game)
            game.push(event)
            check(game)


def removed_one_by_one(game, spots, check):
    """The umpire takes the pieces at ``spots`` off one by one (a correction: even after the game), ``check``
    run after each on the game and on a copy made before the first, which the removals must not reach.
    Returns the copy."""
    twin = game.copy()
    for spot in spots:
        game.push({"type": "remove_piece", "at": [list(h) for h in spot], "forced": True})
        check(game)
        check(twin)
    return twin


def put_back_one_by_one(game, spots, check):
    """Undo the removals of ``removed_one_by_one`` one at a time, ``check`` run after each."""
    for _ in spots:
        game.pop()
        check(game)


def games_in_play(kind, players, seed, *, every=37, events=600):
    """A random game of ``kind`` (the board games, ``starfarers``, ``card-game``), yielded after every
    ``every``-th of its first ``events`` random legal events (the same game object, played on)."""
    import random

    from companion.rules import game_class
    from companion.rules.card_game import CardSetup
    from companion.rules.card_game_random import random_events as card_events
    from companion.rules.starfarers_board import first_game_board
    from companion.rules.starfarers_random import random_events as starfarers_events

    if kind == "starfarers":
        game = new_game(Record(kind, [{"name": f"P{i}", "color": COLORS[i]} for i in range(players)],
                               first_game_board().to_json()))
        played = starfarers_events(game, random.Random(seed), events)
    elif kind == "card-game":
        game = game_class("card-game")(CardSetup(), players)
        played = card_events(game, random.Random(seed), events)
    else:
        game = fresh_game(kind, players, seed)
        played = random_events(game, random.Random(seed), events)
    for i, _ in enumerate(played):
        if i % every == 0:
            yield game
