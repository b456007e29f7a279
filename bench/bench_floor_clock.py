"""What the round clock costs the desk once it has run out (issue 31, FLOOR): every look at the clock (the display
asks once a second, each tablet every 10 s) checks each table's game against the event's rule at time.

    .venv/bin/python bench/bench_floor_clock.py [--tables 15] [--events 400] [--repeats 7]

In process, a real desk file in a temporary directory, ``--tables`` tables each holding a game of ``--events``
events that has not finished its round of turns (so under ``finish_round`` every look checks every table).
Printed (medians over ``--repeats`` runs of 50 looks each): one look at the clock before time is up, after time is
up under ``finish_round`` with the desk's replayed games cached, the first look after a desk restart (every game
replayed until the look's budget), and the looks that end every game under ``stop`` (the longest one, and how
many it takes: a look works 100 ms at most, then leaves the rest to the next). Timings are for reading, never pass/fail.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.record import new_game, parse_record  # noqa: E402
from companion.rules.random_play import random_events  # noqa: E402
from companion.tournament import clock as clock_mod, referee  # noqa: E402
from companion.tournament.server_store import Floor  # noqa: E402
from companion.tournament.store import Desk  # noqa: E402


class HandClock:
    def __init__(self):
        self.t = 1_000_000.0

    def __call__(self):
        return self.t


def build(path: Path, tables: int, events: int, hand: HandClock) -> Floor:
    desk = Desk(path)
    ev = desk.create_event("Bench", seed=1)
    for i in range(tables * 4):
        desk.add_player(ev.id, f"P{i:03d}")
    desk.seat_round(ev.id)
    floor = Floor(desk, ev.id, clock=hand)
    for t in range(1, tables + 1):
        code = floor.issue_code(t).code
        token, assignment = floor.join(code)
        pairing = floor.authenticate(token)
        game = new_game(parse_record({**assignment["header"], "events": []}))
        played = []
        for e in random_events(game, random.Random(t), events * 3):
            played.append(e)
            if len(played) >= events and not clock_mod.round_finished_after_time(game.summary()["turn"]):
                break
        floor.receive(pairing, t, 1, 0, played, len(played), assignment["header"])
    floor.set_clock("reset", 60)
    floor.set_clock("start")
    return floor


def looks(floor: Floor, n: int = 50) -> float:
    start = time.perf_counter()
    for _ in range(n):
        floor.clock()
    return (time.perf_counter() - start) / n * 1000


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=15)
    ap.add_argument("--events", type=int, default=400)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    before, waiting, restarted, ending = [], [], [], []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as tmp:
            hand = HandClock()
            floor = build(Path(tmp) / "desk.sqlite3", args.tables, args.events, hand)
            before.append(looks(floor))
            hand.t += 3601
            looks(floor, 1)  # the first look after time fills the cache where a receive did not
            waiting.append(looks(floor))
            floor.desk.close()
            floor = Floor(Desk(Path(tmp) / "desk.sqlite3"), "Bench", clock=hand)  # a restarted desk
            t0 = time.perf_counter()
            floor.clock()
            restarted.append((time.perf_counter() - t0) * 1000)
            referee.set_settings(floor, time_rule="stop")
            took, n = [], 0
            while len(floor.desk.results(floor.event.id)) < args.tables:
                t0 = time.perf_counter()
                floor.clock()
                took.append((time.perf_counter() - t0) * 1000)
                n += 1
            ending.append((max(took), n))
            floor.desk.close()
    med = statistics.median
    print(f"| one look at the clock, {args.tables} tables, before time | {med(before):.2f} ms |")
    print(f"| one look after time, finish_round, {args.tables} games of ~{args.events} events waiting (cached) | "
          f"{med(waiting):.2f} ms |")
    print(f"| first look after a desk restart (games replayed until the 100 ms budget) | {med(restarted):.1f} ms |")
    print(f"| ending {args.tables} games under stop: the longest look / looks needed | "
          f"{med(m for m, _ in ending):.1f} ms / {med(n for _, n in ending):.0f} |")


if __name__ == "__main__":
    main()
