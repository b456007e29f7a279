"""A tablet keeps one connection to the desk open for all its requests (keep-alive), and a dropped connection
loses and doubles nothing: the journal is the outbox, so the sender simply opens a new one and goes on.

Real parts: the desk server on 127.0.0.1, the tablet's journal and :class:`OutboxSender`, and between them a
TCP relay that counts the connections it carries and can cut every open one (the venue's Wi-Fi dropping).
"""

from __future__ import annotations

import select
import socket
import threading

from companion.desk_link import OutboxSender, join
from companion.record.journal import Journal
from companion.tournament.server import DeskServer

from test_desk_server import PASSWORD, desk_events, make_event, pair, played, start_journal_game, wait_for


class Relay:
    """Forwards TCP connections to the desk byte for byte; ``accepted`` counts them, ``cut()`` drops them all."""

    def __init__(self, port: int):
        self.port = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.accepted = 0
        self.open: list[socket.socket] = []
        self.threads: list[threading.Thread] = []
        self.lock = threading.Lock()
        self.closing = False
        self.acceptor = threading.Thread(target=self._accept, daemon=True)
        self.acceptor.start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.port))
            with self.lock:
                if self.closing:
                    client.close()
                    upstream.close()
                    return
                self.accepted += 1
                self.open += [client, upstream]
                thread = threading.Thread(target=self._pipe, args=(client, upstream), daemon=True)
                self.threads.append(thread)
            thread.start()

    def _pipe(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while True:
                ready, _, _ = select.select([a, b], [], [], 0.2)
                if a.fileno() < 0 or b.fileno() < 0:
                    return
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    (b if sock is a else a).sendall(data)
        except (OSError, ValueError):  # cut
            return
        finally:
            self._close(a, b)

    def _close(self, *socks: socket.socket) -> None:
        with self.lock:
            for sock in socks:
                if sock in self.open:
                    self.open.remove(sock)
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                    sock.close()

    def cut(self) -> None:
        """Every connection open through the relay dropped at once."""
        with self.lock:
            socks = list(self.open)
        self._close(*socks)

    def stop(self) -> None:
        with self.lock:
            self.closing = True
        try:
            self.listener.shutdown(socket.SHUT_RDWR)  # (wakes the accept: a close alone does not)
        except OSError:
            pass
        self.listener.close()
        self.cut()
        self.acceptor.join(5)
        for thread in self.threads:
            thread.join(5)


def test_a_tablet_sends_its_game_over_one_kept_connection_and_survives_it_dropping(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD) as server:
        relay = Relay(server.port)
        journal_path = tmp_path / "journal.sqlite3"
        try:
            assignment = start_journal_game(journal_path, join(relay.address, pair(server, 1)))
            events = played(assignment, seed=5, budget=60)
            joined = relay.accepted  # the join: a request of its own
            sender = OutboxSender(journal_path, assignment, poll=0.05).start()
            try:
                with Journal(journal_path) as journal:
                    for i, event in enumerate(events):  # one event at a time, each sent before the next is played
                        journal.append(assignment.game_id, event)
                        sender.wake()
                        wait_for(lambda: sender.status["have"] == i + 1, f"the desk to hold event {i}")
                        if i in (20, 40):  # the Wi-Fi drops: the next event goes over a new connection
                            relay.cut()
                wait_for(lambda: sender.status["state"] == "up to date" and sender.status["have"] == len(events),
                         "the desk to hold the whole game")
            finally:
                sender.stop()
            assert desk_events(server, 1) == events  # nothing lost, nothing doubled
            # 60 events (and the table's heartbeat asks): one connection, and one new one after each drop; a
            # connection per request made 60 or more
            assert relay.accepted - joined <= 3, relay.accepted - joined
        finally:
            relay.stop()
