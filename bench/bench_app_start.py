"""Cold start of the tablet app (issue 7): seconds from process start to the first frame of the
start screen (the first interactive screen), and the resident memory then.

    .venv/bin/python bench/bench_app_start.py [--repeat N]

Each run is a new ``python -m companion app --quit-when-ready`` process over a new, empty data
directory (so nothing is warm inside Python; the OS file cache is, as on a tablet that has run the
app before).  Without a display the runs go under ``xvfb-run``.  Prints medians (min–max); the
figures go into docs/performance.md.  Timings are for reading, never pass/fail: the machine is
shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def one_start(portrait: bool = False) -> tuple[float, float, float]:
    """(seconds from the process's start to ready, from main() to ready, RSS MB at ready)."""
    with tempfile.TemporaryDirectory() as data:
        cmd = [sys.executable, "-m", "companion", "app", "--quit-when-ready", "--data-dir", data]
        if portrait:
            cmd.append("--portrait")
        if not os.environ.get("DISPLAY") and shutil.which("xvfb-run"):
            cmd = ["xvfb-run", "-a", "-s", "-screen 0 1280x1280x24"] + cmd
        env = dict(os.environ, KIVY_NO_CONSOLELOG="1")
        out = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    match = re.search(r"ready_seconds=([\d.]+) since_exec=([\d.]+) rss_mb=([\d.]+)", out.stdout)
    if not match:
        raise SystemExit(f"the app did not report ready:\n{out.stdout}\n{out.stderr[-2000:]}")
    return float(match.group(2)), float(match.group(1)), float(match.group(3))


def describe(values: list[float], unit: str) -> str:
    return f"{statistics.median(values):.2f} {unit} ({min(values):.2f}–{max(values):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"machine: {platform.machine()} {platform.processor() or ''} {os.cpu_count()} cores, "
          f"Python {platform.python_version()}, load average {os.getloadavg()[0]:.1f}")
    for portrait in (False, True):
        runs = [one_start(portrait) for _ in range(args.repeat)]
        cold, from_main, rss = zip(*runs)
        shape = "portrait 800x1280" if portrait else "landscape 1280x800"
        print(f"{shape}, {args.repeat} runs: process start → start screen shown {describe(list(cold), 's')} "
              f"(of which main() → shown {describe(list(from_main), 's')}), RSS {describe(list(rss), 'MB')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
