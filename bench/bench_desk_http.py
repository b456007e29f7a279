"""What one tablet event costs the desk process in CPU, by HTTP stack and connection use (issue 31).

    .venv/bin/python bench/bench_desk_http.py [--events 400] [--rounds 3] [--tablets 4]
    .venv/bin/python bench/bench_desk_http.py --kept-only --before TREE   # this tree's desk against TREE's

A real ``tournament serve`` process (its CPU read from /proc before and after), ``--tablets`` tablets each
posting one event per request to ``/api/events`` one after another (their game's next event), and the live
display's stream open (each event pushes the table's line to it, as at a venue). Four desks, in turn, ``--rounds``
times: uvicorn's pure-Python stack (``h11`` + ``asyncio``: ``CATAN_DESK_HTTP=plain``) or ``httptools`` +
``uvloop``, and the tablet opening a connection per request (``desk_link.request``) or keeping one
(``desk_link.DeskConnection``). Printed: desk CPU per event (ms) per round, and the median. ``--kept-only``: only httptools + uvloop with kept
connections (the venue's case); ``--before TREE``: that desk also run from another checkout (``git worktree add``)
in each round, interleaved with this one, so a change is measured against the code before it under the same load. Timings are for
reading, never pass/fail: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PASSWORD = "bench"


def desk_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(stack: str, keep: bool, events: int, tablets: int, tree: Path = ROOT) -> float:
    from companion.desk_link import DeskConnection, join, request
    from companion.desk_push import read_events
    from companion.record import new_game
    from companion.rules.random_play import random_events
    from companion.tournament.store import Desk

    work = Path(tempfile.mkdtemp(prefix="bench-desk-http-"))
    db = work / "desk.sqlite3"
    with Desk(db) as desk:
        ev = desk.create_event("Bench", seed=5)
        for n in range(tablets * 4):
            desk.add_player(ev.id, f"Player {n + 1:03d}")
        desk.seat_round(ev.id)
    env = dict(os.environ, CATAN_DESK_HTTP="plain" if stack == "h11+asyncio" else "")
    server = subprocess.Popen([sys.executable, "-m", "companion", "tournament", "serve", "Bench", "--db", str(db),
                               "--host", "127.0.0.1", "--port", "0", "--password", PASSWORD, "--no-announce"],
                              stdout=subprocess.PIPE, text=True, cwd=tree, env=env)
    try:
        port = int(server.stdout.readline().rsplit(" ", 1)[1])
        url = f"http://127.0.0.1:{port}"
        games = []
        for t in range(1, tablets + 1):
            a = join(url, request(url, "POST", "/api/admin/pair", {"table": t}, token=PASSWORD)["code"])
            played = []
            seed = t
            while len(played) < events // tablets + 1:
                played = list(random_events(new_game(a.record()), random.Random(seed), 3000))
                seed += 100
            games.append((a, played))
        streams: list = []
        stop = threading.Event()

        def listen():
            try:
                for _ in read_events(url, "/display/stream", on_connection=streams.append):
                    if stop.is_set():
                        return
            except Exception:  # noqa: BLE001 -- cut at the end
                return

        listener = threading.Thread(target=listen, daemon=True)
        listener.start()
        while not streams:
            time.sleep(0.01)
        for a, played in games:  # each game's first event and header: the desk holds the game from here on
            request(url, "POST", "/api/events", {"round": 1, "table": a.table, "game": 1, "rev": 1, "from": 0,
                                                 "events": played[:1], "count": 1, "header": a.header},
                    token=a.token)
        links = [DeskConnection(url) for _ in games]
        before = desk_cpu(server.pid)
        sent = 0
        for i in range(1, events // tablets + 1):
            for (a, played), link in zip(games, links):
                body = {"round": 1, "table": a.table, "game": 1, "rev": 1 + i, "from": i,
                        "events": played[i:i + 1], "count": i + 1}
                if keep:
                    link.request("POST", "/api/events", body, token=a.token)
                else:
                    request(url, "POST", "/api/events", body, token=a.token)
                sent += 1
        time.sleep(0.3)  # the last pushes written
        used = desk_cpu(server.pid) - before
        for link in links:
            link.close()
        stop.set()
        for connection in streams:
            try:
                connection.sock.shutdown(2)
            except (OSError, AttributeError):
                pass
        listener.join(5)
        return used / sent * 1e3
    finally:
        server.terminate()
        server.wait(30)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tablets", type=int, default=4)
    parser.add_argument("--kept-only", action="store_true", help="only httptools + uvloop, kept connections")
    parser.add_argument("--before", type=Path, default=None, help="another checkout's desk, run in turn with this")
    args = parser.parse_args()
    kinds = [(stack, keep) for stack in ("h11+asyncio", "httptools+uvloop") for keep in (False, True)]
    if args.kept_only:
        kinds = [("httptools+uvloop", True)]
    trees = [("this tree", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    got: dict[tuple[str, str, bool], list[float]] = {(n, *k): [] for n, _ in trees for k in kinds}
    for r in range(args.rounds):
        for kind in kinds:
            for name, tree in (trees if r % 2 == 0 else trees[::-1]):  # alternate which goes first
                got[(name, *kind)].append(one_run(*kind, args.events, args.tablets, tree))
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"| desk | desk stack | tablet's connection | desk CPU per event, each round | median |")
    print("|---|---|---|---|---|")
    for (name, stack, keep), values in got.items():
        print(f"| {name} | {stack} | {'kept' if keep else 'one per request'} | "
              f"{', '.join(f'{v:.2f}' for v in values)} ms | **{statistics.median(values):.2f} ms** |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
