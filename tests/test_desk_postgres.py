"""The desk on a real PostgreSQL server (``--dsn``) behaves as on its SQLite file: the same schema and migrations,
the same standings for every worked example, the desk server taking a tablet's game to its result, desks of
several venues sharing one database, and two desks racing for one table serialised as on one file.

The server is Debian's PostgreSQL started in a temp directory (tests/postgres_server.py); tablets are the app's
own ``desk_link`` over real sockets.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from companion.desk_link import join, request
from companion.record import new_game
from companion.rules.random_play import random_events
from companion.tournament import Desk, TournamentError
from companion.tournament.export import event_json
from companion.tournament.server import DeskServer
from companion.tournament.store import SCHEMA_VERSION, DeskFileError
from test_tournament_examples import run_example

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "tests" / "tournament").glob("*.json"))
PASSWORD = "desk-pw"


def without_times(data):
    """An export with the moments things happened taken out (they differ between two runs)."""
    if isinstance(data, dict):
        return {k: without_times(v) for k, v in data.items() if k not in ("at", "entered_at", "created", "exported")}
    if isinstance(data, list):
        return [without_times(v) for v in data]
    return data


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_worked_example_gives_the_same_event_on_both_stores(path, tmp_path, postgres_dsn):
    example = json.loads(path.read_text())
    exports = []
    for desk in (Desk(tmp_path / "t.sqlite3"), Desk(dsn=postgres_dsn)):
        with desk:
            ev = run_example(desk, example, who="desk")
            names = desk.names(ev.id)
            standings = [(names[s.player], s.rank, s.points, s.vp, s.share_sum, s.decided_by)
                         for s in desk.standings(ev.id)]
            exports.append((standings, without_times(event_json(desk, ev.id)),
                            [(a["action"], a["details"]) for a in desk.audit(ev.id)]))
    assert exports[0] == exports[1]  # (tests/test_tournament_examples.py checks the SQLite side by hand)


def test_the_schema_is_made_once_kept_and_a_newer_one_refused(postgres_dsn):
    with Desk(dsn=postgres_dsn) as desk:
        ev = desk.create_event("League", seed=3)
        desk.add_player(ev.id, "Aki")
        assert desk.where.startswith("PostgreSQL database postgres on /tmp/pg-")  # no password in messages
    with Desk(dsn=postgres_dsn) as desk:  # opened again: the same data, the schema not made twice
        assert [p.name for p in desk.players(desk.event("League").id)] == ["Aki"]
        desk._db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(DeskFileError, match="written by a newer companion"):
        Desk(dsn=postgres_dsn)


def test_another_program_s_tables_are_left_alone(postgres_dsn):
    import psycopg
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        conn.execute("CREATE TABLE events (id SERIAL PRIMARY KEY, title TEXT)")
        conn.execute("INSERT INTO events (title) VALUES ('a concert')")
    with pytest.raises(DeskFileError, match=r"already holds tables of another program \(events\)"):
        Desk(dsn=postgres_dsn)
    with psycopg.connect(postgres_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT title FROM events").fetchall() == [("a concert",)]
        assert conn.execute("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() "
                            "AND table_name IN ('players', 'results', 'audit')").fetchone() == (0,)


def test_a_desk_waiting_too_long_for_another_s_lock_is_told_busy(postgres_dsn):
    import psycopg
    from companion.tournament.store_postgres import LOCK_KEY
    with Desk(dsn=postgres_dsn) as desk:
        desk.create_event("Open", seed=1)
        desk._db.execute("SET lock_timeout = '300ms'")  # (the real wait is 30 s, as SQLite's)
        with psycopg.connect(postgres_dsn, autocommit=True) as holder:
            holder.execute("BEGIN")
            holder.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_KEY,))  # another desk mid-change
            with pytest.raises(psycopg.errors.LockNotAvailable):
                desk.add_player(1, "Aki")
            holder.execute("ROLLBACK")
        assert not desk._db.in_transaction
        desk.add_player(1, "Aki")  # the lock free again: the same change goes in
        assert [p.name for p in desk.players(1)] == ["Aki"]


def test_an_unreachable_database_is_said_in_one_line(tmp_path):
    dsn = f"host={tmp_path} user=nobody password=secret dbname=league connect_timeout=2"
    with pytest.raises(DeskFileError) as refused:
        Desk(dsn=dsn)
    assert "PostgreSQL database league" in str(refused.value) and "cannot be reached" in str(refused.value)
    assert "secret" not in str(refused.value)
    proc = subprocess.run([sys.executable, "-m", "companion", "tournament", "serve", "Open", "--dsn", dsn],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and "cannot be reached" in proc.stderr


def test_two_desks_racing_for_one_table_enter_one_result(postgres_dsn):
    with Desk(dsn=postgres_dsn) as desk:
        ev = desk.create_event("Open", seed=5)
        for n in ("Aki", "Ben", "Chie", "Dan"):
            desk.add_player(ev.id, n)
        desk.seat_round(ev.id, tables=[["Aki", "Ben", "Chie", "Dan"]])
    outcomes: list[str] = []
    start = threading.Barrier(6)

    def enter(i: int) -> None:
        with Desk(dsn=postgres_dsn) as d:
            start.wait()
            try:
                d.enter_result(1, 1, 1, {"Aki": 10, "Ben": i, "Chie": 2, "Dan": 1}, "Aki", who=f"desk {i}")
                outcomes.append("entered")
            except TournamentError as error:
                outcomes.append(str(error))

    threads = [threading.Thread(target=enter, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert outcomes.count("entered") == 1, outcomes
    assert all("already has a result" in o for o in outcomes if o != "entered")
    with Desk(dsn=postgres_dsn) as desk:
        assert len(desk.results(1, with_history=True)) == 1


def _event(dsn: str, name: str, players: list[str]) -> None:
    with Desk(dsn=dsn) as desk:
        ev = desk.create_event(name, seed=len(name))
        for p in players:
            desk.add_player(ev.id, p)
        desk.seat_round(ev.id)


def _play_to_the_end(server: DeskServer, table: int) -> tuple[list[dict], dict]:
    code = request(server.url, "POST", "/api/admin/pair", {"table": table}, token=PASSWORD)["code"]
    a = join(server.url, code)
    events = list(random_events(new_game(a.record()), random.Random(table), 3000))
    view = {}
    for end in range(0, len(events), 200):  # as the outbox sends: batches, a later read each time
        chunk = events[end:end + 200]
        body = {"round": a.round, "table": a.table, "game": 1, "rev": end + 1, "from": end, "events": chunk,
                "count": end + len(chunk), **({"header": a.header} if end == 0 else {})}
        view = request(server.url, "POST", "/api/events", body, token=a.token)
    return events, view


def test_desk_servers_of_two_venues_share_one_database(postgres_dsn):
    _event(postgres_dsn, "League: Kobe", ["Aki", "Ben", "Chie", "Dan"])
    _event(postgres_dsn, "League: Osaka", ["Emi", "Fumi", "Gen", "Hana"])
    with DeskServer("League: Kobe", dsn=postgres_dsn, host="127.0.0.1", port=0, password=PASSWORD) as kobe, \
            DeskServer("League: Osaka", dsn=postgres_dsn, host="127.0.0.1", port=0, password=PASSWORD) as osaka:
        for server in (kobe, osaka):
            events, view = _play_to_the_end(server, 1)
            assert view["have"] == len(events) and view["finished"] and view["note"] == "result entered"
            # a resend of the whole game changes nothing
            assert request(server.url, "GET", "/health")["event"] == server.floor.event.name
        display = request(kobe.url, "GET", "/display.json")
        assert [row[1] for row in display["standings"]][:4] and \
            {p["name"] for p in display["tables"][0]["players"]} == {"Aki", "Ben", "Chie", "Dan"}
    with Desk(dsn=postgres_dsn) as desk:
        for name in ("League: Kobe", "League: Osaka"):
            ev = desk.event(name)
            result = desk.current_result(ev.id, 1, 1)
            assert result is not None and result.source == "tablet: game 1"


def test_the_desk_server_restarted_on_postgresql_keeps_what_it_acknowledged(postgres_dsn):
    _event(postgres_dsn, "Open", ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana"])
    with DeskServer("Open", dsn=postgres_dsn, host="127.0.0.1", port=0, password=PASSWORD) as server:
        code = request(server.url, "POST", "/api/admin/pair", {"table": 2}, token=PASSWORD)["code"]
        a = join(server.url, code)
        events = list(random_events(new_game(a.record()), random.Random(2), 80))
        body = {"round": 1, "table": 2, "game": 7, "rev": 1, "from": 0, "events": events[:50], "count": 50,
                "header": a.header}
        assert request(server.url, "POST", "/api/events", body, token=a.token)["have"] == 50
    with DeskServer("Open", dsn=postgres_dsn, host="127.0.0.1", port=0, password=PASSWORD) as server:
        # the same tablet, its token still good, sends the whole journal again from 0: nothing doubles
        body = dict(body, rev=2, events=events, count=len(events))
        assert request(server.url, "POST", "/api/events", body, token=a.token)["have"] == 80
        assert server.floor._db.execute("SELECT COUNT(*) FROM floor_events").fetchone() == (80,)
        (pairing,) = server.floor._db.execute("SELECT id FROM floor_pairings WHERE table_no = 2 AND revoked IS NULL"
                                              ).fetchone()
        assert server.floor.game_events(pairing, 7) == events


def test_the_command_line_runs_an_event_on_postgresql(postgres_dsn, tmp_path):
    def cli(*args):
        proc = subprocess.run([sys.executable, "-m", "companion", "tournament", *args, "--dsn", postgres_dsn],
                              cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    cli("new", "Open", "--seed", "4")
    (tmp_path / "players.csv").write_text("name\nAki\nBen\nChie\nDan\n")
    cli("import-players", "Open", str(tmp_path / "players.csv"))
    assert "Aki" in cli("seat", "Open")
    assert "pairing code" in cli("pair", "Open", "1")
    proc = subprocess.run([sys.executable, "-m", "companion", "tournament", "standings", "Open",
                           "--db", str(tmp_path / "x.sqlite3"), "--dsn", postgres_dsn],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "not both" in proc.stderr
