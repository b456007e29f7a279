"""What a docs/screens picture costs now that ``driver.screenshot`` presents one frame before reading it (the
rasteriser under Xvfb paints only presented frames), against the old read of the unpresented back buffer, which
was cheaper and wrong (black or scraps of earlier frames).  On the play screen of a 3-player game after set-up.

Run under a virtual screen:  xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python bench/bench_screenshot.py
Prints the median of 7 pictures each, in milliseconds (docs/performance.md).
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from companion.ui import driver as d


def old_screenshot(path: Path) -> None:
    """The picture as it was taken before: draw into the back buffer and read it at once."""
    from kivy.core.window import Window

    d.settle()
    Window.dispatch("on_draw")
    Window.screenshot(str(path))


def main() -> None:
    data = Path(tempfile.mkdtemp())
    record, _game = d.base_game_after_setup()
    game_id = d.journal(data, record, "bench")
    app = d.start_app(data)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        d.settle()
        for name, take in (("presented, then read (now)", d.screenshot), ("read unpresented (before)", old_screenshot)):
            times = []
            for i in range(7):
                started = time.perf_counter()
                take(data / f"shot-{i}.png")
                times.append((time.perf_counter() - started) * 1000)
            print(f"{name}: median {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f})")
    finally:
        d.stop_app(app)


if __name__ == "__main__":
    main()
