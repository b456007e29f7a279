"""What the hostile-input checks cost and how fast a hostile file is refused (issue 26; docs/performance.md).

    .venv/bin/python bench/bench_hostile_input.py [--repeat 15]

- ``parse_record`` of a real 1,167-event record (the depth walk is part of it), and ``replay`` of it;
- ``python -m companion replay``'s in-process refusal of: JSON nested 1,100 deep, a 5,000-digit integer in
  an event, a 5 MB event type, a 5 MB place;
- ``vision``'s ``load_image`` refusing a 141-byte PNG that claims 30000 x 30000 pixels (decoding it would take
  5.3 GB and about a minute), against loading a real 640 x 480 JPEG.

Medians (and the spread, min-max) of ``--repeat`` runs, in milliseconds.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from companion.record import parse_record, replay  # noqa: E402
from companion.record.cli import replay_main  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, float, float]:
    runs = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        runs.append((time.perf_counter() - started) * 1000)
    return statistics.median(runs), min(runs), max(runs)


def quietly(fn):
    def run():
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            fn()
    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=15)
    repeat = parser.parse_args().repeat
    import cv2
    import numpy as np

    from test_vision_hostile_input import png_claiming
    from vision.evaluate import ImageReadError, load_image

    text = subprocess.run([sys.executable, "-m", "companion", "example", "--seed", "3", "--max-events", "2000"],
                          capture_output=True, text=True, check=True, cwd=ROOT).stdout
    data = json.loads(text)
    record = parse_record(data)
    rows = [(f"parse_record, {len(data['events'])} events", lambda: parse_record(data)),
            (f"replay, {len(data['events'])} events", lambda: replay(record))]
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        spoiled = {
            "replay refuses: nested 1,100 deep": "[" * 1100 + "]" * 1100,
            "replay refuses: a 5,000-digit integer in an event": text.replace(
                '"player": 0', '"player": ' + "7" * 5000, 1),
            "replay refuses: a 5 MB event type": json.dumps({**data, "events": data["events"][:3] + [
                {**data["events"][3], "type": "x" * 5_000_000}]}),
            "replay refuses: a 5 MB place": json.dumps({**data, "events": data["events"][:3] + [
                {**data["events"][3], "at": "y" * 5_000_000}]}),
        }
        for name, content in spoiled.items():
            path = folder / f"{len(rows)}.json"
            path.write_text(content)
            rows.append((name, quietly(lambda path=path: replay_main([str(path)]))))
        bomb = folder / "bomb.png"
        bomb.write_bytes(png_claiming(30000, 30000))

        def refuse_bomb():
            try:
                load_image(bomb)
            except ImageReadError:
                return
            raise AssertionError("the PNG bomb was decoded")

        photo = folder / "photo.jpg"
        cv2.imwrite(str(photo), np.random.default_rng(1).integers(0, 255, (480, 640, 3), np.uint8))
        rows += [(f"load_image refuses a {bomb.stat().st_size}-byte PNG claiming 30000 x 30000", refuse_bomb),
                 ("load_image of a 640 x 480 JPEG (for scale)", lambda: load_image(photo))]
        print(f"{'what':62s} {'median ms':>10s} {'min-max':>16s}")
        for name, fn in rows:
            median, low, high = timed(fn, repeat)
            print(f"{name:62s} {median:10.2f} {low:7.2f}-{high:<8.2f}")


if __name__ == "__main__":
    main()
