"""The desk's live pushes (server-sent events) read by real clients over real sockets on 127.0.0.1.

The display's stream and a tablet's stream are read with the tablet's own reader (``companion.desk_push``, the
standard library's ``http.client``) on threads; a tablet's events are posted as the outbox posts them. Waits are
on what the readers received, with a deadline only to fail: nothing here polls the desk.
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path

import pytest

from companion.desk_link import DeskLinkError, join, request
from companion.desk_push import TableListener, read_events
from companion.record import new_game
from companion.rules.random_play import random_events
from companion.tournament.server import DeskServer
from companion.tournament.store import Desk

PASSWORD = "desk-pw"


def make_event(db: Path) -> None:
    with Desk(db) as desk:
        ev = desk.create_event("Kobe Open", seed=7)
        for name in ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "<b>Jun</b>"]:
            desk.add_player(ev.id, name)
        desk.seat_round(ev.id)


@pytest.fixture
def server(tmp_path):
    db = tmp_path / "desk.sqlite3"
    make_event(db)
    with DeskServer("Kobe Open", db, host="127.0.0.1", port=0, password=PASSWORD) as s:
        yield s


class Reader:
    """Reads one stream on a thread, keeping every (event, data) it got; stopped by closing its connection."""

    def __init__(self, base: str, path: str, token: str | None = None):
        self.got: list[tuple[str, str]] = []
        self.error: Exception | None = None
        self.ended = threading.Event()
        self._connection = None
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, args=(base, path, token), daemon=True)
        self._thread.start()

    def _run(self, base, path, token):
        try:
            for item in read_events(base, path, token, on_connection=self._keep):
                with self._changed:
                    self.got.append(item)
                    self._changed.notify_all()
        except Exception as error:  # noqa: BLE001 -- kept for the test to look at
            self.error = error
        finally:
            self.ended.set()
            with self._changed:
                self._changed.notify_all()

    def _keep(self, connection):
        self._connection = connection

    def wait_for(self, condition, what: str, deadline: float = 20.0):
        """The first received item (from the newest back) meeting ``condition``."""
        end = time.monotonic() + deadline
        with self._changed:
            while True:
                for item in reversed(self.got):
                    if condition(*item):
                        return item
                if self.ended.is_set() or time.monotonic() > end:
                    raise AssertionError(f"no push {what} (got {len(self.got)}: {self.got[-3:]}, error {self.error})")
                self._changed.wait(0.2)

    def close(self):
        if self._connection is not None and self._connection.sock is not None:
            try:
                self._connection.sock.shutdown(2)
            except OSError:
                pass
        self._thread.join(10)
        assert not self._thread.is_alive()


def pair(server, table: int) -> str:
    return request(server.url, "POST", "/api/admin/pair", {"table": table}, token=PASSWORD)["code"]


def post_events(server, assignment, events: list[dict], rev: int) -> dict:
    body = {"round": assignment.round, "table": assignment.table, "game": 1, "rev": rev, "from": 0,
            "events": events, "count": len(events), "header": assignment.header}
    return request(server.url, "POST", "/api/events", body, token=assignment.token)


def test_the_display_stream_pushes_a_tablet_s_event_without_being_asked(server):
    a = join(server.url, pair(server, 2))
    events = list(random_events(new_game(a.record()), random.Random(5), 60))
    display = Reader(server.url, "/display/stream")

    def table_2(name, data):  # a whole display, or (event "table") one table's line
        d = json.loads(data)
        return d if name == "table" and d["table"] == 2 else None if name == "table" else d["tables"][1]

    try:
        first = json.loads(display.wait_for(lambda name, data: True, "at connection")[1])
        assert first["event"] == "Kobe Open" and first["tables"][1]["events"] == 0
        shown = []
        for n in (20, 40, 60):
            post_events(server, a, events[:n], rev=n)
            name, data = display.wait_for(lambda name, data: (table_2(name, data) or {}).get("events") == n,
                                          f"showing table 2 with {n} events")
            shown.append((name, table_2(name, data)))
        # only the table's line is pushed for a tablet's event, and it is what the display's JSON says of it
        assert [name for name, _ in shown] == ["table"] * 3
        assert shown[-1][1] == request(server.url, "GET", "/display.json")["tables"][1]
        assert all(p["vp"] is not None for p in shown[-1][1]["players"])
    finally:
        display.close()


def test_the_display_page_listens_to_the_stream_and_the_clock_is_pushed(server):
    page = _get_text(server, "/")
    assert "new EventSource('display/stream')" in page and "setInterval(poll" in page  # polling only without it
    display = Reader(server.url, "/display/stream")
    try:
        display.wait_for(lambda name, data: json.loads(data)["clock"] is None, "before the clock is set")
        request(server.url, "POST", "/api/admin/clock", {"action": "reset", "minutes": 60}, token=PASSWORD)
        request(server.url, "POST", "/api/admin/clock", {"action": "start"}, token=PASSWORD)
        _, data = display.wait_for(lambda name, data: (json.loads(data)["clock"] or {}).get("running"),
                                   "of the clock running")
        assert 3590 < json.loads(data)["clock"]["left"] <= 3600
    finally:
        display.close()


def test_a_tablet_hears_the_clock_and_its_game_and_is_told_when_replaced(server):
    a = join(server.url, pair(server, 1))
    pushes, refused = [], []
    arrived = threading.Condition()

    def on_push(push):
        with arrived:
            pushes.append(push)
            arrived.notify_all()

    def on_refused(message):
        with arrived:
            refused.append(message)
            arrived.notify_all()

    def wait(condition, what):
        end = time.monotonic() + 20
        with arrived:
            while not condition():
                assert time.monotonic() < end, f"no push {what}: {pushes[-3:]} {refused}"
                arrived.wait(0.2)

    listener = TableListener(a.desk, a.token, on_push, on_refused).start()
    try:
        wait(lambda: pushes, "at connection")
        assert pushes[0] == {"round": 1, "table": 1, "players": list(a.players), "clock": None, "game": None}
        assert request(server.url, "GET", "/health")["tablets_connected"] == 1
        request(server.url, "POST", "/api/admin/clock", {"action": "start", "minutes": 45}, token=PASSWORD)
        wait(lambda: (pushes[-1]["clock"] or {}).get("running"), "of the clock starting")
        assert pushes[-1]["clock"]["duration"] == 45 * 60
        events = list(random_events(new_game(a.record()), random.Random(9), 12))
        assert post_events(server, a, events, rev=1)["have"] == 12  # its own events: told in the answer, and
        request(server.url, "POST", "/api/admin/clock", {"action": "pause"}, token=PASSWORD)  # with the next push
        wait(lambda: not (pushes[-1]["clock"] or {}).get("running", True), "of the clock paused")
        assert pushes[-1]["game"]["have"] == 12 and pushes[-1]["game"]["finished"] is False
        # the table paired again: the old tablet's stream says so and ends; it does not reconnect
        pair(server, 1)
        wait(lambda: refused, "saying the tablet was replaced")
        assert "paired again" in refused[0]
        listener._thread.join(10)
        assert not listener._thread.is_alive()
    finally:
        listener.stop()


def test_a_table_stream_needs_a_working_token(server):
    for token, status in ((None, 401), ("not-a-token", 401)):
        with pytest.raises(DeskLinkError) as refused:
            next(read_events(server.url, "/api/table/stream", token))
        assert refused.value.status == status
    a = join(server.url, pair(server, 2))
    pair(server, 2)  # revoked
    with pytest.raises(DeskLinkError) as refused:
        next(read_events(server.url, "/api/table/stream", a.token))
    assert refused.value.status == 403


def test_the_desk_stops_while_displays_listen(tmp_path):
    db = tmp_path / "desk.sqlite3"
    make_event(db)
    server = DeskServer("Kobe Open", db, host="127.0.0.1", port=0, password=PASSWORD).start()
    readers = [Reader(server.url, "/display/stream") for _ in range(3)]
    for r in readers:
        r.wait_for(lambda name, data: True, "at connection")
    stopper = threading.Thread(target=server.stop)
    stopper.start()
    stopper.join(30)
    assert not stopper.is_alive(), "the desk server did not stop while displays were listening"
    for r in readers:
        assert r.ended.wait(10) and r.error is None  # the stream ended as a stream ends, not by a broken socket
        r.close()


def _get_text(server, path: str) -> str:
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path)
        return connection.getresponse().read().decode("utf-8")
    finally:
        connection.close()


def test_a_table_line_worked_out_earlier_never_replaces_a_newer_one():
    """A request's display line is worked out under the desk's lock and handed to the push on the event loop; two
    requests of one table may come back to the loop in the other order: the older line must not win."""
    from companion.tournament.server_push import Push

    async def no_display():
        return "{}"
    push = Push(no_display, lambda: True)
    older = push.numbered([(3, '{"events": 10}')])
    newer = push.numbered([(3, '{"events": 11}')])
    push.changed(3, tablet=False, lines=newer)
    push.changed(3, tablet=False, lines=older)  # the older request's answer reached the loop last
    assert push.ready_lines({3}) == {3: '{"events": 11}'}
    push.changed(3)  # a change that brings no line (a pairing): the display works the line out again
    assert push.ready_lines({3}) == {}
    push.changed(3, tablet=False, lines=push.numbered([(3, '{"events": 12}')]))
    push.changed()  # a change for everyone: every display gets everything anew
    assert push.ready_lines({3}) == {}
