"""Benchmarks of the tournament desk (issue 8): seating a 200-player round, standings of 200 players x 5 rounds.

    .venv/bin/python bench/bench_tournament.py [--repeat N]

Prints medians (and min/max) over repeated runs as Markdown rows for docs/performance.md.
Timings are for reading, never pass/fail: this machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.tournament import Desk, History, PRESETS, TableResult, seat_round, standings


def timed(fn, repeat: int) -> tuple[list[float], object]:
    out, value = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        value = fn()
        out.append(time.perf_counter() - t)
    return out, value


def row(name, samples, goal, extra=""):
    med = statistics.median(samples)
    unit, scale = ("ms", 1e3) if med < 1 else ("s", 1)
    return (f"| {name} | {med * scale:.3g} {unit} | {min(samples) * scale:.3g}–{max(samples) * scale:.3g} {unit} | "
            f"{len(samples)} | {goal} | {extra} |")


def field(n, rounds, seed=1, groups=None):
    """``rounds`` seated rounds of ``n`` players (each seated with the history of the earlier ones)."""
    done = []
    for r in range(1, rounds + 1):
        s = seat_round(range(n), r, History.from_rounds(done), groups=groups, seed=seed)
        done.append((r, s.tables))
    return done


def fake_results(done, rng):
    out = []
    for r, tables in done:
        for t, table in enumerate(tables, start=1):
            vp = {p: rng.randint(2, 9) for p in table}
            if rng.random() < 0.15:
                out.append(TableResult(r, t, vp, None, True))
            else:
                w = rng.choice(table)
                vp[w] = rng.choice([10, 10, 10, 11])
                out.append(TableResult(r, t, vp, w, False))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=9)
    args = parser.parse_args()
    rng = random.Random(8)
    print(f"machine: {platform.platform()}, {platform.python_implementation()} {platform.python_version()}")
    print("| measure | median | range | runs | goal | result |")
    print("|---|---|---|---|---|---|")
    groups = {p: {f"club{p // 3}"} for p in range(0, 60)}  # 20 clubs of three
    for n, rounds_before in ((200, 0), (200, 4), (202, 4)):
        done = field(n, rounds_before, groups=groups)
        history = History.from_rounds(done)
        samples, s = timed(lambda: seat_round(range(n), rounds_before + 1, history, groups=groups, seed=7),
                           args.repeat)
        c = s.cost
        print(row(f"seat round {rounds_before + 1} of {n} players (20 keep-apart clubs of 3)", samples, "< 2 s",
                  f"{len(c.repeats)} repeat pairs, {len(c.keep_apart)} keep-apart pairs, {len(c.duty)} duty faults"))
    # a small field late in a long event: repeats cannot be avoided, so the search runs all its kicks
    done = field(24, 7)
    history = History.from_rounds(done)
    samples, s = timed(lambda: seat_round(range(24), 8, history, seed=7), args.repeat)
    print(row("seat round 8 of 24 players (repeats unavoidable: the full search)", samples, "—",
              f"{len(s.cost.repeats)} repeat pairs (at least 12 are forced)"))
    samples, _ = timed(lambda: field(16, 4, seed=rng.randrange(10**6)), args.repeat)
    print(row("16 players, 4 rounds seated one after another (no pair meets twice)", samples, "—"))

    done = field(200, 5)
    results = fake_results(done, rng)
    for key in PRESETS:
        samples, rows = timed(lambda: standings(range(200), results, PRESETS[key], 10, seed=1), args.repeat)
        print(row(f"standings, 200 players x 5 rounds ({len(results)} tables), preset {key}", samples, "—"))
    with tempfile.TemporaryDirectory() as tmp:
        with Desk(Path(tmp) / "t.sqlite3") as desk:
            ev = desk.create_event("bench", "catan-studio", seed=1)
            desk.add_players(ev.id, [(f"Player {i:03d}", "", ()) for i in range(200)])
            ids = [p.id for p in desk.players(ev.id)]
            for r, tables in done:
                desk.seat_round(ev.id, tables=[[ids[p] for p in t] for t in tables])
            t0 = time.perf_counter()
            for res in results:
                desk.enter_result(ev.id, res.round, res.table, {ids[p]: v for p, v in res.vp.items()},
                                  None if res.winner is None else ids[res.winner], ended_by_time=res.ended_by_time)
            per_result = (time.perf_counter() - t0) / len(results)
            samples, _ = timed(lambda: desk.standings(ev.id), args.repeat)
            print(row("standings from the SQLite file (load 250 results + rank), 200 x 5, catan-studio", samples, "—"))
            print(f"| enter one result (checks, WAL commit with fsync, audit row), mean of {len(results)} | "
                  f"{per_result * 1e3:.3g} ms | — | 1 | — | |")


if __name__ == "__main__":
    main()
