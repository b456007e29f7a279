"""Labelled board photos and scoring a reader against them, up to rotation.

A folder holds ``labels/*.json``, one per photo: ``{"image": "photos/NAME.jpg", "board": {"robber": [q, r]
or null, "hexes": [{"at": [q, r], "terrain": T, "number": N}, ...]}}`` -- the record's board object for the 19
land hexes (desert without a number), in any of the six rotations: the reading is turned to agree best.
A label may leave the numbers out (a board laid without tokens) and may give ``"tile_centres": [[x, y], ...]``,
the photo's tile centres in pixels, which the lattice is then fitted to instead of the tokens, and
``"token_set": "other"`` when the board's number tokens are not the standard 18 (the reader then eliminates
nothing: vision/board/deduce.py).
"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from vision.board.lattice import LAND, turned
from vision.board.reader import NoBoardError, read_board_file


def rotate(h: tuple[int, int], turns: int) -> tuple[int, int]:
    """``h`` turned ``turns`` times 60 degrees about the centre hex."""
    return turned(h, turns)


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


def token_set_of(record: dict) -> str:
    """The label's set of number tokens (deduce.STANDARD unless it says another)."""
    from vision.board.deduce import STANDARD
    return record.get("token_set", STANDARD)


def evaluate(folder: str | Path) -> dict:
    photos, hexes, terrain_right, numbers, number_right, robber_right, boards_right = 0, 0, 0, 0, 0, 0, 0
    unsure_wrong, unsure_total, refused, times, terrain_fully_right = 0, 0, [], [], 0
    per_photo = []
    for image, record in load_labels(folder):
        photos += 1
        labels = {tuple(h["at"]): h for h in record["board"]["hexes"]}
        try:
            reading = read_board_file(image, record.get("tile_centres"), token_set=token_set_of(record))
        except NoBoardError:
            refused.append(image.name)
            hexes += 19
            numbers += sum("number" in h for h in labels.values())
            continue
        times.append(reading.ms)
        turns = max(range(6), key=lambda k: sum(labels[rotate(h, k)]["terrain"] == t
                                                for h, t in reading.terrains.items()))
        right = photo_numbers = photo_numbers_right = 0
        for h, t in reading.terrains.items():
            truth = labels[rotate(h, turns)]
            ok = truth["terrain"] == t
            right += ok
            if h in reading.unsure:
                unsure_total += 1
                unsure_wrong += not ok
            if "number" in truth:
                numbers += 1
                photo_numbers += 1
                photo_numbers_right += reading.numbers.get(h) == truth["number"]
        hexes += 19
        terrain_right += right
        number_right += photo_numbers_right
        want_robber = record["board"].get("robber")
        got_robber = list(rotate(reading.robber, turns)) if reading.robber else None
        robber_right += got_robber == want_robber
        terrain_fully_right += right == 19
        boards_right += right == 19 and photo_numbers_right == photo_numbers
        per_photo.append({"image": image.name, "terrain_right": right, "numbers_right": photo_numbers_right,
                          "numbers": photo_numbers, "robber_right": got_robber == want_robber,
                          "ms": round(reading.ms)})
    return {
        "photos": photos,
        "refused": refused,
        "terrain_accuracy": terrain_right / hexes if hexes else 0.0,
        "number_accuracy": number_right / numbers if numbers else 0.0,
        "robber_accuracy": robber_right / photos if photos else 0.0,
        "terrain_fully_right": terrain_fully_right,
        "boards_fully_right": boards_right,
        "ms_median": statistics.median(times) if times else None,
        "per_photo": per_photo,
    }


def board_key(record: dict) -> tuple:
    """The same physical layout gives the same key, however its label is turned (for leaving a board out)."""
    hexes = {tuple(h["at"]): (h["terrain"], h.get("number")) for h in record["board"]["hexes"]}
    return min(tuple(hexes[rotate(h, k)] for h in LAND) for k in range(6))


def collect_tokens(folder: str | Path):
    """(image, token patch, labelled number) for every token the reader finds on the labelled photos;
    the token under the labelled robber is skipped (the robber hides it)."""
    for image, record in load_labels(folder):
        labels = {tuple(h["at"]): h for h in record["board"]["hexes"]}
        reading = read_board_file(image, record.get("tile_centres"))
        turns = max(range(6), key=lambda k: sum(labels[rotate(h, k)]["terrain"] == t
                                                for h, t in reading.terrains.items()))
        robber = record["board"].get("robber")
        for h, patch in reading.token_patches.items():
            truth = labels[rotate(h, turns)]
            if "number" in truth and list(rotate(h, turns)) != robber:
                yield image, patch, truth["number"]
