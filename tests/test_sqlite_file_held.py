"""A file this process holds open twice (the tablet's journal: play, and the desk link's reader) keeps what it
writes when another process opens and closes it meanwhile (``journal list``, ``doctor``, the command line).

Opening it the second time read its header with ``open()``; closing that descriptor dropped this process's SQLite
locks on it (POSIX locks go with any ``close()`` of the file in the process), so the other process, closing, took
itself for the last user and deleted the ``-wal``: everything written afterwards went to the deleted file, seen by
no connection opened after (the desk link's reader of the next game among them) and lost if the app was killed
(session 17's trial: a tournament table's round-2 game never reached the desk). Real SQLite files, a real second
process.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from companion.record import load_record
from companion.record.journal import Journal
from companion.tournament.store import Desk

EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-base.json"


def elsewhere(path: Path, query: str) -> str:
    """``query``'s answer as another process reads the file (it opens and closes it, as ``journal list`` does)."""
    script = f"import sqlite3; db = sqlite3.connect({str(path)!r}); print(db.execute({query!r}).fetchone()[0]); db.close()"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()


def journal_write(j: Journal) -> None:
    j.create_game(load_record(EXAMPLE))


def desk_write(d: Desk, n=[0]) -> None:
    n[0] += 1
    d.create_event(f"Evening {n[0]}")


@pytest.mark.parametrize("kind, opener, write, count", [
    ("journal", Journal, journal_write, "SELECT COUNT(*) FROM games"),
    ("tournament file", Desk, desk_write, "SELECT COUNT(*) FROM events"),
])
def test_a_file_open_twice_here_keeps_what_it_writes_when_another_process_looks(tmp_path, kind, opener, write, count):
    path = tmp_path / f"{kind}.sqlite3"
    first = opener(path)
    try:
        write(first)
        second = opener(path)  # (the desk link's reader of the tablet's journal; a second desk in the process)
        try:
            assert elsewhere(path, count) == "1"  # another process opens the file and closes it
            assert path.with_name(path.name + "-wal").exists(), f"the {kind}'s -wal was deleted under it"
            write(first)
            assert elsewhere(path, count) == "2", f"what the {kind} wrote after another process looked is lost"
        finally:
            second.close()
    finally:
        first.close()
    assert elsewhere(path, count) == "2"
