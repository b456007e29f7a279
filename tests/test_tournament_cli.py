"""``python -m companion tournament``: a whole small event through the command line, text and --json."""

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from companion.record import load_record
from companion.record.journal import Journal
from companion.tournament.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "companion" / "assets" / "games" / "example-base.json"


@pytest.fixture
def run(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite3")

    def run(*argv, ok=True):
        code = main([*argv, "--db", db])
        out = capsys.readouterr()
        if ok:
            assert code == 0, out.err
        else:
            assert code == 2, out
        return out
    return run


def _json(out):
    return json.loads(out.out)


def test_a_small_event_from_start_to_standings(run, tmp_path):
    ev = _json(run("new", "Kobe Open", "--preset", "german", "--seed", "42", "--json"))
    assert ev["preset"]["key"] == "german" and ev["seed"] == "42"
    players = tmp_path / "players.csv"
    players.write_text("name,club,groups\n" + "".join(f"{n},Kobe,\n" for n in
                                                       ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen"]))
    assert len(_json(run("import-players", "Kobe Open", str(players), "--json"))) == 7
    rnd = _json(run("seat", "Kobe Open", "--json", "--explain"))
    assert rnd["number"] == 1 and sorted(len(t["seats"]) for t in rnd["tables"]) == [3, 4]
    for t in rnd["tables"]:
        seats = t["seats"]
        scores = [f"{n}={v}" for n, v in zip(seats, [10, 7, 7, 2])]
        res = _json(run("result", "Kobe Open", "1", str(t["table"]), *scores, "--winner", seats[0], "--json",
                        "--by", "desk 1"))
        assert res["winner"] == seats[0] and res["entered_by"] == "desk 1"
    st = _json(run("standings", "Kobe Open", "--json"))
    assert st["order"] == ["points", "vp", "share_avg", "places"]
    top = st["standings"][0]
    assert top["points"] == 5 and top["rank"] == 1
    # the two 2nd-place ties at the 4-table split (3 + 2) / 2 points; at the 3-table 3 + 1
    # 4-table 10, 7, 7, 2: 5, (3 + 2) / 2 twice, 1; 3-table 10, 7, 7: 5, (3 + 1) / 2 twice
    assert sorted(s["points"] for s in st["standings"]) == [1, 2, 2, 2.5, 2.5, 5, 5]
    text = run("standings", "Kobe Open").out
    assert "Kobe Open" in text and "Aki" in text


def test_bad_input_exits_2_with_where_and_changes_nothing(run):
    run("new", "E", "--seed", "1")
    for n in ["A", "B", "C", "D"]:
        run("add", "E", n)
    run("seat", "E")
    err = run("result", "E", "1", "1", "A=10", "B=7", "C=5", "Z=1", "--winner", "A", ok=False).err
    assert "round 1 table 1: no player 'Z'" in err
    err = run("result", "E", "1", "1", "A=ten", ok=False).err
    assert "'A=ten': VP must be a whole number" in err
    assert "no event 'Nope'" in run("standings", "Nope", ok=False).err
    assert "5 players cannot be seated" not in run("audit", "E").out
    run("add", "E", "F")  # late entry: 5 players for round 2
    run("result", "E", "1", "1", "A=10", "B=7", "C=5", "D=2", "--winner", "A")
    assert "bye (sits this round out): " in run("seat", "E").out  # 5 players: one sits out (issue 31)
    audit = _json(run("audit", "E", "--json"))
    assert [a["action"] for a in audit].count("enter result") == 1
    assert [a["action"] for a in audit].count("seat round") == 2


def test_correction_from_the_command_line_keeps_the_old_result(run):
    run("new", "E", "--seed", "1")
    for n in ["A", "B", "C", "D"]:
        run("add", "E", n)
    run("seat", "E")
    run("result", "E", "1", "1", "A=10", "B=7", "C=5", "D=2", "--winner", "A")
    assert "correction with a reason" in run("result", "E", "1", "1", "A=10", "B=8", "C=5", "D=2",
                                             "--winner", "A", ok=False).err
    run("result", "E", "1", "1", "A=10", "B=8", "C=5", "D=2", "--winner", "A", "--correct", "--reason", "typo",
        "--by", "chief")
    export = _json(run("export", "E"))
    versions = [(r["vp"]["B"], r["superseded_by"] is None) for r in export["results"]]
    assert versions == [(7, False), (8, True)]
    assert export["audit"][-1]["who"] == "chief" and export["audit"][-1]["details"]["reason"] == "typo"


def test_import_result_from_a_record_file_and_from_the_journal(run, tmp_path):
    run("new", "E", "--seed", "1")
    for n in ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana"]:
        run("add", "E", n)
    run("seat", "E", "--table", "Emi,Fumi,Gen,Hana", "--table", "Dan,Aki,Ben,Chie")
    err = run("import-result", "E", "1", "1", "--record", str(EXAMPLE), ok=False).err
    assert "are not the players at this table (Emi, Fumi, Gen, Hana)" in err
    res = _json(run("import-result", "E", "1", "2", "--record", str(EXAMPLE), "--json"))
    assert res["vp"] == {"Dan": 10, "Aki": 6, "Ben": 4, "Chie": 2} and res["winner"] == "Dan"
    journal_path = tmp_path / "journal.sqlite3"
    with Journal(journal_path) as journal:
        gid = journal.create_game(load_record(EXAMPLE))
    res = _json(run("import-result", "E", "1", "2", "--journal-game", str(gid), "--journal",
                    str(journal_path), "--correct", "--reason", "from the journal", "--json"))
    assert res["source"].startswith("journal:") and res["winner"] == "Dan" and res["reason"] == "from the journal"


def test_record_import_by_journal_game(run, tmp_path):
    """A seating made so the example's players share a table: the first round of 4 players."""
    run("new", "E", "--seed", "1")
    for n in ["Aki", "Ben", "Chie", "Dan"]:
        run("add", "E", n)
    run("seat", "E")
    journal_path = tmp_path / "journal.sqlite3"
    with Journal(journal_path) as journal:
        gid = journal.create_game(load_record(EXAMPLE))
    res = _json(run("import-result", "E", "1", "1", "--journal-game", str(gid), "--journal", str(journal_path),
                    "--json"))
    assert res["vp"] == {"Aki": 6, "Ben": 4, "Chie": 2, "Dan": 10} and res["winner"] == "Dan"
    err = run("import-result", "E", "1", "1", "--journal-game", "99", "--journal", str(journal_path), ok=False).err
    assert "there is no game 99" in err


def test_exports_csv_html_slips(run, tmp_path):
    run("new", "E <&>", "--seed", "9")
    names = ["<b>Bold</b>", "Ann", "Bo", "Cy", "Di", "Ed"]
    for n in names:
        run("add", "E <&>", n)
    rnd = _json(run("seat", "E <&>", "--json"))
    assert [len(t["seats"]) for t in rnd["tables"]] == [3, 3]
    for t in rnd["tables"]:
        s = t["seats"]
        run("result", "E <&>", "1", str(t["table"]), f"{s[0]}=10", f"{s[1]}=6", f"{s[2]}=6", "--winner", s[0])
    out = run("standings", "E <&>", "--csv", "-").out
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["rank"] for r in rows][:2] == ["1", "2"] and {r["name"] for r in rows} == set(names)
    assert rows[0]["wins"] == "1"
    html_path = tmp_path / "standings.html"
    run("standings", "E <&>", "--html", str(html_path))
    page = html_path.read_text()
    assert "&lt;b&gt;Bold&lt;/b&gt;" in page and "<b>Bold</b>" not in page and "E &lt;&amp;&gt;" in page
    assert "@media print" in page
    slips = tmp_path / "slips.html"
    text = run("slips", "E <&>", "1", "--html", str(slips)).out
    assert text.count("round 1 — table") == 2 and "seat 1:" in text
    assert slips.read_text().count('class="slip"') == 2
    exported = tmp_path / "event.json"
    run("export", "E <&>", "-o", str(exported))
    data = json.loads(exported.read_text())
    assert {p["name"] for p in data["players"]} == set(names) and len(data["rounds"]) == 1


def test_custom_preset_and_final_from_the_command_line(run):
    ev = _json(run("new", "Club", "--preset", "custom", "--points", "4,2,1,0", "--points3", "4,1,0",
                   "--order", "points,vp,lot", "--seed", "3", "--json"))
    assert ev["preset"]["points4"] == [4, 2, 1, 0] and ev["preset"]["order"] == ["points", "vp", "lot"]
    assert "unknown ranking criterion 'luck'" in run("new", "Bad", "--preset", "custom", "--points", "1,1,1,1",
                                                     "--points3", "1,1,1", "--order", "luck", ok=False).err
    for i in range(8):
        run("add", "Club", f"P{i}")
    rnd = _json(run("seat", "Club", "--json"))
    for t in rnd["tables"]:
        s = t["seats"]
        run("result", "Club", "1", str(t["table"]), *[f"{n}={v}" for n, v in zip(s, [10, 8, 6, 4])], "--winner", s[0])
    st = _json(run("standings", "Club", "--json"))["standings"]
    final = _json(run("seat", "Club", "--final", "--json"))
    assert final["kind"] == "final" and final["tables"][0]["seats"] == [s["player"] for s in st[:4]]


def test_module_entry_point(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "companion", "tournament", "new", "Via main", "--seed", "1",
                           "--json", "--db", str(tmp_path / "t.sqlite3")], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["name"] == "Via main"


def test_seating_weights_from_the_command_line(run):
    ev = _json(run("new", "W", "--weight", "keep_apart=50", "--weight", "repeat=300", "--json"))
    assert ev["seating_weights"]["keep_apart"] == 50 and ev["seating_weights"]["repeat"] == 300
    assert "unknown seating weight(s): luck" in run("new", "X", "--weight", "luck=1", ok=False).err
    assert "write NAME=NUMBER" in run("new", "Y", "--weight", "seat=high", ok=False).err
