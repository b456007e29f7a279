"""The floor's soak (bench/bench_desk_floor.py) in small: a few tablets for seconds, each dropping off the network
and coming back, into a real ``tournament serve`` process. Only what must hold on any machine is checked: every
event at the desk exactly once (each table's events at the desk equal its tablet's journal) and every finished
game's result equal to a replay of its record -- the bench's exit status. Its timings are printed, never judged
(docs/performance.md has the 60-tablet, 10-minute run)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_few_tablets_dropping_off_and_back_deliver_every_event_exactly_once():
    run = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_desk_floor.py"), "--tablets", "4",
                          "--seconds", "12", "--processes", "1", "--offline", "1,3", "--head", "0.99"],
                         capture_output=True, text=True, cwd=ROOT, timeout=540)
    print(run.stdout)
    for line in run.stdout.splitlines():  # the run's files (journals, desk file) are not kept
        if "; files in " in line:
            shutil.rmtree(line.rsplit("; files in ", 1)[1], ignore_errors=True)
    row = next(line for line in run.stdout.splitlines() if line.startswith("| 4 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    tablets, _, journalled, offline, lost, doubled, agree = cells[:7]
    assert run.returncode == 0, run.stdout + run.stderr
    assert (lost, doubled) == ("0", "0")
    assert int(journalled) > 0 and int(offline) >= 1  # the tablets played, and some dropped off and came back
    agreeing, finished = agree.split(" of ")
    assert agreeing == finished and int(finished) >= 1  # games were won during the run, their results checked
