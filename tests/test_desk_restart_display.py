"""The live display right after the desk server is started again (session 16, from session 15's trial: right after
a restart the display showed a table with 0 events and no VP, and showed its 4 events a minute later).

Why it was: the desk's memory holds each table's replayed game; a restarted desk has only its file. The display's
look replayed one table's game per look (so a look never held the desk's lock for all of them), and a display's
stream looks again only when something changes -- so a table whose tablet was quiet (dead, or between turns) stayed
empty until something else made the display look. Now the desk replays the current round's games before it serves.

Real desk servers on 127.0.0.1 over the same SQLite file or PostgreSQL database (stopped and started again),
tablets' events posted over HTTP, the display read as a browser reads it (``/display.json`` and its stream).
"""

from __future__ import annotations

import json
import random

import pytest

from companion.desk_link import join, request
from companion.record import new_game
from companion.rules.random_play import random_events
from companion.tournament.server import DeskServer

from test_desk_push import Reader, post_events
from test_desk_server import PASSWORD, make_event, pair


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    db = tmp_path / "desk.sqlite3"
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    make_event(db, dsn=dsn)
    return {"dsn": dsn} if dsn else {"db": db}


def _shown(tables: list[dict]) -> dict[int, tuple]:
    return {t["table"]: (t["events"], [p["vp"] for p in t["players"]], t["pieces"] is not None) for t in tables}


def test_the_display_shows_every_table_s_game_from_its_first_look_after_a_restart(where):
    played = {}
    with DeskServer("Kobe Open", **where, host="127.0.0.1", port=0, password=PASSWORD) as server:
        for table, count in ((1, 30), (2, 12)):
            a = join(server.url, pair(server, table))
            events = list(random_events(new_game(a.record()), random.Random(table), count))
            assert post_events(server, a, events, rev=count)["have"] == count
            played[table] = count
        before = _shown(request(server.url, "GET", "/display.json")["tables"])
    assert {t: shown[0] for t, shown in before.items()} == played
    assert all(vp is not None for shown in before.values() for vp in shown[1])

    with DeskServer("Kobe Open", **where, host="127.0.0.1", port=0, password=PASSWORD) as server:
        assert server.warmed == 2
        # the first look at the display, as a projector's page makes it: every table as its tablet left it
        assert _shown(request(server.url, "GET", "/display.json")["tables"]) == before
        display = Reader(server.url, "/display/stream")
        try:
            name, data = display.wait_for(lambda name, data: True, "the stream's first message")
            assert name == "message" and _shown(json.loads(data)["tables"]) == before
        finally:
            display.close()
