"""``python -m companion COMMAND``: the companion's command line (installed: ``catan-companion COMMAND``).

    (nothing)                  the tablet app, when there is a screen to show it on
    replay FILE.json           print the derived state of a record as JSON
    announce FILE.json         say the outcome of a record's last event (--all: every event)
    tournament ...             tournament desk (see docs/tournament.md)
    app [--demo]               the tablet app
    example [--seed N]         print a random legal example game record
    journal list|export GAME   the games in the app's journal; export prints one as a record
                               (--photos DIR: the camera's photo of each roll)
    doctor                     what this machine offers the app: settings, audio, dice boxes, cameras, journal, fonts
    --version                  the installed version
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv and _has_screen():
        argv = ["app"]  # what a person typing catan-companion, or tapping its launcher, wants
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command in ("--version", "version"):
        from . import __version__
        print(f"catan-companion {__version__}")
        return 0
    if command == "doctor":
        from .doctor import main as doctor_main
        return doctor_main(rest)
    if command == "replay":
        from .record.cli import replay_main
        return replay_main(rest)
    if command == "example":
        from .record.cli import example_main
        return example_main(rest)
    if command == "journal":
        from .record.cli import journal_main
        return journal_main(rest)
    if command == "announce":
        from .announce.cli import main as announce_main
        return announce_main(rest)
    if command == "tournament":
        from .tournament.cli import main as tournament_main
        return tournament_main(rest)
    if command == "app":
        from .ui.main import main as app_main
        return app_main(rest)
    print(f"unknown command {command!r}\n\n{__doc__.strip()}", file=sys.stderr)
    return 2


def _has_screen() -> bool:
    import os

    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or "ANDROID_ARGUMENT" in os.environ
                or sys.platform in ("win32", "darwin"))


if __name__ == "__main__":
    sys.exit(main())
