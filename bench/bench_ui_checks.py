"""What the UI tests' checks cost on a real screen: the coordinate scan run after every tap of every UI test
(``driver.coordinate_texts``, tests/conftest.py), the touch-target snapshot (``driver.touch_targets``) and the
layout check (``driver.layout_problems``), on the base game's play screen (a 4-player game after set-up).

Run under a virtual screen:  xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_ui_checks.py
Prints the median of 5 runs of 20 calls each, per check, in milliseconds (docs/performance.md).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from companion.ui import driver as d  # noqa: E402
from test_ui_still_targets import _journal_game  # noqa: E402  (the same game as the test)


def main() -> None:
    data = tempfile.mkdtemp()
    game_id = _journal_game(data)
    app = d.start_app(data)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        d.settle()
        checks = {"coordinate_texts": d.coordinate_texts, "touch_targets": d.touch_targets,
                  "layout_problems": lambda: d.layout_problems(app.root)}
        for name, check in checks.items():
            runs = []
            for _ in range(5):
                start = time.perf_counter()
                for _ in range(20):
                    check()
                runs.append((time.perf_counter() - start) / 20 * 1000)
            print(f"{name}: median {statistics.median(runs):.2f} ms ({min(runs):.2f}-{max(runs):.2f}, 5 runs of 20)")
    finally:
        d.stop_app(app)


if __name__ == "__main__":
    main()
