"""A tablet's game ending reaches an open display as its table's line and the standings alone (issue 31): not the
whole display (60 tables' lines and the standings worked out through the desk's one thread, with every table's
line waiting behind it -- the slow tail of a floor where games end, docs/performance.md). The standings pushed are
those worked out from the stored results: after every result, here or entered outside, they equal the standings
of a fresh desk opened on the same file. The result entered from the desk's copy of the game (not replayed again)
equals the one a replay of the table's record gives.

Real desk servers on 127.0.0.1, read with the tablet's own stream reader (tests/test_desk_push.py's ``Reader``).
"""

from __future__ import annotations

import gc
import json
import random
import time

import pytest

from companion.desk_link import join, request
from companion.record import new_game, replay
from companion.rules.random_play import random_events
from companion.tournament.results import result_and_buildings
from companion.tournament.server import DeskServer
from companion.tournament.server_display import display_data
from companion.tournament.server_push import RECHECK_S
from companion.tournament.server_store import Floor
from companion.tournament.store import Desk
from test_desk_push import PASSWORD, Reader, make_event, pair, server  # noqa: F401 -- (server: the fixture)


def won_game(assignment, seed: int) -> list[dict]:
    """A random whole game at the table, played until someone wins (within one request's 2,000 events)."""
    while True:
        events = list(random_events(new_game(assignment.record()), random.Random(seed), 1500))
        record = assignment.record()
        record.events = events
        if replay(record).state.winner is not None:
            return events
        seed += 100


def post(server, a, events: list[dict], start: int, rev: int) -> dict:
    body = {"round": a.round, "table": a.table, "game": 1, "rev": rev, "from": start, "events": events[start:],
            "count": len(events), **({"header": a.header} if start == 0 else {})}
    return request(server.url, "POST", "/api/events", body, token=a.token)


def fresh_standings(server) -> list[list[str]]:
    """The standings worked out from scratch from what the desk file holds (another connection, no cache)."""
    with server.desk.reopen() as desk:
        return display_data(Floor(desk, "Kobe Open"), tables=False)["standings"]


@pytest.fixture(params=["sqlite", "postgresql"])
def any_server(request, tmp_path):
    """The desk server over a SQLite file, or over a PostgreSQL database (``--dsn``): the same event."""
    if request.param == "sqlite":
        desk = Desk(tmp_path / "desk.sqlite3")
    else:
        desk = Desk(dsn=request.getfixturevalue("postgres_dsn"))
    with desk:
        ev = desk.create_event("Kobe Open", seed=7)
        for name in ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "<b>Jun</b>"]:
            desk.add_player(ev.id, name)
        desk.seat_round(ev.id)
    where = {"db": tmp_path / "desk.sqlite3"} if request.param == "sqlite" else {"dsn": desk.dsn}
    with DeskServer("Kobe Open", **where, host="127.0.0.1", port=0, password=PASSWORD) as s:
        yield s


def test_a_game_s_end_sends_its_line_and_the_standings_alone_as_stored(any_server):
    """Table 1's game ends by its last event alone (kept on the event loop), table 2's in one whole batch (checked
    on the backlog thread): each time the display gets the standings (equal to a fresh desk's) and the table's
    finished line, and never the whole display again. On the old code each end sent the whole display. On SQLite
    and on PostgreSQL."""
    server = any_server
    display = Reader(server.url, "/display/stream")
    try:
        first = json.loads(display.wait_for(lambda name, data: True, "at connection")[1])
        assert first["standings"] == fresh_standings(server)
        for table, seed, whole in ((1, 3, False), (2, 4, True)):
            a = join(server.url, pair(server, table))
            events = won_game(a, seed)
            if not whole:  # the game up to its last event, then the last event alone
                assert post(server, a, events[:-1], 0, 1)["finished"] is False
            view = post(server, a, events, 0 if whole else len(events) - 1, 2)
            assert view["finished"] and view["note"] == "result entered"
            expected = fresh_standings(server)
            _, data = display.wait_for(lambda name, data: name == "standings"
                                       and json.loads(data)["standings"] == expected,
                                       f"the standings after table {table}'s result")
            assert json.loads(data) == {"standings": expected}
            _, line = display.wait_for(lambda name, data: name == "table" and json.loads(data)["table"] == table
                                       and json.loads(data)["finished"], f"table {table}'s finished line")
            assert json.loads(line)["events"] == len(events)
            shown = request(server.url, "GET", "/display.json")
            assert shown["standings"] == expected
            assert {k: v for k, v in shown["tables"][table - 1].items() if k != "text"} == \
                {k: v for k, v in json.loads(line).items() if k != "text"}
        names = [name for name, _ in display.got]
        assert names[0] == "message" and "message" not in names[1:], names  # the whole display only at connection
    finally:
        display.close()


def test_a_correction_entered_outside_reaches_the_display_as_the_standings_of_a_fresh_desk(server):  # noqa: F811
    """The standings the display is pushed never drift from the stored results: a result and then its
    correction, entered through another connection to the desk file (the command line), each reach the open
    display as the standings a fresh desk works out."""
    display = Reader(server.url, "/display/stream")
    try:
        display.wait_for(lambda name, data: True, "at connection")
        with server.desk.reopen() as desk:
            ev = desk.event("Kobe Open")
            seated = desk.round(ev.id, 1).tables[0]
            desk.enter_result(ev.id, 1, 1, {p: 10 - i for i, p in enumerate(seated)}, seated[0])
        for step in ("the result", "the correction"):
            expected = fresh_standings(server)
            display.wait_for(lambda name, data: name in ("standings", "message")
                             and json.loads(data)["standings"] == expected,
                             f"the standings after {step} entered outside", deadline=4 * RECHECK_S + 5)
            if step == "the result":
                with server.desk.reopen() as desk:
                    desk.enter_result(ev.id, 1, 1, {p: 4 + i for i, p in enumerate(seated)}, seated[-1],
                                      correct=True, reason="the slip was read upside down")
    finally:
        display.close()


def test_the_result_from_the_desk_s_copy_of_the_game_equals_a_replay_of_its_record(server):  # noqa: F811
    """The desk enters a finished game's result from the game it checked event by event (no second replay): for
    games of several seeds, the stored VP, winner and building points equal those a replay of the record gives."""
    for table, seed in ((1, 11), (2, 12)):
        a = join(server.url, pair(server, table))
        events = won_game(a, seed)
        half = len(events) // 2
        post(server, a, events[:half], 0, 1)
        post(server, a, events, half, 2)  # (the rest in one batch: the backlog thread's check)
        record = a.record()
        record.events = events
        names = server.desk.names(server.floor.event.id)
        seated = [(p, names[p]) for p in server.desk.round(server.floor.event.id, 1).tables[table - 1]]
        vp, winner, _by_time, buildings = result_and_buildings(record, seated)  # (replayed here)
        stored = server.desk.current_result(server.floor.event.id, 1, table)
        assert (stored.vp, stored.winner, stored.buildings) == (vp, winner, buildings)
        assert stored.source == "tablet: game 1"


def test_the_served_desk_keeps_a_finished_game_out_of_full_collections(tmp_path):
    """The desk in its own process (``tournament serve``) settles its heap after a game's end as after a backlog
    (server.settle_heap): what the game's end left is frozen, out of the collector's full passes (which came five
    times as often in the second after a game's end). On the old code only a backlog settled it."""
    make_event(tmp_path / "desk.sqlite3")
    try:
        with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD,
                        own_process=True) as server:
            a = join(server.url, pair(server, 1))
            events = won_game(a, 3)
            post(server, a, events[:-1], 0, 1)  # (a backlog: settled as before)
            frozen = gc.get_freeze_count()
            assert post(server, a, events, len(events) - 1, 2)["finished"]  # the last event alone ends it
            deadline = time.monotonic() + 10
            while gc.get_freeze_count() <= frozen and time.monotonic() < deadline:  # (settled once answered)
                time.sleep(0.05)
            assert gc.get_freeze_count() > frozen, "the heap was not settled after the game's end"
            (count, held), = server.floor._games.values()
            assert count == len(events) and held.state.winner is not None
    finally:
        gc.unfreeze()  # (the test's process is not the desk's own)
