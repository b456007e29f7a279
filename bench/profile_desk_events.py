"""Where the desk's CPU goes for each tablet event: cProfile over a running desk server (issue 31).

    .venv/bin/python bench/profile_desk_events.py [--events 600] [--tablets 4] [--plain] [--top 35]

The desk server runs in this process: its event loop on the main thread under one profiler, and every call it
hands to a worker thread (``run_in_threadpool``: the desk's lock turn, the rules check, SQLite) under a profiler of
that thread, the two merged. Tablets (``DeskConnection``: kept connections) post one event per request from a
process of their own, with the display's stream open. ``--plain``: uvicorn's pure-Python h11 + asyncio.
Each profiler counts its own thread's CPU time (time.thread_time), not wall time: waiting for the GIL or the
lock is not counted. Prints the top functions by own time and by cumulative time. For reading, never pass/fail.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PASSWORD = "bench"


def tablets(url: str, events: int, count: int) -> None:
    """The tablets' process: pair, send each game's first event with its header, then one event per request."""
    from companion.desk_link import DeskConnection, join, request
    from companion.desk_push import read_events
    from companion.record import new_game
    from companion.rules.random_play import random_events

    games = []
    for t in range(1, count + 1):
        a = join(url, request(url, "POST", "/api/admin/pair", {"table": t}, token=PASSWORD)["code"])
        played, seed = [], t
        while len(played) < events // count + 1:
            played = list(random_events(new_game(a.record()), random.Random(seed), 3000))
            seed += 100
        games.append((a, played))
    threading.Thread(target=lambda: [None for _ in read_events(url, "/display/stream")], daemon=True).start()
    for a, played in games:
        request(url, "POST", "/api/events", {"round": 1, "table": a.table, "game": 1, "rev": 1, "from": 0,
                                             "events": played[:1], "count": 1, "header": a.header}, token=a.token)
    links = [DeskConnection(url) for _ in games]
    request(url, "POST", "/api/admin/clock", {"action": "reset", "minutes": 60}, token=PASSWORD)  # "go" mark
    for i in range(1, events // count + 1):
        for (a, played), link in zip(games, links):
            link.request("POST", "/api/events", {"round": 1, "table": a.table, "game": 1, "rev": 1 + i, "from": i,
                                                 "events": played[i:i + 1], "count": i + 1}, token=a.token)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=600)
    parser.add_argument("--tablets", type=int, default=4)
    parser.add_argument("--plain", action="store_true")
    parser.add_argument("--top", type=int, default=35)
    parser.add_argument("--tablet-process", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.tablet_process:
        tablets(args.tablet_process, args.events, args.tablets)
        return 0
    if args.plain:
        os.environ["CATAN_DESK_HTTP"] = "plain"
    from companion.tournament import server_app
    from companion.tournament.server import DeskServer
    from companion.tournament.store import Desk

    work = Path(tempfile.mkdtemp(prefix="profile-desk-"))
    with Desk(work / "desk.sqlite3") as desk:
        ev = desk.create_event("Bench", seed=5)
        for n in range(args.tablets * 4):
            desk.add_player(ev.id, f"Player {n + 1:03d}")
        desk.seat_round(ev.id)
    profilers: list[cProfile.Profile] = []
    local = threading.local()
    original = server_app.run_in_threadpool
    recording = threading.Event()

    async def profiled(fn, *a, **kw):
        def run():
            if not recording.is_set():
                return fn(*a, **kw)
            if not hasattr(local, "profiler"):
                local.profiler = cProfile.Profile(time.thread_time)
                profilers.append(local.profiler)
            local.profiler.enable()
            try:
                return fn(*a, **kw)
            finally:
                local.profiler.disable()
        return await original(run)

    server_app.run_in_threadpool = profiled
    server = DeskServer("Bench", work / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD)
    original_clock = server.web.floor.set_clock

    def clock_and_go(*a, **kw):  # the tablets' "go": every later request is profiled
        recording.set()
        return original_clock(*a, **kw)

    server.web.floor.set_clock = clock_and_go
    client = subprocess.Popen([sys.executable, __file__, "--tablet-process", server.url, "--events", str(args.events),
                               "--tablets", str(args.tablets)], cwd=ROOT)

    def stop_when_done():
        client.wait()
        time.sleep(0.3)
        server.server.should_exit = True
        server.web.stopping = True

    threading.Thread(target=stop_when_done, daemon=True).start()
    loop_profiler = cProfile.Profile(time.thread_time)

    async def serve():  # the event loop's thread profiled from the tablets' "go" on
        import asyncio

        async def watch():
            while not recording.is_set():
                await asyncio.sleep(0.01)
            loop_profiler.enable()
        asyncio.get_running_loop().create_task(watch())
        await server.server.serve(sockets=[server.socket])

    import asyncio
    from companion.tournament.server import http_stack
    cpu = time.process_time()
    if http_stack()[1] == "uvloop":
        import uvloop
        uvloop.run(serve())
    else:
        asyncio.run(serve())
    loop_profiler.disable()
    cpu = time.process_time() - cpu
    server.close()
    stats = pstats.Stats(loop_profiler)
    for p in profilers:
        stats.add(p)
    print(f"stack {http_stack()}, {args.events} events, process CPU {cpu:.2f} s (whole run, set-up included)")
    stats.dump_stats(str(work / "desk.prof"))
    print(f"profile kept in {work / 'desk.prof'} (pstats)")
    stats.sort_stats("tottime").print_stats(args.top)
    stats.sort_stats("cumulative").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
