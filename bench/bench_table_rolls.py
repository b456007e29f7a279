"""What a player at the table gets from the camera: rolls of two dice the models never saw (issue 5).

    PYTHONPATH=. .venv/bin/python bench/bench_table_rolls.py --fold-models DIR0 DIR1 [--rolls N]
                                       [--face-threshold T ...] [--sets tray desk] [--data ../shared/data/dice]

The photo figures of ``vision evaluate`` count a die read as unsure like a die read wrong; at the table the
two are not alike.  An unsure die makes the camera ask for the roll again (a few seconds); a die read
with a wrong face makes it announce a wrong roll, and resources are handed out for it unless someone
notices.  This bench counts, per settled roll of two dice, what the roll detector reports: the right roll,
a request to roll again, a wrong roll, or nothing.

Each roll is a synthetic throw (``vision.synthetic.SequenceBuilder``: dice tumbling in, settling, camera
noise on every frame) of two real die crops onto a real tray with its dice painted out, both from the
*held-out* photos of a fold (fold k is read by the models in ``DIRk``, trained without it: see
docs/vision.md, "Results"), so the dice are ones the networks never saw.  Crops are taken as the labels
give them, whatever the reader makes of them in their own photo.  Without ``--fold-models`` the
committed models read the same photos, which they were trained on: those figures are not held out.
A measurement, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import collections
import math
import platform
import random
from pathlib import Path

import cv2

from vision import dataset, reader as reader_module
from vision.evaluate import pair_up
from vision.reader import DiceReader
from vision.rolls import RollDetector
from vision.synthetic import SequenceBuilder, cut_dice, empty_tray

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
SETS = {"desk": "matteop65-Dice_Detection_Recognition", "tray": "nell-byler-dice_detection"}
#: How far round a labelled box a die reaches, in box sides: the desk set's angled webcam sees the side
#: faces of each die round the top face that its labels box; the tray set is seen from straight above.
REACH = {"desk": 0.7, "tray": 0.25}
OUTCOMES = ("right", "again", "wrong", "nothing")


def table_of(reader: DiceReader, items: list[dataset.LabelledImage], reach: float):
    """An empty tray (the photo with the fewest dice, painted out) and the crops of every other photo's dice
    (with ``reach`` of a side round each labelled box, so a die's side faces come along)."""
    loaded = []
    for item in items:
        image = cv2.imread(str(item.image_path))
        loaded.append((image, item.read_dice(image.shape[1], image.shape[0])))
    loaded.sort(key=lambda pair: len(pair[1]))
    tray = empty_tray(*loaded[0], pad=1.5 * reach)  # generous: a remnant of a die would be read
    crops = [crop for image, dice in loaded[1:] for crop in cut_dice(image, whole_dice(dice, reader.read(image)), margin=1 + 2 * reach)]
    return tray, crops


def whole_dice(dice: list[dataset.LabelledDie], found: list) -> list[dataset.LabelledDie]:
    """The labelled dice with each box grown, round its centre, to the box the reader found for it if larger.

    The desk set's labels box the single pip of a 1, not its face (10-16 px where the reader finds
    16-25): cut by the label, a 1 would come without its die and look like a white disc."""
    grown = []
    for i, j in pair_up(dice, [die.centre for die in found]):
        die, side = dice[i], max(found[j].box[2], found[j].box[3])
        if side > max(dice[i].box[2], dice[i].box[3]):
            (cx, cy) = die.centre
            die = dataset.LabelledDie(die.face, (cx - side / 2, cy - side / 2, side, side))
        grown.append((i, die))
    paired = {i for i, _ in grown}
    return [die for _, die in sorted(grown)] + [die for i, die in enumerate(dice) if i not in paired]


def places(rng: random.Random, tray, a, b) -> list[tuple[float, float]]:
    """Two resting places inside the middle of the tray, far enough apart not to touch."""
    height, width = tray.shape[:2]
    reach = max(a.image.shape[0], b.image.shape[0]) / 2 + 2
    apart = 1.6 * max(a.side, b.side)
    while True:
        spots = [(rng.uniform(reach, width - reach), rng.uniform(reach, 0.85 * height - reach)) for _ in range(2)]
        if math.dist(*spots) >= apart:
            return spots


def outcome(events, faces: tuple[int, int]) -> tuple[str, str]:
    """What became of one roll, and why (the re-roll's reason, or the faces announced wrongly)."""
    if not events:
        return "nothing", ""
    last = events[-1]
    if last.kind == "reroll":
        return "again", last.reason_code
    if sorted(last.faces) == sorted(faces) and len(events) == 1:
        return "right", ""
    return "wrong", f"{'+'.join(map(str, sorted(faces)))} read {'+'.join(map(str, sorted(last.faces)))}"


def rolls_on(reader: DiceReader, tray, crops, count: int, seed: int) -> collections.Counter:
    rng = random.Random(seed)
    counts: collections.Counter = collections.Counter()
    by_face = {f: [c for c in crops if c.face == f] for f in range(1, 7)}
    for n in range(count):
        a, b = rng.sample(crops, 2)
        # Tumbling through faces of their own set, settling as the two chosen crops.
        tumbling = [[rng.choice(by_face[f]) for f in (2, 5, 1, 6, 3, 4) if by_face[f]] for _ in range(2)]
        builder = SequenceBuilder(tray, seed=seed * 1000 + n).still(8)
        builder.tumble(tumbling, places(rng, tray, a, b), count=18, settle=[a, b]).still(12)
        detector = RollDetector(reader)
        events = [e for i, frame in enumerate(builder.frames) if (e := detector.feed(frame, at=float(i)))]
        counts[outcome(events, (a.face, b.face))] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fold-models", nargs=2, metavar=("DIR0", "DIR1"),
                        help="models trained without fold 0 and without fold 1 (held-out figures)")
    parser.add_argument("--rolls", type=int, default=100, help="rolls per set and fold (default 100)")
    parser.add_argument("--face-threshold", type=float, nargs="*", default=[reader_module.FACE_THRESHOLD],
                        help="the reader's bar for a sure face (default: the committed one)")
    parser.add_argument("--sets", nargs="*", default=list(SETS), choices=list(SETS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="the reasons for re-rolls and wrong rolls")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args()
    cv2.setNumThreads(1)
    print(f"machine: {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}; "
          f"{'held-out photos, fold models' if args.fold_models else 'committed models on their own training photos'}; "
          f"{args.rolls} rolls per set and fold, seed {args.seed}")
    for name in args.sets:
        tables = []
        for fold in (0, 1):
            items = dataset.split(dataset.list_images(args.data / SETS[name]), "held-out", fold)
            model = args.fold_models[fold] if args.fold_models else None
            reader = DiceReader(model, threads=1)
            tables.append((reader, *table_of(reader, items, REACH[name])))
        for bar in args.face_threshold:
            reader_module.FACE_THRESHOLD = bar
            total: collections.Counter = collections.Counter()
            for fold, (reader, tray, crops) in enumerate(tables):
                total += rolls_on(reader, tray, crops, args.rolls, args.seed * 10 + fold)
            rolled = sum(total.values())
            kinds = collections.Counter({key: 0 for key in OUTCOMES})
            for (kind, _why), count in total.items():
                kinds[kind] += count
            shares = "  ".join(f"{key} {100 * kinds[key] / rolled:5.1f} %" for key in OUTCOMES)
            print(f"{name:5} face bar {bar:.2f}: {rolled} rolls  {shares}")
            if args.verbose:
                for (kind, why), count in sorted(total.items()):
                    if why:
                        print(f"        {kind} ({why}): {count}")


if __name__ == "__main__":
    main()
