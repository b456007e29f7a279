"""The display stream without a rebuild on a timer (issue 31): a table's event reaches an open display as that
table's line, and the whole display is sent again only when something beyond a table changed -- here or outside
this server (the command line, a second desk process on the same file), found by the stream's small recheck.

Real desk servers on 127.0.0.1, read with the tablet's own stream reader (tests/test_desk_push.py's ``Reader``).
"""

from __future__ import annotations

import json
import random
import time

from companion.desk_link import join
from companion.record import new_game
from companion.rules.random_play import random_events
from companion.tournament.server import DeskServer
from companion.tournament.server_push import RECHECK_S
from companion.tournament.server_store import Floor
from test_desk_push import PASSWORD, Reader, pair, post_events, server  # noqa: F401 -- (server: the fixture)


def _names(display) -> list[str]:
    """What the reader got so far, by kind: "everything" (a whole display: an unnamed event, "message" to the
    reader) or "table" (one table's line)."""
    return ["everything" if name == "message" else name for name, _data in display.got]


def test_table_events_over_several_rechecks_send_only_their_lines(server):  # noqa: F811
    """A tablet's events a recheck apart: each reaches the display as its table's line, and nothing else is sent.
    On the old code a stream idle for RECHECK_S worked out and sent the whole display again."""
    a = join(server.url, pair(server, 2))
    events = list(random_events(new_game(a.record()), random.Random(8), 200))
    display = Reader(server.url, "/display/stream")
    try:
        display.wait_for(lambda name, data: True, "at connection")
        for n in (10, 20, 30):
            post_events(server, a, events[:n], rev=n)
            display.wait_for(lambda name, data, n=n: name == "table" and json.loads(data)["events"] == n,
                             f"table 2's line with {n} events")
            time.sleep(RECHECK_S + 0.5)  # the stream idle past a recheck (it sends nothing: nothing else changed)
        assert _names(display)[0] == "everything"
        assert set(_names(display)[1:]) == {"table"}, _names(display)
    finally:
        display.close()


def test_a_result_and_the_clock_set_outside_the_server_reach_an_open_display(server):  # noqa: F811
    display = Reader(server.url, "/display/stream")
    try:
        first = json.loads(display.wait_for(lambda name, data: True, "at connection")[1])
        assert first["clock"] is None
        with server.desk.reopen() as desk:  # the command line, on the same desk file
            ev = desk.event("Kobe Open")
            seated = desk.round(ev.id, 1).tables[0]
            desk.enter_result(ev.id, 1, 1, {p: 10 - i for i, p in enumerate(seated)}, seated[0])
            winner = desk.names(ev.id)[seated[0]]
        name, data = display.wait_for(
            lambda name, data: name == "standings" and json.loads(data)["standings"][0][1] == winner,
            "the standings with the result entered outside", deadline=4 * RECHECK_S + 5)  # (the standings alone)
        outside = Floor(server.desk.reopen(), "Kobe Open")
        try:
            outside.set_clock("reset", 45, who="command line")
        finally:
            outside.desk.close()
        display.wait_for(lambda name, data: name == "message" and (json.loads(data)["clock"] or {}).get("duration") == 2700,
                         "the clock set outside", deadline=4 * RECHECK_S + 5)
    finally:
        display.close()


def test_a_game_kept_by_a_second_desk_on_the_same_file_reaches_the_first_desk_s_display(server):  # noqa: F811
    a = join(server.url, pair(server, 1))
    events = list(random_events(new_game(a.record()), random.Random(9), 40))
    display = Reader(server.url, "/display/stream")
    with DeskServer("Kobe Open", server.desk.path, host="127.0.0.1", port=0, password=PASSWORD) as second:
        try:
            display.wait_for(lambda name, data: True, "at connection")
            post_events(second, a, events, rev=40)  # the same token works at the second desk: one file
            display.wait_for(lambda name, data: name == "table" and json.loads(data)["table"] == 1
                             and json.loads(data)["events"] == 40, "table 1's line kept by the other desk",
                             deadline=4 * RECHECK_S + 5)
            assert set(_names(display)[1:]) == {"table"}  # only its line: nothing beyond a table changed
        finally:
            display.close()
