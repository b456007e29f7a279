"""The desk killed with ``kill -9`` mid-round and started again: no result the desk confirmed is lost, and every
tablet goes on sending by itself (real ``tournament serve`` processes, real tablets' senders and journals)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time

from companion.desk_link import OutboxSender, join, request
from companion.record import new_game
from companion.record.journal import Journal
from companion.rules.random_play import random_events
from companion.tournament.store import Desk

from test_desk_server import PASSWORD, make_event, wait_for


def serve(db, port: int) -> tuple[subprocess.Popen, int]:
    process = subprocess.Popen([sys.executable, "-m", "companion", "tournament", "serve", "Kobe Open", "--db", str(db),
                                "--host", "127.0.0.1", "--port", str(port), "--password", PASSWORD],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    first = process.stdout.readline()
    assert first.startswith("desk server for"), first + process.stderr.read()
    return process, int(first.rsplit(" ", 1)[1])


def test_kill_9_mid_round_loses_no_confirmed_result_and_tablets_resume(tmp_path):
    db = tmp_path / "desk.sqlite3"
    make_event(db)
    desk, port = serve(db, 0)
    url = f"http://127.0.0.1:{port}"
    tablets = []
    try:
        for table, seed in ((1, 3), (2, 5)):  # (both seeds play to a winner at these boards)
            code = request(url, "POST", "/api/admin/pair", {"table": table}, token=PASSWORD)["code"]
            assignment = join(url, code)
            path = tmp_path / f"tablet{table}.sqlite3"
            with Journal(path) as journal:
                assignment = assignment.with_game(journal.create_game(assignment.record()))
            events = list(random_events(new_game(assignment.record()), random.Random(seed), 3000))
            sender = OutboxSender(path, assignment, poll=0.05, max_backoff=0.5).start()
            tablets.append((assignment, path, events, sender))
        # table 1 finishes and the desk confirms its result; table 2 is half-way when the desk dies
        (a1, p1, e1, s1), (a2, p2, e2, s2) = tablets
        with Journal(p1) as journal:
            for event in e1:
                journal.append(a1.game_id, event)
        s1.wake()
        wait_for(lambda: s1.status.get("note") == "result entered", "table 1's result confirmed", deadline=60)
        half = len(e2) // 2
        with Journal(p2) as journal:
            for event in e2[:half]:
                journal.append(a2.game_id, event)
            s2.wake()
            wait_for(lambda: s2.status["have"] == half and s2.status["state"] == "up to date", "half of table 2")
            os.kill(desk.pid, signal.SIGKILL)
            desk.wait(timeout=30)
            for event in e2[half:]:  # play goes on while the desk is down
                journal.append(a2.game_id, event)
                s2.wake()
            wait_for(lambda: s2.status["state"] == "offline", "table 2 to notice")
            desk, _ = serve(db, port)  # the organiser starts it again; nobody touches the tablets
            wait_for(lambda: s2.status["state"] == "up to date" and s2.status["have"] == len(e2),
                     "table 2 to resume by itself", deadline=90)
        assert s2.status["note"] == "result entered"
    finally:
        for *_, sender in tablets:
            sender.stop()
        desk.send_signal(signal.SIGINT)
        desk.wait(timeout=30)
    with Desk(db) as d:
        ev = d.event("Kobe Open")
        results = {r.table: r for r in d.results(ev.id)}
        assert sorted(results) == [1, 2]
        assert results[1].source == f"tablet: game {a1.game_id}"
        assert [a["action"] for a in d.audit(ev.id)].count("enter result") == 2
