"""Benchmarks of the Seafarers / High Tide rules (issue 3): longest trade route on a crowded 6-player board.

    .venv/bin/python bench/bench_variants.py [--repeat N]

The position: the 6-player High Tide map (companion/assets/boards/high-tide-5-6.json, a Seafarers map), set up by
random legal play, then every player's roads and ships added one legal edge at a time (seeded) until
each has placed all 15 of both or no legal edge is left.  Timed: the recomputation the game runs after
every event that can change a route (all six players) with the memo of route inputs cleared (the
worst case: every player's pieces changed) and warm (the common case: one player's did), and the
slowest single player's search.
Timings are for reading, never pass/fail.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from pathlib import Path

from companion import assets
from companion.rules import board_from_json, game_class
from companion.rules.game import MAIN, ROLL
from companion.rules.random_play import random_events

BOARD = assets.path("boards", "high-tide-5-6.json")


def crowded_game(seed: int = 1):
    board = board_from_json(json.loads(BOARD.read_text()))
    game = game_class("seafarers")(board, 6)
    rng = random.Random(seed)
    for _ in random_events(game, rng, 200):
        if game.state.phase == ROLL:
            break
    s = game.state
    s.phase = MAIN
    growing = True
    while growing:
        growing = False
        for p in range(6):
            for piece in ("road", "ship"):
                if game.pieces_left(p, piece) <= 0:
                    continue
                spots = sorted(e for e in board.edges if game._link_problem(p, piece, e) is None)
                if spots:
                    s.pieces[rng.choice(spots)] = (p, piece)
                    growing = True
    game._update_longest_route()
    return game


def timed(fn, repeat, inner):
    """(wall-clock, CPU) seconds per call, one pair per run of ``inner`` calls: the machine is shared, and
    the process's CPU time suffers less from other jobs than the wall clock does."""
    out = []
    for _ in range(repeat):
        c = time.process_time()
        t = time.perf_counter()
        for _ in range(inner):
            fn()
        out.append(((time.perf_counter() - t) / inner, (time.process_time() - c) / inner))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()
    game = crowded_game()
    s = game.state
    pieces = len(s.pieces)
    lengths = s.route_lengths
    from companion.rules.routes import longest_route, memo_longest_route

    def search(p):
        """One player's search from scratch (what a route-changing event costs for that player)."""
        mine = {e: kind for e, (q, kind) in s.pieces.items() if q == p}
        return longest_route(mine, [v for v, (q, _) in s.buildings.items() if q != p],
                             [v for v, (q, _) in s.buildings.items() if q == p])

    slowest = max(range(6), key=lambda p: statistics.median(c for _, c in timed(lambda: search(p), 5, 20)))
    print(f"# {platform.python_implementation()} {platform.python_version()}; {time.strftime('%Y-%m-%d')}; "
          f"{pieces} roads+ships on the board, routes {lengths}")
    print(f"# load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| measure | median | range | CPU median | runs | goal |\n|---|---|---|---|---|---|")
    def cold():
        memo_longest_route.cache_clear()
        game._update_longest_route()

    for name, fn, inner in (
            ("longest trade route, all 6 players searched from scratch (memo cleared)", cold, 20),
            ("longest trade route, all 6 players, memo warm (an event that moved no route piece)",
             game._update_longest_route, 50),
            (f"longest trade route, slowest single player from scratch (P{slowest}, length {lengths[slowest]})",
             lambda: search(slowest), 50)):
        pairs = timed(fn, args.repeat, inner)
        samples = [w for w, _ in pairs]
        print(f"| {name} | {statistics.median(samples) * 1e3:.3g} ms | {min(samples) * 1e3:.3g}–"
              f"{max(samples) * 1e3:.3g} ms | {statistics.median(c for _, c in pairs) * 1e3:.3g} ms | "
              f"{len(samples)} | < 2 ms |")

if __name__ == "__main__":
    main()
