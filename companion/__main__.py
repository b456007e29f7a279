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


def _replay_process(argv: list[str]) -> None:
    """``python -m companion replay ...`` as a process of its own, which prints one JSON text and ends (issue 27).

    Run without the cyclic garbage collector (its passes over the modules just imported and the events just
    replayed free nothing: everything made is kept until the end) and ended without the interpreter's teardown
    (freeing every module, object and outcome one by one, which the system does at once): together ~10 % of the
    process's instructions (docs/performance.md).  Everything written is flushed first; if a flush fails the
    interpreter ends as usual, saying what it always says.  Only here, never in :func:`main`, which tests and
    the installed command call in a process that goes on."""
    import gc
    import os

    gc.disable()
    from .record.cli import replay_main

    code = replay_main(argv)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except BaseException:  # noqa: BLE001 -- the usual exit says it (a closed pipe: "Exception ignored ...")
        sys.exit(code)
    os._exit(code)


if __name__ == "__main__":
    if sys.argv[1:2] == ["replay"]:
        _replay_process(sys.argv[2:])
    sys.exit(main())
