"""Property: whatever the venue's network does -- requests lost on the way, answers lost on the way back, old
requests replayed, the tablet reconnecting -- and whatever the table does meanwhile (play, undo, redo), once
the network carries again the desk holds exactly the tablet's journal, nothing lost and nothing doubled.

All real: the desk server on 127.0.0.1, the tablet's journal file and its :class:`OutboxSender` (its ``sync``
called step by step), and between them a TCP proxy that drops a connection before forwarding the request,
or after (the desk applied it, the tablet never hears), and can send any request it saw again, byte for byte.
"""

from __future__ import annotations

import random
import socket
import socketserver
import threading
from collections import deque

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from companion import desk_link  # (the fixture's own ``request`` hides desk_link.request there)
from companion.desk_link import DeskLinkError, OutboxSender, join, request
from companion.record import new_game
from companion.record.journal import Journal
from companion.rules.random_play import random_events
from companion.tournament.server import DeskServer

from test_desk_server import PASSWORD, make_event


def _read_request(sock: socket.socket) -> bytes:
    """One HTTP message (a request, or an answer) by its Content-Length."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


def send_raw(port: int, raw: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as upstream:
        upstream.sendall(raw)
        # one answer, by its length (a tablet's request keeps its connection open: the desk does not close it)
        return _read_request(upstream)


class FaultyNetwork(socketserver.ThreadingTCPServer):
    """A proxy in front of the desk: each request meets the next planned fault (``ok`` when none is left)."""

    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, desk_port: int):
        self.desk_port = desk_port
        self.plan: deque[str] = deque()
        self.seen: list[bytes] = []
        super().__init__(("127.0.0.1", 0), _Hop)


class _Hop(socketserver.BaseRequestHandler):
    def handle(self):
        net: FaultyNetwork = self.server
        raw = _read_request(self.request)
        fault = net.plan.popleft() if net.plan else "ok"
        if fault == "lost":  # the request never reaches the desk
            return
        net.seen.append(raw)
        reply = send_raw(net.desk_port, raw)
        if fault == "answer_lost":  # the desk applied it; the tablet hears nothing
            return
        self.request.sendall(reply)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def floor(request, tmp_path_factory):
    """The desk over its file, and again over a real PostgreSQL database (``--dsn``)."""
    folder = tmp_path_factory.mktemp("resends")
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    make_event(folder / "desk.sqlite3", dsn=dsn)
    with DeskServer("Kobe Open", folder / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD,
                    dsn=dsn) as server:
        net = FaultyNetwork(server.port)
        thread = threading.Thread(target=net.serve_forever, daemon=True)
        thread.start()
        code = desk_link.request(server.url, "POST", "/api/admin/pair", {"table": 1}, token=PASSWORD)["code"]
        assignment = join(f"127.0.0.1:{net.server_address[1]}", code)
        start = new_game(assignment.record())
        common = list(random_events(start, random.Random(1), 20))
        a = common + list(random_events(start.copy(), random.Random(2), 30))
        b = common + list(random_events(start.copy(), random.Random(3), 30))
        try:
            yield server, net, assignment, (a, b), folder / "journal.sqlite3"
        finally:
            net.shutdown()
            net.server_close()


def move_journal(journal: Journal, game: int, target: list[dict]) -> None:
    """Undo back to where the journal and ``target`` agree, then play ``target``'s events on."""
    current = list(journal.iter_events(game))
    same = next((i for i, (x, y) in enumerate(zip(current, target)) if x != y), min(len(current), len(target)))
    for _ in range(len(current) - same):
        journal.undo(game)
    for event in target[same:]:
        journal.append(game, event)


step = st.one_of(
    st.tuples(st.just("play"), st.integers(0, 1), st.integers(0, 50)),
    st.tuples(st.just("sync"), st.lists(st.sampled_from(["ok", "lost", "answer_lost"]), max_size=3)),
    st.tuples(st.just("replay"), st.integers(0, 10_000)),
    st.tuples(st.just("reconnect"), st.just(0)),
)


def held_by_desk(server, game: int) -> list[dict]:
    with server.web._lock:  # (the desk's own connection, between two of its requests)
        rows = server.floor._db.execute("SELECT MAX(pairing) FROM floor_games WHERE game = ?", (game,)).fetchone()
        return server.floor.game_events(rows[0], game) if rows[0] is not None else []


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, max_size=12))
# an old request replayed after the table took events back and played others: the desk keeps the newer game
@example(steps=[("play", 0, 30), ("sync", []), ("play", 1, 30), ("sync", []), ("replay", 0)])
# the desk applied a request whose answer was lost, then the table went back to what the tablet last heard
# the desk hold: the tablet cannot take its old knowledge for the desk's
@example(steps=[("play", 0, 25), ("sync", []), ("play", 1, 25), ("sync", ["answer_lost"]), ("play", 0, 25),
                ("sync", [])])
def test_any_interleaving_of_resends_and_reconnects_gives_the_tablet_s_journal(floor, steps):
    server, net, assignment, branches, journal_path = floor
    with Journal(journal_path) as journal:
        game = journal.create_game(assignment.record())
        sender = OutboxSender(journal_path, assignment.with_game(game), batch=7, timeout=5)
        seen_before = len(net.seen)
        for kind, *args in steps:
            if kind == "play":
                move_journal(journal, game, branches[args[0]][:args[1]])
            elif kind == "sync":
                net.plan.extend(args[0])
                try:
                    sender.sync(journal)
                except DeskLinkError:
                    pass  # offline for now; the journal keeps everything
                else:  # the tablet believes the desk is up to date: it is
                    assert held_by_desk(server, game) == list(journal.iter_events(game))
                net.plan.clear()
            elif kind == "replay" and len(net.seen) > seen_before:
                # every request the network let through was applied once, in order: sent again it changes nothing
                before = held_by_desk(server, game)
                send_raw(server.port, net.seen[seen_before + args[0] % (len(net.seen) - seen_before)])
                assert held_by_desk(server, game) == before
            elif kind == "reconnect":
                sender = OutboxSender(journal_path, assignment.with_game(game), batch=7, timeout=5)
        # the network carries again: the tablet catches up
        for _ in range(20):
            sender.sync(journal)
            if sender.status["state"] == "up to date":
                break
        expected = list(journal.iter_events(game))
    assert held_by_desk(server, game) == expected
    if expected:
        assert sender.status["have"] == len(expected)
