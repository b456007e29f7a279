"""``python -m companion app [--demo]``: start the tablet app.

    --demo              dice come from the dice-box simulator (sim://), so the app plays with no hardware
    --source URL        a dice source for this run (manual:, box://auto, box:///dev/ttyACM0, camera://0, sim://?seed=4)
    --data-dir DIR      where the journal and settings live (default: the user data directory)
    --portrait          open a portrait-shaped window (800x1280) instead of landscape
    --fullscreen        fill the screen (the default on a touch screen: Android, a Linux/Windows tablet)
    --window            a window, at the size it had when last closed (the default elsewhere)
    --quit-when-ready   print seconds to the first interactive screen and resident memory, then quit
                        (for bench/bench_app_start.py)
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    started = time.perf_counter()
    parser = argparse.ArgumentParser(prog="python -m companion app", description="The Catan companion tablet app.")
    parser.add_argument("--demo", action="store_true", help="play against the dice-box simulator (no hardware)")
    parser.add_argument("--source", default=None, help="dice source URL for this run")
    parser.add_argument("--data-dir", default=None, help="directory of the journal and settings")
    parser.add_argument("--portrait", action="store_true", help="portrait window")
    shape = parser.add_mutually_exclusive_group()
    shape.add_argument("--fullscreen", dest="fullscreen", action="store_true", default=None,
                       help="fill the screen (default on a touch screen)")
    shape.add_argument("--window", dest="fullscreen", action="store_false",
                       help="a window, as big as it was left (default elsewhere)")
    parser.add_argument("--quit-when-ready", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv if argv is not None else sys.argv[1:])

    from ..record.journal import data_dir
    from . import window_place
    from .app import configure_kivy

    folder = Path(args.data_dir) if args.data_dir is not None else data_dir()
    place = window_place.choose(folder, portrait=args.portrait, fullscreen=args.fullscreen)
    configure_kivy(*place.size)
    if place.fullscreen:
        from kivy.config import Config

        Config.set("graphics", "fullscreen", "auto")  # the screen's own size and shape
    from kivy.clock import Clock

    from .app import CompanionApp

    app = CompanionApp(args.data_dir, demo=args.demo, source_url=args.source)
    if not place.fullscreen:
        def keep_size(*_):
            from kivy.core.window import Window

            window_place.remember(folder, Window.size)  # the size and shape it is opened at next time
        app.bind(on_stop=keep_size)
    if args.quit_when_ready:
        from kivy.core.window import Window

        def report(*_):
            # The first frame shown with the start screen on it: from here on the app takes touches.
            Window.unbind(on_flip=report)
            print(f"ready_seconds={time.perf_counter() - started:.3f} since_exec={_since_exec():.3f} "
                  f"rss_mb={_rss_mb():.1f} window={Window.size[0]}x{Window.size[1]} "
                  f"fullscreen={int(place.fullscreen)}", flush=True)
            Clock.schedule_once(lambda dt: app.stop(), 0)
        app.bind(on_start=lambda *_: Window.bind(on_flip=report))
    app.run()
    return 0


def _since_exec() -> float:
    """Seconds since this process was started (Linux /proc, 10 ms resolution; -1 elsewhere):
    includes the interpreter's own start and every import, which ``started`` in main() does not."""
    import os

    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        return uptime - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return -1.0


def _rss_mb() -> float:
    """Resident memory of this process in MB (Linux /proc; 0 where unavailable)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


if __name__ == "__main__":
    sys.exit(main())
