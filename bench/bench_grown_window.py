"""A die the detector boxed too small, read again in a larger window (issue 29; ``DiceReader._grown_window_dice``).

    .venv/bin/python bench/bench_grown_window.py ../shared/data/dice/*/ --fold 1 --model /work/fold-work/fold1/models \
        --split seen --baseline [--grow 1.5 2.0] [--clear 0.8] [--not-a-die 0.3] [--max-dice 4] [--cost]

Looking one by one at fold 1's held-out photos (bench/look_fold_errors.py), the mixed set's low-camera photos of a white
die on white paper lose dice this way: the detector boxes 0.5-0.7 of the die (the labelled face is 1.4-2.2 times the
candidate's side), the classifier's patch then holds a piece of the die and says "not a die", or is too unsure to
report. The reader now, in frames where it reports at most ``TOP_MOST_DICE`` dice, reads every candidate it dropped
that lies on no reported die again in square windows ``GROWN_WINDOWS`` times its side, and reports it when one reading
is clear (vision/reader.py). This scores ``python -m vision evaluate``'s figures per set with the reader's settings
given here (``--baseline``: also without the larger windows), and the objective the reader's bars are chosen by (dice
right + photos fully right - 3 x invented, in points, summed over the sets). Choose on ``--split seen`` only; the
held-out fold is the check, looked at once.

``--cost``: the CPU time (process time, not the wall clock: the machine is shared) of reading each photo of at most
``--max-dice`` labelled dice with and without the larger windows, alternated, ``--rounds`` times; medians, and how many
frames read a candidate again.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import vision.reader as reader_module
from vision import dataset
from vision.evaluate import evaluate, load_image
from vision.reader import DiceReader

READ_AGAIN = [0]


def counting(method):
    def wrapped(self, frame, candidates, dice):
        found = method(self, frame, candidates, dice)
        READ_AGAIN[0] += len(found)
        return found
    return wrapped


def score(args, reader: DiceReader) -> str:
    objective, cells = 0.0, []
    for folder in args.folders:
        r = evaluate(folder, reader, args.split, args.fold, args.max_dice, args.min_die_px)
        objective += 100 * (r["die_accuracy"] + r["image_accuracy"] - 3 * r["invented"])
        right = sum(s.right for s in r["_scores"])
        invented = sum(s.invented for s in r["_scores"])
        full = sum(s.fully_right for s in r["_scores"])
        cells.append(f"{folder.name[:10]} {right}/{r['dice']} dice, {full}/{r['images']} photos, "
                     f"{round(r['missed'] * r['dice'])} missed, {invented} invented")
    return f"objective {objective:7.2f} | " + " | ".join(cells)


def cost(args, reader: DiceReader, grow: tuple[float, ...]) -> None:
    frames = []
    for folder in args.folders:
        for item in dataset.split(dataset.list_images(folder), args.split, args.fold):
            image = load_image(item.image_path)
            if len(item.read_dice(image.shape[1], image.shape[0])) <= (args.max_dice or 4):
                frames.append(image)
    timed = {(): [], grow: []}
    tried = 0
    for image in frames:
        for _ in range(args.rounds):
            for windows in ((), grow):
                reader_module.GROWN_WINDOWS = windows
                started = time.process_time()
                reader.read_all(image)
                timed[windows].append((time.process_time() - started) * 1000)
        # Whether this frame reads any candidate again (a dropped one on no die read):
        reader_module.GROWN_WINDOWS = grow
        before = reader.classify
        count = [0]

        def classify(frame, dice, _before=before):
            count[0] += 1
            return _before(frame, dice)
        reader.classify = classify
        reader.read_all(image)
        reader.classify = before
        tried += count[0] > 1
    print(f"{len(frames)} frames of <= {args.max_dice or 4} labelled dice, {args.rounds} rounds; "
          f"frames reading a candidate again: {tried}; CPU ms per frame median "
          f"{statistics.median(timed[()]):.1f} without, {statistics.median(timed[grow]):.1f} with "
          f"(mean {statistics.mean(timed[()]):.1f} / {statistics.mean(timed[grow]):.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--split", default="seen", choices=("all", "seen", "held-out"))
    parser.add_argument("--model", type=Path)
    parser.add_argument("--grow", type=float, nargs="+", default=list(reader_module.GROWN_WINDOWS))
    parser.add_argument("--clear", type=float, default=reader_module.GROWN_CLEAR)
    parser.add_argument("--not-a-die", type=float, default=reader_module.GROWN_NOT_A_DIE)
    parser.add_argument("--max-dice", type=int)
    parser.add_argument("--min-die-px", type=float)
    parser.add_argument("--baseline", action="store_true", help="also score the reader without the larger windows")
    parser.add_argument("--cost", action="store_true")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    reader = DiceReader(args.model)
    reader_module.GROWN_CLEAR, reader_module.GROWN_NOT_A_DIE = args.clear, args.not_a_die
    if args.cost:
        cost(args, reader, tuple(args.grow))
        return
    reader_module.DiceReader._grown_window_dice = counting(reader_module.DiceReader._grown_window_dice)
    if args.baseline:
        reader_module.GROWN_WINDOWS = ()
        print("without: " + score(args, reader), flush=True)
    reader_module.GROWN_WINDOWS = tuple(args.grow)
    READ_AGAIN[0] = 0
    figures = score(args, reader)
    print(f"windows {args.grow} clear {args.clear} not-a-die {args.not_a_die}: {figures} (dice read again: "
          f"{READ_AGAIN[0]})", flush=True)


if __name__ == "__main__":
    main()
