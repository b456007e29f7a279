"""What Check the board's one tap for every sure row costs ("Add the N sure ones", board_check.add_sure): CatanAI's
test4_1 read against a game just started on its board (no piece: a table adopting the app mid-game,
tests/test_ui_board_check_adopt.py), the sure rows recorded -- each tried on a copy of the game, then through the
play screen's submit and the journal -- and the list made again; then "Take back" (one Undo each).

Run under a virtual screen:  xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_check_batch.py
Prints the median of 5 runs of each, in seconds, with how many were recorded (docs/performance.md).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from companion.ui import driver as d  # noqa: E402
from test_ui_board_check_adopt import PHOTOS, game_just_started, read  # noqa: E402  (the test's game and photo)


def main() -> None:
    app, check = d.open_board_check(tempfile.mkdtemp(), game_just_started())
    try:
        read(check, PHOTOS / "test4_1.jpg")
        adds, backs, recorded = [], [], 0
        for _ in range(5):
            start = time.perf_counter()
            check.add_sure()
            adds.append(time.perf_counter() - start)
            recorded = len(app.table.record.events)
            start = time.perf_counter()
            check.take_back()
            backs.append(time.perf_counter() - start)
        for name, runs in (("add the sure ones", adds), ("take them back", backs)):
            print(f"{name} ({recorded} events): median {statistics.median(runs):.2f} s "
                  f"({min(runs):.2f}-{max(runs):.2f}, 5 runs)")
    finally:
        d.stop_app(app)


if __name__ == "__main__":
    main()
