"""Where a replay's work goes, by function: bytecodes run in each (issue 27).

    .venv/bin/python bench/profile_replay_bytecodes.py [--lines N]

Replays the 1,000-event game once to warm up, then once more under ``sys.settrace`` with opcode events on, and
counts the bytecodes each function ran itself (and its calls; ``--lines N`` adds the N busiest lines).  A count,
not a timing: the load of a shared machine does not move it, and it splits the interpreter's share of a replay
(callgrind's ``_PyEval_EvalFrameDefault``, where most instructions go) by Python function, which callgrind
cannot.  C work called from a line (a dict compare, a copy) is not in its count: read it beside
``bench/bench_core_instructions.py``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", type=int, default=0, help="also list the N busiest lines")
    args = parser.parse_args()
    from bench_core import thousand_event_record

    from companion.record import replay

    record = thousand_event_record()
    replay(record)
    own: Counter = Counter()
    calls: Counter = Counter()
    lines: Counter = Counter()

    def tracer(frame, event, arg):
        if event == "call":
            frame.f_trace_opcodes = True
            calls[frame.f_code] += 1
        elif event == "opcode":
            own[frame.f_code] += 1
            lines[frame.f_code, frame.f_lineno] += 1
        return tracer

    sys.settrace(tracer)
    replay(record)
    sys.settrace(None)
    total = sum(own.values())
    print(f"# bytecodes run by one replay of the 1,000-event game: {total:,}")
    print("| function | bytecodes | share | calls |\n|---|---|---|---|")
    for code, n in own.most_common(30):
        where = f"{code.co_filename.split('companion/')[-1]}:{code.co_firstlineno} {code.co_name}"
        print(f"| {where} | {n:,} | {n / total:.1%} | {calls[code]:,} |")
    if args.lines:
        print("\n| line | bytecodes |\n|---|---|")
        for (code, line), n in lines.most_common(args.lines):
            print(f"| {code.co_filename.split('companion/')[-1]}:{line} ({code.co_name}) | {n:,} |")


if __name__ == "__main__":
    main()
