"""Where the reader and a set's labels disagree on dice it was trained on: sheets to check by eye (issue 5).

    .venv/bin/python bench/audit_labels.py [--data ../shared/data/dice] [--model DIR] [--out /tmp/audit]

For every labelled die of each set the face classifier is given the labelled box (so the detector plays no
part) and its reading is compared with the label.  With the committed models, trained on every photo, a
disagreement is a die the network could not learn from its own label: a label that is wrong, a face the
picture does not show, or a hard view.  Each disagreement is drawn large (the die and a little round it,
5x to 8x) with its number, the label (L), the reading (R), the photo's fold and the die's size, into
``OUT/<set>-disagreements-N.png``, for a person to judge; the counts are printed, with how many labelled dice
are under 20 px (too few pixels for their pips to be seen) and the photos holding the most dice.

What was judged from these sheets is in docs/vision.md ("What the labels say that the photos do not").
"""

from __future__ import annotations

import argparse
import collections
from pathlib import Path

import cv2
import numpy as np

from vision import dataset
from vision.evaluate import load_image
from vision.reader import NOT_A_DIE_THRESHOLD, DiceReader

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
TILE = 220
COLUMNS = 6
PER_SHEET = 48


def reading(probabilities: np.ndarray) -> int:
    """The class the reader leans to for a labelled box: 0 "not a die", 1..6, 7 "crooked" (the rule of
    ``DiceReader.read``, less its FACE_THRESHOLD: a weak best face is counted as read, not as unsure, so that
    the sheets show what the network takes the die for)."""
    faces = probabilities[1:7]
    if probabilities[0] > NOT_A_DIE_THRESHOLD:
        return 0
    if len(probabilities) > 7 and probabilities[7] > faces.max():
        return 7
    return int(np.argmax(faces)) + 1


def tile(image: np.ndarray, die: dataset.LabelledDie, caption: str) -> np.ndarray:
    cx, cy = die.centre
    reach = max(die.box[2], die.box[3]) * 0.6
    crop = image[int(max(0, cy - reach)):int(cy + reach), int(max(0, cx - reach)):int(cx + reach)]
    drawn = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_CUBIC)
    drawn = cv2.copyMakeBorder(drawn, 24, 0, 0, 2, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    cv2.putText(drawn, caption, (4, 18), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1)
    return drawn


def write_sheets(tiles: list[np.ndarray], stem: Path) -> None:
    for start in range(0, len(tiles), PER_SHEET):
        chunk = tiles[start:start + PER_SHEET]
        chunk += [np.zeros_like(chunk[0])] * (-len(chunk) % COLUMNS)
        rows = [np.hstack(chunk[i:i + COLUMNS]) for i in range(0, len(chunk), COLUMNS)]
        cv2.imwrite(f"{stem}-disagreements-{start // PER_SHEET}.png", np.vstack(rows))


def audit(folder: Path, reader: DiceReader, out: Path) -> None:
    tiles, kinds, sizes, per_photo = [], collections.Counter(), [], collections.Counter()
    for labelled in dataset.list_images(folder):
        image = load_image(labelled.image_path)
        dice = labelled.read_dice(image.shape[1], image.shape[0])
        if not dice:
            continue
        per_photo[labelled.image_path.name] = len(dice)
        sizes += [max(d.box[2], d.box[3]) for d in dice]
        probabilities = reader.classify(image, [(*d.centre, max(d.box[2], d.box[3])) for d in dice])
        for die, p in zip(dice, probabilities):
            read = reading(p)
            if read == die.face:
                continue
            kinds[{0: "not a die", 7: "crooked"}.get(read, "another face")] += 1
            caption = (f"{len(tiles)} L{die.face} R{read} f{dataset.fold_of(labelled.image_path)} "
                       f"{max(die.box[2], die.box[3]):.0f}px")
            tiles.append(tile(image, die, caption))
    if tiles:
        write_sheets(tiles, out / folder.name)
    sizes = np.array(sizes)
    print(f"{folder.name}: {len(sizes)} dice in {len(per_photo)} photos; the reader given the labelled boxes "
          f"disagrees on {len(tiles)} ({dict(kinds)}); dice under 20 px: {(sizes < 20).sum()}; "
          f"most dice in a photo: {per_photo.most_common(4)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--model", type=Path, help="folder with detector.onnx and faces.onnx (default: committed)")
    parser.add_argument("--out", type=Path, default=Path("/tmp/audit"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    reader = DiceReader(args.model)
    for folder in sorted(p for p in args.data.iterdir() if (p / "labels").is_dir()):
        audit(folder, reader, args.out)
    print(f"sheets in {args.out}")


if __name__ == "__main__":
    main()
