"""``python -m vision COMMAND``: camera dice reading from the command line.

    evaluate DIR... [--json] [--split all|seen|held-out] [--fold F] [--max-dice N] [--min-die-px P]
                 [--corrections [FILE]] [--model DIR] [--calibration FILE] [-v]
        score the reader on folders of labelled photos (DIR/images, DIR/labels, YOLO labels), each
        folder (a set) on its own; --max-dice 4 scores only the photos of at most 4 dice (a Catan roll
        is two), --min-die-px 24 only those whose every die is at least 24 px; --corrections scores
        against the labels put right as vision/label-corrections.txt (or FILE) says (default: as the
        data says); --calibration reads as a table's calibration does (tray, colours, light, overhead
        camera)
    read IMAGE... [--model DIR] [--calibration FILE] [-v]
        print the dice read in each image; -v also names what was taken for a die but is not a
        standard pip die (numerals, symbols, a blank face: never read as a face)
    watch SOURCE [--out FILE.mp4] [--frames N] [--calibration FILE]
        the annotated live view of a camera (0, 1, ...), a video file or a stream URL, with the
        roll detector's state; --out writes the annotated video instead of opening a window
    board PHOTO... [--json]
        read a Catan board from each photo: terrains, robber (numbers not read yet); a photo without
        a board: exit 2 (docs/board-reader.md)
    board-evaluate DIR [--json]
        score the board reader on labelled photos (DIR/labels/*.json)
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    try:
        if command == "evaluate":
            return evaluate_main(rest)
        if command == "read":
            return read_main(rest)
        if command == "watch":
            from vision.watch import main as watch_main
            return watch_main(rest)
        if command == "board":
            from vision.board.cli import board_main
            return board_main(rest)
        if command == "board-evaluate":
            from vision.board.cli import evaluate_main as board_evaluate_main
            return board_evaluate_main(rest)
    except (OSError, ValueError, RuntimeError) as error:
        # Missing folders, corrupt images, bad calibration files, missing models: one clear line.
        print(f"vision {command}: {error}", file=sys.stderr)
        return 1
    print(f"unknown command {command!r}\n\n{__doc__.strip()}", file=sys.stderr)
    return 2


def evaluate_main(argv: list[str]) -> int:
    from vision import label_corrections
    from vision.evaluate import evaluate, report
    from vision.reader import DiceReader

    parser = argparse.ArgumentParser(prog="python -m vision evaluate")
    parser.add_argument("folders", nargs="+", metavar="folder",
                        help="a folder with images/ and labels/ (YOLO, face = class + 1); several are scored each on its own")
    parser.add_argument("--json", action="store_true", help="print one JSON object (a line per folder)")
    parser.add_argument("--split", default="all", choices=("all", "seen", "held-out"))
    parser.add_argument("--fold", type=int, default=0, help="the fold --split refers to (0..4)")
    parser.add_argument("--model", help="folder with detector.onnx and faces.onnx (default: the bundled vision/models)")
    parser.add_argument("--max-dice", type=int, metavar="N",
                        help="score only the photos with at most N labelled dice (a Catan roll is two)")
    parser.add_argument("--min-die-px", type=float, metavar="P",
                        help="score only the photos whose every labelled die is at least P pixels (its box's shorter side)")
    parser.add_argument("--corrections", nargs="?", const=str(label_corrections.DEFAULT_PATH), metavar="FILE",
                        help="score against the labels put right by a corrections file (default file: "
                             "vision/label-corrections.txt; without this option the labels as the data says)")
    parser.add_argument("--calibration", metavar="FILE", help="a table's calibration JSON (default: none)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the photos not fully right")
    args = parser.parse_args(argv)
    if args.max_dice is not None and args.max_dice < 1:
        parser.error(f"--max-dice must be 1 or more, got {args.max_dice}")
    if args.min_die_px is not None and not 0 < args.min_die_px < 10_000:
        parser.error(f"--min-die-px must be a size in pixels above 0, got {args.min_die_px:g}")
    corrections = None
    if args.corrections is not None:
        corrections = label_corrections.load(args.corrections)
        label_corrections.check_sets(corrections, args.folders)
        for folder in args.folders:  # every set's corrections checked before any photo is read
            label_corrections.for_set(corrections, folder)
    reader = DiceReader(args.model, _calibration(args.calibration))
    for folder in args.folders:
        result = evaluate(folder, reader, args.split, args.fold, args.max_dice, args.min_die_px, corrections)
        if args.json:
            keys = ("dice", "die_accuracy", "image_accuracy", "missed", "invented", "ms_per_frame_median",
                    "corrections", "asked", "uncountable", "guessed")
            print(json.dumps({k: result[k] for k in keys}))
        else:
            print(report(result, folder, args.verbose))
    return 0


def read_main(argv: list[str]) -> int:
    from vision.evaluate import load_image
    from vision.reader import DiceReader

    parser = argparse.ArgumentParser(prog="python -m vision read")
    parser.add_argument("images", nargs="+")
    parser.add_argument("--model")
    parser.add_argument("--calibration", metavar="FILE", help="a table's calibration JSON (default: none)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="also list dice that are not standard pip dice (numerals, symbols, blank faces)")
    args = parser.parse_args(argv)
    reader = DiceReader(args.model, _calibration(args.calibration))
    for path in args.images:
        found = reader.read_all(load_image(path))
        dice = [d for d in found if d.standard]
        faces = " ".join(str(d.face or "?") for d in dice) or "no dice"
        print(f"{path}: {faces}")
        for d in found if args.verbose else dice:
            what = f"face {d.face or 'unsure'}" if d.standard else "not a standard die"
            print(f"  {what} {d.colour} box {d.box} confidence {d.confidence:.2f}")
    return 0


def _calibration(path: str | None):
    """The calibration stored in ``path``; none (read everything as it is) without one.  A missing or
    damaged file is an error naming it, not a silent default."""
    from vision.calibration import Calibration

    if path is None:
        return None
    if not Path(path).is_file():
        raise OSError(f"no calibration file {path}")
    return Calibration.load(path)


if __name__ == "__main__":
    sys.exit(main())
