"""The rules core's cost in machine instructions (valgrind's callgrind), which a busy machine does not change.

    .venv/bin/python bench/bench_core_instructions.py [--tree DIR]

Wall and CPU times on the shared 2-core development machine swing by 2-3x with the other jobs, so a
before/after comparison of a few percent cannot be read from them.  The instruction count of the same
work is nearly exact from run to run.  Each figure is the difference of two runs of a fresh interpreter,
N calls and none, divided by N -- the start-up and imports cancel out -- except the process figures, which
are whole runs.  ``--tree DIR`` measures another copy of the code (e.g. ``git archive OLD companion | tar
-x -C DIR``): the ``companion`` package is taken from DIR.  Needs ``valgrind`` (apt-get install valgrind).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in the child, with the package from the tree being measured; "N" is replaced by the call count.
SETUP = """
import json, sys
sys.path.insert(0, {bench!r})
from companion.record import parse_record, replay
from companion.rules import geometry as geo
from companion.rules.production import produce
from companion.rules.routes import memo_longest_route
record = parse_record(json.load(open({record!r})))
search = memo_longest_route.__wrapped__
def roads(hexes, spur_from=()):
    edges = {{e for h in hexes for e in geo.hex_edges(h)}}
    corners = {{v for e in edges for v in geo.edge_vertices(e)}}
    around = sorted(e for h in spur_from for e in geo.hex_edges(h))
    edges |= set([e for e in around if e not in edges and set(geo.edge_vertices(e)) & corners][:1])
    return frozenset((e, "road") for e in edges)
eight = roads(((0, 0), (1, 0)), spur_from=((-1, 0), (-1, 1), (0, 1)))
worst = roads(((0, 0), (1, 0), (0, 1)))
game = replay(record, upto=600)
s = game.state
corners = game.board.hex_corners
import gc; gc.collect()  # (the collector's passes over the game kept above, owed since replay paused it, made now)
"""
WORK = {
    "replay of the 1,000-event game in process": "for _ in range(N): replay(record)",
    # (as the app keeps its game: the collector's passes over it, made later, counted by the collection at the end)
    "the same, each game kept, and a full collection after": "kept = [replay(record) for _ in range(N)]; gc.collect()",
    "Longest Road, figure-eight + spur (12 roads)": "for _ in range(N): search(eight, frozenset(), frozenset())",
    "Longest Road, 15 roads round three hexes": "for _ in range(N): search(worst, frozenset(), frozenset())",
    "production for one roll (an 8, mid-game board), from scratch (`produce`)":
        "for _ in range(N): produce(8, game.board.hexes_by_number, game._resource_of, s.buildings, "
        "{'settlement': 1, 'city': 2}, s.bank, game._blocked_hexes(), corners)",
    "production for one roll as the game runs it (`Game._produced`: claims kept with the buildings)":
        "for _ in range(N): game._produced(8)",
    # (a table's game: every push copies the state first, so its states are copies; set up in both runs)
    "a table's push of one roll + its undo (`push`, atomic: the state copied; `pop`), mid-game":
        "from companion.rules.game import Game\n"
        "roll_at = next(i for i in range(600, 1000) if record.events[i]['type'] == 'roll')\n"
        "live = Game(game.board, 4)\n"
        "for event in record.events[:roll_at]: live.push(event)\n"
        "event = record.events[roll_at]; live.push(event); live.pop(); gc.collect()\n"
        "for _ in range(N): live.push(event); live.pop()",
    # (the table previews a roll on a copy of its game before it shows it: the table's own game, copied once)
    "the same, after the game was copied once for a roll's preview (`Game.copy`)":
        "from companion.rules.game import Game\n"
        "roll_at = next(i for i in range(600, 1000) if record.events[i]['type'] == 'roll')\n"
        "live = Game(game.board, 4)\n"
        "for event in record.events[:roll_at]: live.push(event)\n"
        "event = record.events[roll_at]; live.copy().push(event); live.push(event); live.pop(); gc.collect()\n"
        "for _ in range(N): live.push(event); live.pop()",
}
CALLS = {"replay of the 1,000-event game in process": 3,
         "the same, each game kept, and a full collection after": 3}


def instructions(args: list[str], env: dict[str, str], python=sys.executable) -> int:
    run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(python), *args],
                         capture_output=True, text=True, env=env, check=True, cwd=env["PYTHONPYCACHEPREFIX"])
    return int(re.search(r"Collected : (\d+)", run.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tree", type=Path, default=ROOT, help="the folder holding the companion package")
    parser.add_argument("--only", default="", help="only the measures whose name holds this text (no process figures)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from bench_core import thousand_event_record

    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "game.json"
        record.write_text(json.dumps(thousand_event_record().to_json()))
        # (run from an empty folder: ``python -c`` looks in the working folder first)
        env = dict(os.environ, PYTHONPATH=str(args.tree.resolve()), PYTHONPYCACHEPREFIX=str(Path(tmp) / "pyc"),
                   PYTHONHASHSEED="0")  # (set order steers the route search: fixed, for repeatable counts)
        Path(env["PYTHONPYCACHEPREFIX"]).mkdir()
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        setup = SETUP.format(bench=str(ROOT / "bench"), record=str(record))
        print(f"# instructions (callgrind), companion from {args.tree}")
        print("| measure | instructions per call |\n|---|---|")
        instructions(["-c", setup], env)  # compiles the byte code once, so no run below pays for it
        for name, loop in WORK.items():
            if args.only not in name:
                continue
            n = CALLS.get(name, 200)
            try:
                # (a first run compiles what this measure imports that the set-up does not -- the tree's copy.copy
                # imports the copy module -- so that neither counted run pays for it)
                instructions(["-c", setup + loop.replace("N", "0")], env)
                none = instructions(["-c", setup + loop.replace("N", "0")], env)
                some = instructions(["-c", setup + loop.replace("N", str(n))], env)
            except subprocess.CalledProcessError:  # (an older tree without what this measure calls)
                print(f"| {name} | — (not in this tree) |", flush=True)
                continue
            print(f"| {name} | {(some - none) / n / 1e3:,.1f} k |", flush=True)
        if args.only:
            return
        instructions(["-m", "companion", "replay", str(record)], env)  # compiles the byte code once
        whole = instructions(["-m", "companion", "replay", str(record)], env)
        bare = instructions(["-c", "pass"], env)
        print(f"| `python -m companion replay` of that game, whole process (byte code cached) | {whole / 1e6:,.1f} M |")
        print(f"| `python -c pass` (interpreter, site, the editable install's finder) | {bare / 1e6:,.1f} M |")
        from bench_core import venv_without_finder

        python = venv_without_finder(Path(tmp) / "venv")
        plain = dict(env)
        plain.pop("PYTHONPATH")  # the venv's .pth names the checkout
        if args.tree.resolve() != ROOT:
            plain["PYTHONPATH"] = str(args.tree.resolve())
        instructions(["-m", "companion", "replay", str(record)], plain, python=python)
        whole = instructions(["-m", "companion", "replay", str(record)], plain, python=python)
        bare = instructions(["-c", "pass"], plain, python=python)
        print(f"| the same process without the editable finder (as installed) | {whole / 1e6:,.1f} M |")
        print(f"| `python -c pass` without the editable finder | {bare / 1e6:,.1f} M |")


if __name__ == "__main__":
    main()
