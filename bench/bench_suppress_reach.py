"""How near two detector peaks may lie before the weaker is dropped as a second peak on the same die (issue 29).

    .venv/bin/python bench/bench_suppress_reach.py ../shared/data/dice/*/ --fold 1 --model /work/fold-work/fold1/models \
        --split seen [--reach 0.4 0.35 0.3 0.25] [--max-dice 4 --min-die-px 24]

The reader keeps the strongest peak and drops a weaker one whose centre lies within ``reach`` of the kept box's width and
height (``vision.reader._suppress_overlaps``, 0.4). Looking one by one at fold 1's held-out photos, three dice lying
against a neighbour were lost that way (a loose box of the neighbour reached over their centre). This scores ``python
-m vision evaluate``'s figures (per set: dice right, photos fully right, missed, invented) for each reach, with the
objective the reader's bars are chosen by (dice right + photos fully right - 3 x invented, in points, summed over the
sets). Choose on ``--split seen`` (the fold's training photos) only; the held-out fold is the check, looked at once.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import vision.reader as reader_module
from vision.evaluate import evaluate
from vision.reader import DiceReader


def suppressor(reach: float):
    def suppress(found):
        kept = []
        for cand in sorted(found, key=lambda c: -c[4]):
            if any(abs(cand[0] - k[0]) < reach * k[2] and abs(cand[1] - k[1]) < reach * k[3] for k in kept):
                continue
            kept.append(cand)
        return kept
    return suppress


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--split", default="seen", choices=("all", "seen", "held-out"))
    parser.add_argument("--model", type=Path)
    parser.add_argument("--reach", type=float, nargs="+", default=[0.4, 0.35, 0.3, 0.25])
    parser.add_argument("--max-dice", type=int)
    parser.add_argument("--min-die-px", type=float)
    args = parser.parse_args()
    reader = DiceReader(args.model)
    original = reader_module._suppress_overlaps
    try:
        for reach in args.reach:
            reader_module._suppress_overlaps = suppressor(reach)
            objective, cells = 0.0, []
            for folder in args.folders:
                r = evaluate(folder, reader, args.split, args.fold, args.max_dice, args.min_die_px)
                objective += 100 * (r["die_accuracy"] + r["image_accuracy"] - 3 * r["invented"])
                right = sum(s.right for s in r["_scores"])
                invented = sum(s.invented for s in r["_scores"])
                full = sum(s.fully_right for s in r["_scores"])
                cells.append(f"{folder.name[:10]} {right}/{r['dice']} dice, {full}/{r['images']} photos, "
                             f"{round(r['missed'] * r['dice'])} missed, {invented} invented")
            print(f"reach {reach:.2f}: objective {objective:7.2f} | " + " | ".join(cells), flush=True)
    finally:
        reader_module._suppress_overlaps = original


if __name__ == "__main__":
    main()
