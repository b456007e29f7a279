"""The desk killed with ``kill -9`` mid-round and started again: no result the desk confirmed is lost, and every
tablet goes on sending by itself (real ``tournament serve`` processes, real tablets' senders and journals)."""

from __future__ import annotations

import json
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


def whole_game(assignment, seed: int) -> list[dict]:
    """A random game at the table's board that somebody wins (the seed moved on until one does)."""
    while True:
        game = new_game(assignment.record())
        events = list(random_events(game, random.Random(seed), 3000))
        if game.state.winner is not None:
            return events
        seed += 1000


def test_kill_9_three_times_under_sending_and_listening_tablets_with_a_referee(tmp_path):
    """Three tables, the referee confirming at the desk, every tablet sending from its journal and listening to the
    desk's stream; the desk killed with ``kill -9`` three times, each time right after more events were journalled
    (so a request is in flight), and started again by the organiser. After every restart: each result the referee
    confirmed is there, each stream is open again and hears the clock where it was; at the end every tablet's
    whole journal is the desk's copy, and the result proposed while the desk was down is confirmed with one tap."""
    from companion.desk_push import TableListener

    db = tmp_path / "desk.sqlite3"
    make_event(db, players=12)
    desk, port = serve(db, 0)
    url = f"http://127.0.0.1:{port}"

    def admin(path, body=None, method="POST"):
        return request(url, method, path, body, token=PASSWORD)

    admin("/api/admin/settings", {"confirm": "referee"})
    admin("/api/admin/clock", {"action": "reset", "minutes": 60})
    admin("/api/admin/clock", {"action": "start"})
    tablets = []
    try:
        for table in (1, 2, 3):
            assignment = join(url, admin("/api/admin/pair", {"table": table})["code"])
            path = tmp_path / f"tablet{table}.sqlite3"
            with Journal(path) as journal:
                assignment = assignment.with_game(journal.create_game(assignment.record()))
            pushes: list[dict] = []
            listener = TableListener(url, assignment.token, pushes.append).start()
            sender = OutboxSender(path, assignment, poll=0.05, max_backoff=0.5).start()
            tablets.append({"a": assignment, "path": path, "events": whole_game(assignment, table),
                            "played": 0, "sender": sender, "listener": listener, "pushes": pushes})

        def play(t, n):
            with Journal(t["path"]) as journal:
                for event in t["events"][t["played"]:t["played"] + n]:
                    journal.append(t["a"].game_id, event)
            t["played"] = min(len(t["events"]), t["played"] + n)
            t["sender"].wake()

        def caught_up(t):
            s = t["sender"].status
            return s["state"] == "up to date" and s["have"] == t["played"]

        one, two, three = tablets
        play(one, len(one["events"]))  # table 1 finishes; the referee confirms its result
        wait_for(lambda: caught_up(one), "table 1's game at the desk", deadline=60)
        entered = admin("/api/admin/confirm", {"round": 1, "table": 1})
        assert entered["source"] == f"tablet: game {one['a'].game_id}"
        confirmed = {1: (entered["vp"], entered["winner"])}
        for kill in range(3):
            play(two, len(two["events"]) // 4)
            play(three, len(three["events"]) // 8)  # (table 3 plays on to the end of the test: no result)
            wait_for(lambda: caught_up(two) and caught_up(three), "the tables' events at the desk", deadline=60)
            if kill == 1:  # table 2 finishes while the desk is up, then more is journalled and the desk dies
                play(two, len(two["events"]))
            play(three, 40)  # ... journalled and being sent when the desk dies
            os.kill(desk.pid, signal.SIGKILL)
            desk.wait(timeout=30)
            play(three, 10)  # play goes on while the desk is down
            wait_for(lambda: three["sender"].status["state"] == "offline", "table 3 to notice")
            heard = [len(t["pushes"]) for t in tablets]
            desk, _ = serve(db, port)  # the organiser starts it again; nobody touches the tablets
            with Desk(db) as d:
                ev = d.event("Kobe Open")
                for table, (vp, winner) in confirmed.items():
                    result = d.current_result(ev.id, 1, table)
                    assert result is not None, f"table {table}'s confirmed result lost by kill {kill + 1}"
                    names = d.names(ev.id)
                    assert ({names[p]: v for p, v in result.vp.items()}, names[result.winner]) == (vp, winner)
            for t in tablets:  # every stream open again, by itself, and told the clock still runs
                wait_for(lambda t=t: len(t["pushes"]) > heard[tablets.index(t)] and t["listener"].connected.is_set(),
                         f"table {t['a'].table}'s stream after restart {kill + 1}", deadline=60)
                assert t["pushes"][-1]["clock"]["running"] is True
        for t in (two, three):
            try:
                wait_for(lambda t=t: caught_up(t), f"table {t['a'].table} to resume by itself", deadline=90)
            except AssertionError:
                raise AssertionError(f"table {t['a'].table} did not resume: played {t['played']}, "
                                     f"{t['sender'].status}") from None
        waiting = admin("/api/admin/proposals", method="GET")["proposals"]
        assert [(p["table"], p["game"]) for p in waiting] == [(2, two["a"].game_id)]
        entered = admin("/api/admin/confirm", {"round": 1, "table": 2})
        confirmed[2] = (entered["vp"], entered["winner"])
    finally:
        for t in tablets:
            t["listener"].stop()
            t["sender"].stop()
        desk.send_signal(signal.SIGINT)
        desk.wait(timeout=30)
    with Desk(db) as d:
        ev = d.event("Kobe Open")
        names = d.names(ev.id)
        results = {r.table: r for r in d.results(ev.id)}
        assert sorted(results) == [1, 2]
        for table, (vp, winner) in confirmed.items():
            assert ({names[p]: v for p, v in results[table].vp.items()}, names[results[table].winner]) == (vp, winner)
    for t in tablets:  # the desk's copy of every game is the tablet's journal
        with Journal(t["path"]) as journal:
            journalled = list(journal.iter_events(t["a"].game_id))
        assert len(journalled) == t["played"]
        with Desk(db) as d:
            rows = d._db.execute("SELECT e.event FROM floor_events e JOIN floor_pairings p ON p.id = e.pairing "
                                 "WHERE p.table_no = ? AND e.game = ? ORDER BY e.idx",
                                 (t["a"].table, t["a"].game_id)).fetchall()
        assert [json.loads(e) for (e,) in rows] == journalled
