"""Labelled board photos and scoring a reader against them, up to rotation.

A folder holds ``labels/*.json``, one per photo: ``{"image": "photos/NAME.jpg", "board": {"robber": [q, r]
or null, "hexes": [{"at": [q, r], "terrain": T, "number": N}, ...]}}`` -- the record's board object for the 19
land hexes (desert without a number), in any of the six rotations: the reading is turned to agree best.
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from vision.board.lattice import LAND
from vision.board.reader import NoBoardError, read_board_file


def rotate(h: tuple[int, int], turns: int) -> tuple[int, int]:
    """``h`` turned ``turns`` times 60 degrees about the centre hex."""
    q, r = h
    for _ in range(turns % 6):
        q, r = -r, q + r
    return (q, r)


def load_labels(folder: str | Path) -> list[tuple[Path, dict]]:
    folder = Path(folder)
    label_dir = folder / "labels"
    if not label_dir.is_dir():
        raise OSError(f"{folder}: no labels/ folder (see docs/board-reader.md for the label format)")
    out = []
    for path in sorted(label_dir.glob("*.json")):
        try:
            record = json.loads(path.read_text(encoding="utf-8"))
            hexes = {tuple(h["at"]): h for h in record["board"]["hexes"]}
            image = folder / record["image"]
        except (ValueError, KeyError, TypeError) as error:
            raise ValueError(f"{path}: not a board label ({error!r})") from None
        if set(hexes) != set(LAND):
            raise ValueError(f"{path}: the 19 land hexes of the 3-4 board are wanted, got {len(hexes)}")
        out.append((image, record))
    if not out:
        raise OSError(f"{label_dir}: no *.json labels")
    return out


def evaluate(folder: str | Path) -> dict:
    photos, hexes, terrain_right, numbers, number_right, robber_right, boards_right = 0, 0, 0, 0, 0, 0, 0
    unsure_wrong, unsure_total, refused, times = 0, 0, [], []
    per_photo = []
    for image, record in load_labels(folder):
        photos += 1
        labels = {tuple(h["at"]): h for h in record["board"]["hexes"]}
        try:
            reading = read_board_file(image)
        except NoBoardError:
            refused.append(image.name)
            hexes += 19
            numbers += sum("number" in h for h in labels.values())
            continue
        times.append(reading.ms)
        turns = max(range(6), key=lambda k: sum(labels[rotate(h, k)]["terrain"] == t
                                                for h, t in reading.terrains.items()))
        right = 0
        for h, t in reading.terrains.items():
            truth = labels[rotate(h, turns)]
            ok = truth["terrain"] == t
            right += ok
            if h in reading.unsure:
                unsure_total += 1
                unsure_wrong += not ok
            if "number" in truth:
                numbers += 1  # numbers are not read yet: none is right
        hexes += 19
        terrain_right += right
        want_robber = record["board"].get("robber")
        got_robber = list(rotate(reading.robber, turns)) if reading.robber else None
        robber_right += got_robber == want_robber
        boards_right += right == 19  # terrain fully right; a board is fully right only with its numbers too
        per_photo.append({"image": image.name, "terrain_right": right, "robber_right": got_robber == want_robber,
                          "ms": round(reading.ms)})
    return {
        "photos": photos,
        "refused": refused,
        "terrain_accuracy": terrain_right / hexes if hexes else 0.0,
        "number_accuracy": number_right / numbers if numbers else 0.0,
        "robber_accuracy": robber_right / photos if photos else 0.0,
        "terrain_fully_right": boards_right,
        "boards_fully_right": 0,  # numbers are not read yet
        "ms_median": statistics.median(times) if times else None,
        "per_photo": per_photo,
    }
