"""A table's result from a game record: each player's VP and the winner, as the rules core derived them.

Nothing is recomputed here: the record is replayed by ``companion.record.replay`` and its ``summary()``
(the ``replay`` JSON) gives every player's VP (hidden VP cards included: they are shown at the game's end)
and the winner.  The record's players are matched to the seated players by name.
"""

from __future__ import annotations

from typing import Sequence

from ..record import Record, RecordError, replay
from ..rules import Game


def result_from_record(record: Record, seated: Sequence[tuple[int, str]], *,
                       ended_by_time: bool = False) -> tuple[dict[int, int], int | None, bool]:
    """``(vp by player id, winner id or None, ended by time)``: :func:`result_and_buildings` without the buildings."""
    vp, winner, by_time, _ = result_and_buildings(record, seated, ended_by_time=ended_by_time)
    return vp, winner, by_time


def cards_tiebreak(game: Game, seated: Sequence[tuple[int, str]], record: Record) -> dict[int, int] | None:
    """Each player id's resource cards in hand at the end, when the record's game breaks a tie on VP by them
    (High Tide, seed 002: most VP, a tie to the most resource cards -- the game's ``Outcome.places``); None for
    a game placing by VP alone.  Read from the state the rules core built, as the game's own ``place_key``."""
    key = getattr(game, "place_key", None)
    if key is None or len(key(0)) < 2:
        return None
    by_name = {name.casefold(): pid for pid, name in seated}
    return {by_name[p["name"].casefold()]: game.state.players[i].hand.size for i, p in enumerate(record.players)}


def result_details(record: Record, seated: Sequence[tuple[int, str]], *, ended_by_time: bool = False,
                   game: Game | None = None) -> tuple[dict[int, int], int | None, bool, dict[int, int],
                                                      dict[int, int] | None]:
    """:func:`result_and_buildings` and, last, :func:`cards_tiebreak`: ``(vp, winner, ended by time, building
    points, resource cards or None)``."""
    if game is None:
        try:
            game = replay(record)
        except RecordError:
            pass  # (result_and_buildings replays it again and says what is wrong with it)
    vp, winner, by_time, buildings = result_and_buildings(record, seated, ended_by_time=ended_by_time, game=game)
    return vp, winner, by_time, buildings, cards_tiebreak(game, seated, record)


def result_and_buildings(record: Record, seated: Sequence[tuple[int, str]], *, ended_by_time: bool = False,
                         game: Game | None = None) -> tuple[dict[int, int], int | None, bool, dict[int, int]]:
    """``(vp by player id, winner id or None, ended by time, building points by player id)`` from a record of a
    table's game (building points: settlements 1, cities 2 -- a preset's tiebreak at time).

    ``seated``: the table's ``(player id, name)`` pairs.  A record without a winner is accepted only as a game
    ended by the time limit (``ended_by_time=True``, or a ``time_limit`` event in the record): its VP are those
    after its last event (as the game stood at time).

    ``game``: the record's game as a replay of it leaves it, when the caller holds one already (the desk server's
    copy of a table's game: each event pushed through the rules as it came, as ``replay`` pushes them); the record
    is then not replayed again (~40 ms for a whole game, on the desk's event loop when a tablet's game ended).
    tests/test_desk_standings_push.py checks the result equals the one from a replay.
    """
    by_name = {name.casefold(): pid for pid, name in seated}
    record_names = [p["name"] for p in record.players]
    unmatched = [n for n in record_names if n.casefold() not in by_name]
    if unmatched or len(record_names) != len(seated):
        raise ValueError(f"the record's players ({', '.join(record_names)}) are not the players at this table "
                         f"({', '.join(n for _, n in seated)})")
    try:
        if game is None:
            game = replay(record)
        summary = game.summary()
    except RecordError as error:
        raise ValueError(f"the record cannot be replayed: {error}") from None
    ids = [by_name[n.casefold()] for n in record_names]
    vp = {ids[i]: int(p["vp"]) for i, p in enumerate(summary["players"])}
    winner = summary["winner"]
    if summary.get("ended_by_time") is not None:  # the record itself says the time limit ended it (time_limit)
        ended_by_time = True
    if winner is None and not ended_by_time:
        raise ValueError("the record's game has no winner yet; if the time limit ended it, say so "
                         "(the VP after its last event are then the result)")
    if winner is not None and ended_by_time:
        ended_by_time = False  # somebody reached the target: the game ended by winning, whatever the clock said
    # settlement and city points, for a preset that tells VP leaders at time apart by them (read from the state
    # the rules core built; nothing is counted here but the buildings it holds)
    from ..rules.game import BUILDING_WEIGHTS
    buildings = {pid: 0 for pid in ids}
    for owner, kind in getattr(game.state, "buildings", {}).values():
        if 0 <= owner < len(ids):
            buildings[ids[owner]] += BUILDING_WEIGHTS.get(kind, 0)
    return vp, (None if winner is None else ids[winner]), ended_by_time, buildings
