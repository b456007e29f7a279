"""``replay`` and ``example`` commands."""

from __future__ import annotations

import sys

from ..rules import standard_board
from ..rules.board import BASE_SPEC
from .format import COLORS, RecordError, Record, load_record, new_game, replay
from .json_text import dumps_indented
from .untrusted import one_line


def replay_main(argv: list[str]) -> int:
    plain = _plain_replay_arguments(argv)
    if plain is None:
        import argparse

        parser = argparse.ArgumentParser(prog="python -m companion replay",
                                         description="Replay a game record and print the derived state as JSON.")
        parser.add_argument("record", help="a catan-record/1 JSON file")
        parser.add_argument("--upto", type=int, default=None, help="replay only the first N events")
        parser.add_argument("--outcomes", action="store_true", help="also print every event's outcome")
        args = parser.parse_args(argv)
        if args.upto is not None and args.upto < 0:
            parser.error(f"--upto must be 0 or more, got {args.upto}")
        plain = args.record, args.upto, args.outcomes
    path, upto, outcomes = plain
    try:
        record = load_record(path)
        game = replay(record, upto=upto)
    except RecordError as error:
        # one line, however the record spells its values (docs/record-format.md): a newline or an escape
        # sequence in a type is escaped, a 5 MB value is cut short
        print(one_line(f"{path}: {error}"), file=sys.stderr)
        return 2
    state = game.summary()
    if outcomes:
        state["outcomes"] = [o.to_json() for o in game.outcomes]
    text = dumps_indented(state)  # (json.dumps(indent=2, ensure_ascii=False) without json); whole before any is printed
    try:
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not an error of the record
        sys.stdout = None  # nothing more to flush at exit
    return 0


def _plain_replay_arguments(argv: list[str]) -> tuple[str, int | None, bool] | None:
    """``(record, upto, outcomes)`` when ``argv`` is one of the plain forms -- ``FILE``, with ``--outcomes``
    and ``--upto N`` (N >= 0) in any order, each at most once -- else None, and argparse reads it (help, a
    mistake, ``--upto=N``, an abbreviation: argparse says what it says).  Why not argparse always: with the
    gettext, locale and shutil it brings it cost a replay process more than a quarter of its start-up
    imports (docs/performance.md), and ``replay`` is what scripts and the tests run most."""
    record, upto, outcomes = None, None, False
    rest = list(argv)
    while rest:
        arg = rest.pop(0)
        if arg == "--outcomes" and not outcomes:
            outcomes = True
        elif arg == "--upto" and upto is None and rest and rest[0].isdigit() and rest[0].isascii():
            upto = int(rest.pop(0))
        elif record is None and not arg.startswith("-"):
            record = arg
        else:
            return None
    return None if record is None else (record, upto, outcomes)


def example_main(argv: list[str]) -> int:
    import argparse
    import json
    import random

    from ..assets import read_json as read_asset_json
    from ..rules.board import EXTENSION_SPEC
    from ..rules.random_play import random_events

    parser = argparse.ArgumentParser(prog="python -m companion example",
                                     description="Print a random legal game as a record (for demos and tests).")
    parser.add_argument("--game", default="base",
                        choices=["base", "base56", "seafarers", "high-tide", "starfarers", "card-game"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=None, help="default: 4, or 5 for base56")
    parser.add_argument("--max-events", type=int, default=2000)
    parser.add_argument("--map", default="new_world", choices=["new_world", "four_islands"],
                        help="Seafarers: the map family dealt from the seed (as New game's Map)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                        help="a record option, e.g. leader_vp=8 (repeatable)")
    args = parser.parse_args(argv)
    players = args.players or (5 if args.game == "base56" else 4)
    if args.game == "high-tide":
        size = "5-6" if players >= 5 else "3-4"
        board_json = read_asset_json("boards", f"high-tide-{size}.json")
    elif args.game == "starfarers":
        from ..rules.starfarers_board import first_game_board
        board_json = first_game_board().to_json()
    elif args.game == "card-game":
        board_json = {}
    elif args.game == "seafarers":
        from ..rules.seafarers_board import deal_map
        board_json = deal_map(args.map, args.seed, players).to_json()
    else:
        spec = EXTENSION_SPEC if players >= 5 else BASE_SPEC
        board_json = standard_board(args.seed, spec=spec, separate_red_numbers=True).to_json()
    options = {}
    for item in args.option:
        name, _, value = item.partition("=")
        try:
            options[name] = json.loads(value)
        except json.JSONDecodeError:
            parser.error(f"--option {item}: the value must be JSON (true, 8, ...)")
    names = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi"]
    record = Record(args.game, [{"name": names[i], "color": COLORS[i]} for i in range(players)], board_json,
                    options=options)
    try:
        game = new_game(record)
    except RecordError as error:
        parser.error(str(error))
    if args.game == "starfarers":
        from ..rules.starfarers_random import random_events as play
    elif args.game == "card-game":
        from ..rules.card_game_random import random_events as play
    else:
        play = random_events
    record.events = list(play(game, random.Random(args.seed), args.max_events))
    sys.stdout.write(record.dumps())
    return 0


def journal_main(argv: list[str]) -> int:
    """``journal list`` and ``journal export GAME``: the games kept in the app's journal, taken out as
    records (the ``catan-record/1`` format ``replay`` reads) and, with ``--photos DIR``, the camera's photo of
    each roll; ``--dataset DIR`` (one game) and ``journal dataset DIR`` (every game): the camera's rolls as
    labelled photos."""
    import argparse
    from pathlib import Path

    from .journal import Journal, JournalError, default_path

    parser = argparse.ArgumentParser(prog="python -m companion journal",
                                     description="The games in the companion's journal.")
    parser.add_argument("--journal", default=None, help="the journal file (default: the companion's)")
    commands = parser.add_subparsers(dest="command", required=True)
    listing = commands.add_parser("list", help="one line per game, newest first")
    listing.add_argument("--json", action="store_true", help="print a JSON list instead")
    export = commands.add_parser("export", help="print a game's record (catan-record/1)")
    export.add_argument("game", type=int, help="the game's number, as 'list' prints it")
    export.add_argument("--out", type=Path, help="write the record to this file instead of printing it")
    export.add_argument("--photos", type=Path, metavar="DIR",
                        help="write the camera's photo of each roll to DIR as event-NNNN-roll-A+B.jpg, and of each "
                             "misread put right by hand as misread-ROLLID-read-A+B-entered-C+D.jpg")
    export.add_argument("--dataset", type=Path, metavar="DIR",
                        help="write each camera roll's plain photo to DIR/images and its dice, labelled with the faces "
                             "the table recorded, to DIR/labels (YOLO: the layout 'python -m vision evaluate' scores)")
    everything = commands.add_parser("dataset", help="every game's camera rolls as labelled photos (see export "
                                                     "--dataset), for 'python -m vision evaluate DIR'")
    everything.add_argument("folder", type=Path, metavar="DIR")
    for command in (export, everything):
        command.add_argument("--checked-only", action="store_true",
                             help="only the rolls whose faces a player vouched for (OK'd while waiting for it, or put "
                                  "right by hand); the others are labelled as the camera read them")
    args = parser.parse_args(argv)
    path = Path(args.journal) if args.journal else default_path()
    if not path.exists():  # opening would create an empty journal: a typo must not leave a file behind
        print(f"{path}: no journal there", file=sys.stderr)
        return 2
    try:
        with Journal(path) as journal:
            if args.command == "list":
                return _list_games(journal, args.json)
            if args.command == "dataset":
                for game in journal.games():
                    _write_dataset(args.folder, game.id, *_camera_rolls_said(journal, game.id, journal.load(game.id)),
                                   args.checked_only)
                return 0
            record = journal.load(args.game)
            photos = [(index, event, journal.roll_photo(args.game, event["roll_id"]))
                      for index, event in enumerate(record.events)
                      if event.get("type") == "roll" and event.get("roll_id")]
            misreads = [(roll_id, read, entered, journal.roll_photo(args.game, roll_id))
                        for roll_id, read, entered in journal.roll_corrections(args.game)]
            said, plain, checked = _camera_rolls_said(journal, args.game, record)
    except JournalError as error:
        print(error, file=sys.stderr)
        return 2
    if args.out:
        args.out.write_text(record.dumps(), encoding="utf-8")
    else:
        sys.stdout.write(record.dumps())
    if args.photos:
        args.photos.mkdir(parents=True, exist_ok=True)
        written = 0
        for index, event, photo in photos:
            if photo is not None:
                name = f"event-{index:04d}-roll-{'+'.join(map(str, event['dice']))}.jpg"
                (args.photos / name).write_bytes(photo)
                written += 1
        # The camera's misreads that the players put right by hand: the photo, what it read, what was entered
        # (the faces a person reads in it, for checking the camera or teaching it).
        for roll_id, read, entered, photo in misreads:
            if photo is not None:
                faces = lambda dice: "+".join(map(str, sorted(dice)))  # noqa: E731
                (args.photos / f"misread-{roll_id}-read-{faces(read)}-entered-{faces(entered)}.jpg").write_bytes(photo)
        print(f"{written} roll photo(s) written to {args.photos} ({len(photos) - written} roll(s) without one); "
              f"{len(misreads)} misread(s) put right by hand", file=sys.stderr)
    if args.dataset:
        _write_dataset(args.dataset, args.game, said, plain, checked, args.checked_only)
    return 0


def _camera_rolls_said(journal, game_id: int, record) -> tuple[dict, dict, set]:
    """A game's camera rolls: roll id -> the faces the table recorded for it (the faces entered, for a roll put
    right by hand), roll id -> its plain photo and dice read (None where not kept), and the roll ids whose faces
    a player vouched for."""
    said = {event["roll_id"]: event["dice"] for event in record.events
            if event.get("type") == "roll" and event.get("roll_id")}
    said.update({roll_id: entered for roll_id, _read, entered in journal.roll_corrections(game_id)})
    return said, {roll_id: journal.plain_photo(game_id, roll_id) for roll_id in said}, journal.checked_rolls(game_id)


def labelled_dice(boxes: list[tuple], said: list[int]) -> list[tuple] | None:
    """The dice the camera read in a roll's plain photo, ``(x, y, w, h, face read)``, labelled with the faces the
    table recorded for it, ``said``: ``(x, y, w, h, face)``; None when that cannot be told (not as many dice as
    faces, two dice read wrong, or two read alike and one of them wrong: which was which is not known).

    A die read as a face the table said is taken as that face; a single die left over takes the face left over
    (a roll put right from 3 + 5 to 5 + 4: the die read 3 was the 4).  A roll not put right is taken as the table
    said it: a misread nobody noticed becomes a wrong label, as it became a wrong roll."""
    if len(boxes) != len(said):
        return None
    left, labels = list(said), [None] * len(boxes)
    for i, box in enumerate(boxes):
        if box[4] in left:
            left.remove(box[4])
            labels[i] = box[4]
    unlabelled = [i for i, label in enumerate(labels) if label is None]
    if len(unlabelled) > 1 or any(boxes[i][4] is not None and boxes[i][4] in labels for i in unlabelled):
        return None  # two read wrong, or one of two dice read alike (4 + 4 said 4 + 2): which one is not known
    for i in unlabelled:
        labels[i] = left[0]
    return [(*box[:4], face) for box, face in zip(boxes, labels)]


def _write_dataset(folder, game_id: int, said: dict, plain: dict, checked: set, checked_only: bool = False) -> None:
    """Each camera roll's plain photo and its dice labelled (YOLO: ``class cx cy w h``, face = class + 1),
    in the layout of ``../shared/data/dice/<set>``: ``vision evaluate FOLDER`` scores the camera at this table.
    ``checked``: the rolls a player vouched for (the others' labels are the camera's own reading, right or not);
    with ``checked_only`` only those are written -- labels fit to teach the camera with."""
    import cv2
    import numpy as np

    (folder / "images").mkdir(parents=True, exist_ok=True)
    (folder / "labels").mkdir(parents=True, exist_ok=True)
    written, vouched, untold = 0, 0, []
    for roll_id, faces in said.items():
        if plain.get(roll_id) is None:
            continue  # a roll without a camera photo (tapped, a box), or from a journal before version 4
        if checked_only and roll_id not in checked:
            continue
        jpeg, boxes = plain[roll_id]
        dice = labelled_dice(boxes, faces)
        if dice is None:
            untold.append(roll_id)
            continue
        height, width = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_GRAYSCALE).shape
        name = f"game{game_id}-{roll_id}"
        (folder / "images" / f"{name}.jpg").write_bytes(jpeg)
        (folder / "labels" / f"{name}.txt").write_text("".join(
            f"{face - 1} {(x + w / 2) / width:.6f} {(y + h / 2) / height:.6f} {w / width:.6f} {h / height:.6f}\n"
            for x, y, w, h, face in dice))
        written += 1
        vouched += roll_id in checked
    print(f"{written} labelled photo(s) written to {folder} ({vouched} checked by a player, "
          f"{written - vouched} as the camera read them)"
          + (f"; {len(untold)} roll(s) whose dice cannot be told apart left out ({', '.join(untold)})" if untold
             else ""), file=sys.stderr)


def _list_games(journal, as_json: bool) -> int:
    import json
    import time

    games = journal.games()
    if as_json:
        json.dump([{"id": g.id, "title": g.title, "game": g.game, "events": g.events, "finished": g.finished,
                    "updated": time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(g.updated))} for g in games],
                  sys.stdout, indent=1, ensure_ascii=False)
        print()
        return 0
    for g in games:
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(g.updated))
        print(f"#{g.id}  {when}  {g.events:4d} events  {'finished' if g.finished else 'unfinished':10s}  {g.title}")
    if not games:
        print("no games in the journal", file=sys.stderr)
    return 0
