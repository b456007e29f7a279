"""The piece reader on another table's photos it never trained on (issue 30; docs/board-reader.md).

    .venv/bin/python bench/bench_pieces_held_out.py [LABELS.json] [--no-rules] [--no-kind]

LABELS (default tests/data/pieces/catanai_test4.json): the pieces standing on one board, in the coordinates of
that board's label, and the photos showing it.  Each photo is read as the CLI reads it (board, then pieces); the
reading is laid on the labelled board (vision.board.piece_check.best_turn) and every piece said is compared
with the labels: found = right slot, colour and kind; invented = said where the labels have no such piece
(a settlement said a city counts, and is also counted apart as "kind").  ``--no-rules``: every slot the
classifiers call a piece, without the rules' check (vision.board.pieces.consistent).  ``--no-kind``: the corner
classifier alone says settlement or city (no kind classifier, as in session 4).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.rules import board_from_json  # noqa: E402
from vision.board.lattice import turned  # noqa: E402
from vision.board.piece_check import best_turn  # noqa: E402
from vision.board.pieces import pieces_of_photo  # noqa: E402
from vision.board.reader import board_object, read_board_file  # noqa: E402


def main() -> int:
    args = [a for a in sys.argv[1:] if a not in ("--no-rules", "--no-kind")]
    rules = "--no-rules" not in sys.argv[1:]
    if "--no-kind" in sys.argv[1:]:
        from vision.board import pieces

        pieces.bundled_kind_model = lambda: None  # read_slots then lets the corner classifier say the kind
    path = Path(args[0]) if args else ROOT / "tests" / "data" / "pieces" / "catanai_test4.json"
    labels = json.loads(path.read_text())
    label = json.loads((path.parent / labels["board_label"]).read_text())["board"]
    terrains = {tuple(h["at"]): h["terrain"] for h in label["hexes"]}
    numbers = {tuple(h["at"]): h.get("number") for h in label["hexes"]}
    board = board_from_json(board_object(terrains, numbers, tuple(label["robber"]), 0), check=False)
    truth = {tuple(tuple(h) for h in p["at"]): (p["piece"], p["color"]) for p in labels["pieces"]}
    photos_dir = path.parent.parent / "boards" / "catanai" / "photos"
    total = {"pieces": 0, "found": 0, "said": 0, "invented": 0, "kind": 0}
    for name in labels["photos"]:
        photo = photos_dir / name
        reading = read_board_file(photo)
        turns, agree = best_turn(reading.terrains, reading.numbers, board)
        said = {tuple(sorted(turned(h, turns) for h in p.at)): (p.piece, p.color)
                for p in pieces_of_photo(photo, reading, rules)}
        found = sum(said.get(spot) == what for spot, what in truth.items())
        invented = sum(truth.get(spot) != what for spot, what in said.items())
        kind = sum(spot in truth and truth[spot][1] == what[1] and truth[spot] != what for spot, what in said.items())
        for key, n in (("pieces", len(truth)), ("found", found), ("said", len(said)), ("invented", invented),
                       ("kind", kind)):
            total[key] += n
        missed_kinds = sorted(f"{what[1]} {what[0]}" for spot, what in truth.items() if said.get(spot) != what)
        print(f"{name}: {agree}/19 hexes agree; found {found}/{len(truth)}, said {len(said)}, invented {invented}; "
              f"missed: {', '.join(missed_kinds[:12])}{' …' if len(missed_kinds) > 12 else ''}")
    print(f"all: found {total['found']}/{total['pieces']} = {total['found'] / total['pieces']:.1%}, invented "
          f"{total['invented']}/{total['said']} = {total['invented'] / max(1, total['said']):.1%} ({total['kind']} of them "
          f"the right colour, the other kind){'' if rules else ' -- without the rules check'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
