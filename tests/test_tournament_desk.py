"""The tournament desk's file: audit trail, corrections, durability, players coming and going, results from
game records (file and journal), final seeding.  A real SQLite file in each test; the tests taking ``desk`` run
again on a real PostgreSQL server (``--dsn``, tests/postgres_server.py)."""

import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.record import Record, load_record, replay
from companion.tournament import Desk, TournamentError

from test_journal import another_programs_database, assert_refused_and_untouched

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "companion" / "assets" / "games" / "example-base.json"  # Aki 6, Ben 4, Chie 2, Dan 10 (winner)


@pytest.fixture(params=["sqlite", "postgresql"])
def desk(request, tmp_path):
    with (Desk(tmp_path / "t.sqlite3") if request.param == "sqlite"
          else Desk(dsn=request.getfixturevalue("postgres").new_database())) as d:
        yield d


def _event(desk, names=("Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana"), preset="catan-studio"):
    ev = desk.create_event("Open", preset, seed=11)
    for n in names:
        desk.add_player(ev.id, n)
    return ev


def _snapshot(desk, ev):
    return (desk.results(ev.id, with_history=True), desk.audit(ev.id), desk.rounds(ev.id), desk.players(ev.id))


def test_a_correction_keeps_the_old_result_visible_with_who_and_why(desk):
    ev = _event(desk)
    desk.seat_round(ev.id, tables=[["Aki", "Ben", "Chie", "Dan"], ["Emi", "Fumi", "Gen", "Hana"]])
    first = desk.enter_result(ev.id, 1, 1, {"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 3}, "Aki", who="referee Sato")
    with pytest.raises(TournamentError, match="already has a result.*correction"):
        desk.enter_result(ev.id, 1, 1, {"Aki": 10, "Ben": 8, "Chie": 5, "Dan": 3}, "Aki")
    with pytest.raises(TournamentError, match="needs a reason"):
        desk.enter_result(ev.id, 1, 1, {"Aki": 10, "Ben": 8, "Chie": 5, "Dan": 3}, "Aki", correct=True)
    second = desk.enter_result(ev.id, 1, 1, {"Aki": 10, "Ben": 8, "Chie": 5, "Dan": 3}, "Aki", correct=True,
                               reason="Ben's hidden VP card", who="head referee")
    history = desk.results(ev.id, with_history=True)
    assert [(r.id, r.superseded_by) for r in history] == [(first.id, second.id), (second.id, None)]
    assert history[0].vp[desk.player(ev.id, "Ben").id] == 7 and history[0].entered_by == "referee Sato"
    assert desk.current_result(ev.id, 1, 1).vp[desk.player(ev.id, "Ben").id] == 8
    audit = desk.audit(ev.id)
    correction = audit[-1]
    assert correction["action"] == "correct result" and correction["who"] == "head referee"
    assert correction["details"]["before"]["vp"]["Ben"] == 7 and correction["details"]["vp"]["Ben"] == 8
    assert correction["details"]["reason"] == "Ben's hidden VP card"
    assert audit[-2]["action"] == "enter result" and audit[-2]["who"] == "referee Sato"
    # standings use the corrected result only
    ben = next(s for s in desk.standings(ev.id) if s.player == desk.player(ev.id, "Ben").id)
    assert ben.vp == 8 and ben.games == 1


@pytest.mark.parametrize("vp, winner, kw, message", [
    ({"Aki": 10, "Ben": 7, "Chie": 5}, "Aki", {}, "no VP for Dan"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 3, "Emi": 2}, "Aki", {}, "Emi is not seated at this table"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": -1}, "Aki", {}, "Dan's VP must be a whole number from 0 to 30"),
    ({"Aki": 100, "Ben": 7, "Chie": 5, "Dan": 1}, "Aki", {}, "Aki's VP must be"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 1}, None, {}, "name the winner, or mark the game as ended by the time"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 1}, "Emi", {}, "winner Emi is not seated"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 1}, "Zed", {}, "no player 'Zed'"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 1}, "Aki", {"table": 3}, "round 1 has tables 1 to 2, not 3"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 1}, "Aki", {"round_no": 2}, "round 2 has not been seated"),
    ({"Aki": 10, "Ben": 7, "Chie": 5, "Dan": 1}, "Aki", {"correct": True, "reason": "x"}, "no result yet to correct"),
])
def test_bad_results_are_refused_with_where_and_change_nothing(desk, vp, winner, kw, message):
    ev = _event(desk)
    desk.seat_round(ev.id, tables=[["Aki", "Ben", "Chie", "Dan"], ["Emi", "Fumi", "Gen", "Hana"]])
    before = _snapshot(desk, ev)
    args = {"round_no": 1, "table": 1}
    kw = dict(kw)  # (the parameters' own dict is shared by every run of this case: popped, a second run lacks it)
    args.update({k: kw.pop(k) for k in ("round_no", "table") if k in kw})
    with pytest.raises(TournamentError, match=message):
        desk.enter_result(ev.id, args["round_no"], args["table"], vp, winner, **kw)
    assert _snapshot(desk, ev) == before


def test_odd_but_possible_results_are_stored_with_warnings(desk):
    ev = _event(desk)
    desk.seat_round(ev.id, tables=[["Aki", "Ben", "Chie", "Dan"], ["Emi", "Fumi", "Gen", "Hana"]])
    r = desk.enter_result(ev.id, 1, 1, {"Aki": 9, "Ben": 9, "Chie": 5, "Dan": 3}, "Aki")
    assert any("below the target" in w for w in r.warnings)
    assert any("Ben scored as many VP as the winner" in w for w in r.warnings)


def test_a_committed_result_survives_a_kill(tmp_path):
    path = tmp_path / "t.sqlite3"
    with Desk(path) as desk:
        ev = _event(desk)
        desk.seat_round(ev.id, tables=[["Aki", "Ben", "Chie", "Dan"], ["Emi", "Fumi", "Gen", "Hana"]])
    child = textwrap.dedent(f"""
        import os, signal, sys
        from companion.tournament import Desk
        desk = Desk({str(path)!r})
        desk.enter_result(1, 1, 2, {{"Emi": 10, "Fumi": 8, "Gen": 6, "Hana": 4}}, "Emi", who="child")
        print("committed", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    proc = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL and "committed" in proc.stdout
    with Desk(path) as desk:
        r = desk.current_result(1, 1, 2)
        assert r is not None and r.entered_by == "child"
        assert desk.audit(1)[-1]["action"] == "enter result"


def test_dropped_players_keep_their_games_and_late_entries_join_next_round(desk):
    names = ["P%02d" % i for i in range(12)]
    ev = _event(desk, names)
    r1 = desk.seat_round(ev.id)
    for t, table in enumerate(r1.tables, start=1):
        desk.enter_result(ev.id, 1, t, {p: 10 - i for i, p in enumerate(table)}, table[0])
    gone = desk.drop_player(ev.id, "P03")
    assert gone.dropped_after == 1
    late = desk.add_player(ev.id, "Late Comer")
    assert late.entered_round == 2
    r2 = desk.seat_round(ev.id)
    seated = {p for t in r2.tables for p in t}
    assert gone.id not in seated and late.id in seated and len(seated) == 12
    rows = {desk.names(ev.id)[s.player]: s for s in desk.standings(ev.id)}
    assert rows["P03"].dropped and rows["P03"].games == 1
    assert rows["Late Comer"].games == 0
    with pytest.raises(TournamentError, match="already dropped"):
        desk.drop_player(ev.id, "P03")
    assert [a["action"] for a in desk.audit(ev.id)].count("late entry") == 1


def test_unseat_only_without_results(desk):
    ev = _event(desk)
    desk.seat_round(ev.id)
    desk.unseat_last_round(ev.id)
    assert desk.rounds(ev.id) == []
    r = desk.seat_round(ev.id)
    desk.enter_result(ev.id, 1, 1, {p: 5 for p in r.tables[0]}, r.tables[0][0])
    with pytest.raises(TournamentError, match="already has results"):
        desk.unseat_last_round(ev.id)


def test_seating_is_reproducible_from_the_stored_seed(tmp_path):
    tables = []
    for i in range(2):
        with Desk(tmp_path / f"{i}.sqlite3") as desk:
            ev = _event(desk, [f"N{j}" for j in range(23)])
            r = desk.seat_round(ev.id)
            tables.append([[desk.names(ev.id)[p] for p in t] for t in r.tables])
    assert tables[0] == tables[1]


def test_keep_apart_groups_from_csv_are_respected(desk):
    ev = desk.create_event("Club night", seed=3)
    rows = ["name,club,groups"] + [f"Tanaka {i},Kobe,Tanaka family" for i in range(3)] + \
        [f"Player {i},," for i in range(9)]
    desk.import_players_csv(ev.id, "\n".join(rows) + "\n")
    r = desk.seat_round(ev.id)
    tanaka = {p.id for p in desk.players(ev.id) if "Tanaka family" in p.groups}
    assert len(tanaka) == 3
    assert all(len(tanaka & set(t)) <= 1 for t in r.tables)


def test_a_bad_csv_row_imports_nothing_and_names_the_line(desk):
    ev = desk.create_event("Open", seed=1)
    with pytest.raises(TournamentError, match="CSV line 3: the name is empty"):
        desk.import_players_csv(ev.id, "name,club\nAki,X\n,Y\nBen,Z\n")
    with pytest.raises(TournamentError, match="CSV line 3: 'aki' is already registered as 'Aki'"):
        desk.import_players_csv(ev.id, "name\nAki\naki\n")
    with pytest.raises(TournamentError, match="needs a header row with a 'name' column"):
        desk.import_players_csv(ev.id, "player\nAki\n")
    assert desk.players(ev.id) == []


def test_result_filled_from_a_finished_game_record(desk):
    ev = _event(desk)
    desk.seat_round(ev.id, tables=[["Dan", "Chie", "Ben", "Aki"], ["Emi", "Fumi", "Gen", "Hana"]])
    r = desk.enter_record(ev.id, 1, 1, load_record(EXAMPLE), source="record: example-base.json")
    names = desk.names(ev.id)
    assert {names[p]: v for p, v in r.vp.items()} == {"Aki": 6, "Ben": 4, "Chie": 2, "Dan": 10}
    assert names[r.winner] == "Dan" and not r.ended_by_time and r.source == "record: example-base.json"


def test_a_record_without_winner_counts_only_as_ended_by_time(desk):
    ev = _event(desk)
    desk.seat_round(ev.id, tables=[["Aki", "Ben", "Chie", "Dan"], ["Emi", "Fumi", "Gen", "Hana"]])
    full = load_record(EXAMPLE)
    cut = Record(full.game, full.players, full.board, full.options, full.events[:400])
    with pytest.raises(TournamentError, match="no winner yet.*time limit"):
        desk.enter_record(ev.id, 1, 1, cut)
    assert desk.results(ev.id) == []
    r = desk.enter_record(ev.id, 1, 1, cut, ended_by_time=True)
    expected = [p["vp"] for p in replay(cut).summary()["players"]]
    assert [r.vp[desk.player(ev.id, n).id] for n in ("Aki", "Ben", "Chie", "Dan")] == expected
    assert r.ended_by_time and r.winner is None


def test_a_record_of_other_players_is_refused(desk):
    ev = _event(desk)
    desk.seat_round(ev.id, tables=[["Aki", "Ben", "Chie", "Emi"], ["Dan", "Fumi", "Gen", "Hana"]])
    with pytest.raises(TournamentError, match=r"record's players \(Aki, Ben, Chie, Dan\) are not the players"):
        desk.enter_record(ev.id, 1, 1, load_record(EXAMPLE))
    assert desk.results(ev.id) == []


def test_final_and_semi_final_seeded_from_standings(desk):
    names = [f"S{i:02d}" for i in range(16)]
    ev = _event(desk, names)
    desk.seat_round(ev.id, tables=[names[0:4], names[4:8], names[8:12], names[12:16]])
    with pytest.raises(TournamentError, match="round 1 still lacks the result of table"):
        desk.seat_round(ev.id, kind="final")
    # table winners S00, S04, S08, S12 with 10, 11(→10), ...; make VP distinct so the order is known
    for t in range(4):
        table = names[4 * t: 4 * t + 4]
        desk.enter_result(ev.id, 1, t + 1, {table[0]: 10, table[1]: 9 - t, table[2]: 5 - t, table[3]: 1}, table[0])
    ranked = [desk.names(ev.id)[s.player] for s in desk.standings(ev.id)]
    semi = desk.plan_round(ev.id, kind="semi", size=16)
    got = [[desk.names(ev.id)[p] for p in t] for t in semi.tables]
    assert got[0] == [ranked[0], ranked[7], ranked[8], ranked[15]]
    assert got[3] == [ranked[3], ranked[4], ranked[11], ranked[12]]
    final = desk.seat_round(ev.id, kind="final")
    assert [desk.names(ev.id)[p] for p in final.tables[0]] == ranked[:4] and final.kind == "final"


def test_a_foreign_file_is_left_untouched(tmp_path):
    assert_refused_and_untouched(Desk, another_programs_database(tmp_path / "other.sqlite3"), TournamentError,
                                 "another program")
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert_refused_and_untouched(Desk, text, TournamentError, "not a tournament file")


def test_the_file_lives_beside_the_journal(tmp_path, monkeypatch):
    monkeypatch.setenv("CATAN_COMPANION_HOME", str(tmp_path))
    from companion.record.journal import default_path as journal_path
    from companion.tournament import default_path
    assert default_path().parent == journal_path().parent == tmp_path
    with Desk() as desk:
        desk.create_event("X", seed=1)
    assert (tmp_path / "tournament.sqlite3").exists()
    (mode,) = sqlite3.connect(tmp_path / "tournament.sqlite3").execute("PRAGMA journal_mode").fetchone()
    assert mode == "wal"
