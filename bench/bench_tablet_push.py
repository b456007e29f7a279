"""How long a clock action at the desk takes to reach the tablets: pushed on their stream (what the app does now)
against the 10 s ask it replaced. Figures for docs/performance.md ("Tablets hear the desk"); never a test.

A real desk server on 127.0.0.1 with N paired tablets, each listening with :class:`companion.desk_push.TableListener`
(a thread and a connection each, as in the app); the organiser pauses and starts the clock R times; for each action
the time from the request's answer to the last tablet hearing it. The ask it replaced heard a change on average
half its period later (5 s), at worst a whole period (10 s). Also: what a tablet's stream look costs the desk.

    python bench/bench_tablet_push.py [--tablets 1,20,60] [--rounds 20]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.desk_link import join, request  # noqa: E402
from companion.desk_push import TableListener  # noqa: E402
from companion.tournament.server import DeskServer  # noqa: E402
from companion.tournament.store import Desk  # noqa: E402

PASSWORD = "bench"


def make_event(db: Path, players: int) -> None:
    with Desk(db) as desk:
        ev = desk.create_event("Bench Open", seed=1)
        for i in range(players):
            desk.add_player(ev.id, f"Player {i + 1}")
        desk.seat_round(ev.id)


def run(tablets: int, rounds: int) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "desk.sqlite3"
        make_event(db, 4 * tablets)
        with DeskServer("Bench Open", db, host="127.0.0.1", port=0, password=PASSWORD) as desk:
            admin = lambda body: request(desk.url, "POST", "/api/admin/clock", body, token=PASSWORD)  # noqa: E731
            admin({"action": "reset", "minutes": 60})
            heard: list[dict] = [{} for _ in range(tablets)]
            changed = threading.Condition()
            listeners = []
            for t in range(tablets):
                a = join(desk.url, request(desk.url, "POST", "/api/admin/pair", {"table": t + 1}, token=PASSWORD)["code"])

                def on_push(push, t=t):
                    with changed:
                        heard[t] = dict(push.get("clock") or {}, at=time.perf_counter())
                        changed.notify_all()
                listeners.append(TableListener(desk.url, a.token, on_push).start())
            try:
                times = []
                for r in range(rounds):
                    action = "start" if r % 2 == 0 else "pause"
                    admin({"action": action})
                    answered = time.perf_counter()
                    with changed:
                        while not all(h.get("running") == (action == "start") for h in heard):
                            changed.wait(30)
                    times.append(max(h["at"] for h in heard) - answered)
                return times
            finally:
                for listener in listeners:
                    listener.stop()


def look_cost(repeats: int = 500) -> tuple[float, float]:
    """A tablet stream's look at the desk (ms): the players seated now, and the board-building header it avoids."""
    from companion.tournament.server_store import Floor
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "desk.sqlite3"
        make_event(db, 8)
        with Desk(db) as desk:
            floor = Floor(desk, "Bench Open")
            out = []
            for fn in (lambda: floor.seated_names(1, 1), lambda: floor.table_header(1, 1)):
                start = time.perf_counter()
                for _ in range(repeats):
                    fn()
                out.append((time.perf_counter() - start) / repeats * 1000)
            return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tablets", default="1,20,60")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    for n in (int(x) for x in args.tablets.split(",")):
        times = sorted(run(n, args.rounds))
        print(f"{n:3d} tablets: clock action -> last tablet heard it: median {statistics.median(times) * 1000:.0f} ms, "
              f"max {times[-1] * 1000:.0f} ms over {len(times)} actions (the 10 s ask: 5,000 ms on average, "
              f"10,000 ms at worst)")
    seated, header = look_cost()
    print(f"a stream look's players: {seated:.2f} ms (the header would cost {header:.2f} ms)")


if __name__ == "__main__":
    main()
