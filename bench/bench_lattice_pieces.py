"""How far the reader's own lattice is from the one refitted on SettlersEye's piece boxes (issue 30).

    .venv/bin/python bench/bench_lattice_pieces.py [EXPORT] [--sealed] [--raw]

The pieces are read where the lattice says their slots are, so a lattice a third of a hex off loses them
(docs/board-reader.md: 79.5 % found on the refitted lattice, 40.7 % on the reader's).  For each photo of the
export (default ../shared/data/boards/settlerseye/pieces), the reader's lattice and the lattice refitted on the
labelled boxes (vision/board/piece_labels.refit_on_boxes, what the labels are laid on) are compared at every
corner and edge centre of the board: the distance in hex spacings (neighbouring hex centres), median, 90th
percentile and worst.  The difference is split into a similarity (scale, turn, shift: the best one taking the
reader's slots onto the refitted ones) and what is left (perspective, shear).  Without ``--sealed`` the sealed
boards (make_piece_model.SEALED_BOARDS) are left out: choices are made on the others.  ``--raw``: the
outline's lattice as it was before session 8 (not settled on the tiles' seams, read_board(settle=False)).
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.board.lattice import SQRT3  # noqa: E402
from vision.board.make_piece_model import SEALED_BOARDS  # noqa: E402
from vision.board.piece_labels import CORNER_POINTS, EDGE_POINTS, load_export, refit_on_boxes  # noqa: E402
from vision.board.reader import NoBoardError, read_board  # noqa: E402

SLOTS = np.vstack([CORNER_POINTS, EDGE_POINTS])


def slot_errors(reader: np.ndarray, refitted: np.ndarray) -> np.ndarray:
    """Each slot's distance between the two lattices, in hex spacings of the refitted lattice (the refitted
    slot taken back to the canonical plane through the reader's map would use the wrong lattice's size)."""
    mine = cv2.perspectiveTransform(SLOTS.reshape(-1, 1, 2), reader).reshape(-1, 2)
    back = cv2.perspectiveTransform(mine.reshape(-1, 1, 2), np.linalg.inv(refitted)).reshape(-1, 2)
    return np.hypot(*(back - SLOTS).T) / SQRT3


def similarity_part(reader: np.ndarray, refitted: np.ndarray) -> tuple[float, float, float, float]:
    """``(scale, degrees, shift, left)``: the similarity (in the canonical plane) best taking the reader's
    slots onto the refitted lattice's, its shift in hex spacings, and the worst error it leaves."""
    mine = cv2.perspectiveTransform(SLOTS.reshape(-1, 1, 2), reader).reshape(-1, 2)
    back = cv2.perspectiveTransform(mine.reshape(-1, 1, 2), np.linalg.inv(refitted)).reshape(-1, 2)
    z, w = SLOTS[:, 0] + 1j * SLOTS[:, 1], back[:, 0] + 1j * back[:, 1]  # least squares w = a z + b
    a, b = np.linalg.lstsq(np.column_stack([z, np.ones_like(z)]), w, rcond=None)[0]
    left = np.abs(a * z + b - w).max() / SQRT3
    return abs(a), math.degrees(np.angle(a)), abs(b) / SQRT3, float(left)


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    export = Path(args[0]) if args else ROOT.parent / "shared" / "data" / "boards" / "settlerseye" / "pieces"
    sealed = "--sealed" in sys.argv
    raw = "--raw" in sys.argv
    worst_all, median_all = [], []
    for photo in load_export(export):
        if (photo.board in SEALED_BOARDS) != sealed:
            continue
        image = cv2.imread(str(photo.path))
        try:
            reading = read_board(image, settle=not raw)
        except (NoBoardError, IndexError, TypeError) as error:
            print(f"{photo.path.name[:22]}: no lattice ({error})")
            continue
        refitted = refit_on_boxes(reading.lattice.homography, photo.boxes, reading.scale)
        errors = slot_errors(reading.lattice.homography, refitted)
        scale, degrees, shift, left = similarity_part(reading.lattice.homography, refitted)
        worst_all.append(errors.max())
        median_all.append(np.median(errors))
        print(f"{photo.path.name[:22]:22s} {len(photo.boxes):3d} boxes  median {np.median(errors):.2f} "
              f"p90 {np.percentile(errors, 90):.2f} worst {errors.max():.2f}  |  scale {scale:.3f} "
              f"turn {degrees:+5.1f} shift {shift:.2f}, left after them {left:.2f}"
              f"{'  mirrored' if reading.mirrored else ''}{'' if reading.lattice.matched else '  outline'}")
    print(f"{len(worst_all)} photos: median of medians {np.median(median_all):.3f}, median worst "
          f"{np.median(worst_all):.3f}, photos with worst > 0.25: {sum(w > 0.25 for w in worst_all)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
