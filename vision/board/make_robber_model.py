"""Train the robber classifier (vision/board/robber_model.npz) and score it held out by board.

    .venv/bin/python -m vision.board.make_robber_model crops SHARED OUT.npz [--labels tests/data/boards]
    /work/torchenv/bin/python -m vision.board.make_robber_model train OUT.npz [--no-save] [--json]

``crops``: every labelled photo is read by the reader itself (its lattice, as the app would get it) and each land
hex cut out (``robber.land_crops`` at twice the window, for the training's shifts and turns), with 1 on the hex
the robber stands on.  SettlersEye's photos (SHARED/settlerseye, both exports, 57 photos of 17 boards) are
labelled by the robber's base in pixels (tests/data/boards/settlerseye/robber_points.json); CatanAI's 8 photos
(tests/data/boards/catanai) by their labels' robber hex.

``train`` (torch, training only: the app runs the net in numpy) groups the photos by board -- a board's copies
and re-shoots together; SettlersEye's board3 and board10 are one layout; CatanAI's by layout -- and, for each of
FOLDS groups of boards, trains on the others and reads the group's photos: held-out figures, per photo
(``--save-folds DIR``: each fold's weights and which photos it left out, for bench_board_held_out's
``--robber-folds``).  Then it trains on everything and saves the weights.  Each net is trained from the same
seed for STEPS steps.

The net is trained photo by photo (session 6): the robber stands on one hex of a photo or on none, so each step
takes four photos' 19 crops, and the 19 scores with a "none" score of 0 go through one softmax against where
the robber stands (cross-entropy); the reader does the same with each crop and its mirror image averaged
(robber.photo_probabilities).  Each crop is TRAIN_WINDOW spacings wide, saved with the weights (1.6, for
lattices fitted to a tokenless board's outline a fifth to a third of a hex off, was tried: no better held out).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path

import numpy as np

LABELS = Path("tests/data/boards")  # run from the checkout (the labels do not ship with the package)
FOLDS = 3
STEPS = 500
TRAIN_WINDOW = 1.2  # spacings; saved with the weights (robber.hex_probabilities crops at the model's window)
PHOTOS_PER_STEP = 4
SAME_LAYOUT = {"board10": "board3"}  # board10 shows board3's layout in another light (tests/data/boards/settlerseye)


def collect_crops(shared: Path, out: Path, labels_dir: Path = LABELS) -> None:
    import cv2

    from vision.board import robber
    from vision.board.labels import board_key, load_labels, rotate
    from vision.board.lattice import LAND, canonical_center
    from vision.board.reader import NoBoardError, read_board, read_board_file

    from vision.board.reader import find_robber
    from vision.board.terrain import corrected_plane

    def ruled(work, reading):  # the dark-grey rule's hex, as the reader checks the net's reading against it
        return find_robber(corrected_plane(work, reading.lattice), reading.terrains)

    crops, labels, photos, groups, rules = [], [], [], [], []
    points = json.loads((labels_dir / "settlerseye/robber_points.json").read_text(encoding="utf-8"))["robber"]
    for name, point in points.items():
        image = cv2.imread(str(shared / "settlerseye" / name))
        try:
            reading = read_board(image)
        except NoBoardError:
            print(f"{name}: no board", file=sys.stderr)
            continue
        work = cv2.resize(image, None, fx=reading.scale, fy=reading.scale, interpolation=cv2.INTER_LINEAR)
        truth = None
        if point is not None:
            at = np.linalg.inv(reading.lattice.homography) @ np.array([point[0] * reading.scale,
                                                                       point[1] * reading.scale, 1.0])
            at = at[:2] / at[2]
            truth = min(LAND, key=lambda h: np.hypot(*(np.array(canonical_center(h)) - at)))
        board = re.match(r"(board\d+)", Path(name).name).group(1)
        rule = ruled(work, reading)
        rules.extend(h == rule for h in LAND)
        _add(crops, labels, photos, groups, robber.land_crops(work, reading.lattice, 2 * robber.CROP,
                                                              2 * robber.WINDOW),
             [h == truth for h in LAND], name, "settlerseye/" + SAME_LAYOUT.get(board, board))
    for image, record in load_labels(labels_dir / "catanai"):
        reading = read_board_file(image, record.get("tile_centres"))
        labelled = {tuple(h["at"]): h["terrain"] for h in record["board"]["hexes"]}
        turns = max(range(6), key=lambda k: sum(labelled[rotate(h, k)] == t for h, t in reading.terrains.items()))
        want = record["board"].get("robber")
        work = cv2.resize(cv2.imread(str(image)), None, fx=reading.scale, fy=reading.scale,
                          interpolation=cv2.INTER_AREA if reading.scale < 1 else cv2.INTER_LINEAR)
        key = board_key(record)
        rule = ruled(work, reading)
        rules.extend(h == rule for h in LAND)
        _add(crops, labels, photos, groups, robber.land_crops(work, reading.lattice, 2 * robber.CROP,
                                                              2 * robber.WINDOW),
             [want is not None and list(rotate(h, turns)) == want for h in LAND], "catanai/" + image.name,
             "catanai/" + hashlib.md5(repr(key).encode()).hexdigest()[:6])
    np.savez_compressed(out, crops=np.concatenate(crops), labels=np.array(labels, np.float32),
                        photos=np.array(photos), groups=np.array(groups), rules=np.array(rules, bool))
    print(f"{out}: {len(photos)} hexes of {len(set(photos))} photos, {int(sum(labels))} robbers, "
          f"{len(set(groups))} boards")


def _add(crops, labels, photos, groups, hex_crops, on_hex, photo, group) -> None:
    crops.append(hex_crops)
    labels.extend(float(v) for v in on_hex)
    photos.extend([photo] * len(on_hex))
    groups.extend([group] * len(on_hex))


def _net():
    import torch.nn as nn

    from vision.board.robber import CROP

    class RobberNet(nn.Module):
        """Three 3x3 convolutions (8, 16, 16 channels), each ReLU and 2x2 max-pooled, then one linear unit
        over the 6x6 map: where in the crop the figure stands matters (its base near the middle)."""

        def __init__(self):
            super().__init__()
            self.conv0 = nn.Conv2d(3, 8, 3, padding=1)
            self.conv1 = nn.Conv2d(8, 16, 3, padding=1)
            self.conv2 = nn.Conv2d(16, 16, 3, padding=1)
            self.fc = nn.Linear(16 * (CROP // 8) ** 2, 1)
            self.pool = nn.MaxPool2d(2)
            self.relu = nn.ReLU()
            self.drop = nn.Dropout(0.3)

        def forward(self, x):
            for conv in (self.conv0, self.conv1, self.conv2):
                x = self.pool(self.relu(conv(x)))
            return self.fc(self.drop(x.flatten(1)))[:, 0]

    return RobberNet()


def _augmented(crops: np.ndarray, rng: np.random.Generator, window: float = TRAIN_WINDOW) -> np.ndarray:
    """Each crop (collected 2 x 1.2 spacings wide) turned (+-12 deg), scaled (0.85-1.15), shifted (+-0.12
    spacing: the lattice fitted to a tokenless board's outline is a fifth of a hex off), maybe mirrored, its
    light and colour moved; then its middle ``window`` spacings cut at the net's size."""
    import cv2

    from vision.board.robber import CROP
    out = np.empty((len(crops), CROP, CROP, 3), np.uint8)
    big = crops.shape[1]
    per_spacing = big / (2 * 1.2)
    k = 1.2 / window  # the collected crops' pixels per net pixel
    for i, crop in enumerate(crops):
        angle, scale = rng.uniform(-12, 12), rng.uniform(0.85, 1.15) * k
        shift = rng.uniform(-0.12, 0.12, 2) * per_spacing * k
        m = cv2.getRotationMatrix2D((big / 2, big / 2), angle, scale)
        m[:, 2] += shift - (big - CROP) / 2
        piece = cv2.warpAffine(crop, m, (CROP, CROP), borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.5:
            piece = piece[:, ::-1]
        gain = rng.uniform(0.7, 1.3) * rng.uniform(0.9, 1.1, 3)
        out[i] = np.clip(piece.astype(np.float32) * gain + rng.uniform(-20, 20), 0, 255).astype(np.uint8)
    return out


def _centre(crops: np.ndarray, window: float = TRAIN_WINDOW) -> np.ndarray:
    """The middle ``window`` spacings of each collected crop, at the net's size (as the reader cuts them)."""
    import cv2

    from vision.board.robber import CROP
    side = int(round(crops.shape[1] * window / 2.4))
    lo = (crops.shape[1] - side) // 2
    return np.stack([cv2.resize(c[lo:lo + side, lo:lo + side], (CROP, CROP), interpolation=cv2.INTER_AREA)
                     for c in crops])


def train_photo_net(crops: np.ndarray, labels: np.ndarray, photos: np.ndarray, seed: int = 0):
    """The net trained photo by photo: PHOTOS_PER_STEP photos' 19 crops a step, one softmax over each photo's
    19 scores and a "none" score of 0 (the robber on one hex, or not in the picture)."""
    import torch

    from vision.board.robber import as_input
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    rows_of = [np.flatnonzero(photos == p) for p in dict.fromkeys(photos)]
    net = _net()
    optimiser = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    n = PHOTOS_PER_STEP
    for step in range(STEPS):
        chosen = rng.choice(len(rows_of), n, replace=False)
        rows = np.concatenate([rows_of[c] for c in chosen])
        x = torch.from_numpy(as_input(_augmented(crops[rows], rng)))
        scores = torch.cat([net(x).view(n, 19), torch.zeros(n, 1)], 1)
        on = labels[rows].reshape(n, 19)
        target = torch.from_numpy(np.where(on.max(1) > 0.5, on.argmax(1), 19))
        optimiser.zero_grad()
        loss = torch.nn.functional.cross_entropy(scores, target)
        loss.backward()
        optimiser.step()
    net.eval()
    return net


def weights_of(net) -> dict:
    """The net's weights as saved (robber_model.npz), with how the reader is to use them."""
    weights = {k: v.detach().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    weights.update(softmax=np.float32(1.0), window=np.float32(TRAIN_WINDOW))
    return weights


def held_out(data, folds: int = FOLDS, save_folds: Path | None = None) -> dict:
    from vision.board import robber
    from vision.board.lattice import LAND
    crops, labels, photos, groups = data["crops"], data["labels"], data["photos"], data["groups"]
    rules = data.get("rules")
    boards = sorted(set(groups))
    fold_of = {b: i % folds for i, b in enumerate(boards)}
    rows = []
    for fold in range(folds):
        test = np.array([fold_of[g] == fold for g in groups])
        if not test.any():
            continue
        weights = weights_of(train_photo_net(crops[~test], labels[~test], photos[~test], seed=10 * fold))
        if save_folds is not None:
            save_folds.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(save_folds / f"fold{fold}.npz", **weights)
        x = robber.as_input(_centre(crops[test]))
        for photo in dict.fromkeys(photos[test]):
            at = photos[test] == photo
            p = dict(zip(LAND, robber.photo_probabilities(weights, x[at]).tolist()))
            truth = [h for h, v in zip(LAND, labels[test][at]) if v > 0.5]
            got, sure = robber.decide(p)
            rule_hex = next((h for h, v in zip(LAND, rules[test][at]) if v), None) if rules is not None else None
            combined = robber.combine(rule_hex, got, sure) if rules is not None else (got, sure)
            top = max(p, key=p.get)
            rows.append({"photo": str(photo), "board": str(groups[test][at][0]), "truth": truth[0] if truth else None,
                         "read": got, "sure": sure, "best": round(max(p.values()), 3), "top": top,
                         "p_truth": round(p[truth[0]], 3) if truth else None,
                         "right": got == (truth[0] if truth else None), "rule": rule_hex,
                         "combined": combined[0], "combined_sure": combined[1],
                         "combined_right": combined[0] == (truth[0] if truth else None)})
    return {"rows": rows, "summary": _summary(rows)}


def _summary(rows: list) -> dict:
    out = {}
    for table in ("settlerseye", "catanai"):
        mine = [r for r in rows if r["photo"].startswith("catanai/") == (table == "catanai")]
        out[table] = {"photos": len(mine), "right": sum(r["right"] for r in mine),
                      "right_sure": sum(r["right"] and r["sure"] for r in mine),
                      "wrong_sure": sum((not r["right"]) and r["sure"] for r in mine),
                      "unsure": sum(not r["sure"] for r in mine),
                      "top_right": sum(r["top"] == r["truth"] for r in mine if r["truth"] is not None),
                      "with_robber": sum(r["truth"] is not None for r in mine),
                      "rule_right": sum(r.get("rule") == r["truth"] for r in mine),
                      "reader_right": sum(r.get("combined_right", False) for r in mine),
                      "reader_right_sure": sum(r.get("combined_right", False) and r.get("combined_sure") for r in mine),
                      "reader_wrong_sure": sum((not r.get("combined_right", True)) and r.get("combined_sure", False)
                                               for r in mine)}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("crops")
    c.add_argument("shared", type=Path)
    c.add_argument("out", type=Path)
    c.add_argument("--labels", type=Path, default=LABELS, help="the labelled folders (default: %(default)s)")
    t = sub.add_parser("train")
    t.add_argument("crops", type=Path)
    t.add_argument("--no-save", action="store_true")
    t.add_argument("--no-folds", action="store_true")
    t.add_argument("--json", action="store_true")
    t.add_argument("--save-folds", type=Path, help="save each fold's weights and folds.json here")
    args = parser.parse_args(argv)
    if args.command == "crops":
        collect_crops(args.shared, args.out, args.labels)
        return 0
    with np.load(args.crops) as data:
        data = {k: data[k] for k in data.files}
    if not args.no_folds:
        result = held_out(data, save_folds=args.save_folds)
        if args.save_folds is not None:
            boards = sorted(set(data["groups"]))
            fold_of = {b: i % FOLDS for i, b in enumerate(boards)}
            (args.save_folds / "folds.json").write_text(json.dumps(
                {str(p): fold_of[g] for p, g in zip(data["photos"], data["groups"])}), encoding="utf-8")
        if args.json:
            print(json.dumps(result, default=list))
        else:
            for row in result["rows"]:
                print(row)
            print(json.dumps(result["summary"]))
    if not args.no_save:
        from vision.board.robber import MODEL_PATH
        np.savez_compressed(MODEL_PATH, **weights_of(train_photo_net(data["crops"], data["labels"], data["photos"])))
        print(f"{MODEL_PATH}: saved")
    return 0


if __name__ == "__main__":
    sys.exit(main())
