"""What the desk page costs the desk to write (``GET /desk``), in its process (no HTTP): the page reads itself again
when the floor changes and every 5 s (companion/tournament/desk_script.py), so this is what each open desk page
adds to the desk's one thread.

A floor of 60 tables (240 players), every table's tablet joined and its game sent (``--events`` each), the round
clock running; the page written ``--repeat`` times after one warm-up: median, min and max.

    .venv/bin/python bench/bench_desk_page.py [--events 120] [--repeat 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=120)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--language", default="ja")
    args = parser.parse_args()

    from companion.record import new_game, parse_record
    from companion.rules.random_play import random_events
    from companion.tournament import referee
    from companion.tournament.server_display import desk_page
    from companion.tournament.server_store import Floor
    from companion.tournament.store import Desk

    work = Path(tempfile.mkdtemp(prefix="bench-desk-page-"))
    with Desk(work / "desk.sqlite3") as desk:
        ev = desk.create_event("Desk page", seed=4)
        for n in range(240):
            desk.add_player(ev.id, f"Player {n + 1:03d}")
        desk.seat_round(ev.id)
        floor = Floor(desk, ev.id)
        referee.set_settings(floor, language=args.language, confirm="referee")
        floor.set_clock("start", 60)
        for t in range(1, 61):
            header = floor.table_header(1, t)
            events = list(random_events(new_game(parse_record({**header, "events": []})), random.Random(t),
                                        args.events))
            token, _ = floor.join(floor.issue_code(t).code)
            floor.receive(floor.authenticate(token), 1, 1, 0, events, len(events), header)
        desk_page(floor, "k" * 32)  # (warm: the tables' lines worked out once)
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            page = desk_page(floor, "k" * 32)
            times.append(time.perf_counter() - t0)
    print(f"desk page, 60 tables, {args.events} events each, {args.language}: median "
          f"{statistics.median(times) * 1e3:.1f} ms, min {min(times) * 1e3:.1f}, max {max(times) * 1e3:.1f} "
          f"({args.repeat} runs; page {len(page.encode()) / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
