"""Is a change to the dice reader as accurate as before? Two checkouts' readers scored side by side (issue 29).

    .venv/bin/python bench/bench_vision_accuracy.py BEFORE AFTER [--data ../shared/data/dice] [--folds DIR]

BEFORE and AFTER are checkouts (or ``git archive`` copies) holding ``vision/`` with its models. Each is run in a
fresh process that reads every photo once, with ``python -m vision evaluate``'s own matching (``evaluate.match``), in
these configurations:

- the three sets, all photos, with the checkout's committed models;
- for each fold F with models in ``--folds``/foldF/models (as ``bench/heldout_fold.py`` leaves them), the photos of
  fold F held out, with those models. Folds that were scored before are a non-regression check, not a fresh measure;

each whole and on the goals' subset (photos of at most 4 labelled dice, every die at least 24 px). Counted, not shares:
dice right, photos fully right, invented, missed, so that "worse by more than one die" is read off directly (rows
worse by more than one are marked). Then the photo readings that differ, in any field (face, colour, box, confidence,
standard) and in faces or dice, the latter listed. Session 15 kept a speed cut only when no row got worse by more than
one die (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
SETS = ("N3VERS4YDIE-dice-recognition", "matteop65-Dice_Detection_Recognition", "nell-byler-dice_detection")
FIELDS = ("photos", "dice", "right", "fully right", "invented", "missed")


def measure(root: str, data: Path, folds: Path | None) -> dict:
    """In this process: checkout ``root``'s reader on every configuration; counts and readings."""
    sys.path.insert(0, root)
    from vision import dataset
    from vision.evaluate import load_image, match, smallest_side
    from vision.reader import DiceReader

    configs = [("committed", None, "all", 0)]
    if folds is not None:
        configs += [(f"fold{f}", str(folds / f"fold{f}" / "models"), "held-out", f) for f in range(5)
                    if (folds / f"fold{f}" / "models" / "detector.onnx").exists()]
    counts, readings = {}, {}
    for name, model, part, fold in configs:
        reader = DiceReader(model, threads=1)
        for folder in SETS:
            totals = {"whole": [0] * 6, "subset": [0] * 6}
            for item in dataset.split(dataset.list_images(data / folder), part, fold):
                frame = load_image(item.image_path)
                labelled = item.read_dice(frame.shape[1], frame.shape[0])
                found = reader.read_all(frame)
                readings[f"{name}/{folder}/{item.image_path.name}"] = [
                    [d.face, d.colour, list(d.box), d.confidence, d.standard] for d in found]
                score = match(labelled, [d for d in found if d.standard])
                parts = ["whole"] + (["subset"] if len(labelled) <= 4 and smallest_side(labelled) >= 24 else [])
                for key in parts:
                    for i, value in enumerate((1, score.labelled, score.right, score.fully_right, score.invented,
                                               score.missed)):
                        totals[key][i] += int(value)
            counts[f"{name}/{folder}"] = totals
    return {"counts": counts, "readings": readings}


def compare(before: dict, after: dict) -> str:
    lines = ["| configuration / set | part | photos | dice | right | fully right | invented | missed |",
             "|---|---|---|---|---|---|---|---|"]
    for key, parts in before["counts"].items():
        for part in ("subset", "whole"):
            b, a = parts[part], after["counts"][key][part]
            cells = [f"{b[i]} → {a[i]} ({a[i] - b[i]:+d})" if a[i] != b[i] else str(b[i]) for i in range(2, 6)]
            worse = a[2] - b[2] < -1 or a[3] - b[3] < -1 or a[4] - b[4] > 1
            lines.append(f"| {key} | {part} | {b[0]} | {b[1]} | " + " | ".join(cells) + (" | **worse by > 1**" if worse
                                                                                          else " |"))
    changed = [k for k in before["readings"] if before["readings"][k] != after["readings"].get(k)]
    faces = [k for k in changed if [d[0] for d in before["readings"][k]] != [d[0] for d in after["readings"][k]]]
    lines.append(f"\nphoto readings that differ in any field: {len(changed)} of {len(before['readings'])}; "
                 f"in faces or dice: {len(faces)}")
    lines += [f"  {k}: {[d[0] for d in before['readings'][k]]} -> {[d[0] for d in after['readings'][k]]}"
              for k in faces]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("before", nargs="?")
    parser.add_argument("after", nargs="?")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--folds", type=Path, default=Path("/work/fold-work"),
                        help="folder of fold1/models ... (bench/heldout_fold.py --work); missing folds are skipped")
    parser.add_argument("--measure", metavar="ROOT", help=argparse.SUPPRESS)  # the child process
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    folds = args.folds if args.folds.exists() else None
    if args.measure:
        Path(args.out).write_text(json.dumps(measure(args.measure, args.data, folds)))
        return
    if not (args.before and args.after):
        parser.error("give two checkouts, BEFORE and AFTER")
    results = []
    with tempfile.TemporaryDirectory() as work:
        for index, root in enumerate((args.before, args.after)):
            out = Path(work) / f"{index}.json"
            subprocess.run([sys.executable, __file__, "--measure", str(Path(root).resolve()), "--out", str(out),
                            "--data", str(args.data), "--folds", str(args.folds)], check=True)
            results.append(json.loads(out.read_text()))
    print(compare(*results))


if __name__ == "__main__":
    main()
