"""How late the caption under the board comes after a roll ("Eight. Aki takes one lumber."), against the panel's
"Rolled 8" and payouts, on the running app.

    xvfb-run -a -s "-screen 0 1280x1280x24" .venv/bin/python bench/bench_caption_lag.py [--rolls N] [--portrait]

A real app under Xvfb (its window presenting every frame at Kivy's 60 fps pacing, as on a tablet), a 3-player
base game after its set-up, the announcer running (no sound device here: its null player; the caption is
published before any sound is played, so a voice could not hold it).  Each roll is the two dice tapped as a
player taps them (``PlayScreen.tap_die``); the clock starts at the second tap.  For each roll:

- "applied": the table has the roll (its listener called) -- the board, the panel and the announcer are told;
- "panel": the panel's roll line set (``PlayScreen.roll_text``), in the same call;
- "caption": the caption's text set (``app.caption``);
- "frames late": how many frames the caption was drawn after the panel's roll line (0: the same frame).

Between rolls the turn is ended (End turn) and a few frames pass.  Medians and the largest of the run are printed;
run it quiet and under load (``stress-ng --cpu 4``) to compare.  A measurement, never a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=40)
    parser.add_argument("--portrait", action="store_true")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--next-frame", action="store_true",
                        help="the caption shown on the next frame, as before session 9 (the comparison)")
    args = parser.parse_args()

    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.ui import driver as d

    data = Path(tempfile.mkdtemp())
    record, _game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    game_id = d.journal(data, record, "caption lag")
    app = d.start_app(data, size=(800, 1280) if args.portrait else (1280, 800))
    try:
        play = d.resume(app, game_id)
        assert app.announcer is not None, "the announcer did not start"
        if args.next_frame:  # the listener as it was: every caption handed to the next frame
            app.announcer._caption_listeners[:] = [lambda a: Clock.schedule_once(lambda _dt: app._show_caption(a))]
        # From here the app runs as on a tablet: 60 fps pacing, every frame presented.
        Window.funbind("on_flip", d._not_presented)
        d._window_kept = None
        Clock._max_fps = 60
        marks: dict[str, float] = {}
        app.table.add_listener(lambda _outcome: marks.setdefault("applied", time.perf_counter()))
        play.bind(roll_text=lambda *_: marks.setdefault("panel", time.perf_counter()))
        app.bind(caption=lambda *_: marks.setdefault("caption", time.perf_counter()))
        rng = random.Random(args.seed)
        rows = []
        for _ in range(args.rolls):
            game = app.table.game
            assert game.state.phase == "roll", game.state.phase
            total = rng.choice([n for n in range(2, 13) if n != 7])
            a, b = d.dice_for(total)
            play.tap_die(a)
            EventLoop.idle()
            app.caption = ""  # (a roll said as the last one was -- the same words -- is then seen to come too)
            marks.clear()
            frame, drawn = 0, {}
            started = time.perf_counter()
            play.tap_die(b)
            while len(drawn) < 2 and frame < 200:
                EventLoop.idle()  # one frame: clock callbacks, layouts, textures, the draw, the flip
                frame += 1
                for what in ("panel", "caption"):
                    if what in marks and what not in drawn:
                        drawn[what] = (frame, time.perf_counter())
            if len(drawn) < 2:
                raise SystemExit(f"no caption after {frame} frames: {marks}")
            rows.append({"applied": (marks["applied"] - started) * 1e3,
                         "panel": (marks["panel"] - started) * 1e3,
                         "caption": (marks["caption"] - started) * 1e3,
                         "caption drawn": (drawn["caption"][1] - started) * 1e3,
                         "panel drawn": (drawn["panel"][1] - started) * 1e3,
                         "frames late": drawn["caption"][0] - drawn["panel"][0]})
            play.end_turn()
            for _frame in range(rng.randint(3, 8)):
                EventLoop.idle()
    finally:
        d.stop_app(app)
    load = os.getloadavg()
    print(f"{'next frame (before)' if args.next_frame else 'at once'}: "
          f"{len(rows)} rolls, {'800x1280' if args.portrait else '1280x800'}, {platform.python_version()}, "
          f"{os.cpu_count()} cores, load {load[0]:.1f} {load[1]:.1f}")
    print(f"{'ms from the second die tap':32s} {'median':>8s} {'max':>8s}")
    for key in ("applied", "panel", "caption", "panel drawn", "caption drawn"):
        values = [r[key] for r in rows]
        print(f"{key:32s} {statistics.median(values):8.1f} {max(values):8.1f}")
    late = [r["frames late"] for r in rows]
    lag = [r["caption drawn"] - r["panel drawn"] for r in rows]
    print(f"caption drawn after the panel: median {statistics.median(lag):.1f} ms, max {max(lag):.1f} ms; "
          f"frames late: {dict(sorted((k, late.count(k)) for k in set(late)))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
