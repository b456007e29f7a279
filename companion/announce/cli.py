"""``python -m companion announce RECORD.json --lang en|ja [--all]``: replay a record and say its outcome.

Speaks the outcome of the record's last event (``--all``: of every event, in order, each to the end)
through the default player, printing each caption as ``#INDEX caption``; a roll the camera read (``"source":
"camera"``) is said with its faces, as the app says it.  Without a sound device it
says so once on stderr and still prints the captions.

Players are named by colour unless the names are given, as the app names them: ``--names Aki,Ben,Chie`` (seat
order) or ``--record-names`` (the record's players' names) for the captions, and ``--voices FOLDER`` (a game's
``name-voices/game-<id>-<created>`` folder beside the journal) for the voice, which says a recorded name where
it said the colour.  Whatever is printed from the record or the names is one line (control characters escaped,
an overlong text cut): a hostile record cannot plant a second line on the terminal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .announcer import Announcer
from .phrases import read_by_camera
from .players import PLAYERS


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion announce", description=__doc__.splitlines()[0])
    parser.add_argument("record", help="a catan-record/1 JSON file")
    parser.add_argument("--lang", choices=("en", "ja"), default="en")
    parser.add_argument("--all", action="store_true", help="every event's outcome, not only the last")
    parser.add_argument("--player", choices=PLAYERS, default="auto", help="audio output (default: auto)")
    parser.add_argument("--volume", type=float, default=1.0, help="0.0 to 1.0")
    named = parser.add_mutually_exclusive_group()
    named.add_argument("--names", default=None, metavar="NAME,NAME,...",
                       help="the players' names in seat order, said in the captions in place of the colours")
    named.add_argument("--record-names", action="store_true",
                       help="the record's players' names in the captions, as the app shows them")
    parser.add_argument("--voices", type=Path, default=None, metavar="FOLDER",
                        help="a game's recorded names (name-voices/game-<id>-<created>/seat-<n>.wav beside the "
                             "journal), said in place of the colours")
    args = parser.parse_args(argv)

    from ..record import RecordError, load_record, replay
    from ..record.untrusted import one_line

    def fail(message: str, code: int) -> int:
        print(one_line(f"announce: {message}"), file=sys.stderr)
        return code

    try:
        record = load_record(args.record)
        game = replay(record)
    except RecordError as error:
        return fail(f"{args.record}: {error}", 1)
    if not game.outcomes:
        return fail(f"{args.record} has no events to announce", 1)
    colors = [p["color"] for p in record.players]
    try:
        names = _names(args, record.players)
        voices = _voices(args.voices, len(colors))
        announcer = Announcer(colors, lang=args.lang, player=args.player, volume=args.volume, names=names,
                              voices=voices)
    except ValueError as error:
        return fail(str(error), 2)
    announcer.add_problem_listener(lambda problem: print(one_line(f"announce: no sound ({problem}); captions only"),
                                                         file=sys.stderr))
    try:
        outcomes = game.outcomes if args.all else game.outcomes[-1:]
        said = 0
        for outcome in outcomes:
            announcement = announcer.on_outcome(outcome, faces=read_by_camera(outcome, record.events),
                                                event=record.events[outcome.index])
            if announcement is None:
                continue
            said += 1
            print(one_line(f"#{outcome.index} {announcement.caption}", 2000), flush=True)
            announcer.wait_idle(timeout=60)
        if not said:
            last = outcomes[-1]
            print(one_line(f"#{last.index} ({last.kind}: nothing to announce)"))
    finally:
        announcer.close()
    return 0


def _names(args, players: list[dict]) -> list[str | None] | None:
    """The names the captions say (None: the colours).  Typed names follow the app's rule (NFC, nothing that
    does not show); the record's are its own, printed on one line whatever they hold."""
    if args.record_names:
        return [p.get("name") if isinstance(p.get("name"), str) else None for p in players]
    if args.names is None:
        return None
    from ..plain_text import clean_name

    names = [clean_name(name, f"--names: player {seat + 1}'s name") for seat, name in
             enumerate(args.names.split(","))]
    if len(names) != len(players):
        raise ValueError(f"--names: {len(names)} names for the record's {len(players)} players")
    return names


def _voices(folder: Path | None, players: int) -> dict:
    """Seat → recorded name from a game's name-voices folder (a seat beyond the players is left out)."""
    if folder is None:
        return {}
    if not folder.is_dir():
        raise ValueError(f"--voices: {folder} is not a folder (name-voices/game-<id>-<created> beside the journal)")
    from .name_voices import NameVoices

    return {seat: clip for seat, clip in NameVoices(folder.parent).load(folder.name).items() if seat < players}
