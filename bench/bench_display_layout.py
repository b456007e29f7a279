"""What the live display's one-screen layout costs in a real headless Chromium (issue 31, the venue's TV).

    .venv/bin/python bench/bench_display_layout.py [--runs 3] [--repeats 60]

A desk server on a thread with 6 and with 20 tables (4 players each, the CATAN Studio preset's nine columns), the
display page open at 1920x1080 (``tests/headless_chromium.py``). In the page, each call timed with the page's
clock, followed by a forced layout so its cost is counted: ``layout()`` (what every push does: the grid, the
pages), ``refit()`` (what a changed standings list or a resized screen costs: the type size and the rows per page
measured) and one page turn. Medians and p95 per run, for docs/performance.md; never pass/fail.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from headless_chromium import Chromium  # noqa: E402
from test_display_layout import at_size, desk_server, drawn  # noqa: E402

TIMED = """(() => {{ const t = []; for (let i = 0; i < {n}; i++) {{ const a = performance.now(); {call};
  document.body.offsetHeight; t.push(performance.now() - a); }}
  t.sort((x, y) => x - y); return [t[Math.floor(t.length / 2)], t[Math.floor(t.length * 0.95)]]; }})()"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=60)
    args = parser.parse_args()
    print(f"load {os.getloadavg()[0]:.1f}")
    for tables in (6, 20):
        for run in range(args.runs):
            with Chromium() as browser, desk_server(Path(tempfile.mkdtemp()), tables) as server:
                at_size(browser, 1920, 1080)
                browser.open(server.url + "/?every=3600")  # pages turned only by the bench
                drawn(browser, tables)
                cells = []
                for name, call in (("layout", "layout()"), ("refit", "refit()"),
                                   ("page turn", "tablesPage += 1; standingsPage += 1; layout()")):
                    median, p95 = browser.evaluate(TIMED.format(n=args.repeats, call=call))
                    cells.append(f"{name} {median:.1f}/{p95:.1f} ms")
                print(f"{tables} tables, run {run + 1}: " + ", ".join(cells) + "  (median/p95)")


if __name__ == "__main__":
    main()
