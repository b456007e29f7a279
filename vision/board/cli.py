"""``python -m vision board PHOTO... [--json]`` and ``python -m vision board-evaluate DIR [--json]``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def board_main(argv: list[str]) -> int:
    from vision.board.deduce import STANDARD, TOKEN_SETS
    from vision.board.harbours import asked_edges
    from vision.board.pieces import add_pieces
    from vision.board.reader import NoBoardError, OtherSizeError, read_board_file

    parser = argparse.ArgumentParser(prog="python -m vision board")
    parser.add_argument("photos", nargs="+", metavar="PHOTO")
    parser.add_argument("--json", action="store_true", help="one JSON object per photo, one per line")
    parser.add_argument("--set", choices=TOKEN_SETS, default=STANDARD, dest="token_set",
                        help="the table's number tokens: 'standard' (the 18 of the 3-4 set: a token the robber hides "
                             "is known from the 17 others, read surely) or 'other' (it stays asked); "
                             "default %(default)s")
    parser.add_argument("--players", choices=("auto", "3-4", "5-6"), default="auto",
                        help="the board's size: '3-4' (19 land hexes), '5-6' (30: the robber and the frame's 11 "
                             "harbours read, no pieces), or 'auto': read as a 3-4 board, and as a 5-6 board when the 3-4 reader "
                             "finds one (tokens beyond its 19 hexes); default %(default)s")
    args = parser.parse_args(argv)
    status = 0
    for photo in args.photos:
        name = Path(photo).name
        if not Path(photo).is_file():
            said = "a folder, not a photo" if Path(photo).is_dir() else "no such file"
            print(f"{photo}: {said}", file=sys.stderr)
            status = max(status, 1)
            continue
        try:
            if args.players == "5-6":
                status = max(status, _print_56(photo, args.json))
                continue
            reading = read_board_file(photo, token_set=args.token_set)
        except OtherSizeError as error:
            if args.players == "auto":
                status = max(status, _print_56(photo, args.json))
            else:
                print(f"{photo}: {error}", file=sys.stderr)
                status = 2
            continue
        except NoBoardError as error:
            print(f"{photo}: {error}", file=sys.stderr)
            status = 2
            continue
        except OSError as error:  # not an image, or too large: said, and the other photos still read
            print(f"vision board: {error}", file=sys.stderr)
            status = max(status, 1)
            continue
        out = add_pieces(reading.to_json(name), photo, reading)  # roads, settlements, cities (pieces.py)
        if args.json:
            print(json.dumps(out))
        else:
            from vision.board.lattice import turned
            land = [h for h in out["board"]["hexes"] if h["terrain"] != "sea"]
            # the robber's token (known by elimination) or an unsure terrain (still asked) filled from the set
            deduced = [list(turned(h, reading.photo_turns())) for h in reading.deduced]
            hexes = ", ".join(f"{h['at']} {h['terrain']}" + (f" {h['number']}" if h.get("number") else "")
                              + (" (deduced)" if h["at"] in deduced else "")
                              + ("?" if h["at"] in out["unsure"] else "") for h in land)
            note = f"; {reading.set_note}" if reading.set_note else ""
            harbours = _harbours_text(out, asked_edges(reading.harbours, reading.photo_turns()))
            print(f"{name}: {hexes}; robber {out['board']['robber']}; {harbours}{note}; {out['ms']} ms")
    return status


def _print_56(photo: str, as_json: bool) -> int:
    """Read ``photo`` as a 5-6 board (vision/board/board56.py) and print it; the exit status (2: no 5-6 board)."""
    from vision.board.board56 import read_56_file
    from vision.board.harbours import asked_edges
    from vision.board.reader import NoBoardError

    name = Path(photo).name
    try:
        reading = read_56_file(photo)
    except NoBoardError as error:
        print(f"{photo}: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"vision board: {error}", file=sys.stderr)
        return 1
    out = reading.to_json(name)
    if as_json:
        print(json.dumps(out))
    else:
        land = [h for h in out["board"]["hexes"] if h["terrain"] != "sea"]
        hexes = ", ".join(f"{h['at']} {h['terrain']}" + (f" {h['number']}" if h.get("number") else "")
                          + ("?" if h["at"] in out["unsure"] else "") for h in land)
        note = f"; {reading.set_note}" if reading.set_note else ""
        robber = out["board"]["robber"]
        robber = f"robber {robber}" + ("?" if robber is not None and robber in out["unsure"] else "") \
            if robber is not None else "robber not seen (asked)"
        harbours = _harbours_text(out, asked_edges(reading.harbours))
        print(f"{name}: 5-6 board: {hexes}; {robber}; {harbours}; pieces not read{note}; {out['ms']} ms")
    return 0


def _harbours_text(out: dict, asked: list) -> str:
    """The harbours of ``out``'s board as the record has them (land hex-sea hex, trade), '?' after one ``asked``
    (harbours.asked_edges: its trade or coast edge unsure; the app rings it, the JSON's ``unsure`` lists it)."""
    harbours = ", ".join(f"{h['edge'][0]}-{h['edge'][1]} {h['trade']}" + ("?" if h["edge"] in asked else "")
                         for h in out["board"]["harbors"])
    return f"harbours {harbours}" if harbours else "no harbours seen"


def evaluate_main(argv: list[str]) -> int:
    from vision.board.labels import evaluate

    parser = argparse.ArgumentParser(prog="python -m vision board-evaluate")
    parser.add_argument("folder", help="a folder with labels/*.json (docs/board-reader.md) and the photos they name")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    result = evaluate(args.folder)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['photos']} photos, {len(result['refused'])} refused; terrain "
              f"{result['terrain_accuracy']:.1%}, numbers {result['number_accuracy']:.1%}, "
              f"robber {result['robber_accuracy']:.1%}; median {result['ms_median']:.0f} ms")
    return 0
