"""What a game's end costs the desk, in process (issue 31): 60 tables, 240 players, each game ended in turn.

    .venv/bin/python bench/profile_desk_game_end.py [--tables 60] [--ends 12] [--profile]

A desk with ``--tables`` tables of the catan-studio preset; every table's game (a random whole game) is kept up to
its last event, the heap settled as the served desk settles it (``gc.collect(); gc.freeze()``), then ``--ends``
games are ended one at a time by their last event, and each step of what the desk server does for it is timed
(process CPU, medians): the finishing batch (the rules, the result entered, the commit), the checkpoint, and
what the display's stream then works out (``Push.changed()``: the whole display's data, the recheck's fingerprint,
the JSON), with the garbage collector's passes counted per step (gc.callbacks). ``--profile``: cProfile of the
whole-display rebuild. For reading, never pass/fail.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import json
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


class GcCount:
    """The collector's passes and their wall time, by generation, while it is on."""

    def __init__(self):
        self.passes: dict[int, list[float]] = {}
        self._began = 0.0
        self.on = False
        gc.callbacks.append(self._callback)

    def _callback(self, phase, info):
        if not self.on:
            return
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.passes.setdefault(info["generation"], []).append(time.perf_counter() - self._began)

    def take(self) -> dict[int, list[float]]:
        out, self.passes = self.passes, {}
        return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--ends", type=int, default=12)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--games", type=Path, default=None,
                        help="a JSON file keeping the random games between runs (worked out once: ~1 minute)")
    args = parser.parse_args()

    from companion.record import new_game, parse_record
    from companion.rules.random_play import random_events
    from companion.tournament import server_display
    from companion.tournament.server_store import Floor
    from companion.tournament.store import Desk

    work = Path(tempfile.mkdtemp(prefix="profile-game-end-"))
    desk = Desk(work / "desk.sqlite3")
    ev = desk.create_event("Game ends", seed=3)
    for n in range(args.tables * 4):
        desk.add_player(ev.id, f"Player {n + 1:03d}")
    desk.seat_round(ev.id)
    floor = Floor(desk, ev.id)
    tables = []
    began = time.perf_counter()
    kept = json.loads(args.games.read_text()) if args.games is not None and args.games.exists() else {}
    for t in range(1, args.tables + 1):
        header = floor.table_header(1, t)
        seed = t
        while str(t) not in kept:
            events = list(random_events(new_game(parse_record({**header, "events": []})), random.Random(seed), 3000))
            if len(events) < 3000:
                kept[str(t)] = events
            seed += 1000
        events = kept[str(t)]
        token, _ = floor.join(floor.issue_code(t).code)
        pairing = floor.authenticate(token)
        floor.receive(pairing, 1, 1, 0, events[:-1], len(events) - 1, header)
        tables.append((pairing, events))
    if args.games is not None:
        args.games.write_text(json.dumps(kept))
    print(f"{args.tables} tables kept up to their last event in {time.perf_counter() - began:.1f} s "
          f"(games of {min(len(e) for _, e in tables)}-{max(len(e) for _, e in tables)} events)")
    server_display.display_data(floor)  # (the standings' and tables' caches as a running desk has them)
    gc.collect()
    gc.freeze()

    counter = GcCount()
    steps: dict[str, list[float]] = {}
    collections: dict[str, dict[int, list[float]]] = {}

    def timed(name, fn):
        counter.take()
        counter.on = True
        cpu = time.process_time()
        out = fn()
        steps.setdefault(name, []).append(time.process_time() - cpu)
        counter.on = False
        for gen, walls in counter.take().items():
            collections.setdefault(name, {}).setdefault(gen, []).extend(walls)
        return out

    profiler = cProfile.Profile() if args.profile else None
    batch_profiler = cProfile.Profile() if args.profile else None
    for pairing, events in tables[:args.ends]:
        n = len(events)
        if batch_profiler is not None:
            batch_profiler.enable()
        view = timed("the finishing batch (rules, result entered, commit)",
                     lambda: floor.receive(pairing, 1, 2, n - 1, events[-1:], n, None, checkpoint=False))
        if batch_profiler is not None:
            batch_profiler.disable()
        assert view["finished"], view
        timed("its checkpoint (wal_checkpoint FULL)", floor.checkpoint)
        if hasattr(server_display, "standings_text"):  # (a tree where the game's end pushes the standings alone)
            timed("the standings' message (standings_text, after the result)",
                  lambda: server_display.standings_text(floor))
            timed("the finished table's line (Floor.live_table_after)", lambda: floor.live_table_after(pairing))
        if profiler is not None:
            profiler.enable()
        data = timed("the whole display's data (display_data, settle=False)",
                     lambda: server_display.display_data(floor, settle=False))
        timed("the recheck's fingerprint (display_recheck)", lambda: server_display.display_recheck(floor))
        timed("the whole display as JSON (display_json)", lambda: server_display.display_json(data))
        if profiler is not None:
            profiler.disable()
        timed("the standings alone (Desk.standings)", lambda: floor.desk.standings(ev.id))
        timed("the 60 tables' lines alone (Floor.live_tables)", floor.live_tables)
    print(f"\n{args.ends} games ended, process CPU per game end (median, min-max), and the GC's passes in the step:\n")
    print("| step | median | min–max | GC passes (gen: count, max wall) |")
    print("|---|---|---|---|")
    for name, values in steps.items():
        gcs = ", ".join(f"gen {g}: {len(w)}, max {max(w) * 1e3:.1f} ms"
                        for g, w in sorted(collections.get(name, {}).items()))
        print(f"| {name} | {statistics.median(values) * 1e3:.2f} ms | {min(values) * 1e3:.2f}–"
              f"{max(values) * 1e3:.2f} ms | {gcs or 'none'} |")
    print(f"\nthe whole display's JSON: {len(server_display.display_json(data)) / 1024:.0f} KB")
    if profiler is not None:
        print("\n--- the finishing batch, profiled")
        pstats.Stats(batch_profiler).sort_stats("cumulative").print_stats(25)
        print("\n--- the whole display's rebuild, profiled")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    desk.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
