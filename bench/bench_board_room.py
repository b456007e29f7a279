"""How large the hex boards are drawn between turns (and in the set-up), lying down and upright: the room the
play screen's layout leaves the board, in pixels.  No timings: a layout measure, the same on every machine.

For each game and window: a new game started by taps, its set-up placed (seeded), then the first roll
entered by the dice buttons: the hex size (centre to corner, px; neighbouring corners are one hex apart,
neighbouring sides' middles 0.87) in the set-up, at the roll and after it, the board's box, the tiles' height,
and the driver's layout problems (a count; 0 expected).

Run:  xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python bench/bench_board_room.py [--shots DIR]
Prints one JSON line per case and a table (docs/first-evening.md, docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

CASES = [("seafarers", 6), ("seafarers", 4), ("seafarers", 3), ("base56", 5), ("base56", 6), ("high_tide", 5),
         ("high_tide", 3), ("base", 4), ("base", 3)]
SIZES = [(1280, 800), (800, 1280)]


def measure(game: str, players: int, size, shots: Path | None) -> dict:
    from companion.ui import driver as d

    with tempfile.TemporaryDirectory() as tmp:
        app = d.start_app(Path(tmp), size=size)
        try:
            d.new_game(app, players, game)
            play = app.root.get_screen("play")
            board = play.ids.board
            d.settle()
            setup = board.fitted_hex_size()
            d.submit_seeded_setup(app, 3)
            d.settle()
            at_roll = board.fitted_hex_size()
            d.tap_dice(play, d.producing_number(app.table.game, app.table.game.state.turn_player))
            d.settle()
            main = board.fitted_hex_size()
            problems = d.layout_problems(app.root)
            if shots is not None:
                d.screenshot(shots / f"main-{game}{players}-{size[0]}x{size[1]}.png")
            return {"size": f"{size[0]}x{size[1]}", "game": f"{game} {players}", "setup_hex": round(setup, 1),
                    "roll_hex": round(at_roll, 1), "main_hex": round(main, 1),
                    "board": [round(v) for v in board.size], "tiles_h": round(play.ids.vpboard.height),
                    "problems": len(problems), "first_problems": problems[:2]}
        finally:
            d.stop_app(app)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=Path, help="write a screenshot of each case's main phase here")
    parser.add_argument("--only", help="only games whose name contains this")
    args = parser.parse_args()
    rows = []
    for size in SIZES:
        for game, n in CASES:
            if args.only and args.only not in f"{game} {n}":
                continue
            row = measure(game, n, size, args.shots)
            rows.append(row)
            print(json.dumps(row, ensure_ascii=False), flush=True)
    print("\n| game | window | set-up hex | at the roll | after the roll | board box | tiles' height |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['game']} | {r['size']} | {r['setup_hex']} | {r['roll_hex']} | {r['main_hex']} | "
              f"{r['board'][0]}x{r['board'][1]} | {r['tiles_h']} |")


if __name__ == "__main__":
    main()
