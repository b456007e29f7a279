"""Only standard pip dice are dice (issue 29): a die showing numerals, symbols or a blank face is not read as a
pip face, and `vision read -v` / `vision evaluate -v` name it "not a standard die".

The sets hold no such die, so one is drawn on a real tray photo (vision/novelty_scenes.py: Hershey Simplex
numerals, a star, a ship, a gate, a blank face -- kinds the classifier's training never drew). Before the
classifier had its "not a standard die" class, 83 % of the numeral dice, 83 % of the symbol dice and 70 % of
the blank ones were read as a pip face (bench/bench_novelty_dice.py).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import dataset
from vision.novelty_scenes import KINDS, novelty_photo
from vision.preprocess import PATCH_SIZE
from vision.reader import DiceReader
from vision.training.novelty_dice import drawn_novelty_die

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "dice"
if not DATA.exists():
    DATA = Path(os.environ.get("CATAN_SHARED", "/work/shared")) / "data" / "dice"
TRAY = DATA / "nell-byler-dice_detection"
needs_data = pytest.mark.skipif(not TRAY.exists(), reason=f"dice photos not found at {TRAY}")

#: Drawn dice per kind; each a read of a tray photo (~30 ms).
PER_KIND = 12
#: Of the 12 per kind: read as a pip face at most / named "not a standard die" at least (before the class none
#: was named, and 11 of the 12 numerals were read as a pip face; with the ninth class on the frozen features, 9
#: numerals and 2 symbols were read as pips and 2 numerals named; now 1 / 1 / 1 and 11 / 11 / 8).
GUESSED_AT_MOST = {"numeral": 3, "symbol": 1, "blank": 1}
NAMED_AT_LEAST = {"numeral": 8, "symbol": 10, "blank": 6}


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


def _scenes(kind: str, count: int, seed: int):
    rng, photos, scenes = random.Random(seed), dataset.list_images(TRAY), []
    while len(scenes) < count:
        scene = novelty_photo(rng.choice(photos), kind, rng)
        if scene is not None:
            scenes.append(scene)
    return scenes


def _at(dice, spot, side):
    return [d for d in dice if abs(d.centre[0] - spot[0]) < 0.6 * side and abs(d.centre[1] - spot[1]) < 0.6 * side]


@needs_data
@pytest.mark.parametrize("kind", KINDS)
def test_a_die_that_is_not_a_pip_die_is_not_read_as_a_pip_face(reader, kind):
    guessed, named, own_right, own = 0, 0, 0, 0
    for image, labelled, spot, side in _scenes(kind, PER_KIND, seed=29):
        everything = reader.read_all(image)
        guessed += any(d.face is not None for d in _at(reader.read(image), spot, side))
        named += any(not d.standard for d in _at(everything, spot, side))
        # The photo's own pip dice are still read, and none of them is called "not a standard die".
        for truth in labelled:
            near = _at(everything, truth.centre, min(truth.box[2], truth.box[3]))
            own += 1
            own_right += any(d.standard and d.face == truth.face for d in near)
    print(kind, "read as a pip face", guessed, "named not a standard die", named, "of", PER_KIND)
    assert guessed <= GUESSED_AT_MOST[kind], f"{guessed} of {PER_KIND} {kind} dice read as a pip face"
    assert named >= NAMED_AT_LEAST[kind], f"only {named} of {PER_KIND} {kind} dice named 'not a standard die'"
    assert own_right >= 0.95 * own, f"{own_right} of {own} real dice beside them read right"


#: The bench's numeral dice (bench_novelty_dice.py) of seeds 3 and 7, 30 and 40: 2 + 3 read as a pip face when a long
#: stroke with no round pip told above a share of 0.4 (6 of seed 3's when only the marks were counted), 0 + 1 since the
#: face's own colour is its middle's (a numeral on a die turned in the picture was a blob the size of the die), the
#: stroke tells from a share of 0.25 and a face of fewer round pips than half the number read is not a pip face.
BENCH_NUMERALS, NUMERALS_GUESSED_AT_MOST = {3: 30, 7: 40}, 2


@needs_data
def test_a_numeral_drawn_in_strokes_is_not_read_as_pips_though_its_share_is_middling(reader):
    """A numeral's share of the novelty class often sits between 0.25 and 0.6, where a pip die's rarely goes (28 of
    the sets' 2,616 dice read). Its face shows a stroke most of the face long and no filled round pip, or pieces of
    ink of which few are round: not a pip die."""
    guessed, own_right, own = 0, 0, 0
    for seed, count in BENCH_NUMERALS.items():
        for image, labelled, spot, side in _scenes("numeral", count, seed=seed):
            everything = reader.read_all(image)
            guessed += any(d.face is not None and d.standard for d in _at(everything, spot, side))
            for truth in labelled:
                own += 1
                own_right += any(d.standard and d.face == truth.face
                                 for d in _at(everything, truth.centre, min(truth.box[2], truth.box[3])))
    assert guessed <= NUMERALS_GUESSED_AT_MOST, f"{guessed} of {sum(BENCH_NUMERALS.values())} numerals read as a pip face"
    assert own_right >= 0.95 * own, f"{own_right} of {own} real dice beside them read right"


DESK = DATA / "matteop65-Dice_Detection_Recognition"


@pytest.mark.skipif(not DESK.exists(), reason=f"dice photos not found at {DESK}")
def test_motion_blurred_pips_are_still_a_pip_face(reader):
    """The one labelled photo whose pips the novelty class comes closest to taking for a mark: five fours blurred
    into short bars (shares up to 0.95). Each shows its pips as separate marks, so each stays a 4."""
    photo = next(DESK.rglob("four_50.jpg"))
    everything = reader.read_all(cv2.imread(str(photo)))
    assert [d.face for d in everything] == [4, 4, 4, 4, 4], everything
    assert all(d.standard for d in everything)


@needs_data
def test_read_verbose_names_a_die_that_is_not_standard_and_plain_read_leaves_it_out(tmp_path):
    for index, (image, _labelled, _spot, _side) in enumerate(_scenes("symbol", 6, seed=7)):
        path = tmp_path / f"symbol-{index}.png"
        cv2.imwrite(str(path), image)
    photos = sorted(str(p) for p in tmp_path.glob("*.png"))
    run = [sys.executable, "-m", "vision", "read", *photos]
    plain = subprocess.run(run, cwd=ROOT, capture_output=True, text=True, timeout=120)
    verbose = subprocess.run([*run, "-v"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert plain.returncode == verbose.returncode == 0, plain.stderr + verbose.stderr
    assert "not a standard die" not in plain.stdout
    assert verbose.stdout.count("not a standard die") >= 3, verbose.stdout
    # The faces line of each photo is the same either way: a novelty die is never a face.
    faces = [line for line in plain.stdout.splitlines() if not line.startswith(" ")]
    assert faces == [line for line in verbose.stdout.splitlines() if not line.startswith(" ")]


@pytest.mark.parametrize("kind", KINDS)
def test_a_drawn_novelty_die_is_a_patch_like_one_cut_from_a_photo(kind):
    table = np.full((90, 90, 3), (60, 120, 40), np.uint8)
    for seed in range(5):
        patch = drawn_novelty_die(table, random.Random(seed), kind)
        assert patch.shape == (PATCH_SIZE, PATCH_SIZE, 3)
        assert patch.dtype == np.float32
        assert 0.0 <= patch.min() and patch.max() <= 1.0
