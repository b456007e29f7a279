"""What identifying a file before opening it costs (issue 26): the journal's and the desk's files are recognised
from their header, an immutable read, or a copy with their sidecars (companion/record/sqlite_file.py); and what
entering a result costs now that its checks run inside the write transaction.

    .venv/bin/python bench/bench_files.py [--repeat N]

Prints medians (and min/max) over repeated runs as Markdown rows for docs/performance.md.
Timings are for reading, never pass/fail: this machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.record.journal import APPLICATION_ID, Journal
from companion.record.sqlite_file import identify
from companion.tournament import Desk


def row(name, samples, extra=""):
    med = statistics.median(samples)
    unit, scale = ("µs", 1e6) if med < 1e-3 else ("ms", 1e3) if med < 1 else ("s", 1)
    return (f"| {name} | {med * scale:.3g} {unit} | {min(samples) * scale:.3g}–{max(samples) * scale:.3g} {unit} | "
            f"{len(samples)} | {extra} |")


def timed(fn, repeat):
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def foreign(path: Path, megabytes: int, wal: bool) -> None:
    """Another program's database of about ``megabytes`` MB; with ``wal``, its last 1 MB only in the -wal."""
    script = f"""
import os, sqlite3
db = sqlite3.connect({str(path)!r}, isolation_level=None)
db.execute("PRAGMA journal_mode={'WAL' if wal else 'DELETE'}")
db.execute("CREATE TABLE blobs (x)")
db.execute("BEGIN")
for _ in range({megabytes}):
    db.execute("INSERT INTO blobs VALUES (randomblob(1000000))")
db.execute("COMMIT")
if {wal}:
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)"); db.execute("PRAGMA wal_autocheckpoint=0")
    db.execute("INSERT INTO blobs VALUES (randomblob(1000000))")
    os._exit(0)
"""
    subprocess.run([sys.executable, "-c", script], check=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    repeat = parser.parse_args().repeat
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        ours = tmp / "journal.sqlite3"
        with Journal(ours) as journal:  # a journal of about 10 MB (photos are what makes one big)
            journal._db.execute("CREATE TABLE IF NOT EXISTS pad (x)")
            journal._db.execute("INSERT INTO pad VALUES (randomblob(10000000))")
        rows.append(row("identify our journal (10 MB) from its header", timed(lambda: identify(ours, APPLICATION_ID), repeat)))
        rows.append(row("open our journal (10 MB): identify + connect + quick_check", timed(lambda: Journal(ours).close(), repeat)))
        for mb, wal in ((10, False), (1, True), (50, True)):
            path = tmp / f"foreign-{mb}-{wal}.db"
            foreign(path, mb, wal)
            kind = identify(path, APPLICATION_ID).kind
            how = "copy with its -wal" if wal else "immutable read"
            rows.append(row(f"identify another program's {mb} MB file ({how})",
                            timed(lambda: identify(path, APPLICATION_ID), repeat), kind))
        desk_path = tmp / "t.sqlite3"
        with Desk(desk_path) as desk:
            ev = desk.create_event("Bench", seed=1)
            tables = [[f"P{t}-{s}" for s in range(4)] for t in range(1, 251)]
            desk.add_players(ev.id, [(n, "", ()) for t in tables for n in t])
            desk.seat_round(ev.id, tables=tables)
            samples = []
            for t, table in enumerate(tables, start=1):
                start = time.perf_counter()
                desk.enter_result(ev.id, 1, t, dict(zip(table, (10, 7, 5, 3))), table[0])
                samples.append(time.perf_counter() - start)
        rows.append(row("enter one result (checks inside BEGIN IMMEDIATE, fsync, audit row), 250 tables", samples))
    print(f"{os.cpu_count()} CPUs, {sys.version.split()[0]}, sqlite {sqlite3.sqlite_version}")
    print("| measure | median | range | runs | note |\n|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
