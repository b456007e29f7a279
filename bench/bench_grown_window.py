"""The reader's larger-window re-read of a die the detector boxed too small (vision/grown_window.py; issue 29).

    .venv/bin/python bench/bench_grown_window.py ../shared/data/dice/*/ --fold 1 --model /work/fold-work/fold1/models \
        --split seen --baseline [--grow 1.5 2.0] [--clear 0.8] [--not-a-die 0.3] [--no-check] [--max-dice 4] \
        [--corrections [FILE]]
    .venv/bin/python bench/bench_grown_window.py --crooked [--count 30] [--seed 11] [--no-check]
    .venv/bin/python bench/bench_grown_window.py --cost [--repeat 31] [--rounds 3] [--data ../shared/data/dice]

Looking one by one at fold 1's held-out photos (bench/look_fold_errors.py), the mixed set's low-camera photos of a white
die on white paper lose dice this way: the detector boxes 0.5-0.7 of the die, the classifier's patch then holds a piece
of it and says "not a die". The reader reads such a dropped candidate again in larger windows and refuses a rescue that
may be a cocked die (the module's docstring says how). This bench runs the reader itself, with the module's settings
changed by the options:

- scoring (folders given): ``python -m vision evaluate``'s figures per set (``--baseline``: also with the rule off),
  and the objective the reader's bars are chosen by (dice right + photos fully right - 3 x invented, in points, summed
  over the sets); choose on ``--split seen`` only. ``--no-check``: every clear rescue reported (the rule as session 12
  measured it: it turned cocked dice into guessed rolls).
- ``--crooked``: bench/bench_crooked_dice.py's synthetic rolls (that bench itself runs the reader as it is; this one
  with the settings given, e.g. ``--no-check`` or ``--grow`` with nothing: the rule off).
- ``--cost``: CPU time (``time.process_time``) of reading, with the rule and without, turn about: bench_vision's
  2-dice 640x640 photo (``--repeat`` reads a round) and every photo of <= 4 labelled dice of the sets (one read each a
  round), ``--rounds`` rounds; medians, and the frames where the rule read a candidate again.
"""

from __future__ import annotations

import argparse
import platform
import runpy
import statistics
import sys
import time
from pathlib import Path

import cv2

from vision import dataset, grown_window, label_corrections
from vision.evaluate import evaluate
from vision.reader import DiceReader

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"


class Counted:
    """Counts the module's rescues and refusals while a reader runs (the module keeps no state)."""

    def __init__(self) -> None:
        self.read_again = 0
        self.refused = 0
        self.classified = 0  # candidates read again in the larger windows (read or not)
        self._rescue, self._refuse = grown_window.with_rescued, grown_window.refused

    def __enter__(self):
        def rescue(reader, frame, candidates, dice):
            classify = reader.classify

            def counted(*args, **kwargs):
                self.classified += 1
                return classify(*args, **kwargs)

            reader.classify = counted
            try:
                out = self._rescue(reader, frame, candidates, dice)
            finally:
                del reader.classify
            self.read_again += len(out) - len(dice)
            return out

        def refuse(*args, **kwargs):
            said = self._refuse(*args, **kwargs)
            self.refused += said
            return said

        grown_window.with_rescued, grown_window.refused = rescue, refuse
        return self

    def __exit__(self, *exc) -> None:
        grown_window.with_rescued, grown_window.refused = self._rescue, self._refuse


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


def cost(args) -> None:
    """CPU time of reading with the rule and without, turn about (the module's windows emptied: the rule off)."""
    reader = DiceReader(args.model, threads=1)
    windows = grown_window.WINDOWS
    nell = dataset.list_images(args.data / "nell-byler-dice_detection")
    n3 = dataset.list_images(args.data / "N3VERS4YDIE-dice-recognition")
    two = None
    for item in n3 + nell:  # bench_vision's 2-dice photo: the first 640x640 photo of two labelled dice
        image = cv2.imread(str(item.image_path))
        if image.shape[:2] == (640, 640) and len(item.read_dice(image.shape[1], image.shape[0])) == 2:
            two = image
            break
    few = []
    for name in sorted(p.name for p in args.data.iterdir() if p.is_dir()):
        for item in dataset.list_images(args.data / name):
            image = cv2.imread(str(item.image_path))
            if 0 < len(item.read_dice(image.shape[1], image.shape[0])) <= 4:
                few.append(image)

    def cpu(image) -> float:
        started = time.process_time()
        reader.read(image)
        return (time.process_time() - started) * 1000.0

    for _ in range(3):
        reader.read(two)
    times = {True: [], False: []}
    per_frame = {True: [[] for _ in few], False: [[] for _ in few]}
    again, rescued = set(), set()
    for _ in range(args.rounds):
        for on in (False, True):
            grown_window.WINDOWS = windows if on else ()
            times[on] += [cpu(two) for _ in range(args.repeat)]
            for i, image in enumerate(few):
                with Counted() as counted:
                    per_frame[on][i].append(cpu(image))
                if counted.classified:
                    again.add(i)
                if counted.read_again:
                    rescued.add(i)
    grown_window.WINDOWS = windows
    print(f"machine: {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}, "
          f"one thread; {args.rounds} rounds, the rule off and on turn about")
    print(f"2-dice 640x640 photo, {len(times[True])} reads each: without {statistics.median(times[False]):.2f} ms, "
          f"with {statistics.median(times[True]):.2f} ms CPU (median)")
    medians = {on: [statistics.median(t) for t in per_frame[on]] for on in (False, True)}
    print(f"{len(few)} photos of <= 4 labelled dice: without {statistics.median(medians[False]):.2f} ms, with "
          f"{statistics.median(medians[True]):.2f} ms CPU (median of each photo's median)")
    extra = [medians[True][i] - medians[False][i] for i in again]
    if extra:
        print(f"{len(again)} of them classify a dropped candidate again: {statistics.median(extra):.2f} ms more "
              f"(median; {min(extra):.2f} to {max(extra):.2f}); the others "
              f"{statistics.median([medians[True][i] - medians[False][i] for i in range(len(few)) if i not in again]):.2f}")
    print(f"frames where the rule added a die: {len(rescued)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="*", type=Path)
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--split", default="seen", choices=("all", "seen", "held-out"))
    parser.add_argument("--model", type=Path)
    parser.add_argument("--grow", type=float, nargs="*", default=list(grown_window.WINDOWS),
                        help="the larger windows in candidate sides (none: the rule off)")
    parser.add_argument("--clear", type=float, default=grown_window.CLEAR)
    parser.add_argument("--not-a-die", type=float, default=grown_window.NOT_A_DIE)
    parser.add_argument("--max-dice", type=int)
    parser.add_argument("--min-die-px", type=float)
    parser.add_argument("--no-check", action="store_true", help="report every clear rescue (no check against cocked dice)")
    parser.add_argument("--corrections", nargs="?", const=str(label_corrections.DEFAULT_PATH), metavar="FILE",
                        help="score against the labels put right (vision/label-corrections.txt or FILE)")
    parser.add_argument("--baseline", action="store_true", help="also score the reader with the rule off")
    parser.add_argument("--crooked", action="store_true", help="bench_crooked_dice.py's rolls read with these settings")
    parser.add_argument("--count", type=int, default=30)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--cost", action="store_true", help="CPU time with the rule and without, turn about")
    parser.add_argument("--repeat", type=int, default=31)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    grown_window.WINDOWS, grown_window.CLEAR = tuple(args.grow), args.clear
    grown_window.NOT_A_DIE, grown_window.CHECKED = args.not_a_die, not args.no_check
    if args.cost:
        cost(args)
        return
    if args.corrections is not None:
        args.corrections = label_corrections.load(args.corrections)
        label_corrections.check_sets(args.corrections, args.folders)
    if args.crooked:
        sys.argv = ["bench_crooked_dice.py", "--count", str(args.count), "--seed", str(args.seed)]
        runpy.run_path(str(Path(__file__).with_name("bench_crooked_dice.py")), run_name="__main__")
        return
    reader = DiceReader(args.model)
    if args.baseline:
        windows, grown_window.WINDOWS = grown_window.WINDOWS, ()
        print("without: " + score(args, reader), flush=True)
        grown_window.WINDOWS = windows
    with Counted() as counted:
        figures = score(args, reader)
    print(f"windows {list(grown_window.WINDOWS)} clear {grown_window.CLEAR} not-a-die {grown_window.NOT_A_DIE} check "
          f"{grown_window.CHECKED}: {figures} (dice read again: {counted.read_again}, refused by the check: "
          f"{counted.refused})", flush=True)


if __name__ == "__main__":
    main()
