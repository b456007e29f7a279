"""A tablet's event to the live display page in a real headless Chromium (issue 31: "the page updates within a
second of a tablet's event").

    .venv/bin/python bench/bench_display_browser.py [--events 40] [--gap 0.25] [--runs 3]

A desk server on a thread (SQLite), one table's tablet posting its game over HTTP one event at a time (as the
outbox does), the display page open in headless Chromium (``tests/headless_chromium.py``) and, beside it, the
display's stream read by the tablet's own SSE reader. For each event: posted -> answered, posted -> the stream's
line, posted -> the page drew it (the page's ``data-shown-at``, same machine clock). Medians and p99 per run, for
docs/performance.md; never pass/fail.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from companion.desk_link import join, request  # noqa: E402
from companion.desk_push import read_events  # noqa: E402
from companion.record import new_game  # noqa: E402
from companion.rules.random_play import random_events  # noqa: E402
from companion.tournament.server import DeskServer  # noqa: E402
from companion.tournament.store import Desk  # noqa: E402
from headless_chromium import Chromium  # noqa: E402

PASSWORD = "bench"


def one_run(browser: Chromium, n_events: int, gap: float, seed: int) -> dict[str, list[float]]:
    work = Path(tempfile.mkdtemp(prefix="bench-display-"))
    db = work / "desk.sqlite3"
    with Desk(db) as desk:
        ev = desk.create_event("Bench", seed=seed)
        for n in range(8):
            desk.add_player(ev.id, f"Player {n + 1}")
        desk.seat_round(ev.id)
    out: dict[str, list[float]] = {"answered": [], "stream": [], "page": []}
    with DeskServer("Bench", db, host="127.0.0.1", port=0, password=PASSWORD) as server:
        a = join(server.url, request(server.url, "POST", "/api/admin/pair", {"table": 1}, token=PASSWORD)["code"])
        events = list(random_events(new_game(a.record()), random.Random(seed), 3000))
        start = len(events) // 3
        body = {"round": a.round, "table": a.table, "game": 1, "rev": time.time_ns(), "from": 0,
                "events": events[:start], "count": start, "header": a.header}
        request(server.url, "POST", "/api/events", body, token=a.token)
        streamed: dict[int, float] = {}
        connections = []

        def listen():
            try:
                for name, data in read_events(server.url, "/display/stream", on_connection=connections.append):
                    d = json.loads(data)
                    for t in ([d] if name == "table" else [] if name == "standings" else d["tables"]):
                        if t["table"] == 1:
                            streamed.setdefault(t["events"], time.time())
            except Exception:  # noqa: BLE001 -- the stream closed at the end
                pass

        reader = threading.Thread(target=listen, daemon=True)
        reader.start()
        browser.open(server.url + "/")
        browser.evaluate("new Promise(ok => { const look = () => { const li = document.querySelector("
                         f"'#tables > li[data-table=\"1\"]'); if (li && Number(li.dataset.events) === {start}) ok(1); }};"
                         " document.addEventListener('display:shown', look); look(); })", timeout=30)
        for i in range(start, min(len(events), start + n_events)):
            posted = time.time()
            body = {"round": a.round, "table": a.table, "game": 1, "rev": time.time_ns(), "from": i,
                    "events": events[i:i + 1], "count": i + 1}
            request(server.url, "POST", "/api/events", body, token=a.token)
            out["answered"].append(time.time() - posted)
            shown = browser.evaluate(
                "new Promise(ok => { const look = () => { const li = document.querySelector("
                f"'#tables > li[data-table=\"1\"]'); if (li && Number(li.dataset.events) === {i + 1})"
                " ok(Number(li.dataset.shownAt)); }; document.addEventListener('display:shown', look); look(); })",
                timeout=30)
            out["page"].append(shown / 1000 - posted)
            if i + 1 in streamed:
                out["stream"].append(streamed[i + 1] - posted)
            time.sleep(gap)
        for c in connections:
            try:
                c.sock.shutdown(2)
            except (OSError, AttributeError):
                pass
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=40)
    parser.add_argument("--gap", type=float, default=0.25, help="seconds between a table's events")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    print("| run | posted → answered: median / p99 | → the stream's line | → drawn on the page | events |")
    print("|---|---|---|---|---|")
    with Chromium() as browser:
        for r in range(args.runs):
            out = one_run(browser, args.events, args.gap, seed=r + 1)

            def fig(values):
                values = sorted(values)
                if not values:
                    return "—"
                return (f"{statistics.median(values) * 1e3:.0f} / "
                        f"{values[min(len(values) - 1, int(0.99 * len(values)))] * 1e3:.0f} ms")
            print(f"| {r + 1} (load {os.getloadavg()[0]:.1f}) | {fig(out['answered'])} | {fig(out['stream'])} | "
                  f"{fig(out['page'])} | {len(out['page'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
