"""The desk server over real sockets on 127.0.0.1: pairing, tablets sending their games, the display, security.

Everything is real: the desk file (SQLite), uvicorn serving the Starlette app on a thread, the tablet's
``companion.desk_link`` over ``http.client``, the tablet's journal file; the several-tablets test runs each
tablet in a process of its own. Waits are on the desk's or the sender's state, with a deadline only to fail.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.desk_link import Assignment, DeskLinkError, OutboxSender, desk_url, join, request
from companion.record import new_game, replay
from companion.record.journal import Journal
from companion.rules.random_play import random_events
from companion.tournament.server import DeskServer
from companion.tournament.store import Desk

PASSWORD = "desk-pw"
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "<script>alert(1)</script>", "A&B", "Gen", "Jun", "Kei", "Lu"]


def make_event(db: Path, players: int = 8, dsn: str | None = None) -> None:
    with (Desk(dsn=dsn) if dsn else Desk(db)) as desk:
        ev = desk.create_event("Kobe Open", seed=7)
        for name in NAMES[:players]:
            desk.add_player(ev.id, name)
        desk.seat_round(ev.id)


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request, tmp_path):
    """The desk server over the desk file, and again over a real PostgreSQL database (``--dsn``)."""
    db = tmp_path / "desk.sqlite3"
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    make_event(db, dsn=dsn)
    with DeskServer("Kobe Open", db, host="127.0.0.1", port=0, password=PASSWORD, dsn=dsn) as s:
        yield s


def wait_for(condition, what: str, deadline: float = 30.0):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def pair(server, table: int) -> str:
    return request(server.url, "POST", "/api/admin/pair", {"table": table}, token=PASSWORD)["code"]


def played(assignment: Assignment, seed: int, budget: int = 3000) -> list[dict]:
    """A random legal game at the table's board (the whole game unless ``budget`` cuts it)."""
    return list(random_events(new_game(assignment.record()), random.Random(seed), budget))


def start_journal_game(path: Path, assignment: Assignment) -> Assignment:
    with Journal(path) as journal:
        return assignment.with_game(journal.create_game(assignment.record()))


def desk_events(server, table: int) -> list[dict]:
    floor = server.floor
    rows = floor._db.execute("SELECT g.pairing, g.game FROM floor_games g JOIN floor_pairings p ON p.id = g.pairing "
                             "WHERE p.table_no = ? ORDER BY g.updated DESC LIMIT 1", (table,)).fetchall()
    return floor.game_events(*rows[0]) if rows else []


def test_join_gives_the_table_its_players_seats_and_the_desk_board(server):
    code = pair(server, 1)
    assignment = join(server.url.removeprefix("http://"), code.lower())  # typed as a person types it
    with server.desk.reopen() as desk:
        ev = desk.event("Kobe Open")
        names = desk.names(ev.id)
        seated = [names[p] for p in desk.round(ev.id, 1).tables[0]]
    assert (assignment.event, assignment.round, assignment.table) == ("Kobe Open", 1, 1)
    assert list(assignment.players) == seated == [p["name"] for p in assignment.header["players"]]
    # the desk's board for the table: the same every time it is asked, another at another table
    again = request(server.url, "GET", "/api/table", token=assignment.token)
    assert again["header"]["board"] == assignment.header["board"]
    other = join(server.url, pair(server, 2))
    assert other.header["board"] != assignment.header["board"]
    new_game(assignment.record())  # a playable game
    assert request(server.url, "GET", "/health") == {"event": "Kobe Open", "round": 1, "tablets_connected": 2}


def test_a_whole_game_reaches_the_desk_and_its_result(server, tmp_path):
    assignment = start_journal_game(tmp_path / "journal.sqlite3", join(server.url, pair(server, 1)))
    events = played(assignment, seed=3)
    statuses = []
    sender = OutboxSender(tmp_path / "journal.sqlite3", assignment, on_status=statuses.append, poll=0.05).start()
    try:
        with Journal(tmp_path / "journal.sqlite3") as journal:  # the table plays while the sender sends
            for event in events:
                journal.append(assignment.game_id, event)
                sender.wake()
        wait_for(lambda: sender.status["state"] == "up to date" and sender.status["have"] == len(events),
                 "the desk to hold the whole game")
    finally:
        sender.stop()
    assert not sender.running
    assert desk_events(server, 1) == events
    game = replay(assignment.record().__class__(**{**assignment.record().__dict__, "events": events}))
    summary = game.summary()
    with server.desk.reopen() as desk:
        ev = desk.event("Kobe Open")
        result = desk.current_result(ev.id, 1, 1)
        names = desk.names(ev.id)
    assert result is not None and result.source == f"tablet: game {assignment.game_id}"
    assert {names[p]: v for p, v in result.vp.items()} == {
        p: summary["players"][i]["vp"] for i, p in enumerate(assignment.players)}
    assert names[result.winner] == assignment.players[summary["winner"]]
    assert sender.status["note"] == "result entered"
    assert any(s["state"] == "sending" for s in statuses)


def test_an_offline_tablet_catches_up_when_the_desk_is_back(tmp_path):
    db = tmp_path / "desk.sqlite3"
    make_event(db)
    first = DeskServer("Kobe Open", db, host="127.0.0.1", port=0, password=PASSWORD).start()
    port = first.port
    assignment = start_journal_game(tmp_path / "journal.sqlite3", join(first.url, pair(first, 1)))
    first.stop()  # the desk goes away (Wi-Fi down, laptop asleep) before the game starts
    events = played(assignment, seed=5, budget=150)
    sender = OutboxSender(tmp_path / "journal.sqlite3", assignment, poll=0.05).start()
    try:
        with Journal(tmp_path / "journal.sqlite3") as journal:
            for event in events:  # play goes on: the journal keeps every event
                journal.append(assignment.game_id, event)
        wait_for(lambda: sender.status["state"] == "offline", "the sender to say the desk is offline")
        with DeskServer("Kobe Open", db, host="127.0.0.1", port=port, password=PASSWORD) as second:
            sender.wake()
            wait_for(lambda: sender.status["state"] == "up to date", "the tablet to catch up", deadline=60)
            assert desk_events(second, 1) == events
    finally:
        sender.stop()


def test_an_undo_at_the_table_is_followed_by_the_desk(server, tmp_path):
    assignment = start_journal_game(tmp_path / "journal.sqlite3", join(server.url, pair(server, 1)))
    events = played(assignment, seed=11, budget=60)
    sender = OutboxSender(tmp_path / "journal.sqlite3", assignment, poll=0.05).start()
    try:
        with Journal(tmp_path / "journal.sqlite3") as journal:
            for event in events:
                journal.append(assignment.game_id, event)
            wait_for(lambda: sender.status["have"] == 60 and sender.status["state"] == "up to date", "60 events")
            for _ in range(3):
                journal.undo(assignment.game_id)
            sender.wake()
            wait_for(lambda: len(desk_events(server, 1)) == 57, "the desk to take the 3 events back")
            journal.redo(assignment.game_id)
            sender.wake()
            wait_for(lambda: len(desk_events(server, 1)) == 58, "the redone event")
    finally:
        sender.stop()
    assert desk_events(server, 1) == events[:58]


def test_several_tablets_in_processes_of_their_own(tmp_path):
    db = tmp_path / "desk.sqlite3"
    make_event(db, players=12)
    script = Path(__file__).with_name("desk_tablet_process.py")
    with DeskServer("Kobe Open", db, host="127.0.0.1", port=0, password=PASSWORD) as server:
        codes = [pair(server, t) for t in (1, 2, 3)]
        tablets = [subprocess.Popen([sys.executable, str(script), server.url, code, str(tmp_path / f"j{t}.sqlite3"),
                                     str(100 + t)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for t, code in enumerate(codes, start=1)]
        outputs = [t.communicate(timeout=120) for t in tablets]
        for tablet, (out, err) in zip(tablets, outputs):
            assert tablet.returncode == 0, err
        reports = [json.loads(out) for out, _ in outputs]
        for report in reports:
            assert desk_events(server, report["table"]) == report["events"]
        with Desk(db) as desk:
            ev = desk.event("Kobe Open")
            assert sorted(r.table for r in desk.results(ev.id)) == sorted(r["table"] for r in reports)
            standings = desk.standings(ev.id)
        assert sum(s.wins for s in standings) == 3


# --- security ------------------------------------------------------------------------------------------------

def _post(server, path, body, token=None, raw: bytes | None = None, headers=None):
    import http.client
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        data = raw if raw is not None else json.dumps(body).encode()
        h = {"Content-Type": "application/json", **(headers or {})}
        if token:
            h["Authorization"] = f"Bearer {token}"
        connection.request("POST", path, body=data, headers=h)
        response = connection.getresponse()
        payload = response.read()
        try:
            return response.status, json.loads(payload or b"null")
        except ValueError:
            return response.status, payload.decode()
    finally:
        connection.close()


def _batch(a: Assignment, game: int, rev: int, start: int, events: list, count: int, header=True) -> dict:
    body = {"round": a.round, "table": a.table, "game": game, "rev": rev, "from": start, "events": events,
            "count": count}
    if header:
        body["header"] = a.header
    return body


def test_only_the_paired_tablet_posts_and_only_for_its_table(server):
    one = join(server.url, pair(server, 1))
    two = join(server.url, pair(server, 2))
    events = played(one, seed=2, budget=10)
    good = _batch(one, 1, 10, 0, events, 10)
    assert _post(server, "/api/events", good)[0] == 401  # no token
    assert _post(server, "/api/events", good, token="x" * 43)[0] == 401  # a made-up token
    # another table's tablet cannot post this table's game: its token says table 2
    status, answer = _post(server, "/api/events", good, token=two.token)
    assert status == 403 and "table 2" in answer["error"]
    assert desk_events(server, 1) == []
    assert _post(server, "/api/events", good, token=one.token) == (200, {
        "game": 1, "have": 10, "rev": 10, "finished": False, "note": "", "stale": False, "time_limit": None})
    # re-pairing table 1 cuts the old tablet off; its next post changes nothing
    new_code = pair(server, 1)
    status, _ = _post(server, "/api/events", _batch(one, 1, 11, 0, events[:5], 5), token=one.token)
    assert status == 403
    assert desk_events(server, 1) == events
    # a code works once: the replayed join is refused
    assert _post(server, "/api/join", {"code": new_code})[0] == 200
    assert _post(server, "/api/join", {"code": new_code})[0] == 403


def test_a_replayed_or_late_request_changes_nothing(server):
    a = join(server.url, pair(server, 1))
    events = played(a, seed=4, budget=40)
    assert _post(server, "/api/events", _batch(a, 1, 100, 0, events[:20], 20), token=a.token)[0] == 200
    assert _post(server, "/api/events", _batch(a, 1, 200, 0, events[:40], 40), token=a.token)[0] == 200
    # the first request captured and sent again (or a slow copy arriving late): the desk keeps the newer game
    status, answer = _post(server, "/api/events", _batch(a, 1, 100, 0, events[:20], 20), token=a.token)
    assert status == 200 and answer["stale"] and answer["have"] == 40
    # the newest request twice: nothing doubles
    assert _post(server, "/api/events", _batch(a, 1, 200, 0, events[:40], 40), token=a.token)[1]["have"] == 40
    assert desk_events(server, 1) == events


@pytest.mark.parametrize("body, status, says", [
    ({"round": 1}, 422, "missing field"),
    ({"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "events": [], "count": 0, "admin": True}, 422,
     "unknown field"),
    ({"round": 1, "table": 1, "game": True, "rev": 1, "from": 0, "events": [], "count": 0}, 422, "game must be"),
    ({"round": 1, "table": 1, "game": 1, "rev": -5, "from": 0, "events": [], "count": 0}, 422, "rev must be"),
    ({"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "events": [], "count": 6000}, 422, "count must be"),
    ({"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "events": ["roll"], "count": 1}, 422, "events[0]"),
    ({"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "events": [{"type": "roll", "x": "a" * 5000}],
      "count": 1}, 422, "larger than"),
    ({"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "count": 1,
      "events": [{"type": "roll", "dice": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}]},
     422, "nested"),
    ({"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "events": [{"type": "roll", "dice": [9, 9]}],
      "count": 1}, 422, "event 0"),
])
def test_bad_input_is_refused_by_field_and_changes_nothing(server, body, status, says):
    a = join(server.url, pair(server, 1))
    if body.get("count") == 1 and "header" not in body:
        body = dict(body, header=a.header)
    got, answer = _post(server, "/api/events", body, token=a.token)
    assert (got, says in answer["error"]) == (status, True), answer
    assert desk_events(server, 1) == []


def test_an_oversized_or_broken_body_is_refused(server):
    a = join(server.url, pair(server, 1))
    status, answer = _post(server, "/api/events", None, token=a.token, raw=b"[" * (2 << 20))
    assert status == 413 and "larger than" in answer["error"]
    status, answer = _post(server, "/api/events", None, token=a.token, raw=b"[" * 100_000)
    assert status == 422 and "not JSON" in answer["error"]
    status, _ = _post(server, "/api/events", None, token=a.token, raw=b"\xff\xfe")
    assert status == 422


def test_a_game_that_is_not_the_desk_s_is_refused(server):
    a = join(server.url, pair(server, 1))
    forged = json.loads(json.dumps(a.header))
    forged["players"][0]["name"] = "Somebody Else"
    status, answer = _post(server, "/api/events", dict(_batch(a, 1, 1, 0, [], 0), header=forged), token=a.token)
    assert status == 422 and "not table 1's game" in answer["error"]


def test_the_organiser_s_actions_need_the_desk_password(server):
    assert _post(server, "/api/admin/pair", {"table": 1})[0] == 401
    assert _post(server, "/api/admin/pair", {"table": 1}, token="wrong")[0] == 403
    assert _post(server, "/api/admin/clock", {"action": "start"}, token="wrong")[0] == 403
    import base64
    basic = {"Authorization": "Basic " + base64.b64encode(f"desk:{PASSWORD}".encode()).decode()}
    # the desk page's forms carry the page's key: a form from another site, sent with the browser's password, is not
    status, _ = _post(server, "/desk/pair", None, raw=b"table=1", headers={
        **basic, "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 403
    assert server.floor.open_codes() == []


def test_the_display_page_is_read_only_escaped_and_live(server, tmp_path):
    import http.client
    a = join(server.url, pair(server, 1))
    events = played(a, seed=3)
    assert _post(server, "/api/events", _batch(a, 1, 1, 0, events[:200], len(events)), token=a.token)[0] == 200
    request(server.url, "POST", "/api/admin/clock", {"action": "reset", "minutes": 60}, token=PASSWORD)
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/")
    page = connection.getresponse().read().decode()
    connection.close()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "A&amp;B" in page
    assert "<script>alert(1)" not in page
    assert "60:00 (paused)" in page and "Kobe Open" in page
    display = request(server.url, "GET", "/display.json")
    assert display["round"] == 1 and display["clock_text"] == "60:00 (paused)"
    live = display["tables"][0]
    assert live["events"] == 200 and [p["name"] for p in live["players"]] == list(a.players)
    assert all(isinstance(p["vp"], int) for p in live["players"])
    assert _post(server, "/", {})[0] == 405  # the display changes nothing


def test_desk_url_from_what_is_typed():
    assert desk_url(" 192.168.1.5 ") == "http://192.168.1.5:8731"
    assert desk_url("desk.local:9000") == "http://desk.local:9000"
    assert desk_url("http://10.0.0.2:8731/") == "http://10.0.0.2:8731"
    for bad in ("", "ftp://x", "x:notaport", "http://x/admin"):
        with pytest.raises(DeskLinkError):
            desk_url(bad)


def test_guessing_codes_is_stopped_after_ten_wrong_ones(server):
    code = pair(server, 1)
    for _ in range(10):
        assert _post(server, "/api/join", {"code": "AAAAAA"})[0] == 403
    status, answer = _post(server, "/api/join", {"code": code})
    assert status == 429 and "wait a minute" in answer["error"]


def test_the_round_clock_is_set_at_the_desk(server):
    def clock(action, **more):
        return request(server.url, "POST", "/api/admin/clock", {"action": action, **more}, token=PASSWORD)

    assert clock("reset", minutes=60) == {"round": 1, "duration": 3600.0, "running": False, "left": 3600.0,
                                          "warning": None, "time_up": False}
    running = clock("start")
    assert running["running"] and running["left"] <= 3600
    paused = clock("pause")
    assert not paused["running"] and paused["left"] <= running["left"]
    assert clock("start")["running"]
    a = join(server.url, pair(server, 1))
    assert request(server.url, "GET", "/api/table", token=a.token)["clock"]["running"]  # what a tablet is told
    assert _post(server, "/api/admin/clock", {"action": "explode"}, token=PASSWORD)[0] == 422


def test_serve_and_pair_on_the_command_line(tmp_path):
    import os
    import signal
    db = tmp_path / "desk.sqlite3"
    make_event(db)
    command = [sys.executable, "-m", "companion", "tournament"]
    serve = subprocess.Popen(command + ["serve", "Kobe Open", "--db", str(db), "--host", "127.0.0.1", "--port", "0",
                                        "--password", PASSWORD], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        first = serve.stdout.readline()
        assert first.startswith("desk server for 'Kobe Open' on port "), first + serve.stderr.read()
        url = f"http://127.0.0.1:{int(first.rsplit(' ', 1)[1])}"
        assert request(url, "GET", "/health")["event"] == "Kobe Open"
        paired = subprocess.run(command + ["pair", "Kobe Open", "2", "--db", str(db), "--json"], capture_output=True,
                                text=True, check=True)
        code = json.loads(paired.stdout)["code"]
        assert join(url, code).table == 2  # a code made beside the running server works at once
        missing = subprocess.run(command + ["pair", "Kobe Open", "9", "--db", str(db)], capture_output=True, text=True)
        assert missing.returncode == 2 and "round 1 has tables 1 to 2, not 9" in missing.stderr
    finally:
        serve.send_signal(signal.SIGINT)
        serve.wait(timeout=30)
    assert serve.returncode == 0
    taken = subprocess.run(command + ["serve", "No Such Event", "--db", str(db), "--port", "0"], capture_output=True,
                           text=True)
    assert taken.returncode == 2 and "no event 'No Such Event'" in taken.stderr


def test_the_desk_page_shows_and_makes_pairing_codes(server):
    import base64
    import http.client
    import re
    basic = {"Authorization": "Basic " + base64.b64encode(f"desk:{PASSWORD}".encode()).decode()}

    def page() -> str:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.request("GET", "/desk", headers=basic)
        response = connection.getresponse()
        assert response.status == 200
        text = response.read().decode()
        connection.close()
        return text

    code = pair(server, 1)
    shown = page()
    assert f"code {code}" in shown and "no code yet" in shown  # table 1 has one, table 2 none
    assert "&lt;script&gt;" in shown or "A&amp;B" in shown  # the players' names, escaped
    # the way a tablet joins, in the app's words: its start screen has no Menu (a first-time desk looked for one)
    assert "start screen: Tournament table, Find the desk" in shown and "Menu &rarr;" not in shown
    key = re.search(r"name=csrf value=(\w+)", shown).group(1)
    status, _ = _post(server, "/desk/pair", None, raw=f"csrf={key}&table=2".encode(), headers={
        **basic, "Content-Type": "application/x-www-form-urlencoded"})
    assert status == 303
    (new,) = [p.code for p in server.floor.open_codes() if p.table == 2]
    assert f"code {new}" in page()
    assert _post(server, "/api/join", {"code": new})[1]["table"] == 2
