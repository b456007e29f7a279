"""Scoring a reader against a folder of labelled photos (``python -m vision evaluate DIR``).

Each labelled die is matched to at most one read die: the nearest read die whose centre lies inside
the labelled box (enlarged by a quarter, as labels are drawn loosely), and vice versa.  Then:

- ``die_accuracy``: labelled dice matched by a die read with the right face (unsure counts wrong);
- ``image_accuracy``: photos where every labelled die is read right and nothing is invented;
- ``missed``: labelled dice with no read die (fraction of labelled dice);
- ``invented``: read dice matching no labelled die (as a fraction of labelled dice);
- ``ms_per_frame_median``: median wall time of :meth:`DiceReader.read` per photo (decoding excluded).

A die the reader finds but calls "not a standard die" (numerals, symbols, a blank face) is not a read die
(the app does not count it); the verbose report says how many there were, photo by photo.

Labels are scored as the data says unless corrections are given (:mod:`vision.label_corrections`): then
the photos' labelled dice are first put as the corrections say; a die whose face nobody can count (``?``: one
cut by the photo's edge, one too blurred or too coarse to count at any zoom) is then a labelled die that is read
right when the reader says ``?`` too or does not find it (either way the table is asked: unsure, or one die fewer
than rolled), and wrong when a face is read there: a silent guess (``guessed``).  (Until session 16 such a die was
scored neither way, which let a guess pass.)
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path

import cv2

from vision import dataset, label_corrections
from vision.image_header import HeaderError, image_size
from vision.reader import DiceReader, Die


#: The most pixels a photo may have: its size is read from the header and a larger one refused before it is
#: decoded (decoded, every pixel takes 3 bytes and more: 12000 x 12000 took 918 MB, 30000 x 30000 5.3 GB).
#: 50 megapixels is above any phone's full-size photo; the sets' photos are under half a megapixel.
MAX_PIXELS = 50_000_000


class ImageReadError(ValueError):
    """An image file that cannot be decoded; the message names the file."""


def load_image(path: str | Path):
    """The image at ``path`` as a BGR array; raises :class:`ImageReadError` naming the file, also for a PNG,
    JPEG or BMP file whose header claims more than :data:`MAX_PIXELS` pixels (not decoded at all)."""
    path = Path(path)
    if not path.is_file():
        raise ImageReadError(f"{path}: no such image file")
    try:
        width, height = image_size(path)
    except HeaderError as error:
        raise ImageReadError(f"{path}: not a readable image (corrupt or unsupported format: {error})") from None
    if width * height > MAX_PIXELS:
        raise ImageReadError(f"{path}: {width} x {height} pixels is more than the {MAX_PIXELS / 1e6:.0f} megapixels "
                             f"a photo may have; scale it down")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageReadError(f"{path}: not a readable image (corrupt or unsupported format)")
    return image


@dataclass
class ImageScore:
    name: str
    labelled: int
    right: int
    missed: int
    invented: int
    wrong: list[tuple[int | None, int | None]] = field(default_factory=list)  # (true face, read face); None: '?'
    not_standard: int = 0  # things the reader called "not a standard die" (not counted as read dice)
    asked: int = 0  # labelled dice the reader read as '?' (unsure: the table is asked to roll again)
    guessed: int = 0  # dice nobody can count (labelled '?') that the reader read as a number
    uncountable: int = 0  # labelled dice nobody can count ('?', from a label correction)

    @property
    def fully_right(self) -> bool:
        return self.right == self.labelled and self.invented == 0


def pair_up(labelled: list[dataset.LabelledDie], centres: list[tuple[float, float]]) -> list[tuple[int, int]]:
    """Pairs (labelled die, found centre), greedily, nearest centres first: a centre pairs with a die
    when it lies within the die's box enlarged by a quarter; each die and each centre pairs once.

    The evaluation's one matching rule; training uses it too, to tell the detector's false finds."""
    pairs = []
    for i, truth in enumerate(labelled):
        x, y, w, h = truth.box
        tx, ty = truth.centre
        for j, (cx, cy) in enumerate(centres):
            if abs(cx - tx) <= 0.625 * w and abs(cy - ty) <= 0.625 * h:
                pairs.append(((cx - tx) ** 2 + (cy - ty) ** 2, i, j))
    used_l, used_r, paired = set(), set(), []
    for _, i, j in sorted(pairs):
        if i not in used_l and j not in used_r:
            used_l.add(i)
            used_r.add(j)
            paired.append((i, j))
    return paired


def match(labelled: list[dataset.LabelledDie], read: list[Die]) -> ImageScore:
    """Pair labelled and read dice greedily, nearest centres first, and score the reading.

    A die whose face nobody can count (face ``None``: a label correction's ``?``) is read right when the reader says
    ``?`` too (unsure: the table is asked to roll again or to type the dice) or does not find it (the table sees one
    die fewer than it rolled and is asked again); a face read there is a wrong die, a guess the table would take
    silently, counted in ``guessed``."""
    paired = pair_up(labelled, [die.centre for die in read])
    score = ImageScore("", len(labelled), 0, 0, 0, uncountable=sum(die.face is None for die in labelled))
    for i, j in paired:
        truth, said = labelled[i].face, read[j].face
        score.asked += said is None
        if said == truth:
            score.right += 1
        else:
            score.wrong.append((truth, said))
            score.guessed += truth is None
    found = {i for i, _ in paired}
    unfound = [i for i in range(len(labelled)) if i not in found]
    score.right += sum(labelled[i].face is None for i in unfound)  # not found: the table asks (one die too few)
    score.missed = sum(labelled[i].face is not None for i in unfound)
    score.invented = len(read) - len(paired)
    return score


def smallest_side(dice: list[dataset.LabelledDie]) -> float:
    """The shortest box side among ``dice`` in pixels (infinite for a photo with none): how small the
    photo's smallest die is."""
    return min((min(d.box[2], d.box[3]) for d in dice), default=float("inf"))


def evaluate(folder: str | Path, reader: DiceReader, part: str = "all", fold: int = 0,
             max_dice: int | None = None, min_die_px: float | None = None,
             corrections: list[label_corrections.Correction] | None = None) -> dict:
    """Score ``reader`` on the labelled photos of ``folder`` (optionally one split of it).

    ``max_dice`` keeps only the photos with at most that many labelled dice: the sets hold crowd
    photos of up to 48 dice, which weigh most in the per-die figures, while a Catan roll is two.
    ``min_die_px`` keeps only the photos whose every labelled die's box is at least that many pixels
    on its shorter side: a tray a camera is calibrated to shows its dice larger than a heap seen across
    a room, and the goals are stated for such dice.
    ``corrections`` (:func:`label_corrections.load`): score against the labels put right; those of this
    folder's set are checked against it before anything is read (a :class:`label_corrections.CorrectionError`
    names the line that does not fit).
    """
    images = dataset.split(dataset.list_images(folder), part, fold)
    by_image = label_corrections.for_set(corrections, folder) if corrections is not None else None
    scores, times, corrected = [], [], 0
    for item in images:
        frame = load_image(item.image_path)
        if by_image is None:
            labelled = item.read_dice(frame.shape[1], frame.shape[0])
        else:
            mine = by_image.get(item.image_path.name, [])
            labelled = label_corrections.apply(
                dataset.read_label_lines(item.label_path, frame.shape[1], frame.shape[0]), mine)
        if max_dice is not None and len(labelled) > max_dice:
            continue
        if min_die_px is not None and smallest_side(labelled) < min_die_px:
            continue
        if by_image is not None:
            corrected += len(mine)
        started = time.perf_counter()
        found = reader.read_all(frame)
        times.append((time.perf_counter() - started) * 1000.0)
        score = match(labelled, [die for die in found if die.standard])
        score.name = item.image_path.name
        score.not_standard = sum(not die.standard for die in found)
        scores.append(score)
    dice = sum(s.labelled for s in scores)
    return {
        "dice": dice,
        "die_accuracy": sum(s.right for s in scores) / max(dice, 1),
        "image_accuracy": sum(s.fully_right for s in scores) / max(len(scores), 1),
        "missed": sum(s.missed for s in scores) / max(dice, 1),
        "invented": sum(s.invented for s in scores) / max(dice, 1),
        "ms_per_frame_median": statistics.median(times) if times else 0.0,
        "images": len(scores),
        "not_standard": sum(s.not_standard for s in scores),
        "asked": sum(s.asked for s in scores),  # dice read '?' (each makes the table roll again or type the dice)
        "uncountable": sum(s.uncountable for s in scores),  # labelled '?': dice nobody can count
        "guessed": sum(s.guessed for s in scores),
        "corrections": corrected if by_image is not None else None,  # applied on the photos scored; None: as the data says
        "_scores": scores,
    }


def report(result: dict, folder: str, verbose: bool = False) -> str:
    lines = [
        f"{folder}: {result['images']} images, {result['dice']} dice",
        f"  dice read right      {result['die_accuracy']:7.1%}",
        f"  images fully right   {result['image_accuracy']:7.1%}",
        f"  dice missed          {result['missed']:7.1%}",
        f"  dice invented        {result['invented']:7.1%}",
        f"  median ms per frame  {result['ms_per_frame_median']:7.1f}",
    ]
    if result.get("corrections") is not None:
        lines.append(f"  label corrections    {result['corrections']:7d}  applied on these photos (--corrections)")
    if result.get("asked") or result.get("uncountable"):
        lines.append(f"  dice read '?'        {result['asked']:7d}  (unsure: the table is asked to roll again)")
    if result.get("uncountable"):
        lines.append(f"  '?' dice read a face {result['guessed']:7d}  of {result['uncountable']} nobody can count "
                     "(labelled '?'): silent guesses, scored wrong")
    if verbose:
        lines.append(f"  not a standard die   {result['not_standard']:7d}  (numerals, symbols, blank faces: not counted)")
        for s in result["_scores"]:
            if not s.fully_right or s.not_standard:
                wrong = ", ".join(f"{t}->{r or '?'}" for t, r in s.wrong)
                novel = f", {s.not_standard} not a standard die" if s.not_standard else ""
                lines.append(f"    {s.name}: {s.right}/{s.labelled} right, {s.missed} missed, "
                             f"{s.invented} invented{novel}{'; ' + wrong if wrong else ''}")
    return "\n".join(lines)
