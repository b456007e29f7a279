"""The tournament floor under load (issue 31): many tablets sending their games to one desk server.

    .venv/bin/python bench/bench_desk_floor.py [--tablets 60] [--seconds 600] [--processes 6]
                                               [--offline 5,120] [--head 0.85]
    .venv/bin/python bench/bench_desk_floor.py --costs 7      # what one request costs the desk, in process
    .venv/bin/python bench/bench_desk_floor.py ... --trace    # and where the events slower than 200 ms spent it

The desk is a real ``tournament serve`` process; the tablets are real journals and ``OutboxSender`` threads
(``http.client``) in ``--processes`` worker processes. Each tablet joins its table with a pairing code, starts its
journal with the first ``--head`` share of a random whole game already played (so games finish during the run and
their results reach the desk), then journals one event a second. Each tablet goes offline at random moments (its
sender stopped: the venue's Wi-Fi gone) for a random ``--offline`` span of seconds, and comes back (a new sender).
The display is read as the live page reads it: the desk's pushes on ``/display/stream`` (server-sent events;
``--display poll``: ``/display.json`` every 50 ms, as the page did before the desk pushed).

Printed at the end (Markdown rows for docs/performance.md):
- events lost or doubled: each table's events at the desk against its tablet's journal (must be 0 and 0);
- results: the desk's results against results computed from a replay of every table's record (must agree);
- event-to-display latency while connected: from the moment a tablet journalled an event to the first push (or
  poll) of the display that counts it (median, p99; with polling the poll interval, 50 ms, is part of it);
- the desk never blocking: ``/health`` (which waits its turn for the desk's one lock, as every request does)
  asked every 0.5 s through the run, its answer time and how many got no answer within 5 s; and play never
  waiting on the desk: what journalling an event cost each tablet, online and offline.
- latency by 10 s of the run (how long the join storm lasts);
- with ``--trace``: every event matched to the tablet's request that carried it and the desk's batch (the desk
  writes its time line, ``CATAN_DESK_TRACE``: companion/tournament/server_trace.py), the time of the slow ones split
  into segments (the tablet's outbox, the desk's loop, its lock, keeping, the display's stream), the desk's GC
  pauses, its CPU and its event loop's run-queue wait meanwhile (the machine's part). The files stay in the run's
  work folder (desk-trace.jsonl, report*.json with each tablet's requests).
Timings are for reading, never pass/fail: the machine is shared.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "bench"


def tablet_worker(url: str, jobs: list[dict], seconds: float, offline: tuple[float, float], head: float,
                  out: Path) -> None:
    """One worker process: its tablets as threads, each journalling one event a second."""
    from companion.desk_link import OutboxSender, join
    from companion.record import new_game
    from companion.record.journal import Journal
    from companion.rules.random_play import random_events

    reports = []
    # Every tablet joins and has its game worked out before any starts playing (random play takes seconds of
    # CPU; done while others play, it would be measured as their latency).
    games = {}
    for job in jobs:
        assignment = join(url, job["code"])
        seed = job["seed"]
        while True:  # a game that ends within the budget, so that results reach the desk
            events = list(random_events(new_game(assignment.record()), random.Random(seed), 3000))
            if len(events) < 3000:
                break
            seed += 1000
        games[job["code"]] = (assignment, events)
    (out.parent / (out.name + ".ready")).write_text("ready")
    while not (out.parent / "go").exists():
        time.sleep(0.1)

    def traced(sender, requests):
        """The sender's requests written down (start, end, path, from, events, answered): where an event waited
        on the tablet's side (its outbox) and how long the desk took to answer."""
        ask = sender._link.request

        def request(method, path, body=None, **kw):
            began = time.time()
            ok = False
            try:
                answer = ask(method, path, body, **kw)
                ok = True
                return answer
            finally:
                requests.append([began, time.time(), path, (body or {}).get("from"), len((body or {}).get("events", ())),
                                 ok])
        sender._link.request = request
        return sender

    def tablet(job):
        rng = random.Random(job["seed"])
        requests: list = []
        assignment, events = games[job["code"]]
        path = Path(job["journal"])
        with Journal(path) as journal:
            start = int(len(events) * head)
            record = assignment.record()
            record.events = events[:start]  # the game so far, journalled in one go
            assignment = assignment.with_game(journal.create_game(record))
            sender = traced(OutboxSender(path, assignment, poll=1.0, max_backoff=5.0), requests).start()
            appended, online, log = [], True, []
            online_for = (min(10.0, seconds / 4), seconds)  # (a short run, as the test's, drops sooner)
            next_drop = time.monotonic() + rng.uniform(*online_for)
            back_at = None
            end = time.monotonic() + seconds
            i = start
            while time.monotonic() < end and i < len(events):
                now = time.monotonic()
                if online and now >= next_drop:
                    sender.stop()
                    online, back_at = False, now + rng.uniform(*offline)
                    log.append(["offline", time.time()])
                elif not online and now >= back_at:
                    sender = traced(OutboxSender(path, assignment, poll=1.0, max_backoff=5.0), requests).start()
                    online, next_drop = True, now + rng.uniform(*online_for)
                    log.append(["online", time.time()])
                began = time.perf_counter()
                journal.append(assignment.game_id, events[i])
                if online:
                    sender.wake()
                # the play's own cost: journalling an event and waking the sender (never the network)
                appended.append([i, time.time(), online, time.perf_counter() - began])
                i += 1
                time.sleep(max(0.0, 1.0 - (time.monotonic() - now)))
            if not online:
                sender = traced(OutboxSender(path, assignment, poll=1.0, max_backoff=5.0), requests).start()
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline and not (sender.status["state"] == "up to date"
                                                        and sender.status["have"] == i):
                time.sleep(0.1)
            sender.stop()
            reports.append({"table": assignment.table, "game": assignment.game_id, "start": start,
                            "events": list(journal.iter_events(assignment.game_id)), "appended": appended,
                            "log": log, "header": assignment.header, "final": sender.status,
                            "requests": requests})

    threads = [threading.Thread(target=tablet, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.write_text(json.dumps(reports))


def desk_costs(repeat: int) -> None:
    """What one request costs the desk, in its process (no HTTP): medians over ``repeat`` runs."""
    from companion.record import new_game, parse_record
    from companion.rules.random_play import random_events
    from companion.tournament.server_display import display_data
    from companion.tournament.server_store import Floor
    from companion.tournament.store import Desk

    samples: dict[str, list[float]] = {}

    def timed(name, fn):
        t = time.perf_counter()
        fn()
        samples.setdefault(name, []).append(time.perf_counter() - t)

    for r in range(repeat):
        work = Path(tempfile.mkdtemp(prefix="bench-floor-costs-"))
        with Desk(work / "desk.sqlite3") as desk:
            ev = desk.create_event("Costs", seed=r)
            for n in range(240):
                desk.add_player(ev.id, f"Player {n + 1:03d}")
            desk.seat_round(ev.id)
            floor = Floor(desk, ev.id)
            header = floor.table_header(1, 1)
            events = list(random_events(new_game(parse_record({**header, "events": []})), random.Random(r), 700))
            token, _ = floor.join(floor.issue_code(1).code)
            pairing = floor.authenticate(token)
            timed("first batch of 600 events (a tablet joining mid-game)",
                  lambda: floor.receive(pairing, 1, 1, 0, events[:600], 600, header))
            timed("one event added", lambda: floor.receive(pairing, 1, 2, 600, events[600:601], 601, None))
            timed("one event added, sent from 0 (after a lost answer)",
                  lambda: floor.receive(pairing, 1, 3, 0, events[:602], 602, header))
            timed("the same batch again (a resend)", lambda: floor.receive(pairing, 1, 4, 0, events[:602], 602, header))
            display_data(floor)
            timed("the display's data, 60 tables, 240 players (nothing changed)", lambda: display_data(floor))
    print("| desk, per request (in process) | median | min–max | runs |")
    print("|---|---|---|---|")
    for name, values in samples.items():
        print(f"| {name} | {statistics.median(values) * 1e3:.1f} ms | {min(values) * 1e3:.1f}–{max(values) * 1e3:.1f} ms"
              f" | {len(values)} |")


def storm_lines(events, go_at: float) -> str:
    """Latency by 10 s of the run (when the event was journalled): how long the join storm lasts."""
    bins: dict[int, list[float]] = {}
    for _t, _i, at, shown in events:
        bins.setdefault(int((at - go_at) // 10), []).append(shown - at)
    out = ["| run's seconds | events | median | p99 | max |", "|---|---|---|---|---|"]
    for b in sorted(bins):
        v = sorted(bins[b])
        out.append(f"| {b * 10}-{b * 10 + 10} | {len(v)} | {v[len(v) // 2] * 1e3:.0f} ms | "
                   f"{v[min(len(v) - 1, int(0.99 * len(v)))] * 1e3:.0f} ms | {v[-1] * 1e3:.0f} ms |")
    return "\n".join(out)


#: an event's way to the display, in order: (name, from which mark, to which mark)
SEGMENTS = (("tablet's outbox (journalled -> request sent)", "at", "sent"),
            ("to the desk's handler (connect, loop queue)", "sent", "arrived"),
            ("body read", "arrived", "read"),
            ("waiting for the desk's lock", "read", "locked"),
            ("kept (rules, SQLite commit)", "locked", "kept"),
            ("kept -> the display's stream looked at its table (desk)", "kept", "looked"),
            ("looked -> shown (sent; read by the bench's display reader)", "looked", "shown"))


def where_the_time_went(events, reports, trace_file: Path, go_at: float, slow: float = 0.2) -> str:
    """Each event shown on the display matched with the tablet's request that carried it and the desk's line for
    that batch (desk-trace.jsonl): the median of each segment of its way, for all events and for those slower
    than ``slow``, and which segment was the largest for each slow one."""
    import bisect

    batches: dict[int, list] = {}
    stalls, pauses, stall_cpu, pause_cpu, cpu_at = [], [], [], [], []
    looks: dict[int, list[float]] = {}  # table -> when the display's stream looked at its line
    unreadable = 0
    for line in trace_file.read_bytes().decode("utf-8", "replace").splitlines():
        try:  # (a trace written before its lines were written under a lock: two threads' lines could mix)
            row = json.loads(line)
        except ValueError:
            unreadable += 1
            continue
        if row[0] == "batch":
            _, table, start, n, have, arrived, read, locked, kept, answered, path = row
            batches.setdefault(table, []).append((arrived, start, n, read, locked, kept, answered, path))
        elif row[0] == "loop":
            stalls.append((row[1] - row[2], row[1]))
            stall_cpu.append(row[3] if len(row) > 3 else 0.0)
        elif row[0] == "gc":
            pauses.append((row[1], row[2], row[3]))
            pause_cpu.append(row[5] if len(row) > 5 else 0.0)  # (a trace from before CPU was written)
        elif row[0] == "look":
            for t in row[2]:
                looks.setdefault(t, []).append(row[1])
        elif row[0] == "cpu":
            cpu_at.append((row[1], row[2], row[3] if len(row) > 3 and row[3] is not None else 0.0))
    for v in batches.values():
        v.sort()
    for v in looks.values():
        v.sort()
    sent_by_table = {r["table"]: sorted(q for q in r.get("requests", []) if q[2] == "/api/events" and q[5])
                     for r in reports}
    rows = []
    for table, index, at, shown in events:
        sent = next((q for q in sent_by_table.get(table, ()) if q[0] >= at - 0.05 and q[3] <= index < q[3] + q[4]),
                    None)
        if sent is None:
            continue
        desk = batches.get(table, [])
        k = bisect.bisect_left(desk, (sent[0],))
        batch = next((b for b in desk[k:k + 5] if b[1] == sent[3] and b[2] == sent[4] and b[0] <= sent[1]), None)
        if batch is None or batch[4] is None:
            continue
        seen_by_stream = looks.get(table, [])
        k = bisect.bisect_left(seen_by_stream, batch[5])
        looked = min(shown, seen_by_stream[k]) if k < len(seen_by_stream) else shown
        marks = {"at": at, "sent": sent[0], "arrived": batch[0], "read": batch[3], "locked": batch[4],
                 "kept": batch[5], "looked": max(batch[5], looked), "shown": shown}
        rows.append((shown - at, marks, batch[7], sent[4]))
    out = [f"traced: {len(rows)} of {len(events)} events matched to their request and batch; event loop late by "
           f"> 20 ms {len(stalls)} times (total {sum(b - a for a, b in stalls):.1f} s, max "
           f"{max((b - a for a, b in stalls), default=0) * 1e3:.0f} ms); GC pauses over 2 ms or of generation 2: "
           f"{len(pauses)} (total {sum(b - a for a, b, _ in pauses) * 1e3:.0f} ms, max "
           f"{max((b - a for a, b, _ in pauses), default=0) * 1e3:.0f} ms); the desk's CPU in them: loop late "
           f"{sum(stall_cpu):.1f} s, GC {sum(pause_cpu) * 1e3:.0f} ms" +
           (f"; {unreadable} unreadable trace lines left out" if unreadable else "")]
    out.append(around_game_ends(events, reports, batches, pauses, go_at))
    cpu_times = [sample[0] for sample in cpu_at]

    def desk_cpu_share(a: float, b: float) -> float | None:
        """The desk process's CPU seconds over [a, b] / (b - a), from its samples every 0.1 s."""
        i, j = bisect.bisect_left(cpu_times, a), bisect.bisect_right(cpu_times, b) - 1
        if j - i < 1:
            return None
        return (cpu_at[j][1] - cpu_at[i][1]) / (cpu_at[j][0] - cpu_at[i][0])

    def loop_waited_share(a: float, b: float) -> float | None:
        """The share of [a, b] the desk's event-loop thread spent ready to run but not run (the machine's CPUs
        busy with other processes), from the same samples."""
        i, j = bisect.bisect_left(cpu_times, a), bisect.bisect_right(cpu_times, b) - 1
        if j - i < 1:
            return None
        return (cpu_at[j][2] - cpu_at[i][2]) / (cpu_at[j][0] - cpu_at[i][0])
    for name, keep in (("whole run", lambda r: True), ("after the first 30 s", lambda r: r[1]["at"] >= go_at + 30)):
        v = sorted(r[1]["shown"] - r[1]["sent"] for r in rows if keep(r))
        if v:
            out.append(f"{name}, from the tablet's request sent to shown (the tablet's own wait left out): median "
                       f"{v[len(v) // 2] * 1e3:.0f} ms, p99 {v[min(len(v) - 1, int(0.99 * len(v)))] * 1e3:.0f} ms")
    for name, keep in (("all", lambda r: True), (f"slower than {slow * 1e3:.0f} ms", lambda r: r[0] > slow),
                       (f"slower than {slow * 1e3:.0f} ms, after the first 30 s",
                        lambda r: r[0] > slow and r[1]["at"] >= go_at + 30)):
        chosen = [r for r in rows if keep(r)]
        if not chosen:
            continue
        out.append(f"\n{name}: {len(chosen)} events")
        out.append("| segment | median | p90 | max | largest segment of (events) |")
        out.append("|---|---|---|---|---|")
        largest: dict[str, int] = {}
        for r in chosen:
            spans = {seg: r[1][b] - r[1][a] for seg, a, b in SEGMENTS}
            top = max(spans, key=spans.get)
            largest[top] = largest.get(top, 0) + 1
        for seg, a, b in SEGMENTS:
            v = sorted(r[1][b] - r[1][a] for r in chosen)
            out.append(f"| {seg} | {v[len(v) // 2] * 1e3:.1f} ms | {v[int(0.9 * (len(v) - 1))] * 1e3:.1f} ms | "
                       f"{v[-1] * 1e3:.0f} ms | {largest.get(seg, 0)} |")
        paths: dict[str, int] = {}
        for r in chosen:
            paths[r[2]] = paths.get(r[2], 0) + 1
        held = sum(1 for r in chosen if any(a < r[1]["shown"] and b > r[1]["at"] for a, b in stalls))
        collected = sum(1 for r in chosen if any(a < r[1]["shown"] and b > r[1]["at"] for a, b, _ in pauses))
        shares = sorted(x for x in (desk_cpu_share(r[1]["sent"], r[1]["shown"]) for r in chosen) if x is not None)
        if shares:
            out.append(f"the desk's CPU while they were on their way (request sent -> shown), share of a core: "
                       f"median {shares[len(shares) // 2]:.2f}, p10 {shares[len(shares) // 10]:.2f}, "
                       f"p90 {shares[int(0.9 * (len(shares) - 1))]:.2f} ({len(shares)} events over 0.1 s)")
        waited = sorted(x for x in (loop_waited_share(r[1]["sent"], r[1]["shown"]) for r in chosen) if x is not None)
        if waited:
            out.append(f"the desk's event loop ready to run but not run by the machine, share of the same time: "
                       f"median {waited[len(waited) // 2]:.2f}, p10 {waited[len(waited) // 10]:.2f}, "
                       f"p90 {waited[int(0.9 * (len(waited) - 1))]:.2f}")
        out.append(f"desk's path: {paths}; batch sizes median {sorted(r[3] for r in chosen)[len(chosen) // 2]}; "
                   f"{held} had the desk's event loop late (> 20 ms) on their way, {collected} a GC pause")
    return "\n".join(out)


def around_game_ends(events, reports, batches: dict[int, list], pauses, go_at: float, window: float = 1.0) -> str:
    """Events shown within ``window`` s after a game's end at the desk (its last event kept: the result entered,
    the standings changed) against the rest, after the first 30 s; and the GC's passes in those windows against
    elsewhere (the trace's passes: over 2 ms or of generation 2)."""
    import bisect

    from companion.record import Record, replay

    def won(r) -> bool:
        h = r["header"]
        return replay(Record(h["game"], h["players"], h["board"], h.get("options", {}), r["events"])).state.winner \
            is not None
    final = {r["table"]: len(r["events"]) for r in reports if won(r)}  # (a game the run's end cut short: none)
    ends = sorted(min(b[5] for b in v if b[5] is not None and b[1] + b[2] == final.get(t) and b[2] > 0)
                  for t, v in batches.items()
                  if any(b[5] is not None and b[1] + b[2] == final.get(t) and b[2] > 0 for b in v))
    if not ends:
        return "no game ended during the run"

    def after_an_end(t: float) -> bool:
        i = bisect.bisect_right(ends, t) - 1
        return i >= 0 and t - ends[i] <= window
    out = [f"\n{len(ends)} games ended at the desk during the run; after the first 30 s:"]
    for name, keep in ((f"shown within {window:g} s after a game's end", True), ("the rest", False)):
        v = sorted(shown - at for _t, _i, at, shown in events if at >= go_at + 30 and after_an_end(shown) == keep)
        if v:
            out.append(f"- events {name}: {len(v)}, median {v[len(v) // 2] * 1e3:.0f} ms, p99 "
                       f"{v[min(len(v) - 1, int(0.99 * len(v)))] * 1e3:.0f} ms, over 200 ms: "
                       f"{sum(x > 0.2 for x in v)}")
    span = max(max(b[0] for b in v) for v in batches.values()) - go_at - 30
    near = sum(1 for e in ends if e >= go_at + 30) * window
    for gen in (0, 1, 2):
        a = [p for p in pauses if p[2] == gen and p[0] >= go_at + 30 and after_an_end(p[0])]
        b = [p for p in pauses if p[2] == gen and p[0] >= go_at + 30 and not after_an_end(p[0])]
        if near and span > near:
            out.append(f"- GC generation {gen} passes: {len(a) / near:.2f}/s within {window:g} s after a game's end "
                       f"(max {max((q[1] - q[0] for q in a), default=0) * 1e3:.0f} ms), {len(b) / (span - near):.2f}/s "
                       f"elsewhere (max {max((q[1] - q[0] for q in b), default=0) * 1e3:.0f} ms)")
    return "\n".join(out)


def analyse(work: Path) -> None:
    """The trace's analysis again from a run's work folder (its latencies.json, reports and desk-trace.jsonl; the
    run's start taken from its go file's time)."""
    go_at = (work / "go").stat().st_mtime
    reports = [r for f in sorted(work.glob("report*.json")) for r in json.loads(f.read_text())]
    events = [(t, i, go_at + at, go_at + at + latency)
              for t, i, at, latency in json.loads((work / "latencies.json").read_text())["events"]]
    print(where_the_time_went(events, reports, work / "desk-trace.jsonl", go_at))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--costs", type=int, default=0, metavar="N",
                        help="instead: what one request costs the desk, median of N runs")
    parser.add_argument("--tablets", type=int, default=60)
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--processes", type=int, default=6)
    parser.add_argument("--offline", default="5,120", help="offline spans, min,max seconds")
    parser.add_argument("--head", type=float, default=0.85, help="share of each game journalled before the run")
    parser.add_argument("--display", choices=("stream", "poll"), default="stream",
                        help="read the display's pushes (stream) or poll display.json every 50 ms")
    parser.add_argument("--tablets-nice", type=int, default=0, metavar="N",
                        help="the tablets' worker processes lower their priority by N (the desk keeps the bench's: "
                             "60 tablets are 60 machines at a venue, the desk one)")
    parser.add_argument("--trace", action="store_true",
                        help="the desk and tablets write down every request (CATAN_DESK_TRACE): where the events "
                             "slower than 200 ms spent their time, printed at the end")
    parser.add_argument("--worker", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--analyse", type=Path, default=None, metavar="WORK",
                        help="print a traced run's analysis again from its work folder")
    args = parser.parse_args()
    if args.analyse:
        analyse(args.analyse)
        return 0
    offline = tuple(float(x) for x in args.offline.split(","))
    if args.costs:
        desk_costs(args.costs)
        return 0
    if args.worker:
        spec = json.loads(Path(args.worker).read_text())
        if args.tablets_nice:
            os.nice(args.tablets_nice)
        tablet_worker(spec["url"], spec["jobs"], args.seconds, offline, args.head, Path(spec["out"]))
        return 0

    from companion.desk_link import request
    from companion.record import Record, replay
    from companion.tournament.results import result_from_record
    from companion.tournament.store import Desk

    work = Path(tempfile.mkdtemp(prefix="bench-floor-"))
    db = work / "desk.sqlite3"
    with Desk(db) as desk:
        ev = desk.create_event("Bench Open", seed=31)
        for n in range(args.tablets * 4):
            desk.add_player(ev.id, f"Player {n + 1:03d}")
        desk.seat_round(ev.id)
    trace_file = work / "desk-trace.jsonl"
    server = subprocess.Popen([sys.executable, "-m", "companion", "tournament", "serve", "Bench Open", "--db",
                               str(db), "--host", "127.0.0.1", "--port", "0", "--password", PASSWORD,
                               "--no-announce"],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT,
                              env={**os.environ, "CATAN_DESK_TRACE": str(trace_file)} if args.trace else None)
    port = int(server.stdout.readline().rsplit(" ", 1)[1])
    url = f"http://127.0.0.1:{port}"
    jobs = [{"code": request(url, "POST", "/api/admin/pair", {"table": t}, token=PASSWORD)["code"],
             "journal": str(work / f"tablet{t}.sqlite3"), "seed": t} for t in range(1, args.tablets + 1)]
    seen: dict[int, list[tuple[float, int]]] = {}  # table -> (poll time, events shown) when the count changed
    stop = threading.Event()

    def note(display: dict, t: float, last: dict[int, int]) -> None:
        for table in display["tables"]:
            if table["events"] != last.get(table["table"]):
                last[table["table"]] = table["events"]
                seen.setdefault(table["table"], []).append((t, table["events"]))

    def listen():
        from companion.desk_push import read_events
        last: dict[int, int] = {}
        while not stop.is_set():
            try:
                for name, data in read_events(url, "/display/stream", on_connection=streams.append):
                    display = json.loads(data)  # the whole display, (event "table") one table's line, or
                    if name != "standings":  # (a game's end) the standings alone: no table's events in them
                        note({"tables": [display]} if name == "table" else display, time.time(), last)
                    if stop.is_set():
                        break
            except Exception:  # noqa: BLE001 -- the desk busy or the stream cut: listen again
                time.sleep(0.05)

    streams: list = []

    def poll():
        last: dict[int, int] = {}
        while not stop.is_set():
            t = time.time()
            try:
                display = request(url, "GET", "/display.json")
            except Exception:  # noqa: BLE001 -- the desk busy for a moment: the next poll
                continue
            note(display, t, last)
            time.sleep(max(0.0, 0.05 - (time.time() - t)))

    health: list[tuple[float, float | None]] = []  # (asked at, answer time in s or None: no answer within 5 s)

    def probe():
        while not stop.is_set():
            t = time.perf_counter()
            try:
                request(url, "GET", "/health", timeout=5.0)
                health.append((time.time(), time.perf_counter() - t))
            except Exception:  # noqa: BLE001 -- no answer within 5 s: the desk blocked (or refused)
                health.append((time.time(), None))
            stop.wait(max(0.0, 0.5 - (time.perf_counter() - t)))

    poller = threading.Thread(target=listen if args.display == "stream" else poll, daemon=True)
    prober = threading.Thread(target=probe, daemon=True)
    workers = []
    share = (len(jobs) + args.processes - 1) // args.processes
    for w in range(args.processes):
        spec = work / f"worker{w}.json"
        spec.write_text(json.dumps({"url": url, "jobs": jobs[w * share:(w + 1) * share],
                                    "out": str(work / f"report{w}.json")}))
        workers.append(subprocess.Popen([sys.executable, __file__, "--worker", str(spec), "--seconds",
                                         str(args.seconds), "--offline", args.offline, "--head", str(args.head),
                                         "--tablets-nice", str(args.tablets_nice)],
                                        cwd=ROOT))
    while not all((work / f"report{w}.json.ready").exists() for w in range(args.processes)):
        if any(w.poll() is not None for w in workers):
            raise SystemExit("a worker ended before it was ready")
        time.sleep(0.2)
    def desk_cpu() -> float:
        """The desk process's CPU seconds so far (user + system), from /proc: a figure the machine's load bends
        far less than latency."""
        fields = Path(f"/proc/{server.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    poller.start()
    prober.start()
    go_at = time.time()
    cpu_at_go = desk_cpu()
    (work / "go").write_text("go")
    for w in workers:
        w.wait()
    time.sleep(1)
    cpu_used, run_wall = desk_cpu() - cpu_at_go, time.time() - go_at
    stop.set()
    for connection in streams:  # the stream's read returns at once
        try:
            connection.sock.shutdown(2)
        except (OSError, AttributeError):
            pass
    poller.join()
    prober.join()
    server.send_signal(signal.SIGINT)
    server.wait(timeout=60)

    reports = [r for w in range(args.processes) for r in json.loads((work / f"report{w}.json").read_text())]
    lost = doubled = 0
    latencies, settled = [], []  # (settled: events journalled after the first 30 s, once every tablet has joined)
    timeline = []  # (table, event index, journalled at, latency): kept in the work folder to see where time went
    results_agree, finished = 0, 0
    traced_events = []  # (table, event index, journalled at, shown at)
    with Desk(db) as desk:
        ev = desk.event("Bench Open")
        names = desk.names(ev.id)
        rows = desk._db.execute("SELECT p.table_no, g.pairing, g.game FROM floor_games g JOIN floor_pairings p "
                                "ON p.id = g.pairing").fetchall()
        where = {t: (p, g) for t, p, g in rows}
        desk_results = {r.table: r for r in desk.results(ev.id)}
        for r in reports:
            pairing, game = where[r["table"]]
            held = [json.loads(e) for (e,) in desk._db.execute(
                "SELECT event FROM floor_events WHERE pairing = ? AND game = ? ORDER BY idx", (pairing, game))]
            mine = r["events"]
            common = sum(1 for a, b in zip(held, mine) if a == b)
            lost += max(0, len(mine) - common)
            doubled += max(0, len(held) - common)
            h = r["header"]
            record = Record(h["game"], h["players"], h["board"], h.get("options", {}), mine)
            if replay(record).state.winner is not None:
                finished += 1
                seated = list(zip(desk.round(ev.id, 1).tables[r["table"] - 1],
                                  [p["name"] for p in h["players"]]))
                vp, winner, _ = result_from_record(record, seated)
                got = desk_results.get(r["table"])
                results_agree += got is not None and got.vp == vp and got.winner == winner
            shown = seen.get(r["table"], [])
            for index, at, online, _cost in r["appended"]:
                if not online:
                    continue
                later = [t for t, n in shown if n >= index + 1 and t >= at - 0.05]
                if later:
                    latencies.append(max(0.0, later[0] - at))
                    timeline.append((r["table"], index, at - go_at, later[0] - at))
                    traced_events.append((r["table"], index, at, later[0]))
                    if at >= go_at + 30:
                        settled.append(max(0.0, later[0] - at))
        standings = desk.standings(ev.id)
    (work / "latencies.json").write_text(json.dumps({"events": timeline, "shown": {
        t: [(at - go_at, n) for at, n in v] for t, v in seen.items()}}))
    latencies.sort()
    settled.sort()
    p = (lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1e3) if latencies else (lambda q: 0)
    offline_spans = sum(1 for r in reports for kind, _ in r["log"] if kind == "offline")
    print(f"display read by: {args.display}")
    print(f"| tablets | seconds | events journalled in the run | offline spans | lost | doubled | "
          f"finished games: results equal to a replay | latency median | p99 | max |")
    print(f"| {len(reports)} | {args.seconds:g} | {sum(len(r['appended']) for r in reports)} | {offline_spans} | "
          f"{lost} | {doubled} | {results_agree} of {finished} | {p(0.5):.0f} ms | {p(0.99):.0f} ms | "
          f"{(latencies[-1] * 1e3 if latencies else 0):.0f} ms |")
    if settled:
        print(f"after the first 30 s: latency median {settled[len(settled) // 2] * 1e3:.0f} ms, "
              f"p99 {settled[min(len(settled) - 1, int(0.99 * len(settled)))] * 1e3:.0f} ms, "
              f"max {settled[-1] * 1e3:.0f} ms over {len(settled)} events")
    answered = sorted(dt for _, dt in health if dt is not None)

    def q(values, share):
        return values[min(len(values) - 1, int(share * len(values)))] * 1e3 if values else float("nan")

    print(f"desk never blocking: /health asked {len(health)} times, {len(health) - len(answered)} without an answer "
          f"within 5 s; answer time median {q(answered, 0.5):.0f} ms, p99 {q(answered, 0.99):.0f} ms, "
          f"max {q(answered, 1.0):.0f} ms")
    for online in (True, False):
        costs = sorted(c for r in reports for _, _, on, c in r["appended"] if on == online)
        print(f"play never waiting: journalling an event {'online' if online else 'offline'} ({len(costs)} events): "
              f"median {q(costs, 0.5):.1f} ms, p99 {q(costs, 0.99):.1f} ms, max {q(costs, 1.0):.1f} ms")
    print(f"desk CPU: {cpu_used:.1f} s over the run's {run_wall:.0f} s ({100 * cpu_used / run_wall:.1f} % of a core)")
    print(f"standings: {len(standings)} players, {sum(s.wins for s in standings)} wins; files in {work}")
    print(storm_lines(traced_events, go_at))
    if args.trace:
        print(where_the_time_went(traced_events, reports, trace_file, go_at))
    return 0 if lost == doubled == 0 and results_agree == finished else 1


if __name__ == "__main__":
    sys.exit(main())
