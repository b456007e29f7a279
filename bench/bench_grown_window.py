"""A die the detector boxed too small, read again in a larger window (issue 29; tried, not kept in the reader).

    .venv/bin/python bench/bench_grown_window.py ../shared/data/dice/*/ --fold 1 --model /work/fold-work/fold1/models \
        --split seen --baseline [--grow 1.5 2.0] [--clear 0.8] [--not-a-die 0.3] [--max-dice 4] [--check] [--corrections]
    .venv/bin/python bench/bench_grown_window.py --crooked [--count 30] [--seed 11] [--check]

Looking one by one at fold 1's held-out photos (bench/look_fold_errors.py), the mixed set's low-camera photos of a white
die on white paper lose dice this way: the detector boxes 0.5-0.7 of the die (the labelled face is 1.4-2.2 times the
candidate's side), the classifier's patch then holds a piece of the die and says "not a die", or is too unsure to
report. The rule tried: in a frame where the reader reports at most ``TOP_MOST_DICE`` dice, every candidate it dropped
that lies on no reported die is read again in square windows ``grow`` times its side, and reported when one reading is
clear (best face share >= ``clear``, "not a die" < ``not_a_die``, the face above "crooked", "not a standard die" <=
0.25). This scores ``python -m vision evaluate``'s figures per set with it (``--baseline``: and without), and the
objective the reader's bars are chosen by (dice right + photos fully right - 3 x invented, in points, summed over the
sets); choose on ``--split seen`` only. ``--crooked`` runs bench/bench_crooked_dice.py's synthetic rolls with the rule
(run that bench itself for the reader as it is): it turned cocked dice into guessed rolls, which is why the reader does
not have it (docs/vision.md, "Where fold 1's held-out errors come from").

``--check`` (session 13) refuses a rescue when the candidate's own box (the detector's) looks cocked by the reader's
tests, when the larger window holds the centre of a die already read, or when the die's colour stands out from the
tray and its lit top face (``vision.cocked.top_face_shape`` in the candidate's box) has at least ``RESCUE_BESIDE`` times
its own area of body beside it or runs ``RESCUE_LENGTH`` candidate sides long: with it the synthetic cocked dice are
asked again as often as by the reader without the rule (docs/vision.md).
"""

from __future__ import annotations

import argparse
import runpy
import sys
from pathlib import Path

import numpy as np

import vision.reader as reader_module
from vision.cocked import TOP_MOST_DICE, looks_cocked, looks_cocked_at_any_angle, top_face_shape
from vision import label_corrections
from vision.evaluate import evaluate
from vision.reader import STROKE_SHARE, DiceReader, Die, as_read, detect_candidates, die_colour

GROW = (1.5, 2.0)
CLEAR = 0.8
NOT_A_DIE = 0.3
CHECK = False
RESCUE_BESIDE = 1.0
RESCUE_LENGTH = 1.5


class GrownWindowReader(DiceReader):
    """The reader with the rule added after everything else it does (as it was measured)."""

    read_again = 0
    refused = 0

    def _cocked_or_crowded(self, seen, candidate, box, dice) -> bool:
        """The session-13 check (``--check``): a rescue is refused when the candidate's own box (the detector's, the
        die's size as the detector saw it) looks cocked by the reader's own tests, or when the larger window holds the
        centre of a die already read (the window then reads a piece of that die, or a second face of one body)."""
        cx, cy, w, h = candidate
        own = (int(round(cx - w / 2)), int(round(cy - h / 2)), int(round(w)), int(round(h)))
        others = [d.centre for d in dice]
        if looks_cocked_at_any_angle(seen, own, others):
            return True
        # A die the classifier had called "not a die" in its own box is held to a stricter shape than a die read at
        # once: where its colour stands out from the tray, its lit top face may not have as much body beside it as
        # itself (a cocked die's second face: 1.35-2.1 on the synthetic cocked dice rescued, 0.63 on the one coloured
        # flat die rescued in fold 1's training photos), nor run 1.5 candidate sides long.
        shape = top_face_shape(seen, own, others)
        if shape is not None and (shape[2] >= RESCUE_BESIDE or shape[0] >= RESCUE_LENGTH):
            return True
        if self.calibration.overhead and looks_cocked(seen, own, others):
            return True
        x, y, side, _ = box
        return any(x <= ox <= x + side and y <= oy <= y + side for ox, oy in others)

    def read_all(self, frame):
        dice = super().read_all(frame)
        if len([d for d in dice if d.standard]) > TOP_MOST_DICE:
            return dice
        seen = as_read(reader_module._as_bgr(frame), self.calibration)
        height, width = seen.shape[:2]
        for cx, cy, w, h, score in self._detect(seen):
            if not self.calibration.in_tray(cx / width, cy / height):
                continue
            if len([d for d in dice if d.standard]) > TOP_MOST_DICE:
                break
            side = max(w, h)
            if any(abs(cx - d.centre[0]) < 0.5 * max(d.box[2], d.box[3]) and
                   abs(cy - d.centre[1]) < 0.5 * max(d.box[2], d.box[3]) for d in dice):
                continue
            best = None
            for grow, p in zip(GROW, self.classify(seen, [(cx, cy, side * grow) for grow in GROW])):
                faces = p[1:7] / max(float(p[1:7].sum()), 1e-6)
                face = int(np.argmax(faces))
                crooked = float(p[7]) if len(p) > 7 else 0.0
                novelty = float(p[8]) if len(p) > 8 else 0.0
                if (p[0] < NOT_A_DIE and faces[face] >= CLEAR and p[1 + face] > crooked and novelty <= STROKE_SHARE
                        and (best is None or faces[face] > best[1])):
                    best = (face + 1, float(faces[face]), side * grow, float(p[0]))
            if best is None:
                continue
            face, share, size, not_a_die = best
            box = (int(round(cx - size / 2)), int(round(cy - size / 2)), int(round(size)), int(round(size)))
            if CHECK and self._cocked_or_crowded(seen, (cx, cy, w, h), box, dice):
                self.refused += 1
                continue
            dice.append(Die(face, die_colour(seen, box), box, round(float(min(1.0, score) * (1.0 - not_a_die) * share), 4)))
            self.read_again += 1
        return sorted(dice, key=lambda d: (d.box[0], d.box[1]))


def score(args, reader: DiceReader) -> str:
    objective, cells = 0.0, []
    for folder in args.folders:
        r = evaluate(folder, reader, args.split, args.fold, args.max_dice, args.min_die_px, args.corrections)
        objective += 100 * (r["die_accuracy"] + r["image_accuracy"] - 3 * r["invented"])
        right = sum(s.right for s in r["_scores"])
        invented = sum(s.invented for s in r["_scores"])
        full = sum(s.fully_right for s in r["_scores"])
        cells.append(f"{folder.name[:10]} {right}/{r['dice']} dice, {full}/{r['images']} photos, "
                     f"{round(r['missed'] * r['dice'])} missed, {invented} invented")
    return f"objective {objective:7.2f} | " + " | ".join(cells)


def main() -> None:
    global GROW, CLEAR, NOT_A_DIE, CHECK
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--split", default="seen", choices=("all", "seen", "held-out"))
    parser.add_argument("--model", type=Path)
    parser.add_argument("--grow", type=float, nargs="+", default=list(GROW))
    parser.add_argument("--clear", type=float, default=CLEAR)
    parser.add_argument("--not-a-die", type=float, default=NOT_A_DIE)
    parser.add_argument("--max-dice", type=int)
    parser.add_argument("--min-die-px", type=float)
    parser.add_argument("--check", action="store_true",
                        help="refuse a rescue whose candidate box looks cocked or whose window holds a read die's centre")
    parser.add_argument("--corrections", nargs="?", const=str(label_corrections.DEFAULT_PATH), metavar="FILE",
                        help="score against the labels put right (vision/label-corrections.txt or FILE)")
    parser.add_argument("--baseline", action="store_true", help="also score the reader as it is")
    parser.add_argument("--crooked", action="store_true", help="bench_crooked_dice.py's rolls read with the rule")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    GROW, CLEAR, NOT_A_DIE, CHECK = tuple(args.grow), args.clear, args.not_a_die, args.check
    if args.corrections is not None:
        args.corrections = label_corrections.load(args.corrections)
        label_corrections.check_sets(args.corrections, args.folders)
    if args.crooked:
        reader_module.DiceReader = GrownWindowReader  # the crooked bench builds its readers from this name
        sys.argv = ["bench_crooked_dice.py", "--count", str(args.count), "--seed", str(args.seed)]
        runpy.run_path(str(Path(__file__).with_name("bench_crooked_dice.py")), run_name="__main__")
        return
    if args.baseline:
        print("without: " + score(args, DiceReader(args.model)), flush=True)
    grown = GrownWindowReader(args.model)
    figures = score(args, grown)
    print(f"windows {list(GROW)} clear {CLEAR} not-a-die {NOT_A_DIE} check {CHECK}: {figures} (dice read again: "
          f"{grown.read_again}, refused by the check: {grown.refused})", flush=True)


if __name__ == "__main__":
    main()
