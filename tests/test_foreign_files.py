"""Another program's SQLite file where the journal or the tournament file should be: identified without writing
a byte.  The hard cases are the ones SQLite would "repair" on a read-write open: a WAL-mode database whose -wal was
never checkpointed (replayed into the main file and deleted on close) and a hot rollback -journal (rolled back).
Every journal and desk command is run on such files; the file and its sidecars stay byte-identical."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.record.cli import journal_main
from companion.record.journal import Journal, JournalError
from companion.record.sqlite_file import identify
from companion.tournament import Desk, DeskFileError
from companion.tournament.cli import main as desk_main

ROOT = Path(__file__).resolve().parents[1]

# Each leaves the file as a program killed mid-work does: the process ends without closing the database.
MAKERS = {
    "wal": """
        db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("CREATE TABLE notes (x)"); db.execute("INSERT INTO notes VALUES ('kept in the WAL only')")
    """,
    "wal-with-id": """
        db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("PRAGMA application_id=7"); db.execute("CREATE TABLE notes (x)")
    """,
    "hot-journal": """
        db.execute("CREATE TABLE notes (x)"); db.execute("INSERT INTO notes VALUES (randomblob(60000))")
        db.execute("PRAGMA cache_size=1"); db.execute("BEGIN")
        db.execute("UPDATE notes SET x = randomblob(60000)")
        db.execute("INSERT INTO notes SELECT randomblob(60000) FROM notes")
    """,
    "plain": """db.execute("CREATE TABLE notes (x)")""",
}


def _make(path: Path, kind: str) -> None:
    script = "import os, sqlite3, sys\ndb = sqlite3.connect(sys.argv[1], isolation_level=None)\n" + \
        textwrap.dedent(MAKERS[kind]) + "\nos._exit(0)\n"
    subprocess.run([sys.executable, "-c", script, str(path)], check=True, timeout=60)


def _snapshot(path: Path) -> dict[str, bytes]:
    """The file and every sidecar beside it, byte for byte (the -shm too)."""
    return {p.name: p.read_bytes() for p in sorted(path.parent.iterdir()) if p.name.startswith(path.name)}


@pytest.fixture(params=sorted(MAKERS))
def foreign(request, tmp_path):
    path = tmp_path / "file.sqlite3"
    _make(path, request.param)
    if request.param != "plain":
        assert any(name != path.name and not name.endswith("-shm") for name in _snapshot(path)), "no sidecar made"
    return path


def test_journal_commands_leave_a_foreign_file_and_its_sidecars_untouched(foreign, tmp_path, capsys):
    before = _snapshot(foreign)
    for argv in (["list"], ["list", "--json"], ["export", "1"], ["export", "1", "--out", str(tmp_path / "r.json")],
                 ["dataset", str(tmp_path / "set")]):
        assert journal_main(["--journal", str(foreign), *argv]) == 2
        err = capsys.readouterr().err
        assert "another program" in err and "left untouched" in err and err.count("\n") == 1
        assert _snapshot(foreign) == before, argv
    with pytest.raises(JournalError, match="another program"):
        Journal(foreign)
    assert _snapshot(foreign) == before
    assert not (tmp_path / "r.json").exists()


DESK_COMMANDS = [["new", "X"], ["events"], ["add", "X", "Aki"], ["import-players", "X", "players.csv"],
                 ["groups", "X", "Aki", "g"], ["drop", "X", "Aki"], ["players", "X"], ["seat", "X"], ["unseat", "X"],
                 ["tables", "X"], ["result", "X", "1", "1", "Aki=10", "--winner", "Aki"],
                 ["import-result", "X", "1", "1", "--journal-game", "1"], ["standings", "X", "--csv", "-"],
                 ["slips", "X", "1"], ["export", "X"], ["audit", "X"]]


def test_every_desk_command_leaves_a_foreign_file_and_its_sidecars_untouched(foreign, capsys, monkeypatch):
    monkeypatch.chdir(foreign.parent)
    (foreign.parent / "players.csv").write_text("name\nAki\n")
    before = _snapshot(foreign)
    for argv in DESK_COMMANDS:
        assert desk_main([*argv, "--db", str(foreign)]) == 2, argv
        err = capsys.readouterr().err
        assert "another program" in err and "left untouched" in err, (argv, err)
        assert _snapshot(foreign) == before, argv
    with pytest.raises(DeskFileError):
        Desk(foreign)
    assert _snapshot(foreign) == before


def test_a_foreign_journal_named_for_a_desk_import_is_left_untouched(foreign, tmp_path, capsys):
    desk = tmp_path / "desk.sqlite3"
    assert desk_main(["new", "X", "--db", str(desk)]) == 0
    for name in ("Aki", "Ben", "Chie"):
        assert desk_main(["add", "X", name, "--db", str(desk)]) == 0
    assert desk_main(["seat", "X", "--db", str(desk)]) == 0
    before = _snapshot(foreign)
    assert desk_main(["import-result", "X", "1", "1", "--journal-game", "1", "--journal", str(foreign),
                      "--db", str(desk)]) == 2
    assert "another program" in capsys.readouterr().err and _snapshot(foreign) == before


def test_our_own_journal_killed_before_any_checkpoint_is_still_ours(tmp_path):
    """The hard case the other way round: our journal's application id may still be only in its -wal."""
    path = tmp_path / "journal.sqlite3"
    child = textwrap.dedent(f"""
        import os
        from companion.record import Record
        from companion.record.journal import Journal
        from companion.rules import standard_board
        journal = Journal({str(path)!r})
        journal._db.execute("PRAGMA wal_autocheckpoint=0")
        players = [{{"name": n, "color": c}} for n, c in (("Aki", "red"), ("Ben", "blue"), ("Chie", "white"))]
        journal.create_game(Record("base", players, standard_board(1).to_json()))
        os._exit(0)
    """)
    subprocess.run([sys.executable, "-c", child], cwd=ROOT, check=True, timeout=60)
    assert path.with_name(path.name + "-wal").stat().st_size > 0
    assert int.from_bytes(path.read_bytes()[68:72], "big") == 0, "the id is only in the WAL"
    assert identify(path, 0x43544E31).kind == "ours"
    with Journal(path) as journal:
        assert len(journal.games()) == 1


@pytest.mark.parametrize("content, kind", [(b"", "new"), (b"hello, not a database", "not_sqlite"),
                                           (b"SQLite format 3\x00" + b"\xff" * 200, "damaged")])
def test_what_a_file_is_said_from_its_bytes(tmp_path, content, kind):
    path = tmp_path / "f"
    path.write_bytes(content)
    assert identify(path, 1).kind == kind
    assert path.read_bytes() == content and os.listdir(tmp_path) == ["f"]


@settings(max_examples=60, deadline=None)
@given(body=st.binary(max_size=3000), sqlite_header=st.booleans(), wal=st.one_of(st.none(), st.binary(max_size=600)))
def test_any_bytes_are_identified_without_an_exception_or_a_change(body, sqlite_header, wal):
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.sqlite3"
        path.write_bytes((b"SQLite format 3\x00" if sqlite_header else b"") + body)
        if wal is not None:
            path.with_name("f.sqlite3-wal").write_bytes(wal)
        before = _snapshot(path)
        assert identify(path, 0x43544E31).kind in ("new", "ours", "foreign", "not_sqlite", "damaged")
        assert _snapshot(path) == before
