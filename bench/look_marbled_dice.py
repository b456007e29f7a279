"""Why the dark marbled dice with red pips are misread (issue 29): their intermediate images, and two changes that
need no retraining, screened on the classifier's reading of labelled boxes.

    .venv/bin/python bench/look_marbled_dice.py --model /work/fold-work/fold3/models --split seen --fold 3 \
        [--data ../shared/data/dice] [--sheet /tmp/marbled.png]

The tray set's main error kind on three held-out folds (docs/vision.md): a dark body with a red-and-green swirl, red
pips, and white streaks of the swirl across the face. ``MARBLED`` lists eight of them, fold 2's held-out errors,
each looked at at 8x with its label right (session 14). They are photos of fold 2: with ``--fold 3 --split seen``
(fold 3's models on fold 3's training photos) they are development photos, nothing held out is used.

- ``--sheet``: per die of ``MARBLED`` the die cut out (8x), the redness R - max(G, B), Lab's a, Lab's L (what is
  light), then the classifier's 32 px patch and its three channels (B, G, R) as ``vision.preprocess.die_patch``
  makes it: for a person to see what the network is given.
- the screen (always): per set, how many labelled dice of the split the classifier reads right in their labelled
  boxes (the face of the largest share, as bench/audit_labels.py, no detector; ``(+g -l)``: dice gained and lost
  against the stretch as it is) with the patch's contrast stretch
  as it is and three others (the top percentile 90 or 95 instead of 98, so that white streaks saturate and the pips
  keep more of the range; each channel stretched on its own, so that red pips on a dark body fill the red channel's
  range); and what each gives the ``MARBLED`` dice of the split.
- ``bench/dark-red-pip-dice.txt`` (131 dark-bodied dice with red pips of the tray set, picked by eye, 25 with a
  white streak across the face): how many of the split's are read right in their boxes, with each stretch -- the
  control figure for a retrained classifier (with ``--split held-out`` and a fold's models).
- ``--streaks``: of the split's tray dice read right in their boxes, how often one thin curve drawn across the die
  (1/18 of its side thick, edge to edge through the middle third) changes the reading, white (a swirl's streak)
  against the die's own median colour (hides pips as much, is no mark): 3 tries a die, the listed dice and a quarter
  of the others.
- the red-blob count: the round blobs of redness inside each labelled box of the tray set's split (at three levels,
  the most found; pip-sized, filled, not long), against the label: can a pip colour count stand in for the
  classifier on these dice?
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import cv2
import numpy as np

from vision import dataset, preprocess
from vision.evaluate import load_image
from vision.reader import DiceReader

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
TRAY = "nell-byler-dice_detection"
#: Fold 2's held-out errors of the kind (photo stem, line of its label file), session 14's look.
MARBLED = (("IMG_20191208_112648", 1), ("IMG_20191208_112648", 2), ("IMG_20191208_111423", 6),
           ("IMG_20191209_095915", 5), ("IMG_20191209_095915", 6), ("IMG_20191209_095923", 3),
           ("IMG_20191209_095923", 4), ("IMG_20191209_095923", 5))
STRETCHES = ("as is", "top 90", "top 95", "per channel")
ZOOM = 8
#: The tray set's dark-bodied dice with red pips, picked by eye (the file's header says how).
KIND = Path(__file__).with_name("dark-red-pip-dice.txt")


def kind_list(path: Path = KIND) -> dict[tuple[str, int], bool]:
    """(photo stem, line) -> whether a white streak crosses its face, for each die of the list."""
    dice = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            photo, number, _face, _fold, streak = (part.strip() for part in line.split("|"))
            dice[(Path(photo).stem, int(number))] = streak == "streak"
    return dice


def stretched(kind: str):
    """A replacement for ``preprocess.stretch_contrast``: ``kind`` one of :data:`STRETCHES`."""
    def stretch(patch: np.ndarray) -> np.ndarray:
        inner = preprocess.PATCH_SIZE // 4
        middle = patch[inner:-inner, inner:-inner]
        if kind == "per channel":
            out = np.empty_like(patch)
            for c in range(patch.shape[2]):
                low, high = np.percentile(middle[..., c], (2, 98))
                out[..., c] = np.clip((patch[..., c] - low) / max(float(high - low), 8.0), 0.0, 1.0)
            return out.astype(np.float32)
        top = {"as is": 98, "top 90": 90, "top 95": 95}[kind]
        low, high = np.percentile(middle, (2, top))
        return np.clip((patch - low) / max(float(high - low), 8.0), 0.0, 1.0).astype(np.float32)
    return stretch


def faces_read(reader: DiceReader, image: np.ndarray, dice, kind: str) -> np.ndarray:
    boxes = [(*d.centre, max(d.box[2], d.box[3])) for d in dice]
    saved = preprocess.stretch_contrast
    preprocess.stretch_contrast = stretched(kind)
    try:
        probs = reader.classify(image, boxes)
    finally:
        preprocess.stretch_contrast = saved
    return probs[:, 1:7].argmax(axis=1) + 1


def redness(face: np.ndarray) -> np.ndarray:
    face = face.astype(np.float32)
    return np.clip(face[..., 2] - np.maximum(face[..., 0], face[..., 1]), 0, None)


def red_blobs(image: np.ndarray, box) -> int | None:
    """Round pip-sized blobs of redness on the face in ``box`` (the most at levels 0.4/0.5/0.6 of its 99th
    percentile), or None where the face holds no red (the percentile under 40)."""
    x, y, w, h = box
    x0, y0 = max(0, int(x + 0.08 * w)), max(0, int(y + 0.08 * h))
    x1, y1 = int(x + 0.92 * w), int(y + 0.92 * h)
    face = image[y0:y1, x0:x1]
    if min(face.shape[:2]) < 6:
        return None
    zoom = 48 / max(face.shape[:2])
    face = cv2.resize(face, (max(6, round(face.shape[1] * zoom)), max(6, round(face.shape[0] * zoom))),
                      interpolation=cv2.INTER_CUBIC)
    red = redness(face)
    peak = float(np.percentile(red, 99))
    if peak < 40:
        return None
    area = red.shape[0] * red.shape[1]
    most = 0
    for level in (0.4, 0.5, 0.6):
        _n, _labels, stats, _c = cv2.connectedComponentsWithStats((red > level * peak).astype(np.uint8))
        most = max(most, sum(1 for _l, _t, wide, tall, a in stats[1:]
                             if 0.008 * area <= a <= 0.12 * area and max(wide, tall) <= 2 * min(wide, tall)
                             and a >= 0.5 * wide * tall))
    return most


def with_streak(image: np.ndarray, box, colour, rng: random.Random) -> np.ndarray:
    """``image`` with one thin curve (a quadratic through a point near the middle, edge to edge of ``box``, 1/18 of the
    die's side thick) drawn across the die in ``colour``: a swirl's streak where there was none."""
    x, y, w, h = box
    if rng.random() < 0.5:
        a, b = (x + rng.uniform(0, w), y), (x + rng.uniform(0, w), y + h)
    else:
        a, b = (x, y + rng.uniform(0, h)), (x + w, y + rng.uniform(0, h))
    c = (x + w / 2 + rng.uniform(-0.3, 0.3) * w, y + h / 2 + rng.uniform(-0.3, 0.3) * h)
    t = np.linspace(0, 1, 24)[:, None]
    points = (1 - t) ** 2 * np.array(a) + 2 * (1 - t) * t * np.array(c) + t ** 2 * np.array(b)
    out = image.copy()
    cv2.polylines(out, [np.round(points).astype(np.int32)], False, colour, max(1, round(max(w, h) / 18)), cv2.LINE_AA)
    return out


def streaks(reader: DiceReader, items, family, tries: int = 3, others: float = 0.25, seed: int = 7) -> None:
    """Of the tray dice the classifier reads right in their labelled boxes, how many readings a streak drawn across
    the die changes: a white one (as the swirl's) against one of the die's own median colour (the control: a line
    that hides pips as much, and is no mark). The listed family, and a share ``others`` of the other dice (dark
    bodies, mean BGR under 90, and light ones apart)."""
    rng = random.Random(seed)
    changed: dict[tuple[str, str], list[int]] = {}
    for item in items:
        image = load_image(item.image_path)
        for i, die in enumerate(item.read_dice(image.shape[1], image.shape[0])):
            listed = (item.image_path.stem, i + 1) in family
            where = [(*die.centre, max(die.box[2], die.box[3]))]
            if reader.classify(image, where)[0][1:7].argmax() + 1 != die.face:
                continue
            x, y, w, h = box = tuple(int(v) for v in die.box)
            body = np.median(image[y + h // 4:y + h - h // 4, x + w // 4:x + w - w // 4].reshape(-1, 3), axis=0)
            group = "listed" if listed else ("other dark" if float(body.mean()) < 90 else "other light")
            if not (listed or rng.random() < others):
                continue
            for name, colour in (("white", (235, 235, 235)), ("own colour", tuple(float(v) for v in body))):
                tally = changed.setdefault((group, name), [0, 0])
                for _ in range(tries):
                    read = reader.classify(with_streak(image, box, colour, rng), where)[0][1:7].argmax() + 1
                    tally[0] += int(read != die.face)
                    tally[1] += 1
    for (group, name), (n, of) in sorted(changed.items()):
        print(f"  streak {name:10s} across {group:11s} dice read right: {n} of {of} readings changed "
              f"({100 * n / of:.0f} %)")


def sheet(items: dict, out: Path) -> None:
    rows = []
    for stem, line in MARBLED:
        item = items[stem]
        image = load_image(item.image_path)
        die = item.read_dice(image.shape[1], image.shape[0])[line - 1]
        x, y, w, h = (int(v) for v in die.box)
        crop = image[max(0, y - 3):y + h + 3, max(0, x - 3):x + w + 3]
        size = (crop.shape[1] * ZOOM, crop.shape[0] * ZOOM)
        lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float32)
        red = redness(crop)
        maps = [red / max(float(red.max()), 1.0) * 255, np.clip((lab[..., 1] - 128) * 4, 0, 255), lab[..., 0]]
        tiles = [cv2.resize(crop, size, interpolation=cv2.INTER_CUBIC)]
        tiles += [cv2.cvtColor(cv2.resize(m.astype(np.uint8), size, interpolation=cv2.INTER_NEAREST),
                               cv2.COLOR_GRAY2BGR) for m in maps]
        patch = preprocess.die_patch(image, die.centre, max(die.box[2], die.box[3]))
        big = lambda a: cv2.resize((a * 255).astype(np.uint8), (size[1], size[1]), interpolation=cv2.INTER_NEAREST)
        tiles.append(big(patch))
        tiles += [cv2.cvtColor(big(patch[..., c]), cv2.COLOR_GRAY2BGR) for c in range(3)]
        row = cv2.copyMakeBorder(np.hstack(tiles), 20, 4, 0, 0, cv2.BORDER_CONSTANT, value=(0, 0, 0))
        cv2.putText(row, f"{stem} line {line}, label {die.face}: die | R-max(G,B) | Lab a | L | patch | B | G | R",
                    (4, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1)
        rows.append(row)
    width = max(r.shape[1] for r in rows)
    cv2.imwrite(str(out), np.vstack([cv2.copyMakeBorder(r, 0, 0, 0, width - r.shape[1], cv2.BORDER_CONSTANT,
                                                        value=(60, 60, 60)) for r in rows]))
    print(f"# sheet: {out}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--model", type=Path, help="folder with detector.onnx and faces.onnx (default: committed)")
    parser.add_argument("--split", default="seen", choices=("all", "seen", "held-out"))
    parser.add_argument("--fold", type=int, default=3)
    parser.add_argument("--sheet", type=Path)
    parser.add_argument("--streaks", action="store_true",
                        help="also: how often a thin streak drawn across a tray die read right changes its reading")
    args = parser.parse_args()
    reader = DiceReader(args.model)
    tray_items = {i.image_path.stem: i for i in dataset.list_images(args.data / TRAY)}
    if args.sheet:
        sheet(tray_items, args.sheet)
    marbled = set(MARBLED)
    family = kind_list()
    for folder in sorted(p for p in args.data.iterdir() if (p / "labels").is_dir()):
        right = dict.fromkeys(STRETCHES, 0)
        gained = dict.fromkeys(STRETCHES, 0)
        lost = dict.fromkeys(STRETCHES, 0)
        watched = {k: [] for k in STRETCHES}
        total = 0
        counts: dict[int, list[int]] = {}
        listed = {k: [0, 0, 0, 0] for k in STRETCHES}  # right, of; with a streak right, of
        for item in dataset.split(dataset.list_images(folder), args.split, args.fold):
            image = load_image(item.image_path)
            dice = item.read_dice(image.shape[1], image.shape[0])
            if not dice:
                continue
            total += len(dice)
            base = None
            for kind in STRETCHES:
                faces = faces_read(reader, image, dice, kind)
                good = np.array([f == d.face for f, d in zip(faces, dice)])
                base = good if base is None else base
                right[kind] += int(good.sum())
                gained[kind] += int((good & ~base).sum())
                lost[kind] += int((base & ~good).sum())
                watched[kind] += [f"{item.image_path.stem[-6:]}:{i + 1} {d.face}->{faces[i]}"
                                  for i, d in enumerate(dice) if (item.image_path.stem, i + 1) in marbled]
                for i, d in enumerate(dice):
                    streak = family.get((item.image_path.stem, i + 1))
                    if streak is not None:
                        tally = listed[kind]
                        tally[0] += int(faces[i] == d.face)
                        tally[1] += 1
                        if streak:
                            tally[2] += int(faces[i] == d.face)
                            tally[3] += 1
            if folder.name == TRAY:
                for die in dice:
                    found = red_blobs(image, die.box)
                    if found:
                        counts.setdefault(die.face, []).append(found)
        print(f"{folder.name}: {total} labelled dice, read right in their boxes: "
              + ", ".join(f"{k} {right[k]}" + (f" (+{gained[k]} -{lost[k]})" if k != STRETCHES[0] else "")
                          for k in STRETCHES))
        if any(t[1] for t in listed.values()):
            print(f"  {KIND.name}, read right in their boxes (all / with a streak): "
                  + ", ".join(f"{k} {t[0]}/{t[1]}, {t[2]}/{t[3]}" for k, t in listed.items()))
        for kind in STRETCHES:
            if watched[kind]:
                good = sum(1 for w in watched[kind] if w.split()[1].split("->")[0] == w.split("->")[1])
                print(f"  marbled, {kind}: {good} of {len(watched[kind])} right: " + "  ".join(watched[kind]))
        if counts:
            agree = sum(1 for face, found in counts.items() for n in found if n == face)
            print(f"  red-blob count on {sum(len(v) for v in counts.values())} dice with red on the face: "
                  f"{agree} equal to the label")
            for face in sorted(counts):
                tally = np.bincount(counts[face], minlength=8)[1:8]
                print(f"    label {face}: counts 1-7 " + " ".join(str(int(c)) for c in tally))
    if args.streaks:
        streaks(reader, dataset.split(dataset.list_images(args.data / TRAY), args.split, args.fold), family)
    print(f"# model {args.model or 'committed'}, split {args.split}, fold {args.fold}")


if __name__ == "__main__":
    main()
