"""``replay`` and ``example`` commands."""

from __future__ import annotations

import argparse
import json
import random
import sys

from ..rules import standard_board
from ..rules.board import BASE_SPEC
from .format import COLORS, FORMAT, RecordError, Record, load_record, new_game, replay


def replay_main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion replay",
                                     description="Replay a game record and print the derived state as JSON.")
    parser.add_argument("record", help="a catan-record/1 JSON file")
    parser.add_argument("--upto", type=int, default=None, help="replay only the first N events")
    parser.add_argument("--outcomes", action="store_true", help="also print every event's outcome")
    args = parser.parse_args(argv)
    try:
        record = load_record(args.record)
        game = replay(record, upto=args.upto)
    except RecordError as error:
        print(f"{args.record}: {error}", file=sys.stderr)
        return 2
    state = game.summary()
    if args.outcomes:
        state["outcomes"] = [o.to_json() for o in game.outcomes]
    json.dump(state, sys.stdout, indent=2, ensure_ascii=False)
    print()
    return 0


def example_main(argv: list[str]) -> int:
    from ..rules.random_play import random_events

    parser = argparse.ArgumentParser(prog="python -m companion example",
                                     description="Print a random legal base game as a record.")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--max-events", type=int, default=2000)
    args = parser.parse_args(argv)
    board = standard_board(args.seed, spec=BASE_SPEC, separate_red_numbers=True)
    names = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fred"]
    record = Record("base", [{"name": names[i], "color": COLORS[i]} for i in range(args.players)],
                    board.to_json())
    game = new_game(record)
    record.events = list(random_events(game, random.Random(args.seed), args.max_events))
    sys.stdout.write(record.dumps())
    return 0
