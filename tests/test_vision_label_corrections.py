"""Label corrections (``vision/label-corrections.txt``) applied by ``python -m vision evaluate --corrections``:
the sets' labels are read-only data, so a label a person found wrong is written down there and scoring applies it
only when asked.  A correction changes the score of its photo (and nothing without the option); a correction that
names a photo, a line or a set that is not there, or a label that does not say what it claims, is refused with the
corrections file's line named, and nothing is scored."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from vision import dataset, label_corrections
from vision.evaluate import match
from vision.reader import Die

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "dice"
if not DATA.exists():
    DATA = Path(os.environ.get("CATAN_SHARED", "/work/shared")) / "data" / "dice"
TRAY = "nell-byler-dice_detection"
needs_data = pytest.mark.skipif(not DATA.exists(), reason=f"dice photos not found at {DATA}")

#: A green die with yellow pips showing three, labelled 2 (line 3 of its label file), in the repository's file.
GREEN_THREE = "IMG_20191209_095954.jpg"


def evaluate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "vision", "evaluate", *args, "--json"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def one_photo_set(tmp_path: Path, set_name: str, image: str) -> Path:
    """A set folder named as the real one holding a copy of one of its photos and that photo's label file."""
    folder = tmp_path / set_name
    (folder / "images").mkdir(parents=True)
    (folder / "labels").mkdir()
    shutil.copy(DATA / set_name / "images" / image, folder / "images" / image)
    shutil.copy(DATA / set_name / "labels" / (Path(image).stem + ".txt"), folder / "labels")
    return folder


def the_line_for(image: str) -> str:
    """The repository's correction of ``image``, as written in vision/label-corrections.txt."""
    lines = [line for line in label_corrections.DEFAULT_PATH.read_text().splitlines()
             if not line.startswith("#") and f"/{image} |" in line]
    assert len(lines) == 1, lines
    return lines[0]


@needs_data
def test_a_correction_changes_the_score_of_its_photo_and_only_when_asked(tmp_path):
    folder = one_photo_set(tmp_path, TRAY, GREEN_THREE)
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("# the one line of the repository's file for this photo\n" + the_line_for(GREEN_THREE) + "\n")
    as_labelled = evaluate(str(folder))
    corrected = evaluate(str(folder), "--corrections", str(corrections))
    assert as_labelled.returncode == 0 and corrected.returncode == 0, as_labelled.stderr + corrected.stderr
    before, after = json.loads(as_labelled.stdout), json.loads(corrected.stdout)
    dice = before["dice"]
    assert after["dice"] == dice and after["corrections"] == 1 and before["corrections"] is None
    # the reader reads the die as the photo shows it (3): wrong against the label, right against the correction
    assert round(after["die_accuracy"] * dice) == round(before["die_accuracy"] * dice) + 1
    assert before["image_accuracy"] == 0.0 and after["image_accuracy"] == 1.0


@needs_data
def test_the_repositorys_corrections_fit_the_sets_they_name():
    corrections = label_corrections.load()
    folders = sorted(p for p in DATA.iterdir() if (p / "labels").is_dir())
    label_corrections.check_sets(corrections, folders)
    applied = sum(len(c) for f in folders for c in label_corrections.for_set(corrections, f).values())
    assert applied == len(corrections) >= 10


@needs_data
@pytest.mark.parametrize("change, said", [
    (lambda line: line.replace(GREEN_THREE, "IMG_20191209_095955.jpg"),
     f"no photo IMG_20191209_095955.jpg in .*{TRAY}/images"),
    (lambda line: line.replace("| line 3 |", "| line 9 |"), r"has no die on line 9 \(dice on lines 1-5\)"),
    (lambda line: line.replace("| line 3 | 2 |", "| line 1 | 2 |"),
     "line 1 of .*095954.txt says 1, the correction says it says 2"),
    (lambda line: line.replace("| line 3 | 2 |", "| box 600 600 50 50 | none |"),
     "box 600 600 50 50 is not inside IMG_20191209_095954.jpg"),
    (lambda line: line.replace(TRAY, "nell-byler-dice_detecton"), "no set nell-byler-dice_detecton among or beside"),
])
def test_a_correction_naming_what_is_not_there_is_refused_naming_its_line(tmp_path, change, said):
    folder = one_photo_set(tmp_path, TRAY, GREEN_THREE)
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("# a comment\n\n" + change(the_line_for(GREEN_THREE)) + "\n")
    run = evaluate(str(folder), "--corrections", str(corrections))
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.count("\n") == 1
    assert run.stderr.startswith(f"vision evaluate: {corrections}:3: ")
    assert re.search(said, run.stderr), run.stderr


@pytest.mark.parametrize("line, said", [
    ("a/b.jpg | line 3 | 2 | 3 | why", "expected 6 fields 'photo | die | label says | should say | why | who looked', got 5"),
    ("b.jpg | line 3 | 2 | 3 | why | me", "photo b.jpg is not SET/IMAGE"),
    ("a/b.jpg | line 0 | 2 | 3 | why | me", "die line 0: a label file's line number is 1 or more"),
    ("a/b.jpg | die 3 | 2 | 3 | why | me", "die die 3 is neither 'line N'"),
    ("a/b.jpg | box 1 2 3 | none | 3 | why | me", "die box 1 2 3 is neither"),
    ("a/b.jpg | box 1 2 x 4 | none | 3 | why | me", "die box 1 2 x 4: a box is four numbers X Y W H"),
    ("a/b.jpg | line 3 | 7 | 3 | why | me", "label says 7: expected a face 1-6"),
    ("a/b.jpg | line 3 | 2 | 0 | why | me", "should say 0: expected a face 1-6, '\\?'"),
    ("a/b.jpg | line 3 | 2 | 2 | why | me", "the label says 2 and should say 2: no correction"),
    ("a/b.jpg | box 1 2 3 4 | 2 | 3 | why | me", r"a die the labels leave out \('box \.\.\.'\) has 'none' as what the label says"),
    ("a/b.jpg | line 3 | none | 3 | why | me", r"a labelled die \('line 3'\) has its label's face \(1-6\)"),
    ("a/b.jpg | box 1 2 3 4 | none | none | why | me", "a die the labels leave out cannot be 'none'"),
    ("a/b.jpg | line 3 | 2 | 3 |  | me", "why and who looked are both needed"),
])
def test_a_line_that_is_no_correction_is_refused_naming_its_line(tmp_path, line, said):
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("# header\n" + line + "\n")
    with pytest.raises(label_corrections.CorrectionError, match=rf"corrections\.txt:2: {said}"):
        label_corrections.load(corrections)


def test_the_same_die_corrected_twice_is_refused(tmp_path):
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("a/b.jpg | line 3 | 2 | 3 | why | me\na/b.jpg | line 3 | 2 | 4 | why | you\n")
    with pytest.raises(label_corrections.CorrectionError, match=r"corrections\.txt:2: line 3 of a/b\.jpg is corrected "
                                                                 r"already on line 1"):
        label_corrections.load(corrections)


def test_a_die_nobody_can_count_is_read_right_only_as_a_question(tmp_path):
    """A die cut by the photo's edge, left out of the labels and corrected to '?': the reader that says '?' there
    (unsure: the table is asked to roll again) reads it right, and so does one that does not find it (the table
    sees one die fewer than it rolled and is asked again); one that reads a face there guesses, and a guess is a
    wrong die, never a number passed silently."""
    corrections = tmp_path / "corrections.txt"
    corrections.write_text("desk/edge.jpg | box 600 165 40 62 | none | ? | cut by the edge | me\n")
    (correction,) = label_corrections.load(corrections)
    four = dataset.LabelledDie(4, (214.0, 210.0, 60.0, 43.0))
    dice = label_corrections.apply([(1, four)], [correction])
    four_read = Die(4, "white", (215, 210, 60, 46), 0.7)
    asks = match(dice, [four_read, Die(None, "white", (615, 184, 24, 35), 0.5)])
    guesses = match(dice, [four_read, Die(2, "white", (615, 184, 24, 35), 0.5)])
    as_labelled = match([four], [four_read, Die(2, "white", (615, 184, 24, 35), 0.5)])
    assert (as_labelled.labelled, as_labelled.right, as_labelled.invented) == (1, 1, 1)
    assert (asks.labelled, asks.right, asks.invented, asks.missed, asks.asked, asks.guessed) == (2, 2, 0, 0, 1, 0)
    assert asks.fully_right
    assert (guesses.labelled, guesses.right, guesses.invented, guesses.guessed, guesses.wrong) == (2, 1, 0, 1, [(None, 2)])
    assert not guesses.fully_right
    only_the_four = match(dice, [four_read])
    assert (only_the_four.right, only_the_four.missed, only_the_four.fully_right) == (2, 0, True)


#: Two dice nobody can count, each in a copy of its photo (N3VERS4YDIE): a black die (fold 1) whose
#: top face is a thin strip under a white highlight (qDiZl..., line 2, labelled 1: no pip at 8x with the contrast
#: stretched), and a pale blue gem die in a heap of nine 30 px dice, JPEG blocks of 5 px over its face (191141...,
#: line 1, labelled 4; fold 3).  The committed reader reads the first as 1 (it trained on that label) and is unsure of the
#: second (session 16).
MIXED = "N3VERS4YDIE-dice-recognition"
BLACK_STRIP = "qDiZl5XiooCHq1mUYwFL_jpg.rf.604309293913cf18f3c19d31e46d1bbf.jpg"
PALE_GEM = "PXL_20240219_191141791_jpg.rf.dea083175d4f77a936a0e9fde6c14144.jpg"


@needs_data
@pytest.mark.parametrize("image, line, says, right, asked, guessed", [
    (BLACK_STRIP, 2, 1, 1, 0, 1),  # its white 2 read right; a 1 read on the uncountable one: a guess, wrong
    (PALE_GEM, 1, 4, None, 1, 0),  # '?' on the uncountable one: right
])
def test_a_face_read_on_a_real_die_nobody_can_count_is_scored_a_guess(tmp_path, image, line, says, right, asked,
                                                                       guessed):
    folder = one_photo_set(tmp_path, MIXED, image)
    corrections = tmp_path / "corrections.txt"
    corrections.write_text(f"{MIXED}/{image} | line {line} | {says} | ? | nobody can count it | test\n")
    before = json.loads(evaluate(str(folder)).stdout)
    run = evaluate(str(folder), "--corrections", str(corrections))
    assert run.returncode == 0, run.stderr
    after = json.loads(run.stdout)
    assert (after["uncountable"], after["asked"], after["guessed"]) == (1, asked, guessed)
    assert after["dice"] == before["dice"]  # the '?' die still counts: dropping it would pass any guess
    dice = after["dice"]
    if right is not None:
        assert round(after["die_accuracy"] * dice) == right
    else:  # the '?' die becomes a die read right; nothing else changes
        assert round(after["die_accuracy"] * dice) == round(before["die_accuracy"] * dice) + 1
