"""Benchmarks of the rules core (issues 2 and 27): what the game itself runs, timed as the game runs it.

    .venv/bin/python bench/bench_core.py [--repeat N] [--processes N]

Each measure calls the code path a live game or ``replay`` uses -- not a shortcut beside it:

- Longest Road: the search a game runs when its memo misses (``memo_longest_route.__wrapped__``, given the
  player's pieces, the blocked corners and own buildings exactly as ``Game._route_lengths`` passes them);
- production: ``produce`` with the arguments ``Game._production`` gives it (the board's ``hex_corners``);
- replay: ``companion.record.replay`` of a 1,000-event game in this process;
- ``replay`` as a process: ``python -m companion replay FILE`` from start to exit (imports included).

Prints medians (and min/max) over repeated runs; the figures go into docs/performance.md.  Timings are for
reading, never pass/fail: this machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from companion.record import COLORS, Record, new_game, replay
from companion.rules import Game, standard_board
from companion.rules import geometry as geo
from companion.rules.board import BASE_SPEC
from companion.rules.game import BUILDING_WEIGHTS
from companion.rules.production import produce
from companion.rules.random_play import random_events
from companion.rules.routes import memo_longest_route

ROOT = Path(__file__).resolve().parents[1]
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


def figure_eight_with_spur():
    """Two hex rings sharing a side (11 roads, the figure-eight) and one spur off a shared corner: 12 roads."""
    rings = {e for h in ((0, 0), (1, 0)) for e in geo.hex_edges(h)}
    assert len(rings) == 11
    corners = {v for e in rings for v in geo.edge_vertices(e)}
    around = sorted(e for h in ((-1, 0), (-1, 1), (0, 1)) for e in geo.hex_edges(h))
    spur = next(e for e in around if e not in rings and set(geo.edge_vertices(e)) & corners)
    return rings | {spur}


def worst_road_position():
    """15 roads as dense as the board allows: the rings around three mutually adjacent hexes --
    many vertices of degree 3, so many trails to try."""
    edges = {e for h in ((0, 0), (1, 0), (0, 1)) for e in geo.hex_edges(h)}
    assert len(edges) == 15
    return edges


def game_search(roads):
    """The search the game runs on a memo miss, with its inputs shaped as ``Game._route_lengths`` shapes them."""
    pieces = frozenset((e, "road") for e in roads)
    search = memo_longest_route.__wrapped__
    return lambda: search(pieces, frozenset(), frozenset())


def report(name: str, samples: list[float], unit: str, scale: float, goal: str) -> str:
    med = statistics.median(samples) * scale
    cpu = f"{statistics.median(CPU) * scale:.3g} {unit}" if CPU else "—"
    line = (f"| {name} | {med:.3g} {unit} | {min(samples) * scale:.3g}–{max(samples) * scale:.3g} {unit} | "
            f"{cpu} | {len(samples)} | {goal} |")
    print(line, flush=True)
    return line


def venv_without_finder(folder: Path) -> Path:
    """A bare virtual environment whose ``.pth`` names this checkout: ``companion`` imported as an installed
    wheel (or ``pip install -e --config-settings editable_mode=compat``) imports it, without the import
    hook that this venv's editable install puts in front of every import (issue 28 measured it at ~45 ms
    a process).  The replay needs nothing from site-packages.  Returns its python."""
    subprocess.run([getattr(sys, "_base_executable", sys.executable), "-m", "venv", "--without-pip", str(folder)],
                   check=True)
    python = folder / "bin" / "python"
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "companion-checkout.pth").write_text(str(ROOT) + "\n")
    return python


def processes(args: list[str], runs: int, *, compiled: bool, python: str | Path = sys.executable) -> list[float]:
    """Wall seconds of ``python ARGS`` (a fresh interpreter each time), output discarded.

    ``compiled``: with the modules' byte code cached (kept in a temporary folder, PYTHONPYCACHEPREFIX, so
    the tree gets no __pycache__), as an installed app runs after its first start; otherwise every
    module is compiled again, as under PYTHONDONTWRITEBYTECODE (which some shells and CI set).
    """
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ)
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        if compiled:
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        command = [str(python), *args]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=tmp, env=env)  # warm-up (compiles)
        out = []
        for _ in range(runs):
            t = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=tmp, env=env)
            out.append(time.perf_counter() - t)
        return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--processes", type=int, default=15, help="runs of `replay` as a process")
    parser.add_argument("--skip-journal", action="store_true")
    args = parser.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
          f"{platform.system()}; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"# load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("| measure | median | range | CPU median | runs | goal |\n|---|---|---|---|---|---|")

    eight = figure_eight_with_spur()
    report(f"Longest Road, figure-eight + spur (12 roads, length {game_search(eight)()}), the game's search",
           timed(game_search(eight), args.repeat, inner=200), "µs", 1e6, "≤ 50 µs")
    worst = worst_road_position()
    report(f"Longest Road, 15 roads round three hexes (length {game_search(worst)()}), the game's search",
           timed(game_search(worst), args.repeat, inner=100), "µs", 1e6, "≤ 100 µs")

    record = thousand_event_record()
    game = replay(record, upto=600)
    s = game.state
    board = game.board
    resource_of = game._resource_of
    report("production for one roll (an 8, mid-game board), as Game._production calls it",
           timed(lambda: produce(8, board.hexes_by_number, resource_of, s.buildings, BUILDING_WEIGHTS, s.bank,
                                 game._blocked_hexes(), board.hex_corners),
                 args.repeat, inner=2000), "µs", 1e6, "≤ 5 µs")
    roll_at = next(i for i in range(600, 1000) if record.events[i]["type"] == "roll")
    live = Game(game.board, 4)
    for event in record.events[:roll_at]:
        live.push(event)
    event = record.events[roll_at]
    report("live push of one roll + its undo (snapshot, checks, outcome)",
           timed(lambda: (live.push(event), live.pop()), args.repeat, inner=500), "µs", 1e6, "—")

    report("replay of a 1,000-event game in process (record → state, with outcomes)",
           timed(lambda: replay(record), args.repeat), "ms", 1e3, "≤ 15 ms")
    CPU.clear()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(json.dumps(record.to_json()))
        report("`python -m companion replay` of that game as a process (start to exit), byte code cached",
               processes(["-m", "companion", "replay", str(path)], args.processes, compiled=True), "ms", 1e3,
               "≤ 80 ms")
        report("the same, every module compiled at start (PYTHONDONTWRITEBYTECODE=1)",
               processes(["-m", "companion", "replay", str(path)], args.processes, compiled=False), "ms", 1e3, "—")
        report("`python -c pass` in this venv (interpreter, site, the editable install's finder)",
               processes(["-c", "pass"], args.processes, compiled=True), "ms", 1e3, "—")
        bare = venv_without_finder(Path(tmp) / "venv")
        report("`replay` as a process, byte code cached, without the editable finder (as installed)",
               processes(["-m", "companion", "replay", str(path)], args.processes, compiled=True, python=bare),
               "ms", 1e3, "≤ 80 ms")
        report("`python -c pass` without the editable finder", processes(["-c", "pass"], args.processes,
                                                                          compiled=True, python=bare), "ms", 1e3, "—")

    if not args.skip_journal:
        from companion.record.journal import Journal

        with tempfile.TemporaryDirectory() as tmp, Journal(f"{tmp}/j.sqlite3") as journal:
            gid = journal.create_game(Record(record.game, record.players, record.board))
            report("journal commit of one event (WAL, synchronous=FULL, fsync)",
                   timed(lambda: journal.append(gid, event), args.repeat, inner=20), "ms", 1e3, "—")


if __name__ == "__main__":
    main()
