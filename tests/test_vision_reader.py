"""The dice reader on real photographs, bad input, calibration and the evaluate CLI.

The accuracy floors are a little under what the committed model measured on each full set (see
docs/vision.md; those are photos it was trained on, so the floors guard against a broken model
or pipeline, not against over-fitting: cross-validated figures are in the docs).
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import cocked, dataset, preprocess
from vision import reader as reader_module
from vision.calibration import COLOURS, Calibration, CalibrationError, colour_name, floor_colour, measure_gains
from vision.cocked import COCKED_LENGTH, body_shape
from vision.evaluate import ImageReadError, evaluate, load_image, pair_up
from vision.reader import DiceReader, ModelError
from vision.synthetic import relit

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "dice"
if not DATA.exists():
    DATA = Path(os.environ.get("CATAN_SHARED", "/work/shared")) / "data" / "dice"

#: (set, every n-th photo, floor on dice read right, floor on photos fully right, ceiling on invented)
FLOORS = [
    # measured with the committed models, 2026-11-23 13:00 UTC (the larger classifier, every second photo):
    # 100 % / 97.8 % / 0.75 %, 97.9 % / 89.0 % / 0.41 %, 80.1 % / 60.2 % / 3.75 % (N3VERS4YDIE is the weak
    # set: see docs/vision.md)
    ("matteop65-Dice_Detection_Recognition", 2, 0.97, 0.92, 0.03),
    ("nell-byler-dice_detection", 2, 0.95, 0.84, 0.015),
    ("N3VERS4YDIE-dice-recognition", 2, 0.75, 0.52, 0.06),
]

needs_data = pytest.mark.skipif(not DATA.exists(), reason=f"dice photos not found at {DATA}")


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


def _subset(folder: Path, every: int, tmp_path: Path) -> Path:
    """A folder in the same layout holding every n-th photo (links, not copies)."""
    for sub in ("images", "labels"):
        (tmp_path / sub).mkdir()
    for i, item in enumerate(dataset.list_images(folder)):
        if i % every == 0:
            (tmp_path / "images" / item.image_path.name).symlink_to(item.image_path)
            (tmp_path / "labels" / item.label_path.name).symlink_to(item.label_path)
    return tmp_path


@needs_data
@pytest.mark.parametrize("name,every,die_floor,image_floor,invented_ceiling", FLOORS)
def test_reads_real_photographs_above_the_measured_floor(reader, tmp_path, name, every, die_floor,
                                                         image_floor, invented_ceiling):
    result = evaluate(_subset(DATA / name, every, tmp_path), reader)
    assert result["dice"] > 100
    assert result["die_accuracy"] >= die_floor, result
    assert result["image_accuracy"] >= image_floor, result
    assert result["invented"] <= invented_ceiling, result


@needs_data
def test_a_photo_reads_the_labelled_faces(reader):
    folder = DATA / "matteop65-Dice_Detection_Recognition"
    item = next(i for i in dataset.list_images(folder) if i.image_path.name == "dice_1.jpg")
    image = load_image(item.image_path)
    truth = sorted(d.face for d in item.read_dice(image.shape[1], image.shape[0]))
    dice = reader.read(image)
    assert sorted(d.face for d in dice) == truth
    for die in dice:
        assert die.colour == "white"
        assert 0.0 < die.confidence <= 1.0
        x, y, w, h = die.box
        assert 0 <= x < image.shape[1] and 0 <= y < image.shape[0] and w > 5 and h > 5


@needs_data
@pytest.mark.parametrize("name", [row[0] for row in FLOORS])
def test_reading_clear_dice_once_changes_no_answer(reader, monkeypatch, name):
    """The speed shortcut (a clear upright reading is not re-read at the other turns) gives the
    same dice, faces and boxes as reading every die at every turn; 2026-11-23 it did on all 499
    photos with the committed model."""
    photos = dataset.list_images(DATA / name)[::6]
    quick = [[(d.face, d.box) for d in reader.read(cv2.imread(str(p.image_path)))] for p in photos]
    monkeypatch.setattr(reader_module, "CLEAR_READING", 2.0)  # no reading is clear: every turn
    thorough = [[(d.face, d.box) for d in reader.read(cv2.imread(str(p.image_path)))] for p in photos]
    assert sum(map(len, thorough)) > 50
    assert quick == thorough


def _counting_patches(reader: DiceReader, monkeypatch) -> list[int]:
    """Patches the reader's classifier reads from now on, call by call."""
    counts: list[int] = []
    read = reader._class_probabilities

    def counted(patches):
        counts.append(len(patches))
        return read(patches)
    monkeypatch.setattr(reader, "_class_probabilities", counted)
    return counts


@needs_data
def test_a_doubtful_die_settled_by_its_half_turn_is_not_read_at_the_quarter_turns(monkeypatch):
    """A die whose upright reading is doubtful is read at the half turn first, and at the quarter turns only when the
    two readings together are not clear (a speed measure, docs/performance.md): bench_vision's 2-dice photo, whose 5
    reads 0.89 upright and 0.92 with its half turn, costs 3 patches instead of 5; it and other photos read the same
    dice, faces and boxes as with all four turns."""
    photos = [load_image(DATA / "N3VERS4YDIE-dice-recognition" / "images" /
                         "00024_jpg.rf.228fc07206eb9c95351752f35dbc0256.jpg")]
    photos += [load_image(item.image_path) for item in dataset.list_images(DATA / "nell-byler-dice_detection")[::10]]
    reader = DiceReader()
    counts = _counting_patches(reader, monkeypatch)
    half_first = [[(d.face, d.box) for d in reader.read(photos[0])]]
    assert [face for face, _box in half_first[0]] == [2, 5]
    assert counts == [2, 1]  # the two dice upright, then the doubtful one's half turn: settled
    half_first += [[(d.face, d.box) for d in reader.read(photo)] for photo in photos[1:]]
    monkeypatch.setattr(reader_module, "HALF_TURN_FIRST", False)
    counts.clear()
    four_turns = [[(d.face, d.box) for d in reader.read(photos[0])]]
    assert counts == [2, 3]
    four_turns += [[(d.face, d.box) for d in reader.read(photo)] for photo in photos[1:]]
    assert four_turns == half_first and sum(map(len, half_first)) > 50


def test_a_large_shrink_averages_whole_blocks_first_then_the_rest():
    """preprocess.area_shrunk (a speed measure for big dice: their patch and their cocked tests' window, docs/
    performance.md): the image cut to a multiple of the whole factor, averaged block by block, then shrunk by the rest
    -- to the level on noise, where shrinking in one step mixes other pixels; the part shrunk is said, and a zoom
    over a half is one step."""
    noise = np.random.default_rng(5).integers(0, 256, (482, 482, 3), dtype=np.uint8)
    shrunk, used = preprocess.area_shrunk(noise, 32 / 200)
    assert used == (480, 480) and shrunk.shape == (77, 77, 3)
    blocks = np.rint(noise[:480, :480].reshape(80, 6, 80, 6, 3).mean(axis=(1, 3))).astype(np.uint8)
    expected = cv2.resize(blocks, (77, 77), interpolation=cv2.INTER_AREA)
    assert np.abs(shrunk.astype(int) - expected).max() <= 1
    assert np.abs(cv2.resize(noise, (77, 77), interpolation=cv2.INTER_AREA).astype(int) - expected).max() > 10
    small, used = preprocess.area_shrunk(noise[:100, :90], 0.7)
    assert used == (90, 100) and np.array_equal(small, cv2.resize(noise[:100, :90], (63, 70),
                                                                    interpolation=cv2.INTER_AREA))


@needs_data
def test_one_reader_reads_each_frame_as_a_new_reader_would():
    """The reader writes the detector's input into one buffer of its own frame after frame (a speed measure,
    docs/performance.md): frames of other sizes, a tray's cut and an empty tray in between leave nothing behind
    that changes a reading, to the last digit of a confidence; the buffer holds what a new blob would."""
    photos = [cv2.imread(str(item.image_path)) for name in ("nell-byler-dice_detection",
                                                            "matteop65-Dice_Detection_Recognition")
              for item in dataset.list_images(DATA / name)[:3]]
    frames = photos + [np.full((640, 640, 3), 200, np.uint8)] + photos[::-1]
    calibration = Calibration(tray=(0.2, 0.1, 0.9, 0.8))  # a cut enlarged: the canvas's grey round it
    for make in (lambda: DiceReader(), lambda: DiceReader(calibration=calibration)):
        kept = make()
        assert [kept.read_all(frame) for frame in frames] == [make().read_all(frame) for frame in frames]
    buffer = np.full((1, 3, 320, 320), 7.0, np.float32)
    for frame in photos:
        blob, scale = preprocess.detector_input(frame)
        into, same_scale = preprocess.detector_input(frame, out=buffer)
        assert into is buffer and same_scale == scale and np.array_equal(blob, buffer)


@needs_data
def test_the_cocked_tests_sharing_a_dies_window_answer_as_each_alone(reader):
    """An overhead camera's two cocked tests of a die work out the window round it once per frame (``windows``, a
    speed measure): each answers as it does alone, for the dice read in photos of the tray and tower sets and for
    boxes of half and a third their size round the same middles (below 32 px the two tests see the window at
    different scales and must not share it)."""
    photos = [cv2.imread(str(item.image_path)) for name in ("nell-byler-dice_detection", "N3VERS4YDIE-dice-recognition")
              for item in dataset.list_images(DATA / name)[:3]]
    small = standing_out = shared = 0
    for image in photos:
        windows: dict = {}
        dice = reader.read(image)
        for die in dice:
            x, y, w, h = die.box
            others = [d.centre for d in dice if d is not die][:3]
            for part in (1, 2, 3):
                box = (x + w // 2 - w // (2 * part), y + h // 2 - h // (2 * part), w // part, h // part)
                alone = (cocked.looks_cocked(image, box, others), cocked.looks_cocked_at_any_angle(image, box, others),
                         cocked.top_face_shape(image, box, others))
                before = len(windows)
                together = (cocked.looks_cocked(image, box, others, windows),
                            cocked.looks_cocked_at_any_angle(image, box, others, windows),
                            cocked.top_face_shape(image, box, others, windows))
                assert together == alone, box
                small += max(box[2:]) < cocked.SHAPE_SIDE
                standing_out += alone[2] is not None
                shared += len(windows) - before == 1  # one window worked out for the three looks
    assert small > 10 and standing_out > 10 and shared > 10


@pytest.mark.parametrize("frame", [
    np.zeros((640, 640, 3), np.uint8),
    np.full((480, 640, 3), 255, np.uint8),
    np.full((640, 640, 3), 128, np.uint8),
    np.zeros((8, 8, 3), np.uint8),
    np.full((300, 200), 90, np.uint8),  # grey
    np.zeros((100, 100, 4), np.uint8),  # BGRA
], ids=["black", "white", "grey", "tiny", "single-channel", "bgra"])
def test_a_blank_frame_has_no_dice(reader, frame):
    assert reader.read(frame) == []


def test_noise_is_not_dice(reader):
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 256, (640, 640, 3), dtype=np.uint8)
    assert len(reader.read(noise)) <= 1  # a die or so may be imagined in pure noise, never a roll's worth


@pytest.mark.parametrize("bad", [None, "frame.jpg", np.zeros((0, 10, 3), np.uint8), np.zeros((4, 4, 2), np.uint8)])
def test_what_is_not_an_image_is_a_clear_error(reader, bad):
    with pytest.raises(ValueError, match="frame must"):
        reader.read(bad)


def test_a_corrupt_image_file_is_a_clear_error(tmp_path):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 this is not really a jpeg")
    with pytest.raises(ImageReadError, match="broken.jpg.*corrupt"):
        load_image(broken)
    with pytest.raises(ImageReadError, match="no such image"):
        load_image(tmp_path / "missing.jpg")


def test_evaluate_cli_names_a_corrupt_photo_and_a_bad_folder(tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "images" / "a.jpg").write_bytes(b"garbage")
    (tmp_path / "labels" / "a.txt").write_text("2 0.5 0.5 0.1 0.1\n")
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(tmp_path)], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "a.jpg" in run.stderr and "corrupt" in run.stderr
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(tmp_path / "nowhere")], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "images/ and labels/" in run.stderr


def test_a_bad_label_line_names_file_and_line(tmp_path):
    label = tmp_path / "x.txt"
    label.write_text("1 0.5 0.5 0.1 0.1\n7 0.5 0.5 0.1 0.1\n")
    with pytest.raises(dataset.LabelError, match=r"x.txt:2: class 7"):
        dataset.read_label_file(label, 640, 640)


@needs_data
def test_evaluate_cli_json_has_the_documented_keys(tmp_path):
    folder = DATA / "matteop65-Dice_Detection_Recognition"
    subset = _subset(folder, 20, tmp_path)
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(subset), "--json"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert set(result) == {"dice", "die_accuracy", "image_accuracy", "missed", "invented", "ms_per_frame_median",
                           "corrections", "asked", "uncountable", "guessed"}
    assert result["uncountable"] == result["guessed"] == 0  # no '?' die without corrections
    assert result["corrections"] is None  # scored as the data says unless asked
    assert result["dice"] > 0
    for key in ("die_accuracy", "image_accuracy", "missed", "invented"):
        assert 0.0 <= result[key] <= 1.0
    assert result["ms_per_frame_median"] > 0


@needs_data
def test_max_dice_scores_only_the_photos_of_a_few_dice(reader, tmp_path):
    """The sets hold crowd photos of up to 48 dice; ``--max-dice 2`` scores the photos a Catan roll gives."""
    subset = _subset(DATA / "nell-byler-dice_detection", 3, tmp_path)
    lines = {label.stem: sum(1 for line in label.read_text().splitlines() if line.strip())
             for label in (subset / "labels").iterdir()}
    few = {name for name, count in lines.items() if count <= 2}
    assert 0 < len(few) < len(lines)
    result = evaluate(subset, reader, max_dice=2)
    assert {Path(s.name).stem for s in result["_scores"]} == few
    assert result["dice"] == sum(lines[name] for name in few)
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(subset), "--max-dice", "0"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--max-dice must be 1 or more, got 0" in run.stderr


@needs_data
def test_min_die_px_scores_only_photos_whose_every_die_is_that_large_and_each_set_on_its_own(reader, tmp_path):
    """The issue's goals are stated for photos of at most 4 dice of at least 24 px each: ``--max-dice 4
    --min-die-px 24`` scores exactly those, and several folders (the three sets) are scored each on its own."""
    (tmp_path / "mixed").mkdir(), (tmp_path / "desk").mkdir()
    subset = _subset(DATA / "N3VERS4YDIE-dice-recognition", 4, tmp_path / "mixed")
    wanted, dice = set(), 0
    for item in dataset.list_images(subset):
        height, width = load_image(item.image_path).shape[:2]
        labelled = item.read_dice(width, height)
        if len(labelled) <= 4 and all(min(d.box[2], d.box[3]) >= 24 for d in labelled):
            wanted.add(item.image_path.name)
            dice += len(labelled)
    assert 0 < len(wanted) < len(dataset.list_images(subset))  # some photos hold dice under 24 px, some not
    result = evaluate(subset, reader, max_dice=4, min_die_px=24)
    assert {s.name for s in result["_scores"]} == wanted and result["dice"] == dice
    desk = _subset(DATA / "matteop65-Dice_Detection_Recognition", 20, tmp_path / "desk")
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(subset), str(desk), "--json",
                          "--max-dice", "4", "--min-die-px", "24"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    per_set = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(per_set) == 2 and per_set[0]["dice"] == dice
    assert per_set[0]["die_accuracy"] == pytest.approx(result["die_accuracy"])
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(subset), "--min-die-px", "-3"], cwd=ROOT,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--min-die-px must be a size in pixels above 0, got -3" in run.stderr


@needs_data
def test_evaluate_and_read_use_a_tables_calibration(tmp_path):
    """Scored as the table reads: with only purple dice counting, the white desk dice are all missed; a
    damaged or missing calibration file is named, nothing scored."""
    subset = _subset(DATA / "matteop65-Dice_Detection_Recognition", 20, tmp_path)
    purple = Calibration(colours=("purple",)).save(tmp_path / "purple.json")
    run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(subset), "--json", "--calibration",
                          str(purple)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["dice"] > 0 and result["missed"] == 1.0 and result["die_accuracy"] == 0.0
    photo = next((subset / "images").iterdir())
    run = subprocess.run([sys.executable, "-m", "vision", "read", str(photo), "--calibration", str(purple)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.strip() == f"{photo}: no dice", run.stdout + run.stderr
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"overhead": 1}')
    for bad, says in ((damaged, "damaged.json: overhead must be true or false"),
                      (tmp_path / "none.json", "no calibration file")):
        run = subprocess.run([sys.executable, "-m", "vision", "evaluate", str(subset), "--calibration", str(bad)],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert run.returncode == 1 and says in run.stderr and run.stdout == "", run.stderr


def test_a_missing_model_names_the_file(tmp_path):
    with pytest.raises(ModelError, match="detector.onnx"):
        DiceReader(tmp_path)
    (tmp_path / "detector.onnx").write_bytes(b"not a model")
    (tmp_path / "faces.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelError, match="cannot load"):
        DiceReader(tmp_path)


# ---------------------------------------------------------------- calibration

@needs_data
def test_calibration_ignores_dice_outside_the_tray_and_of_other_colours():
    folder = DATA / "matteop65-Dice_Detection_Recognition"
    image = load_image(folder / "images" / "dice_1.jpg")
    everywhere = DiceReader().read(image)
    assert everywhere
    left_half = DiceReader(calibration=Calibration(tray=(0.0, 0.0, 0.5, 1.0))).read(image)
    assert all(d.centre[0] <= image.shape[1] / 2 for d in left_half)
    assert len(left_half) < len(everywhere) or all(d.centre[0] <= image.shape[1] / 2 for d in everywhere)
    assert DiceReader(calibration=Calibration(colours=("red",))).read(image) == []


@needs_data
def test_a_slanted_tray_leaves_out_the_dice_on_the_table_beside_it():
    """A camera at an angle sees the tray as a trapezoid: dice beside its slanted sides, inside the rectangle
    round it, are not read."""
    image = load_image(DATA / "nell-byler-dice_detection" / "images" / "IMG_20191208_111642.jpg")
    height, width = image.shape[:2]
    everywhere = DiceReader().read(image)
    trapezoid = Calibration(tray=((0.3, 0.15), (0.7, 0.15), (0.9, 0.8), (0.1, 0.8)))
    rectangle = Calibration(tray=trapezoid.bounds)
    inside = [d for d in everywhere if trapezoid.in_tray(d.centre[0] / width, d.centre[1] / height)]
    beside = [d for d in everywhere if rectangle.in_tray(d.centre[0] / width, d.centre[1] / height)
              and d not in inside]
    assert inside and beside, "the photo no longer shows the case under test"
    read = DiceReader(calibration=trapezoid).read(image)
    # The same dice, the same faces (the detector, reading the tray alone, places them a pixel or two apart).
    assert len(read) == same_dice(read, inside) == len(inside)


def same_dice(read: list, expected: list) -> int:
    """How many dice of ``expected`` are read in ``read``, with the same face, where the evaluation's rule
    pairs them (a read centre within the die's box grown by a quarter)."""
    return sum(read[j].face == expected[i].face for i, j in pair_up(expected, [d.centre for d in read]))


@needs_data
@pytest.mark.parametrize("across", [3, 5], ids=["a third of the view", "a fifth of a 3200 px view"])
def test_a_small_tray_in_a_wide_view_is_read_as_closely_as_a_photo_of_it(across):
    """A camera on a stand sees the board and the table round the tray: in the whole frame shrunk to the
    detector's input the dice are a few pixels across.  With the tray calibrated the detector reads the
    tray alone, enlarged -- in a large frame at its full resolution (a tray a fifth of a 3200 px view read
    at three times the whole frame's shrink lost 25 of 197 dice over 12 tray photos; at full resolution 0)."""
    image = load_image(DATA / "nell-byler-dice_detection" / "images" / "IMG_20191208_111642.jpg")
    alone = DiceReader().read(image)
    height, width = image.shape[:2]
    table = np.empty((across * height, across * width, 3), np.uint8)
    table[:] = (60, 90, 130)  # a wooden table
    middle = across // 2
    table[middle * height:(middle + 1) * height, middle * width:(middle + 1) * width] = image
    tray = Calibration(tray=(middle / across, middle / across, (middle + 1) / across, (middle + 1) / across))
    in_the_view = DiceReader(calibration=tray).read(table)
    moved_back = [dataclasses.replace(d, box=(d.box[0] - middle * width, d.box[1] - middle * height, d.box[2],
                                              d.box[3])) for d in in_the_view]
    assert len(alone) >= 6 and same_dice(moved_back, alone) >= len(alone) - 1 and len(moved_back) <= len(alone) + 1
    # Without the tray the same view loses most of them (the case the tray crop is for).
    whole_view = [d for d in DiceReader().read(table) if tray.in_tray(d.centre[0] / table.shape[1], d.centre[1] / table.shape[0])]
    assert len(whole_view) < len(alone) / 2


#: Lights a room may change to after the table was calibrated: per-channel (B, G, R) factors.
LATER_LIGHTS = {"a warm lamp": (0.7, 0.95, 1.25), "a cold window": (1.25, 1.0, 0.8), "dusk": (0.35, 0.45, 0.6)}


def same_colours(before: list, after: list) -> int:
    """How many dice of ``before`` are read again, at the same place, in the same colour in ``after``."""
    return sum(any(abs(o.centre[0] - d.centre[0]) < d.box[2] / 2 and abs(o.centre[1] - d.centre[1]) < d.box[3] / 2
                   and o.colour == d.colour for o in after) for d in before)


def colours_kept(lights: dict, readers_for, photos: int = 15) -> tuple[dict, int]:
    """Over the first ``photos`` tray photos: for each light (name -> gains for :func:`vision.synthetic.relit`),
    how many dice each reader of ``readers_for(floor)`` reads again in their colour under it (the floor:
    the photo's floor colour as a calibration stores it); and the number of dice."""
    plain = DiceReader()
    kept: dict = {}
    total = 0
    for item in dataset.list_images(DATA / "nell-byler-dice_detection")[:photos]:
        image = load_image(item.image_path)
        dice = plain.read(image)
        readers = readers_for(floor_colour(image, exclude=[d.box for d in dice]))
        total += len(dice)
        for light, gains in lights.items():
            lit = relit(image, *gains)
            counts = kept.setdefault(light, [0] * len(readers))
            for k, reader in enumerate(readers):
                counts[k] += same_colours(dice, reader.read(lit))
    return kept, total


@needs_data
def test_die_colours_are_named_alike_when_the_light_changes_after_calibration():
    """The tray's floor colour stored at calibration lets the reader undo a later change of light when it names
    colours: on 15 tray photos, at least 90 % of the dice keep their colour under each light (measured over all
    146: 96-97 %, bench/bench_light_change.py), against 37-86 % without it."""
    kept, total = colours_kept({light: (gains,) for light, gains in LATER_LIGHTS.items()},
                               lambda floor: (DiceReader(), DiceReader(calibration=Calibration(floor=floor))))
    for light, (without, with_floor) in kept.items():
        assert with_floor >= 0.9 * total and without <= 0.8 * total, (light, without, with_floor, total)


@needs_data
def test_a_die_colour_is_corrected_by_the_light_where_it_lies():
    """A lamp on one half of the tray, or one half in shadow: each die's colour is corrected by the tray's
    floor round it, not by the whole tray's (lit half and half, right for neither half). On 15 tray photos at
    least 90 % of the dice keep their colour name under each such light, and 5 points more than corrected by
    the whole tray's floor (over all 146: bench/bench_light_change.py)."""
    uneven = {"a warm lamp on the left half": ((0.8, 1.05, 1.4), (1.0, 1.0, 1.0), 0.2),
              "the left half in shadow": ((0.45, 0.45, 0.5), (1.0, 1.0, 1.0), 0.1)}

    def readers(floor):
        whole, near = DiceReader(calibration=Calibration(floor=floor)), DiceReader(calibration=Calibration(floor=floor))
        whole.floor_reach = 0.0  # the whole tray's floor for every die, as before
        return whole, near

    kept, total = colours_kept(uneven, readers)
    for light, (by_whole_tray, by_own_floor) in kept.items():
        assert by_own_floor >= 0.9 * total and by_own_floor >= by_whole_tray + 0.05 * total, \
            (light, by_whole_tray, by_own_floor, total)


@needs_data
def test_the_games_dice_still_count_at_dusk():
    """Calibrated to count yellow and red dice: at dusk the same dice are read, faces and all, not dropped for
    a colour the dim orange light gave them."""
    image = load_image(DATA / "nell-byler-dice_detection" / "images" / "IMG_20191208_111328.jpg")
    colours = ("yellow", "red")
    counted = DiceReader(calibration=Calibration(colours=colours)).read(image)
    assert len(counted) >= 4, "the photo no longer shows the case under test"
    floor = floor_colour(image, exclude=[d.box for d in DiceReader().read(image)])
    dusk = np.clip(image * np.array(LATER_LIGHTS["dusk"]), 0, 255).astype(np.uint8)
    faces = lambda dice: sorted((d.face, d.colour) for d in dice)  # noqa: E731
    assert faces(DiceReader(calibration=Calibration(colours=colours, floor=floor)).read(dusk)) == faces(counted)
    assert faces(DiceReader(calibration=Calibration(colours=colours)).read(dusk)) != faces(counted)


def test_calibration_is_stored_and_bad_files_are_named(tmp_path):
    path = tmp_path / "cal.json"
    cal = Calibration(tray=(0.1, 0.2, 0.9, 0.8), colours=("red", "yellow"), gains=(1.1, 1.0, 0.9), overhead=True)
    cal.save(path)
    assert Calibration.load(path) == cal
    path.write_text('{"tray": [0, 0, 1, 1]}')  # a file from before "overhead" existed: an angled camera
    assert Calibration.load(path).overhead is False
    assert Calibration.load(path).floor is None  # ...and from before the floor was stored: colours as seen
    lit = Calibration(floor=(120, 140.5, 160))
    lit.save(path)
    assert Calibration.load(path) == lit and Calibration.load(path).floor == (120.0, 140.5, 160.0)
    for floor in ("[0, 10, 10]", "[10, 10]", '"grey"'):
        path.write_text('{"floor": %s}' % floor)
        with pytest.raises(CalibrationError, match="cal.json: .*floor"):
            Calibration.load(path)
    path.write_text('{"overhead": "yes"}')
    with pytest.raises(CalibrationError, match="cal.json: overhead must be true or false, got 'yes'"):
        Calibration.load(path)
    assert Calibration.load(tmp_path / "none.json") == Calibration()
    path.write_text('{"tray": [0.5, 0, 0.2, 1]}')
    with pytest.raises(CalibrationError, match="tray"):
        Calibration.load(path)
    path.write_text("{oops")
    with pytest.raises(CalibrationError, match="cal.json: not JSON"):
        Calibration.load(path)
    with pytest.raises(CalibrationError, match="unknown die colour"):
        Calibration(colours=("mauve",))


@needs_data
def test_an_overhead_camera_does_not_take_two_dice_of_one_colour_lying_together_for_a_cocked_die():
    """Two red dice side by side make one oblong red body, the shape of a cocked die; it runs into the
    other die read, so neither is made unsure (on all 146 overhead tray photos 2 of 1,001 flat dice are)."""
    image = load_image(DATA / "nell-byler-dice_detection" / "images" / "IMG_20191208_112342.jpg")
    plain = DiceReader().read(image)
    oblong = [d for d in plain if (shape := body_shape(image, d.box)) and shape[0] >= COCKED_LENGTH]
    assert {d.colour for d in oblong} >= {"red"}, "the photo no longer shows the case under test"
    assert DiceReader(calibration=Calibration(overhead=True)).read(image) == plain


def test_lighting_gains_make_a_warm_dim_tray_neutral():
    warm = np.zeros((60, 80, 3), np.uint8)
    warm[:] = (60, 90, 140)  # BGR: dim and orange
    gains = measure_gains(warm)
    corrected = Calibration(gains=gains).correct_lighting(warm)
    b, g, r = corrected.reshape(-1, 3).mean(axis=0)
    assert abs(b - g) < 3 and abs(g - r) < 3 and 140 < g < 160


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.floats(0, 0.45), st.floats(0, 0.45), st.floats(0.55, 1), st.floats(0.55, 1)),
       st.lists(st.sampled_from(COLOURS), unique=True, max_size=3))
def test_calibration_json_round_trips(tray, colours):
    cal = Calibration(tray=tray, colours=tuple(colours), overhead=len(colours) % 2 == 1)
    assert Calibration.from_json(cal.to_json()) == cal


@pytest.mark.parametrize("bgr,name", [((250, 250, 250), "white"), ((20, 20, 20), "black"),
                                      ((40, 40, 200), "red"), ((30, 210, 230), "yellow"),
                                      ((60, 180, 40), "green"), ((200, 90, 30), "blue"), ((128, 128, 128), "grey")])
def test_colour_names(bgr, name):
    assert colour_name(bgr) == name


@settings(max_examples=80, deadline=None)
@given(st.integers(-40, 80), st.integers(-40, 80), st.integers(1, 90), st.booleans())
def test_a_die_window_past_the_frame_edge_repeats_the_edge_pixels(x0, y0, size, colour):
    from vision.preprocess import _window

    rng = np.random.default_rng(size)
    image = rng.integers(0, 256, (50, 60, 3) if colour else (50, 60), dtype=np.uint8)
    xs = np.clip(np.arange(x0, x0 + size), 0, 59)
    ys = np.clip(np.arange(y0, y0 + size), 0, 49)
    assert np.array_equal(_window(image, x0, y0, size), image[np.ix_(ys, xs)])


def dimmed(image: np.ndarray, light: float, noise: float = 2.0, seed: int = 0) -> np.ndarray:
    """``image`` at ``light`` of its light, with a camera's noise (grey levels, one sigma) on top."""
    rng = np.random.default_rng(seed)
    return np.clip(image.astype(np.float32) * light + rng.normal(0, noise, image.shape), 0, 255).astype(np.uint8)


@needs_data
@pytest.mark.parametrize("name, photo", [
    ("nell-byler-dice_detection", "IMG_20191208_111328.jpg"),
    ("matteop65-Dice_Detection_Recognition", "four_43.jpg"),  # (its "dice_" sequence of small dice: see the bench)
])
def test_a_dim_table_is_read_as_if_it_were_lit(reader, monkeypatch, name, photo):
    """An evening table at 15 % of the light (the brightest part of the picture ~30 grey levels): read as the
    lit photo reads, faces and colours; without the lift the same picture loses most of its dice."""
    item = next(i for i in dataset.list_images(DATA / name) if i.image_path.name == photo)
    image = load_image(item.image_path)
    lit = sorted((d.face, d.colour) for d in reader.read(image))
    dim = dimmed(image, 0.15)
    assert reader_module.exposure.frame_gain(dim) > 5
    assert len(lit) >= 3 and sorted((d.face, d.colour) for d in reader.read(dim)) == lit
    monkeypatch.setattr(reader_module.exposure, "lifted", lambda picture, gain: picture)  # read as it came
    assert sorted((d.face, d.colour) for d in reader.read(dim)) != lit  # dice lost, or all named "black"


@needs_data
def test_no_photo_of_the_sets_at_its_own_light_is_lifted():
    """The lift is for dim tables only: every photo of the three sets, as taken, is read as it is."""
    from vision.exposure import frame_gain

    lifted = [item.image_path.name for folder in sorted(DATA.iterdir()) if (folder / "images").is_dir()
              for item in dataset.list_images(folder) if frame_gain(load_image(item.image_path)) != 1.0]
    assert lifted == []
