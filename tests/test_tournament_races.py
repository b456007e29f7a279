"""Two desks at once: two real processes entering the same tables' results into one tournament file.  A table
gets exactly one current result, whichever desk was first; the other desk is told it already has one."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.tournament import Desk

ROOT = Path(__file__).resolve().parents[1]
TABLES = 100

DESK = textwrap.dedent("""
    import sys, time
    from companion.tournament import Desk, TournamentError
    path, go, me = sys.argv[1], float(sys.argv[2]), sys.argv[3]
    stored = refused = 0
    with Desk(path) as desk:
        while time.time() < go:  # both desks start entering at the same moment
            pass
        for table in range(1, {tables} + 1):
            seats = [f"P{{table}}-{{s}}" for s in range(4)]
            try:
                desk.enter_result(1, 1, table, dict(zip(seats, (10, 7, 5, 3))), seats[0], who=me)
                stored += 1
            except TournamentError as error:
                assert "already has a result" in str(error), error
                refused += 1
    print(stored, refused)
""").format(tables=TABLES)


@pytest.fixture
def seated(tmp_path):
    path = tmp_path / "t.sqlite3"
    with Desk(path) as desk:
        ev = desk.create_event("Race", seed=1)
        tables = [[f"P{t}-{s}" for s in range(4)] for t in range(1, TABLES + 1)]
        desk.add_players(ev.id, [(name, "", ()) for table in tables for name in table])
        desk.seat_round(ev.id, tables=tables)
    return path


@pytest.mark.parametrize("run", range(3))
def test_two_desks_entering_the_same_tables_store_one_result_each(seated, run):
    import time

    go = time.time() + 1.5  # time for both interpreters to start and open the file
    desks = [subprocess.Popen([sys.executable, "-c", DESK, str(seated), str(go), name], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for name in ("desk-a", "desk-b")]
    counts = []
    for proc in desks:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        counts.append(tuple(map(int, out.split())))
    print("stored, refused by each desk:", counts)
    with Desk(seated) as desk:
        current = desk.results(1)
        every = desk.results(1, with_history=True)
        entered = [a for a in desk.audit(1) if a["action"] == "enter result"]
        standings = desk.standings(1)
    per_table = sorted(r.table for r in current)
    assert per_table == list(range(1, TABLES + 1)), "a table with two current results, or none"
    assert len(every) == len(entered) == TABLES
    assert sum(stored for stored, _ in counts) == TABLES and sum(sum(c) for c in counts) == 2 * TABLES
    assert {s.games for s in standings} == {1} and sum(s.wins for s in standings) == TABLES


REGISTER = textwrap.dedent("""
    import sys, time
    from companion.tournament import Desk, TournamentError
    path, go, upper = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "upper"
    stored = refused = 0
    with Desk(path) as desk:
        while time.time() < go:
            pass
        for n in range({players}):
            name = f"Player{{n}}"
            try:
                desk.add_player(1, name.upper() if upper else name)  # one person, typed two ways
                stored += 1
            except TournamentError as error:
                assert "already registered" in str(error), error
                refused += 1
    print(stored, refused)
""").format(players=TABLES)


def test_two_desks_registering_the_same_people_register_each_once(tmp_path):
    import time

    path = tmp_path / "t.sqlite3"
    with Desk(path) as desk:
        desk.create_event("Race", seed=1)
    go = time.time() + 1.5
    desks = [subprocess.Popen([sys.executable, "-c", REGISTER, str(path), str(go), how], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for how in ("lower", "upper")]
    for proc in desks:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    with Desk(path) as desk:
        names = [p.name.casefold() for p in desk.players(1)]
    assert len(names) == len(set(names)) == TABLES
