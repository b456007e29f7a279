"""What replaying the current round's games costs a desk that starts again (session 16: the desk server does it
before it serves, so the live display is right from its first look after a restart; :meth:`.Floor.warm`).

    .venv/bin/python bench/bench_desk_warm.py [--tables 15 60] [--events 400] [--repeats 3]

In process, a real desk file in a temporary directory (bench/bench_floor_clock.py's ``build``: each table a game of
``--events`` events). Printed per table count: the median over ``--repeats`` runs of opening the desk file again
and :meth:`.Floor.warm` (the connections a restarted desk server gets meanwhile wait in its listen backlog), and the
first ``/display.json``-worth of data after it (``display_data``). Timings are for reading, never pass/fail.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_floor_clock import HandClock, build  # noqa: E402
from companion.tournament.server_display import display_data  # noqa: E402
from companion.tournament.server_store import Floor  # noqa: E402
from companion.tournament.store import Desk  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, nargs="+", default=[15, 60])
    ap.add_argument("--events", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f} (2 cores)")
    for tables in args.tables:
        warm, first = [], []
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "desk.sqlite3"
                build(path, tables, args.events, HandClock()).desk.close()
                t0 = time.perf_counter()
                floor = Floor(Desk(path), "Bench", clock=HandClock())
                replayed = floor.warm()
                warm.append(time.perf_counter() - t0)
                assert replayed == tables
                t0 = time.perf_counter()
                data = display_data(floor)
                first.append(time.perf_counter() - t0)
                assert all(t["events"] for t in data["tables"])
                floor.desk.close()
        print(f"| {tables} tables, games of ~{args.events} events | open + warm {statistics.median(warm) * 1000:.0f} ms "
              f"(runs {', '.join(f'{w * 1000:.0f}' for w in warm)}) | first display {statistics.median(first) * 1000:.1f} ms |")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
