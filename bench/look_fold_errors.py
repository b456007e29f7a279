"""Every die of a fold's photos that were not read fully right, traced through the reader and drawn large (issue 29).

    .venv/bin/python bench/look_fold_errors.py ../shared/data/dice/*/ --fold 1 --model /work/fold-work/fold1/models \
        --max-dice 4 --min-die-px 24 [--out /tmp/dicelook] [--every]

The photos are those ``python -m vision evaluate SET --split held-out --fold F --model DIR --max-dice N
--min-die-px P -v`` lists as not fully right (``--every``: every photo of the split and subset). For each photo a
line per labelled die and per die read that matches none, saying what became of it:

- ``right`` / ``read X`` (the face reported, its confidence, the classifier's face shares);
- ``missed: never a candidate`` (the detector's heat map inside the labelled box, against its 0.3 bar), ``missed:
  called not a die`` ("not a die" above its bar), ``missed: not a standard die`` (the ninth class and the marks),
  ``missed: low confidence`` (under MIN_CONFIDENCE), ``missed: its candidate went to another die``;
- ``invented`` for a die read where no die is labelled.

Each labelled die is also given to the classifier in its labelled box (``box:``), as bench/audit_labels.py does, so
a wrong reading can be told from a wrong box. The drawings (``OUT/<set>-<photo>.png``): the photo with the labels
(green, ``L``) and the reading (red when wrong, ``R``), and per die read wrong, missed or invented (every die in a
photo of at most 4) a tile of the die and a little round it at 6x
with its label and reading -- for a person to judge at 5-8x what the photo shows.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import cv2
import numpy as np

from vision import dataset, preprocess
from vision.evaluate import load_image, match, pair_up, smallest_side
from vision.reader import (DETECT_THRESHOLD, MIN_CONFIDENCE, NOT_A_DIE_THRESHOLD, DiceReader, as_read,
                           detect_candidates)

TILE = 300
OVERVIEW = 900


def heat_in_box(reader: DiceReader, frame: np.ndarray, box) -> float:
    """The detector's highest heat inside a labelled box (the reader keeps peaks above DETECT_THRESHOLD)."""
    blob, scale = preprocess.detector_input(frame)
    reader.detector.setInput(blob)
    heat = 1.0 / (1.0 + np.exp(-reader.detector.forward()[0][0]))
    s = preprocess.DETECTOR_STRIDE
    x, y, w, h = box
    x0, y0 = int(x * scale / s), int(y * scale / s)
    x1, y1 = int(np.ceil((x + w) * scale / s)), int(np.ceil((y + h) * scale / s))
    window = heat[max(0, y0):max(y0 + 1, y1), max(0, x0):max(x0 + 1, x1)]
    return float(window.max()) if window.size else 0.0


def _peak_fate(reader: DiceReader, frame: np.ndarray, die: dataset.LabelledDie) -> str:
    """Why a labelled die with heat above the bar has no candidate: its peak's box centre landed outside the die's
    box, or the peak was dropped as lying inside a stronger candidate's box (``_suppress_overlaps``)."""
    blob, scale = preprocess.detector_input(frame)
    reader.detector.setInput(blob)
    out = reader.detector.forward()[0]
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > DETECT_THRESHOLD)
    s = preprocess.DETECTOR_STRIDE
    raw = []
    for iy, ix in zip(*np.nonzero(peaks)):
        ox, oy = 1.0 / (1.0 + np.exp(-out[3:5, iy, ix]))
        w, h = np.exp(np.clip(out[1:3, iy, ix], -3, 6)) * s / scale
        raw.append(((ix + ox) * s / scale, (iy + oy) * s / scale, w, h, float(heat[iy, ix])))
    mine = [c for c in raw if pair_up([die], [(c[0], c[1])])]
    if not mine:
        x, y, w, h = die.box
        inside = [c for c in raw if x - w * 0.25 <= c[0] <= x + w * 1.25 and y - h * 0.25 <= c[1] <= y + h * 1.25]
        return "is no local maximum of its own (it rises into a neighbour's peak)" if not inside else \
            f"placed its centre off the die ({len(inside)} peak(s) near)"
    return f"(heat {mine[0][4]:.2f}) was dropped inside a stronger candidate's box"


def shares(p: np.ndarray) -> str:
    faces = p[1:7] / max(float(p[1:7].sum()), 1e-6)
    top = np.argsort(faces)[::-1][:3]
    text = " ".join(f"{i + 1}:{faces[i]:.2f}" for i in top)
    extra = f" crooked {p[7]:.2f}" if len(p) > 7 else ""
    extra += f" novelty {p[8]:.2f}" if len(p) > 8 else ""
    return f"not-a-die {p[0]:.2f}; {text}{extra}"


def tile(image: np.ndarray, box, caption: str, colour) -> np.ndarray:
    x, y, w, h = box
    cx, cy = x + w / 2, y + h / 2
    reach = max(w, h) * 0.8
    x0, y0 = int(max(0, cx - reach)), int(max(0, cy - reach))
    crop = image[y0:int(cy + reach), x0:int(cx + reach)].copy()
    cv2.rectangle(crop, (int(x - x0), int(y - y0)), (int(x - x0 + w), int(y - y0 + h)), colour, 1)
    drawn = cv2.resize(crop, (TILE, TILE), interpolation=cv2.INTER_CUBIC)
    drawn = cv2.copyMakeBorder(drawn, 26, 0, 0, 2, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    cv2.putText(drawn, caption, (4, 19), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1)
    return drawn


def trace(item: dataset.LabelledImage, reader: DiceReader, out: Path, set_name: str) -> list[str]:
    image = load_image(item.image_path)
    frame = as_read(image, reader.calibration)
    labelled = item.read_dice(frame.shape[1], frame.shape[0])
    found = reader.read_all(frame)
    read = [d for d in found if d.standard]
    candidates = detect_candidates(reader.detector, frame)
    cand_probs = reader.classify(frame, [(c[0], c[1], max(c[2], c[3])) for c in candidates]) if candidates else []
    box_probs = reader.classify(frame, [(*d.centre, max(d.box[2], d.box[3])) for d in labelled]) if labelled else []
    score = match(labelled, read)
    lines = [f"{set_name}/{item.image_path.name} ({frame.shape[1]}x{frame.shape[0]}, fold "
             f"{dataset.fold_of(item.image_path)}): {score.right}/{score.labelled} right, {score.missed} missed, "
             f"{score.invented} invented; candidates {len(candidates)}"]
    paired = dict(pair_up(labelled, [d.centre for d in read]))
    cand_of = dict(pair_up(labelled, [(c[0], c[1]) for c in candidates]))
    tiles = []
    for i, die in enumerate(labelled):
        side = min(die.box[2], die.box[3])
        head = f"  L{i} face {die.face}, {die.box[2]:.0f}x{die.box[3]:.0f} px"
        box_reading = f"box: {shares(box_probs[i])}"
        if i in paired:
            got = read[paired[i]]
            verdict = "right" if got.face == die.face else f"READ {got.face or '?'}"
            lines.append(f"{head}: {verdict} (conf {got.confidence:.2f}, read box {got.box[2]}x{got.box[3]}); {box_reading}")
            caption = f"L{i}: label {die.face} read {got.face or '?'} c{got.confidence:.2f} {side:.0f}px"
            colour = (0, 255, 0) if got.face == die.face else (0, 0, 255)
        else:
            if i not in cand_of:
                heat = heat_in_box(reader, frame, die.box)
                if heat <= DETECT_THRESHOLD:
                    why = f"never a candidate (heat in box {heat:.2f}, bar {DETECT_THRESHOLD})"
                else:
                    why = f"never a candidate: heat in box {heat:.2f}, its peak {_peak_fate(reader, frame, die)}"
            else:
                c = candidates[cand_of[i]]
                p = cand_probs[cand_of[i]]
                near = [d for d in found if abs(d.centre[0] - c[0]) < 1 and abs(d.centre[1] - c[1]) < 1]
                if p[0] > NOT_A_DIE_THRESHOLD:
                    why = f"called not a die ({p[0]:.2f} > {NOT_A_DIE_THRESHOLD})"
                elif near and not near[0].standard:
                    why = "called not a standard die"
                elif near:
                    why = "its read die was paired with another labelled die"
                else:
                    why = f"low confidence (under {MIN_CONFIDENCE}) or dropped by colour"
                why += f"; candidate {c[2]:.0f}x{c[3]:.0f} heat {c[4]:.2f}: {shares(p)}"
            lines.append(f"{head}: MISSED, {why}; {box_reading}")
            caption = f"L{i}: label {die.face} MISSED {side:.0f}px"
            colour = (0, 0, 255)
        if colour != (0, 255, 0) or len(labelled) <= 4:
            tiles.append(tile(image, die.box, caption, colour))
    used = set(paired.values())
    for j, got in enumerate(read):
        if j in used:
            continue
        k = next((k for k, c in enumerate(candidates) if abs(c[0] - got.centre[0]) < 1.5 and abs(c[1] - got.centre[1]) < 1.5), None)
        detail = f"; candidate heat {candidates[k][4]:.2f}: {shares(cand_probs[k])}" if k is not None else ""
        lines.append(f"  R{j} INVENTED: read {got.face or '?'} conf {got.confidence:.2f} box {got.box}{detail}")
        tiles.append(tile(image, got.box, f"R{j}: invented, read {got.face or '?'} c{got.confidence:.2f}", (0, 0, 255)))
    for got in found:
        if not got.standard:
            lines.append(f"  not a standard die at {got.box} conf {got.confidence:.2f}")
    # The overview: labels green, readings red (wrong or invented) or white (right).
    overview = image.copy()
    for i, die in enumerate(labelled):
        x, y, w, h = (int(v) for v in die.box)
        cv2.rectangle(overview, (x, y), (x + w, y + h), (0, 255, 0), 2)
        cv2.putText(overview, f"L{i}:{die.face}", (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 255, 0), 2)
    for j, got in enumerate(read):
        x, y, w, h = got.box
        good = j in used and any(read[paired[i]].face == labelled[i].face for i in paired if paired[i] == j)
        colour = (255, 255, 255) if good else (0, 0, 255)
        cv2.rectangle(overview, (x, y), (x + w, y + h), colour, 1)
        cv2.putText(overview, f"R{j}:{got.face or '?'}", (x, y + h + 16), cv2.FONT_HERSHEY_SIMPLEX, 0.6, colour, 2)
    zoom = OVERVIEW / max(overview.shape[:2])
    overview = cv2.resize(overview, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_AREA if zoom < 1 else cv2.INTER_CUBIC)
    row = np.hstack(tiles) if tiles else np.zeros((TILE + 26, TILE + 2, 3), np.uint8)
    width = max(row.shape[1], overview.shape[1])
    pad = lambda a: cv2.copyMakeBorder(a, 0, 0, 0, width - a.shape[1], cv2.BORDER_CONSTANT, value=(40, 40, 40))
    cv2.imwrite(str(out / f"{set_name[:12]}-{item.image_path.stem[:40]}.png"), np.vstack([pad(overview), pad(row)]))
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("folders", nargs="+", type=Path)
    parser.add_argument("--fold", type=int, default=0)
    parser.add_argument("--split", default="held-out", choices=("all", "seen", "held-out"))
    parser.add_argument("--model", type=Path, help="folder with detector.onnx and faces.onnx (default: committed)")
    parser.add_argument("--max-dice", type=int)
    parser.add_argument("--min-die-px", type=float)
    parser.add_argument("--every", action="store_true", help="trace every photo, not only those not fully right")
    parser.add_argument("--out", type=Path, default=Path("/tmp/dicelook"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    reader = DiceReader(args.model)
    for folder in args.folders:
        traced = 0
        for item in dataset.split(dataset.list_images(folder), args.split, args.fold):
            image = load_image(item.image_path)
            labelled = item.read_dice(image.shape[1], image.shape[0])
            if args.max_dice is not None and len(labelled) > args.max_dice:
                continue
            if args.min_die_px is not None and smallest_side(labelled) < args.min_die_px:
                continue
            score = match(labelled, reader.read(image))
            if score.fully_right and not args.every:
                continue
            traced += 1
            print("\n".join(trace(item, reader, args.out, folder.name)))
        print(f"# {folder.name}: {traced} photos traced")
    print(f"# drawings in {args.out}")


if __name__ == "__main__":
    main()
