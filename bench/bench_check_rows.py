"""What "Check the board" lists on another table's photos (issue 30; docs/board-reader.md): rows that look sure
and rows listed apart as not sure, against a game that holds exactly what the photos show.

    .venv/bin/python bench/bench_check_rows.py

The 6 photos of CatanAI's test4/test5 board (never trained on) and its 54 labelled pieces
(tests/labelled_pieces_game.py).  First against a game holding all 54: every row is a misreading; how many look
sure.  Then 54 games each without one labelled piece (the table built it, the app was not told): is that piece
listed, and as sure; does any misreading look sure beside it.  Each photo is read once as the app reads it
(vision.board.scan.BoardScan, then pieces.read_slots).

Both listings are measured: the app's (pieces.checked: the pieces the rules' check keeps and those it asks
about) and, for comparison, the one before session 9 (every piece read, slots.all_pieces()).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from labelled_pieces_game import COLORS, labelled_pieces, record_of_the_labelled_board  # noqa: E402
from vision.board.piece_check import best_turn, differences  # noqa: E402
from vision.board.pieces import checked, read_slots, sure_of  # noqa: E402
from vision.board.scan import BoardScan  # noqa: E402

PHOTOS = ROOT / "tests" / "data" / "boards" / "catanai" / "photos"
NAMES = ("test4_1", "test4_2", "test4_3", "test5_1", "test5_2", "test5_3")


LISTINGS = {"the app's (pieces.checked)": checked,
            "every piece read (before session 9)": lambda slots: slots.all_pieces()}


def rows(scan, slots, game, listing=checked) -> list[tuple[object, bool]]:
    turns, _ = best_turn(scan.terrains, scan.numbers, game.board)
    found = differences(listing(slots), scan.terrains, scan.numbers, game, COLORS)
    return [(d, sure_of(d, slots, turns)) for d in found]


def main() -> int:
    read = []
    for name in NAMES:
        scan = BoardScan.of_file(PHOTOS / f"{name}.jpg")
        lattice = scan.reading.lattice
        read.append((name, scan, read_slots(scan.photo, lattice.homography)))
    _, full = record_of_the_labelled_board()
    for title, listing in LISTINGS.items():
        print(f"-- listing {title}")
        listed = sure = 0
        for name, scan, slots in read:
            said = rows(scan, slots, full, listing)
            listed += len(said)
            sure += sum(s for _, s in said)
            print(f"{name}: the game holds every piece shown: {len(said)} rows, {sum(s for _, s in said)} look sure")
        print(f"all misreadings: {listed} rows on {len(read)} photos, {sure} of them look sure")
        total = shown = shown_sure = false_sure = false_rows = 0
        for piece, color, at in labelled_pieces():
            _, game = record_of_the_labelled_board(without=at)
            for name, scan, slots in read:
                total += 1
                for d, s in rows(scan, slots, game, listing):
                    if d.at == at and d.what == "missing_in_game" and d.color == color and d.piece == piece:
                        shown += 1
                        shown_sure += s
                    else:
                        false_rows += 1
                        false_sure += s
        print(f"one piece the game lacks ({total} cases: 54 pieces x {len(read)} photos): listed {shown} "
              f"({shown / total:.1%}), as sure {shown_sure} ({shown_sure / total:.1%}); other rows beside it "
              f"{false_rows}, looking sure {false_sure}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
