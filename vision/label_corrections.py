"""Corrections to the dice sets' labels, applied when scoring (``python -m vision evaluate --corrections``).

The labelled photos in ``../shared/data/dice`` are read-only data: a label found wrong by a person is not edited
there but written down here, one correction a line, in ``vision/label-corrections.txt`` (the default file) or a
file of the same form.  Scoring applies them only when asked, so that figures scored as the data says stay
comparable with the earlier ones.

A line holds six fields separated by ``|``::

    photo | die | label says | should say | why | who looked

- *photo*: ``SET/IMAGE``, the set's folder name and the image's file name
  (``nell-byler-dice_detection/IMG_20191209_100002.jpg``);
- *die*: ``line N``, the die on line N of the photo's label file (counted from 1), or ``box X Y W H``, a die the
  labels leave out, its box in pixels of the photo (left, top, width, height);
- *label says*: the face on that line, 1 to 6 (checked against the file), or ``none`` for a die the labels leave out;
- *should say*: 1 to 6; ``?`` for a die whose face nobody can count from the photo (a die cut by the photo's edge,
  or one too blurred or coarse to count at any zoom): it is scored right when the reader says ``?`` too (unsure:
  the table is asked to roll again) or does not find it, wrong when a face is read there
  (:func:`vision.evaluate.match`); or
  ``none``, not a die at all (the line is dropped);
- *why*: what the photo shows, in words; *who looked*: who judged it, when and how large.

Blank lines and lines starting with ``#`` are skipped.  Anything else that is not a correction -- a field
missing, a face out of range, a photo not in its set, a line number past the label file's end, a label that
does not say what the correction says it does, a box outside the photo -- is a :class:`CorrectionError` naming
the corrections file and its line, and nothing is scored.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from vision import dataset
from vision.image_header import HeaderError, image_size

#: The corrections this project's people have made, shipped beside the reader.
DEFAULT_PATH = Path(str(files("vision") / "label-corrections.txt"))

#: What *should say* may hold besides a face: a die whose face the photo does not show, and no die.
UNREADABLE, NO_DIE = "?", "none"


class CorrectionError(ValueError):
    """A corrections line that cannot be applied; the message names the file and the line."""


@dataclass(frozen=True)
class Correction:
    """One line of a corrections file."""

    source: str            # "FILE:LINE", for messages
    set_name: str
    image: str
    label_line: int | None  # the die's line in the label file; None for a die the labels leave out
    box: tuple[float, float, float, float] | None  # pixels, for a die the labels leave out
    says: int | None       # the label's face; None for a die the labels leave out
    should: int | str      # 1..6, UNREADABLE or NO_DIE
    why: str
    who: str

    @property
    def photo(self) -> str:
        return f"{self.set_name}/{self.image}"


def load(path: str | Path = DEFAULT_PATH) -> list[Correction]:
    """The corrections in ``path``, checked for form (not yet against the sets: :func:`check`)."""
    path = Path(path)
    if not path.is_file():
        raise CorrectionError(f"{path}: no such corrections file")
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as error:
        raise CorrectionError(f"{path}: not UTF-8 text (byte {error.start})") from None
    corrections, seen = [], {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        source = f"{path}:{number}"
        try:
            correction = _parse(line, source)
        except ValueError as error:
            raise CorrectionError(f"{source}: {error}") from None
        if correction.label_line is not None:
            key = (correction.photo, correction.label_line)
            if key in seen:
                raise CorrectionError(f"{source}: line {correction.label_line} of {correction.photo} is corrected "
                                      f"already on line {seen[key]}")
            seen[key] = number
        corrections.append(correction)
    return corrections


def _parse(line: str, source: str) -> Correction:
    fields = [f.strip() for f in line.split("|")]
    if len(fields) != 6:
        raise ValueError(f"expected 6 fields 'photo | die | label says | should say | why | who looked', "
                         f"got {len(fields)}")
    photo, die, says, should, why, who = fields
    set_name, slash, image = photo.partition("/")
    if not slash or not set_name or not image or "/" in image:
        raise ValueError(f"photo {_shown(photo)} is not SET/IMAGE (the set's folder name and the image's file name)")
    words = die.split()
    label_line = box = None
    if len(words) == 2 and words[0] == "line":
        if not words[1].isdigit() or int(words[1]) < 1:
            raise ValueError(f"die {_shown(die)}: a label file's line number is 1 or more")
        label_line = int(words[1])
    elif len(words) == 5 and words[0] == "box":
        try:
            box = tuple(float(w) for w in words[1:])
        except ValueError:
            raise ValueError(f"die {_shown(die)}: a box is four numbers X Y W H (pixels)") from None
        if not (all(v >= 0 for v in box[:2]) and all(v > 0 for v in box[2:])):
            raise ValueError(f"die {_shown(die)}: a box's corner is at 0 or more and its sides above 0")
    else:
        raise ValueError(f"die {_shown(die)} is neither 'line N' (a labelled die) nor 'box X Y W H' "
                         "(a die the labels leave out)")
    if says == NO_DIE:
        said = None
    elif says in ("1", "2", "3", "4", "5", "6"):
        said = int(says)
    else:
        raise ValueError(f"label says {_shown(says)}: expected a face 1-6, or 'none' for a die the labels leave out")
    if should in ("1", "2", "3", "4", "5", "6"):
        meant: int | str = int(should)
    elif should in (UNREADABLE, NO_DIE):
        meant = should
    else:
        raise ValueError(f"should say {_shown(should)}: expected a face 1-6, '?' (the photo does not show the face) "
                         "or 'none' (not a die)")
    if box is not None and said is not None:
        raise ValueError("a die the labels leave out ('box ...') has 'none' as what the label says")
    if label_line is not None and said is None:
        raise ValueError(f"a labelled die ('{die}') has its label's face (1-6) as what the label says")
    if box is not None and meant == NO_DIE:
        raise ValueError("a die the labels leave out cannot be 'none' (not a die)")
    if meant == said:
        raise ValueError(f"the label says {said} and should say {meant}: no correction")
    if not why or not who:
        raise ValueError("why and who looked are both needed (what the photo shows; who judged it, when)")
    return Correction(source, set_name, image, label_line, box, said, meant, why, who)


def _shown(text: str) -> str:
    return text if text.isprintable() and len(text) <= 60 else ascii(text[:60])


def for_set(corrections: list[Correction], folder: str | Path) -> dict[str, list[Correction]]:
    """The corrections of the set in ``folder`` (by its folder name), by image file name, each checked against
    the set: the photo and its label file exist, the named line holds a die saying what the correction says,
    a box lies inside the photo.  A :class:`CorrectionError` names the corrections line of the first that
    does not fit."""
    folder = Path(folder)
    by_image: dict[str, list[Correction]] = {}
    for c in corrections:
        if c.set_name != folder.name:
            continue
        image_path, label_path = folder / "images" / c.image, folder / "labels" / (Path(c.image).stem + ".txt")
        if not image_path.is_file():
            raise CorrectionError(f"{c.source}: no photo {c.image} in {folder / 'images'}")
        if not label_path.is_file():
            raise CorrectionError(f"{c.source}: {c.image} has no label file {label_path}")
        try:
            width, height = image_size(image_path)
        except HeaderError as error:
            raise CorrectionError(f"{c.source}: {image_path} is not a readable image ({error})") from None
        if c.label_line is not None:
            lines = dict(dataset.read_label_lines(label_path, width, height))
            if c.label_line not in lines:
                raise CorrectionError(f"{c.source}: {label_path} has no die on line {c.label_line} "
                                      f"(dice on lines {_lines(sorted(lines))})")
            if lines[c.label_line].face != c.says:
                raise CorrectionError(f"{c.source}: line {c.label_line} of {label_path} says "
                                      f"{lines[c.label_line].face}, the correction says it says {c.says}")
        else:
            x, y, w, h = c.box
            if x + w > width or y + h > height:
                raise CorrectionError(f"{c.source}: box {x:g} {y:g} {w:g} {h:g} is not inside {c.image} "
                                      f"({width} x {height} pixels)")
        by_image.setdefault(c.image, []).append(c)
    return by_image


def _lines(numbers: list[int]) -> str:
    return f"{numbers[0]}-{numbers[-1]}" if numbers else "none"


def check_sets(corrections: list[Correction], folders: list[str | Path]) -> None:
    """Every correction names a set: one of ``folders``, or a folder beside one of them (a set that is not
    being scored now); a set name found nowhere (a typo) is a :class:`CorrectionError` naming its line."""
    folders = [Path(f) for f in folders]
    known = {f.name for f in folders}
    for c in corrections:
        if c.set_name in known:
            continue
        if any((f.resolve().parent / c.set_name / "labels").is_dir() for f in folders):
            known.add(c.set_name)
            continue
        raise CorrectionError(f"{c.source}: no set {c.set_name} among or beside "
                              f"{', '.join(str(f) for f in folders)}")


def apply(dice: list[tuple[int, dataset.LabelledDie]], corrections: list[Correction]) -> list[dataset.LabelledDie]:
    """A photo's labelled dice (with their label lines, :func:`dataset.read_label_lines`) as its corrections
    say they should be: faces put right, lines that are no die dropped, dice the labels leave out added."""
    by_line = {c.label_line: c for c in corrections if c.label_line is not None}
    out = []
    for number, die in dice:
        c = by_line.get(number)
        if c is None:
            out.append(die)
        elif c.should != NO_DIE:
            out.append(dataset.LabelledDie(None if c.should == UNREADABLE else c.should, die.box))
    for c in corrections:
        if c.box is not None:
            out.append(dataset.LabelledDie(None if c.should == UNREADABLE else c.should, c.box))
    return out


__all__ = ["DEFAULT_PATH", "Correction", "CorrectionError", "apply", "check_sets", "for_set", "load"]
