"""The app starts with a journal it cannot open -- damaged, cut short, written by a newer companion, another
program's WAL file with its -wal not yet checkpointed -- and with another program's file as its tournament desk.
Real widgets under Xvfb: the start screen says what is wrong and where the old file is; the old file and its
sidecars are kept, renamed, byte for byte; the games that can be read are offered to resume; a new game started by
taps is journalled in a fresh file."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.record.journal import APPLICATION_ID, Journal
from companion.record.sqlite_file import identify
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)

FOREIGN_WAL = """
    import os, sqlite3, sys
    db = sqlite3.connect(sys.argv[1], isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL"); db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("CREATE TABLE notes (x)"); db.execute("INSERT INTO notes VALUES ('only in the WAL')")
    os._exit(0)
"""


def _games_journal(path: Path, titles=("Thursday game", "Friday game")) -> None:
    record, _ = d.base_game_after_setup()
    with Journal(path) as journal:
        for title in titles:
            journal.create_game(record, title)


def _make(path: Path, kind: str) -> None:
    if kind == "foreign-wal":
        subprocess.run([sys.executable, "-c", textwrap.dedent(FOREIGN_WAL), str(path)], check=True, timeout=60)
    elif kind == "not-sqlite":
        path.write_text("a shopping list, not a journal\n")
    elif kind == "newer":
        _games_journal(path)
        db = sqlite3.connect(path)
        db.execute("PRAGMA user_version=99")
        db.commit()
        db.close()
    elif kind == "cut-short":
        _games_journal(path)
        data = path.read_bytes()
        path.write_bytes(data[: len(data) * 2 // 3])


def _files(directory: Path, name: str) -> dict[str, bytes]:
    """``name`` and its sidecars (-wal, -journal, -shm), by suffix."""
    return {p.name[len(name):]: p.read_bytes() for p in directory.iterdir() if p.name.startswith(name)}


@pytest.mark.parametrize("kind, problem", [("foreign-wal", "another program"), ("not-sqlite", "not an SQLite"),
                                           ("newer", "newer companion"), ("cut-short", "damaged")])
def test_the_app_starts_with_a_journal_it_cannot_open(tmp_path, kind, problem):
    journal = tmp_path / "journal.sqlite3"
    _make(journal, kind)
    before = _files(tmp_path, journal.name)
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        notice = d.find_label(start, "The game journal could not be opened")
        kept = [p for p in tmp_path.iterdir() if ".damaged-" in p.name and not p.name.endswith(("-wal", "-shm"))]
        assert len(kept) == 1 and kept[0].name in notice.text and problem in notice.text
        assert _files(tmp_path, kept[0].name) == before, "the old file and its sidecars, renamed, byte for byte"
        if kind == "newer":  # a newer companion's games are carried over and offered to resume
            assert "Carried over from it (2)" in notice.text
            resume = _resume_buttons(start)
            assert len(resume) == 2
            d.tap(resume[0])
            assert app.table is not None and app.root.current == "play"
            app.close_table()
            app.go("start")
        d.new_game(app)
        assert app.table is not None
    finally:
        d.stop_app(app)
    assert identify(journal, APPLICATION_ID).kind == "ours"
    with Journal(journal) as fresh:
        titles = [g.title for g in fresh.games()]
    assert len(titles) == (3 if kind == "newer" else 1)
    assert _files(tmp_path, kept[0].name) == before


def _resume_buttons(start):
    """The start screen's buttons that resume an unfinished game."""
    return [w for w in d.walk(start.ids.games) if hasattr(w, "trigger_action")]


def test_a_second_start_after_a_rescue_opens_the_fresh_journal_quietly(tmp_path):
    _make(tmp_path / "journal.sqlite3", "not-sqlite")
    for run in range(2):
        app = d.start_app(tmp_path)
        try:
            start = app.root.get_screen("start")
            shown = [w.text for w in d.walk(start) if "could not be opened" in str(getattr(w, "text", ""))]
            assert len(shown) == (1 if run == 0 else 0)
        finally:
            d.stop_app(app)
    assert len([p for p in tmp_path.iterdir() if ".damaged-" in p.name]) == 1


def test_the_tournament_desk_starts_fresh_beside_another_programs_file(tmp_path):
    desk_file = tmp_path / "tournament.sqlite3"
    _make(desk_file, "foreign-wal")
    before = _files(tmp_path, desk_file.name)
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        d.tap(start.ids.tournament)
        screen = app.root.get_screen("tournament")
        assert app.root.current == "tournament"
        kept = [p for p in tmp_path.iterdir() if p.name.startswith("tournament.sqlite3.damaged-")
                and not p.name.endswith(("-wal", "-shm"))]
        assert len(kept) == 1 and kept[0].name in screen.message and "another program" in screen.message
        assert _files(tmp_path, kept[0].name) == before
        screen.ids.event_input.text = "Kobe Open"
        d.tap(screen.ids.create_event)
        assert screen.event_name == "Kobe Open"
    finally:
        d.stop_app(app)
    from companion.tournament import Desk

    with Desk(desk_file) as desk:
        assert [e.name for e in desk.events()] == ["Kobe Open"]
    assert _files(tmp_path, kept[0].name) == before
