"""How long the pictures' list of "Scan the board" takes on a phone's camera folder of thousands of photos
(issue 30; docs/board-reader.md, docs/performance.md).  Run under Xvfb (the real app, real widgets):

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python bench/bench_picture_folder.py [--files 2000 5000]
        [--repeat 3]

For each size a folder of that many small JPEGs (160 x 120 px, ~3 KB, named and dated as a camera names them,
one a minute), made in /tmp; the app started on it as its Pictures folder (XDG_PICTURES_DIR), the board editor
opened, and then, ``--repeat`` times:

- **first screen**: from the tap on Scan the board to the list's rows made and a frame drawn (the folder listed,
  sorted newest first, the rows built: Kivy's FileChooser builds them 50 ms a frame);
- **to the bottom**: the list scrolled to its end and a frame drawn;
- **more**: the next page added (as the list's end scrolled into sight, or "More pictures" tapped, does), until
  its rows are built (a few a frame: the list scrolls meanwhile) and a frame drawn;
- then Back (the next repeat lists the folder afresh, as each visit does).

Medians (min-max), milliseconds; the machine and its load are printed with them.  Small pictures are made on the
list's own thread meanwhile (not waited for: the rows are usable without them).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")


def make_folder(folder: Path, files: int) -> None:
    import cv2
    import numpy as np

    rng = np.random.default_rng(0)
    picture = cv2.GaussianBlur(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), (9, 9), 0)
    data = cv2.imencode(".jpg", picture)[1].tobytes()
    now = time.time()
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(files):
        path = folder / f"IMG_20261127_{n:06d}.jpg"
        path.write_bytes(data)
        os.utime(path, (now - n * 60, now - n * 60))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, nargs="+", default=[2000, 5000])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        for files in args.files:
            folder = Path(tmp) / f"DCIM-{files}"
            make_folder(folder, files)
            os.environ["XDG_CONFIG_HOME"] = str(Path(tmp) / "config")
            os.environ["XDG_PICTURES_DIR"] = str(folder)
            run(Path(tmp) / f"data-{files}", files, args.repeat)
    print(f"load after {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


def run(data_dir: Path, files: int, repeat: int) -> None:
    from companion.ui import driver as d

    first, bottom, more, rows_first, rows_more = [], [], [], [], []
    app = d.start_app(data_dir)
    try:
        editor = d.open_board_editor(app)
        screen = app.root.get_screen("board_scan")
        chooser = screen.ids.chooser
        for _ in range(repeat):
            start = time.perf_counter()
            d.tap(editor.ids.scan)
            assert d.wait_until(lambda: chooser._gitems_gen is None and len(chooser.rows()) > 1, timeout=600)
            d.pump(1)
            first.append((time.perf_counter() - start) * 1000)
            rows_first.append(len(chooser.rows()))
            start = time.perf_counter()
            chooser.ids.scroll.scroll_y = 0
            d.pump(1)
            bottom.append((time.perf_counter() - start) * 1000)
            last = chooser.rows()[-1]
            if getattr(last, "more", False):
                # scrolled to the end, the next page is added (a few rows a frame): until the More row is back
                # at the bottom (or gone), its rows built
                before = len(chooser.rows())
                start = time.perf_counter()
                chooser.show_more()
                assert d.wait_until(lambda: chooser._adding is None, timeout=600)
                d.pump(1)
                more.append((time.perf_counter() - start) * 1000)
                rows_more.append(len(chooser.rows()))
                assert rows_more[-1] > before
            d.tap(screen.ids.back)
            assert app.root.current == "board_editor"
    finally:
        d.stop_app(app)

    def say(runs):
        return (f"{statistics.median(runs):.0f} ms ({min(runs):.0f}-{max(runs):.0f})" if runs else "-")

    print(f"{files} JPEGs: first screen {say(first)} with {rows_first[0]} rows; to the bottom {say(bottom)}; "
          f"More pictures {say(more)}" + (f" ({rows_more[0]} rows then)" if rows_more else "")
          + f"; {repeat} runs")


if __name__ == "__main__":
    sys.exit(main())
