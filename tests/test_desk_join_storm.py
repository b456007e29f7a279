"""Tablets joining at once with long backlogs (issue 31's join storm): the desk checks one backlog at a time, on a
thread of its own, while other tablets' live events are kept and answered; and the served desk keeps what it holds
out of the garbage collector's full passes (a full pass over 60 games held the whole desk 0.7 s).
SQLite and PostgreSQL."""

from __future__ import annotations

import gc
import threading

import pytest

from companion.desk_link import request
from companion.tournament.server import DeskServer
from companion.tournament.server_store import LONG_BATCH, BacklogCheck

from test_desk_backlog import branches
from test_desk_server import PASSWORD, desk_events, make_event, pair, wait_for


@pytest.fixture(params=["sqlite", "postgresql"])
def three_tables(request, tmp_path):
    db = tmp_path / "desk.sqlite3"
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    make_event(db, players=12, dsn=dsn)
    with DeskServer("Kobe Open", db, host="127.0.0.1", port=0, password=PASSWORD, dsn=dsn) as server:
        yield server


def _joined(server, table):
    joined = request(server.url, "POST", "/api/join", {"code": pair(server, table)})
    game, _ = branches(joined["header"])
    return joined, game


def _batch(joined, game, rev, start, end, header=False):
    body = {"round": 1, "table": joined["table"], "game": 1, "rev": rev, "from": start, "count": end,
            "events": game[start:end]}
    return dict(body, header=joined["header"]) if header else body


def test_backlogs_are_checked_one_at_a_time_while_live_events_are_kept(three_tables, monkeypatch):
    server = three_tables
    real_run = BacklogCheck.run
    running, most, released = [0], [0], threading.Event()
    count = threading.Lock()

    def held_run(check):  # the real check, held until the live tablet has been answered
        with count:
            running[0] += 1
            most[0] = max(most[0], running[0])
        try:
            released.wait(30)
            real_run(check)
        finally:
            with count:
                running[0] -= 1

    monkeypatch.setattr(BacklogCheck, "run", held_run)
    live, live_game = _joined(server, 3)
    first = request(server.url, "POST", "/api/events", _batch(live, live_game, 1, 0, 3, header=True),
                    token=live["token"])
    assert first["have"] == 3
    joining = [_joined(server, t) for t in (1, 2)]
    n = 2 * LONG_BATCH  # a tablet joining mid-game: its backlog in one batch
    answers: dict[int, dict] = {}
    senders = [threading.Thread(target=lambda j=j, g=g: answers.__setitem__(j["table"], request(
        server.url, "POST", "/api/events", _batch(j, g, 1, 0, n, header=True), token=j["token"], timeout=60)))
        for j, g in joining]
    for s in senders:
        s.start()
    try:
        wait_for(lambda: running[0] >= 1, "a backlog's check to start")
        # while a backlog is being checked, the live table's next event is kept and answered
        answer = request(server.url, "POST", "/api/events", _batch(live, live_game, 2, 3, 4), token=live["token"])
        assert answer["have"] == 4 and desk_events(server, 3) == live_game[:4]
        assert most[0] == 1, f"{most[0]} backlogs were checked at once (each one starves the event loop)"
    finally:
        released.set()
        for s in senders:
            s.join(60)
    assert most[0] == 1
    for j, g in joining:
        assert answers[j["table"]]["have"] == n and desk_events(server, j["table"]) == g[:n]


def test_the_served_desk_keeps_its_games_out_of_full_collections(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    try:
        with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD,
                        own_process=True) as server:
            assert gc.get_freeze_count() > 0  # what the desk held once started
            joined, game = _joined(server, 1)
            n = 2 * LONG_BATCH
            answer = request(server.url, "POST", "/api/events", _batch(joined, game, 1, 0, n, header=True),
                             token=joined["token"])
            assert answer["have"] == n
            (count, held), = server.floor._games.values()  # the desk's replayed game, kept for the next batch
            assert count == n
            # (the desk settles its heap just after it has answered, on its own loop: CI of stop 37 asked before it had)
            wait_for(lambda: not any(o is held for o in gc.get_objects()),
                     "the new game to leave the collector's passes")
            # it goes on from there: the next event is kept on the frozen game
            answer = request(server.url, "POST", "/api/events", _batch(joined, game, 2, n, n + 1),
                             token=joined["token"])
            assert answer["have"] == n + 1 and desk_events(server, 1) == game[:n + 1]
    finally:
        gc.unfreeze()  # (the test's process is not the desk's own)
