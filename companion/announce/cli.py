"""``python -m companion announce RECORD.json --lang en|ja [--all]``: replay a record and say its outcome.

Speaks the outcome of the record's last event (``--all``: of every event, in order, each to the end)
through the default player, printing each caption as ``#INDEX caption``; a roll the camera read (``"source":
"camera"``) is said with its faces, as the app says it.  Without a sound device it
says so once on stderr and still prints the captions.
"""

from __future__ import annotations

import argparse
import sys

from .announcer import Announcer
from .phrases import read_by_camera
from .players import PLAYERS


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion announce", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a catan-record/1 JSON file")
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--all", action="store_true", help="every event's outcome, not only the last")
    parser.add_argument("--player", choices=PLAYERS, default="auto", help="audio output (default: auto)")
    parser.add_argument("--volume", type=float, default=1.0, help="0.0 to 1.0")
    args = parser.parse_args(argv)

    from ..record import RecordError, load_record, replay
    try:
        record = load_record(args.record)
        game = replay(record)
    except RecordError as error:
        print(f"announce: {error}", file=sys.stderr)
        return 1
    if not game.outcomes:
        print(f"announce: {args.record} has no events to announce", file=sys.stderr)
        return 1
    try:
        announcer = Announcer([p["color"] for p in record.players], lang=args.lang, player=args.player,
                              volume=args.volume)
    except ValueError as error:
        print(f"announce: {error}", file=sys.stderr)
        return 2
    announcer.add_problem_listener(lambda problem: print(f"announce: no sound ({problem}); captions only",
                                                         file=sys.stderr))
    try:
        outcomes = game.outcomes if args.all else game.outcomes[-1:]
        said = 0
        for outcome in outcomes:
            announcement = announcer.on_outcome(outcome, faces=read_by_camera(outcome, record.events),
                                                event=record.events[outcome.index])
            if announcement is None:
                continue
            said += 1
            print(f"#{outcome.index} {announcement.caption}", flush=True)
            announcer.wait_idle(timeout=60)
        if not said:
            last = outcomes[-1]
            print(f"#{last.index} ({last.kind}: nothing to announce)")
    finally:
        announcer.close()
    return 0
