"""Labelled dice photographs: loading a folder and splitting it into seen and held-out parts.

A set lives in the layout of ``../shared/data/dice/<set>``: ``images/NAME.jpg`` beside
``labels/NAME.txt``, one line per die, ``class cx cy w h`` (YOLO: box centre and size as fractions of
the image, face value = class + 1).  Training and evaluation both read sets through this module so
that "held out" means the same photos everywhere.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")

#: Photos are dealt into this many folds by a hash of their name (see :func:`fold_of`); by default
#: fold 0 -- one photo in five -- is held out from training.
FOLDS = 5


class LabelError(ValueError):
    """A label file that cannot be read; the message names the file and the line."""


@dataclass(frozen=True)
class LabelledDie:
    """A die as the label file gives it: face 1..6 and its box in pixels (x, y, width, height).  A label
    correction can make the face ``None``: a die whose face the photo does not show, which scoring leaves out
    (:mod:`vision.label_corrections`)."""

    face: int | None
    box: tuple[float, float, float, float]

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2


@dataclass(frozen=True)
class LabelledImage:
    image_path: Path
    label_path: Path

    def read_dice(self, width: int, height: int) -> list[LabelledDie]:
        """The labelled dice, boxes scaled to an image of ``width`` x ``height`` pixels."""
        return read_label_file(self.label_path, width, height)


def read_label_file(path: Path, width: int, height: int) -> list[LabelledDie]:
    """The dice of a label file; :class:`LabelError` names the file (and the line) of anything that is not a
    die: not UTF-8 text, a class outside 0..5, a box not inside the photo (``nan``, ``inf``, a negative or zero
    size: a wrong box would score the reader against nothing)."""
    return [die for _, die in read_label_lines(path, width, height)]


def read_label_lines(path: Path, width: int, height: int) -> list[tuple[int, LabelledDie]]:
    """The dice of a label file as :func:`read_label_file` reads them, each with its line number in the file
    (from 1; blank lines hold no die): how a label correction names a die (:mod:`vision.label_corrections`)."""
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise LabelError(f"{path}: not UTF-8 text (byte {error.start})") from None
    dice = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        fields = line.split()
        try:
            if len(fields) != 5:
                raise ValueError(f"expected 5 fields 'class cx cy w h', got {len(fields)}")
            cls = int(fields[0])
            cx, cy, w, h = (float(f) for f in fields[1:])
            if not 0 <= cls <= 5:
                raise ValueError(f"class {cls} is not 0..5 (face 1..6)")
            # (comparisons with nan are false: a nan fails these as it should)
            if not (0 <= cx <= 1 and 0 <= cy <= 1):
                raise ValueError(f"box centre {_shown(fields[1])} {_shown(fields[2])} is not inside the photo (0..1)")
            if not (0 < w <= 1 and 0 < h <= 1):
                raise ValueError(f"box size {_shown(fields[3])} {_shown(fields[4])} is not a size within the photo "
                                 "(above 0, at most 1)")
        except ValueError as error:
            raise LabelError(f"{path}:{number}: {error}") from None
        dice.append((number, LabelledDie(cls + 1, ((cx - w / 2) * width, (cy - h / 2) * height, w * width,
                                                   h * height))))
    return dice


def _shown(field: str) -> str:
    """A label file's field as a message quotes it: as written when short and printable, else escaped and cut
    (an escape sequence in a file must not reach the terminal)."""
    return field if field.isprintable() and len(field) <= 24 else ascii(field[:24])


def list_images(folder: str | Path) -> list[LabelledImage]:
    """Every image in ``folder/images`` that has a label file, sorted by name.

    Raises ``FileNotFoundError`` naming the folder when it is not in the expected layout.
    """
    folder = Path(folder)
    images_dir, labels_dir = folder / "images", folder / "labels"
    if not images_dir.is_dir() or not labels_dir.is_dir():
        raise FileNotFoundError(f"{folder}: expected the sub-folders images/ and labels/ (YOLO layout)")
    found = []
    for image_path in sorted(images_dir.iterdir()):
        if image_path.suffix.lower() not in IMAGE_SUFFIXES:
            continue
        label_path = labels_dir / (image_path.stem + ".txt")
        if label_path.exists():
            found.append(LabelledImage(image_path, label_path))
    if not found:
        raise FileNotFoundError(f"{folder}: no image in images/ has a label file in labels/")
    return found


def source_name(image_path: Path) -> str:
    """The name of the original photo: Roboflow exports add ``_jpg.rf.<hash>`` to augmented copies."""
    return image_path.stem.split("_jpg.rf.")[0]


def fold_of(image_path: Path) -> int:
    """Which of the :data:`FOLDS` folds this photo belongs to (0..FOLDS-1).

    Decided by a hash of the source photo's name, so it is stable across machines and runs and
    every augmented copy of one photo lands in the same fold.
    """
    digest = hashlib.sha256(source_name(image_path).encode()).digest()
    return digest[0] * FOLDS // 256


def is_held_out(image_path: Path, fold: int = 0) -> bool:
    """Whether this photo is in the held-out ``fold``, which training for that fold never sees."""
    return fold_of(image_path) == fold


def split(images: list[LabelledImage], part: str, fold: int = 0) -> list[LabelledImage]:
    """``part`` is ``all``, ``seen`` (the training part) or ``held-out`` (fold ``fold``)."""
    if not 0 <= fold < FOLDS:
        raise ValueError(f"fold must be 0..{FOLDS - 1}, got {fold}")
    if part == "all":
        return images
    if part == "seen":
        return [i for i in images if not is_held_out(i.image_path, fold)]
    if part == "held-out":
        return [i for i in images if is_held_out(i.image_path, fold)]
    raise ValueError(f"unknown split {part!r}: expected all, seen or held-out")
