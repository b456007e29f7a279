"""Benchmarks of the rules core (issue 2): replay, Longest Road, production.

    .venv/bin/python bench/bench_core.py [--repeat N]

Prints medians (and min/max) over repeated runs; the figures go into docs/performance.md.
Timings are for reading, never pass/fail: this machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from companion.record import COLORS, Record, new_game, replay
from companion.rules import Game, standard_board
from companion.rules import geometry as geo
from companion.rules.board import BASE_SPEC
from companion.rules.production import produce
from companion.rules.random_play import random_events
from companion.rules.routes import longest_route


CPU: list[float] = []  # the process's CPU time of the last timed() call's runs: less hurt by a busy machine


def timed(fn, repeat: int, inner: int = 1) -> list[float]:
    """Wall-clock seconds per call, one sample per run of ``inner`` calls (CPU seconds kept in ``CPU``)."""
    out = []
    CPU.clear()
    for _ in range(repeat):
        c = time.process_time()
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        out.append((time.perf_counter() - t) / inner)
        CPU.append((time.process_time() - c) / inner)
    return out


def thousand_event_record(seed: int = 3) -> Record:
    """A random legal 4-player game cut at exactly 1,000 events (seeded, so every run replays the same)."""
    for s in range(seed, seed + 100):
        board = standard_board(s, spec=BASE_SPEC)
        record = Record("base", [{"name": f"P{i}", "color": COLORS[i]} for i in range(4)], board.to_json())
        events = list(random_events(new_game(record), random.Random(s), 1000))
        if len(events) == 1000:
            record.events = events
            return record
    raise RuntimeError("no seed gave a 1,000-event game")


def worst_road_position():
    """15 roads as dense as the board allows: the rings around three mutually adjacent hexes plus spurs --
    many vertices of degree 3, so many trails to try."""
    hexes = [(0, 0), (1, 0), (0, 1)]
    edges = {e for h in hexes for e in geo.hex_edges(h)}  # 15 distinct edges
    assert len(edges) == 15
    return edges


def report(name: str, samples: list[float], unit: str, scale: float, goal: str) -> str:
    med = statistics.median(samples) * scale
    line = (f"| {name} | {med:.3g} {unit} | {min(samples) * scale:.3g}–{max(samples) * scale:.3g} {unit} | "
            f"{statistics.median(CPU) * scale:.3g} {unit} | {len(samples)} | {goal} |")
    print(line)
    return line


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"{platform.system()}; {time.strftime('%Y-%m-%d')}")
    print(f"# load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| measure | median | range | CPU median | runs | goal |\n|---|---|---|---|---|---|")

    record = thousand_event_record()
    report("replay of a 1,000-event game (record → state, with outcomes)",
           timed(lambda: replay(record), args.repeat), "ms", 1e3, "< 50 ms")

    roads = worst_road_position()
    report(f"Longest Road, 15 roads round three hexes (length {longest_route(roads)})",
           timed(lambda: longest_route(roads), args.repeat, inner=50), "ms", 1e3, "< 1 ms")

    game = replay(record, upto=600)
    s = game.state
    resource_of = game._resource_of
    report("production for one roll (an 8, mid-game board)",
           timed(lambda: produce(8, game.board.hexes_by_number, resource_of, s.buildings,
                                 {"settlement": 1, "city": 2}, s.bank, frozenset({s.robber})),
                 args.repeat, inner=2000), "µs", 1e6, "< 50 µs")
    roll_at = next(i for i in range(600, 1000) if record.events[i]["type"] == "roll")
    live = Game(game.board, 4)
    for event in record.events[:roll_at]:
        live.push(event)
    event = record.events[roll_at]
    report("live push of one roll + its undo (snapshot, checks, outcome)",
           timed(lambda: (live.push(event), live.pop()), args.repeat, inner=500), "µs", 1e6, "—")

    import tempfile
    from companion.record.journal import Journal

    with tempfile.TemporaryDirectory() as tmp, Journal(f"{tmp}/j.sqlite3") as journal:
        gid = journal.create_game(Record(record.game, record.players, record.board))
        report("journal commit of one event (WAL, synchronous=FULL, fsync)",
               timed(lambda: journal.append(gid, event), args.repeat, inner=20), "ms", 1e3, "—")

if __name__ == "__main__":
    main()
