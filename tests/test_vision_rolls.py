"""Roll detection on synthetic videos made from real dice photographs.

An empty tray is a real photo (nell-byler set) with its dice painted out; the dice are real crops
from labelled photos.  A crop is used only if the reader reads it right, and surely, in its own
photo: these tests are about *when* a roll is reported (never while moving, exactly once per
settled roll, a re-roll for a crooked die), the reader's accuracy is measured in
test_vision_reader.py.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import dataset
from vision.calibration import Calibration
from vision.cocked import looks_cocked_at_any_angle
from vision.reader import DiceReader, as_read
from vision.rolls import Phase, RollDetector
from vision.synthetic import SequenceBuilder, cocked_dice, studio_tray_and_crops

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice"
if not DATA.exists():
    DATA = Path(os.environ.get("CATAN_SHARED", "/work/shared")) / "data" / "dice"
TRAY_SET = DATA / "nell-byler-dice_detection"

pytestmark = pytest.mark.skipif(not TRAY_SET.exists(), reason=f"dice photos not found at {TRAY_SET}")


@pytest.fixture(scope="module")
def reader() -> DiceReader:
    return DiceReader()


@pytest.fixture(scope="module")
def pool(reader):
    """An empty tray and real die crops that the reader reads right, and surely, in their photos."""
    return studio_tray_and_crops(reader, dataset.list_images(TRAY_SET)[:60])


@pytest.fixture(scope="module")
def studio(pool):
    """The empty tray and, for each face, the first three sure crops of it."""
    tray, crops = pool
    by_face = {face: [c for c in crops if c.face == face][:3] for face in range(1, 7)}
    assert all(by_face.values()), {f: len(c) for f, c in by_face.items()}
    return tray, by_face


def run(detector: RollDetector, frames: list[np.ndarray]):
    """Feed the frames; return [(frame index, event)] and the phase seen at each frame."""
    events, phases = [], []
    for index, frame in enumerate(frames):
        event = detector.feed(frame, at=float(index))
        phases.append(detector.phase)
        if event is not None:
            events.append((index, event))
    return events, phases


def test_tumbling_then_settling_is_one_roll_reported_after_the_dice_stop(reader, studio):
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=1).still(8)
    builder.throw(by_face, (3, 5), [(250, 300), (380, 340)])
    settled_at = len(builder.frames)
    builder.still(15)
    detector = RollDetector(reader)
    events, phases = run(detector, builder.frames)
    assert [(e.kind, sorted(e.faces)) for _, e in events] == [("roll", [3, 5])]
    assert detector.camera_moves == 0  # the dice moved, not the camera
    index, event = events[0]
    assert index >= settled_at, "a roll was reported while the dice were still moving"
    assert 0.5 <= event.confidence <= 1.0
    assert Phase.MOVING in phases[8:settled_at]


@pytest.mark.parametrize("faces", [(1, 6), (2, 4), (6, 6)])
def test_each_settled_roll_is_reported_exactly_once(reader, studio, faces):
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=sum(faces)).still(6)
    builder.throw(by_face, (4, 2), [(200, 200), (420, 260)]).still(12)
    builder.throw(by_face, faces, [(300, 420), (450, 380)], pick=1).still(30)
    events, _ = run(RollDetector(reader), builder.frames)
    assert [(e.kind, sorted(e.faces)) for _, e in events] == [("roll", [2, 4]), ("roll", sorted(faces))]


def test_a_hand_passing_over_settled_dice_is_not_a_roll(reader, studio):
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=3).still(5)
    builder.throw(by_face, (5, 1), [(260, 250), (400, 330)]).still(10)
    before = len(builder.frames)
    builder.hand_pass(count=14).still(15).shake_camera().still(15)
    events, phases = run(RollDetector(reader), builder.frames)
    assert [(i < before, e.kind) for i, e in events] == [(True, "roll")]
    assert Phase.MOVING in phases[before:]  # the hand was seen, and ignored


def test_a_hand_on_the_table_beside_a_slanted_tray_is_not_motion_in_it(reader, studio):
    """Seen at an angle the tray is a trapezoid; a hand reaching for the board in the corner of the rectangle
    round it does not hold up the reading (nor make a roll): with the rectangle it would."""
    tray, by_face = studio
    height, width = tray.shape[:2]
    builder = SequenceBuilder(tray, seed=5).still(5)
    builder.throw(by_face, (4, 2), [(260, 250), (400, 330)]).still(10)
    before = len(builder.frames)
    builder.hand_along([(60 + 6 * i, 110) for i in range(12)], scale=0.4).still(15)
    trapezoid = Calibration(tray=((0.35, 0.05), (0.65, 0.05), (0.98, 0.95), (0.02, 0.95)))
    x0, y0, x1, y1 = trapezoid.tray_pixels(width, height)
    assert x0 < 60 - 28 and y0 < 110 - 68, "the hand must move inside the rectangle round the tray"
    for calibration, hand_seen in ((trapezoid, False), (Calibration(tray=trapezoid.bounds), True)):
        events, phases = run(RollDetector(reader, calibration=calibration), builder.frames)
        assert [(i < before, e.kind, sorted(e.faces)) for i, e in events] == [(True, "roll", [2, 4])]
        assert (Phase.MOVING in phases[before:]) == hand_seen


@pytest.mark.parametrize("dx,dy,degrees,light", [(60, 30, 0, 1.0), (30, 15, 5, 1.0), (-100, 20, 2, 1.0),
                                                 (60, 30, 0, 0.15), (-100, 20, 2, 0.15)])
def test_a_knocked_camera_is_not_a_roll_and_the_next_roll_is_read(reader, studio, dx, dy, degrees, light):
    """The tablet's stand knocked: the whole view shifts and turns, and stays so.  Every die lies somewhere
    new, where motion passed: without following the camera that was a second roll of the same faces (or a
    re-roll request) for 45 of 60 such knocks (bench/bench_camera_knock.py).  At an evening table (15 % of the
    light, a camera's noise) too: the view compared is lifted (without, each such knock was a second roll)."""
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=6).still(8)
    builder.throw(by_face, (3, 5), [(250, 300), (380, 340)]).still(12)
    builder.knock_camera(dx, dy, degrees).still(12)
    knocked = len(builder.frames)
    builder.throw(by_face, (6, 2), [(300, 260), (420, 330)], pick=1).still(12)
    detector = RollDetector(reader)
    rng = np.random.default_rng(0)
    frames = builder.frames if light == 1.0 else [
        np.clip(f.astype(np.float32) * light + rng.normal(0, 2, f.shape), 0, 255).astype(np.uint8)
        for f in builder.frames]
    events, _ = run(detector, frames)
    assert [(i >= knocked, e.kind, sorted(e.faces)) for i, e in events] == [(False, "roll", [3, 5]),
                                                                          (True, "roll", [2, 6])]
    assert detector.camera_moves == 1


def test_dice_picked_up_and_put_back_in_place_are_not_a_roll(reader, studio):
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=4).still(5)
    builder.throw(by_face, (6, 2), [(220, 260), (380, 300)]).still(10)
    resting = builder.resting
    builder.pick_up().still(20)  # the tray is empty for a while (long enough to be read empty)
    builder.resting = resting
    builder.hand_pass(count=8).still(15)  # ...and the same dice are put back where they lay
    events, _ = run(RollDetector(reader), builder.frames)
    kinds = [e.kind for _, e in events]
    assert kinds.count("roll") == 1, kinds


def cocked_roll(tray, by_face, leaning, flat, seed: int) -> list[np.ndarray]:
    """Two dice tumble in; one settles flat at the left, the cocked one at (400, 300)."""
    builder = SequenceBuilder(tray, seed=seed).still(5)
    tumbling = [[by_face[f][0] for f in (1, 2, 3)] for _ in range(2)]
    builder.tumble(tumbling, [(240, 300), (400, 300)], count=16, settle=[flat, leaning]).still(15)
    return builder.frames


def seen_as_two_faces(reader, frames) -> bool:
    """Whether every settled frame has two or more finds where the cocked die lies (x > 320)."""
    return all(len([d for d in reader.read(frame) if d.centre[0] > 320]) >= 2 for frame in frames[-5:])


def test_a_crooked_die_seen_as_two_faces_asks_for_a_reroll(reader, studio, pool):
    """A cocked die the detector sees as two faces is a re-roll, never a roll.  When it boxes the two
    halves far smaller than the flat die beside it -- dice of one game are one size, so small finds
    are dropped as specks, which used to leave a roll of whatever was left, or "1 die seen" -- the
    re-roll says a die is crooked."""
    tray, by_face = studio
    checked, small = 0, 0
    for index, (leaning, flat) in enumerate(cocked_dice(*pool, 40, seed=11)):
        frames = cocked_roll(tray, by_face, leaning, flat, seed=index)
        if not seen_as_two_faces(reader, frames):
            continue  # seen as one face and read as it: a known gap (docs/vision.md, bench)
        checked += 1
        events, _ = run(RollDetector(reader), frames)
        assert [e.kind for _, e in events] == ["reroll"], index
        settled = [reader.read(frame) for frame in frames[-5:]]
        if all(small_halves(reading) for reading in settled):
            small += 1
            assert "crooked" in events[0][1].reason, (index, settled[-1])
            assert events[0][1].reason_code == "cocked"
    assert checked >= 15 and small >= 3, (checked, small)


#: Cocked dice of ``cocked_dice(*pool, 20, seed=11)`` that the detector boxes as one face, which the
#: classifier reads: a guessed roll until the body's shape (an overhead camera) or the lit top face (any camera)
#: tells them.
SEEN_AS_ONE_FACE = (0, 10, 19)


@pytest.mark.parametrize("index", SEEN_AS_ONE_FACE)
def test_an_overhead_camera_catches_a_cocked_die_seen_as_one_face(reader, studio, pool, index):
    tray, by_face = studio
    leaning, flat = cocked_dice(*pool, 20, seed=11)[index]
    frames = cocked_roll(tray, by_face, leaning, flat, seed=index)
    assert not seen_as_two_faces(reader, frames), "no longer the case under test: pick other dice"
    overhead = DiceReader(calibration=Calibration(overhead=True))
    events, _ = run(RollDetector(overhead), frames)
    assert [(e.kind, e.reason) for _, e in events] == [("reroll", "1 die crooked or unreadable")]
    assert (events[0][1].reason_code, events[0][1].reason_params) == ("unreadable", (("count", 1),))


@pytest.mark.parametrize("index", [0, 10, 19])
def test_a_cocked_die_seen_as_one_face_asks_for_a_reroll_whatever_the_camera_angle(reader, studio, pool, index):
    """No calibration: the cocked die's lit top face runs past the one face the detector boxed (vision.cocked
    .looks_cocked_at_any_angle; a strict xfail for all three until 2026-11-26: each was a guessed roll; die 10, a
    dark navy die, until 2026-11-27: its top face's lightness varied more than the band, and the frames disagreed)."""
    tray, by_face = studio
    leaning, flat = cocked_dice(*pool, 20, seed=11)[index]
    events, _ = run(RollDetector(reader), cocked_roll(tray, by_face, leaning, flat, seed=index))
    assert [e.kind for _, e in events] == ["reroll"]


def test_a_cocked_die_seen_large_asks_for_a_reroll(reader, studio, pool):
    """The same cocked die (SEEN_AS_ONE_FACE[0]) three times as large, ~100 px (a camera close over the tray): the window
    round it is shrunk to 32 px a die side in two steps, a whole factor first (preprocess.area_shrunk, a speed
    measure), and the any-angle test still finds its top face running past the box: a re-roll, where without the
    test it is a guessed roll."""
    tray, by_face = studio
    leaning, flat = cocked_dice(*pool, 20, seed=11)[SEEN_AS_ONE_FACE[0]]
    frames = [cv2.resize(frame, None, fx=3, fy=3, interpolation=cv2.INTER_LINEAR)
              for frame in cocked_roll(tray, by_face, leaning, flat, seed=SEEN_AS_ONE_FACE[0])]
    assert min(max(d.box[2:]) for d in reader.read(frames[-1])) > 80
    events, _ = run(RollDetector(reader), frames)
    assert [e.kind for _, e in events] == ["reroll"]


#: Photos of a Catan roll's few dice from the two sets whose camera is not overhead (the desk's webcam at an angle
#: shows a side face of every flat die) or varies (N3VERS4YDIE): none of their flat dice read right is taken for cocked.
FEW_DICE = 4


def test_flat_dice_at_a_slant_are_not_taken_for_cocked(reader):
    checked = 0
    for name in ("matteop65-Dice_Detection_Recognition", "N3VERS4YDIE-dice-recognition"):
        items = [i for i in dataset.list_images(DATA / name) if 0 < len(i.read_dice(1, 1)) <= FEW_DICE][:40]
        for item in items:
            image = cv2.imread(str(item.image_path))
            labelled = item.read_dice(image.shape[1], image.shape[0])
            for die in reader.read(image):
                truth = [t for t in labelled if abs(die.centre[0] - t.centre[0]) < 0.625 * t.box[2]
                         and abs(die.centre[1] - t.centre[1]) < 0.625 * t.box[3]]
                if truth and die.face is None:
                    # unsure: was it the classifier's doubt, or the new shape test on a flat die?
                    others = [o.centre for o in reader.read(image) if o.box != die.box]
                    assert not looks_cocked_at_any_angle(as_read(image, reader.calibration), die.box, others), \
                        (item.image_path.name, die)
                checked += bool(truth)
    assert checked >= 100


def small_halves(reading) -> list:
    """The finds on the cocked die's side (x > 320) far smaller than the largest die read."""
    size = max(max(d.box[2:]) for d in reading)
    return [d for d in reading if d.centre[0] > 320 and max(d.box[2:]) < 0.7 * size]


def test_a_third_die_rolled_apart_is_a_reroll_that_says_how_many(reader, studio):
    tray, by_face = studio
    # Dice of one game are one size (a far smaller third "die" is taken for a speck): crops near 42 px.
    alike = [min(by_face[f], key=lambda crop: abs(crop.side - 42)) for f in (2, 5, 6)]
    builder = SequenceBuilder(tray, seed=8).still(5)
    builder.tumble([[by_face[f][0] for f in (2, 5, 1, 6)] for _ in alike], [(180, 200), (330, 420), (470, 250)],
                   count=18, settle=alike).still(15)
    events, _ = run(RollDetector(reader, expected_dice=2), builder.frames)
    assert [(e.kind, e.reason) for _, e in events] == [("reroll", "3 dice seen, expected 2")]
    # ...and says so in a form an app can put in its user's language
    assert (events[0][1].reason_code, dict(events[0][1].reason_params)) == ("count", {"seen": 3, "expected": 2})


def test_a_spare_die_lying_still_does_not_spoil_the_roll(reader, studio):
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=6).still(5)
    builder.throw(by_face, (1,), [(120, 150)]).still(10)  # a die left on the table
    spare = builder.resting
    builder.throw(by_face, (2, 6), [(330, 300), (450, 420)])
    builder.resting = spare + builder.resting
    builder.still(15)
    events, _ = run(RollDetector(reader, expected_dice=2), builder.frames)
    kinds = [(e.kind, sorted(e.faces)) for _, e in events]
    # the lone die is one die of two: a re-roll request, then the real roll
    assert kinds[-1] == ("roll", [2, 6]), kinds
    assert len([k for k in kinds if k[0] == "roll"]) == 1


def write_video(frames: list[np.ndarray], path: Path) -> Path:
    # MJPG in AVI: written and read by OpenCV's own code, no external codec needed.
    height, width = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (width, height))
    assert writer.isOpened()
    for frame in frames:
        writer.write(frame)
    writer.release()
    return path


def play_through_camera_source(path: Path):
    """The rolls and status changes of a ``camera://`` source reading the video to its end."""
    from companion.dice import SourceState, open_source

    rolls, states = [], []
    done = threading.Event()

    def on_status(status):
        states.append(status)
        if status.state in (SourceState.IDLE, SourceState.ERROR):
            done.set()

    source = open_source(f"camera://{path}")
    source.data_dir = path.parent  # no calibration saved there: the whole picture is read
    source.start(rolls.append, on_status)
    assert done.wait(60), states
    source.stop()
    return rolls, states


def test_the_camera_source_reads_rolls_from_a_video_file(reader, studio, tmp_path):
    from companion.dice import SourceState

    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=7).still(6)
    builder.throw(by_face, (3, 4), [(240, 280), (400, 330)]).still(12)
    builder.throw(by_face, (6, 1), [(300, 200), (200, 420)], pick=1).still(12)
    rolls, states = play_through_camera_source(write_video(builder.frames, tmp_path / "tray.avi"))
    assert [(r.source, sorted(r.values)) for r in rolls] == [("camera", [3, 4]), ("camera", [1, 6])]
    assert all(0.25 <= r.confidence <= 1 for r in rolls)  # above the reader's floor
    assert SourceState.ROLLING in [s.state for s in states]
    assert states[-1].state == SourceState.IDLE
    assert not any(s.reroll for s in states)
    # Each roll arrives carrying what the camera saw -- its dice as read and its photos for the record -- so
    # nothing has to be fetched back from the source (stopped by now) by the roll's id.
    for roll in rolls:
        assert roll.picture.ndim == 3 and roll.picture.shape[1] > roll.picture.shape[0]  # two dice side by side
        assert roll.photo.tray.startswith(b"\xff\xd8") and roll.photo.dice.startswith(b"\xff\xd8")
        assert sorted(box[4] for box in roll.photo.boxes) == sorted(roll.values)


def test_a_camera_roll_after_the_app_restarts_is_recorded_not_dropped_as_a_repeat(studio, tmp_path):
    """Rolls carry their source's id so that one resent by a box is not applied twice. A camera source
    started again (the app restarted mid-game, or the source reopened) must not hand out the ids of the
    rolls it gave before: its first roll would be dropped as already recorded, and the players' dice
    silently ignored."""
    from companion.record.journal import Journal
    from companion.table import Table
    from companion.ui.driver import base_game_after_setup

    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=7).still(6)
    video = write_video(builder.throw(by_face, (3, 5), [(240, 280), (400, 330)]).still(12).frames,
                        tmp_path / "tray.avi")
    record, _game = base_game_after_setup()
    with Journal(tmp_path / "journal.sqlite3") as journal:
        table = Table.create(journal, record)
        for _session in range(2):  # the app, then the app started again with a new camera source
            (roll,), _states = play_through_camera_source(video)
            assert table.roll(roll) is not None, f"roll {roll.roll_id} dropped as already recorded"
            table.submit({"type": "end_turn"})
        assert [e["dice"] for e in table.record.events if e["type"] == "roll"][-2:] == [list(roll.values)] * 2


def test_the_tray_follows_a_knocked_camera(studio):
    """A table calibrated with a tight tray: after the camera is knocked 100 px aside, dice rolled against the
    tray's far wall lie outside the tray as calibrated; the tray moved with the camera, so they are read."""
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=9).still(8)
    builder.throw(by_face, (3, 5), [(250, 300), (380, 340)]).still(12)
    builder.knock_camera(100, 40, 2).still(12)
    knocked = len(builder.frames)
    builder.throw(by_face, (6, 2), [(300, 330), (450, 300)], pick=1).still(12)  # seen near (550, 340)
    calibration = Calibration(tray=(0.25, 0.3, 0.78, 0.75))
    assert not calibration.in_tray(550 / 640, 345 / 640), "the die against the wall must lie outside the old tray"
    detector = RollDetector(DiceReader(calibration=calibration))
    events, _ = run(detector, builder.frames)
    assert [(i >= knocked, e.kind, sorted(e.faces)) for i, e in events] == [(False, "roll", [3, 5]),
                                                                          (True, "roll", [2, 6])]
    x0, y0, x1, y1 = detector.calibration.bounds
    assert x0 == pytest.approx(0.25 + 100 / 640, abs=0.04) and x1 == pytest.approx(min(1.0, 0.78 + 100 / 640), abs=0.04)
    assert detector.reader.calibration.tray == detector.calibration.tray  # the reader reads the moved tray


def test_a_roll_thrown_as_the_camera_is_knocked_is_read_where_the_tray_now_is(studio):
    """The stand knocked by the arm that throws: the knock and the roll are one motion. The tray calibrated on
    its floor; a die settles against its far wall, outside the tray as calibrated once the view moved 60 px.
    The knock is told by the tray's rim (both dice rolled: nothing on the floor held still), the dice are
    read again where the tray now is, and the roll is the two dice thrown."""
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=9).still(8)
    builder.throw(by_face, (3, 5), [(250, 300), (380, 340)]).still(12)
    knocked = len(builder.frames)
    builder.knock_camera(60, 20, 2).throw(by_face, (6, 2), [(300, 330), (520, 300)], pick=1).still(12)
    calibration = Calibration(tray=(0.15, 0.2, 0.88, 0.77))
    far = max(DiceReader().read(builder.frames[-1]), key=lambda die: die.centre[0])
    assert not calibration.in_tray(far.centre[0] / 640, far.centre[1] / 640), "the far die must lie outside the old tray"
    detector = RollDetector(DiceReader(calibration=calibration))
    events, _ = run(detector, builder.frames)
    assert [(i >= knocked, e.kind, sorted(e.faces)) for i, e in events] == [(False, "roll", [3, 5]),
                                                                          (True, "roll", [2, 6])]
    assert detector.camera_moves == 1


def test_a_board_bumped_beside_the_tray_is_not_taken_for_a_knocked_camera(studio):
    """Knocks are told on the tray and a margin round it, where the board may lie. A busy board (a photo of a
    heap of dice) beside the tray, bumped 12 px, then a hand over the tray: no camera move is found, and the
    dice lying still are not a roll (a false camera move would carry them and report them rolled)."""
    tray, by_face = studio
    heap = max(dataset.list_images(DATA / "N3VERS4YDIE-dice-recognition"),
               key=lambda item: len(item.label_path.read_text().splitlines()))
    board = cv2.resize(cv2.imread(str(heap.image_path)), (360, 640))

    def table(bumped: int) -> np.ndarray:
        scene = np.full((640, 940, 3), 200, np.uint8)
        scene[:, :640], scene[:, 640:] = tray, board[:, 30 - bumped:330 - bumped]
        return scene

    builder = SequenceBuilder(table(0), seed=9).still(8)
    builder.throw(by_face, (3, 5), [(250, 300), (380, 340)]).still(12)
    builder.tray = table(12)  # the board pushed along the table
    builder.still(6).hand_pass().still(12)
    calibration = Calibration(tray=(58 / 940, 95 / 640, 640 / 940, 520 / 640))  # the tray's rim, the board's edge
    detector = RollDetector(DiceReader(calibration=calibration))
    events, _ = run(detector, builder.frames)
    assert [(e.kind, sorted(e.faces)) for _, e in events] == [("roll", [3, 5])]
    assert detector.camera_moves == 0


def test_the_camera_source_says_when_the_camera_was_knocked(reader, studio, tmp_path):
    from companion.ui.i18n import TEXT

    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=8).still(6)
    builder.throw(by_face, (3, 4), [(240, 280), (400, 330)]).still(12)
    builder.knock_camera(50, -20, 3).still(12)
    builder.throw(by_face, (6, 1), [(300, 200), (200, 420)], pick=1).still(12)
    rolls, states = play_through_camera_source(write_video(builder.frames, tmp_path / "knocked.avi"))
    assert [sorted(r.values) for r in rolls] == [[3, 4], [1, 6]]
    assert [s.reason for s in states].count("camera_moved") == 1 and not any(s.reroll for s in states)
    assert all(f"why_{s.reason}" in TEXT for s in states), states


#: A cocked die (of ``cocked_dice(..., 1, seed)``) that the detector sees as two faces.
CAMERA_COCKED_SEED = 1


def test_the_camera_source_marks_a_crooked_die_as_a_reroll(reader, studio, pool, tmp_path):
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=5).still(6)
    tumbling = [[by_face[f][0] for f in (1, 2, 3)] for _ in range(2)]
    (leaning, flat), = cocked_dice(*pool, 1, seed=CAMERA_COCKED_SEED)
    builder.tumble(tumbling, [(240, 300), (400, 300)], count=16, settle=[flat, leaning]).still(15)
    rolls, states = play_through_camera_source(write_video(builder.frames, tmp_path / "crooked.avi"))
    assert rolls == []
    rerolls = [s for s in states if s.reroll]
    assert len(rerolls) == 1 and "crooked" in rerolls[0].detail, states
    # The request to roll again carries the dice the camera saw and its photo, as a roll does.
    assert rerolls[0].picture is not None and rerolls[0].photo.tray.startswith(b"\xff\xd8")
    # Everything the camera said can be said in the app's other language too.
    from companion.ui.i18n import TEXT

    assert {s.reason for s in states} >= {"opening", "watching_uncalibrated", "moving", "still", "cocked",
                                          "end_of_video"}
    assert all(f"why_{s.reason}" in TEXT for s in states), states


def test_a_missing_video_file_is_a_clear_error(tmp_path):
    from companion.dice import SourceState, open_source

    states = []
    done = threading.Event()
    source = open_source(f"camera://{tmp_path}/nowhere.mp4")
    source.start(lambda roll: None, lambda s: (states.append(s), s.state == SourceState.ERROR and done.set()))
    assert done.wait(10)
    source.stop()
    assert "nowhere.mp4" in states[-1].detail and "no such video file" in states[-1].detail


def test_camera_urls_are_checked():
    from companion.dice import open_source

    with pytest.raises(ValueError, match="unknown option"):
        open_source("camera://0?fps=3")
    with pytest.raises(ValueError, match="whole number"):
        open_source("camera://0?dice=two")
    assert open_source("camera://0?dice=3").expected_dice == 3
    assert open_source("camera://0").spec == 0


def test_watch_writes_the_annotated_view_of_a_video(studio, tmp_path):
    import subprocess
    import sys

    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=8).still(4)
    builder.throw(by_face, (2, 5), [(240, 280), (400, 330)]).still(12)
    video = tmp_path / "in.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (tray.shape[1], tray.shape[0]))
    for frame in builder.frames:
        writer.write(frame)
    writer.release()
    out = tmp_path / "annotated.avi"
    run = subprocess.run([sys.executable, "-m", "vision", "watch", str(video), "--out", str(out),
                          "--calibration", str(tmp_path / "none.json")],
                         cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "roll: (2, 5)" in run.stdout or "roll: (5, 2)" in run.stdout
    capture = cv2.VideoCapture(str(out))
    assert int(capture.get(cv2.CAP_PROP_FRAME_COUNT)) == len(builder.frames)
    capture.release()
    run = subprocess.run([sys.executable, "-m", "vision", "watch", str(tmp_path / "nothing.avi"), "--out", str(out)],
                         cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1 and "nothing.avi: no such video file" in run.stderr


def test_the_camera_source_reports_a_damaged_calibration_file_by_name(tmp_path):
    """The app points the camera at its data directory; a broken calibration there is an error naming the
    file, not a silent fallback to an uncalibrated tray."""
    from companion.dice import SourceState, open_source

    (tmp_path / "vision-calibration.json").write_text('{"tray": [0.9, 0.1, 0.2')
    states = []
    done = threading.Event()
    source = open_source(f"camera://{tmp_path}/nowhere.mp4")
    source.data_dir = tmp_path
    source.start(lambda roll: None, lambda s: (states.append(s), s.state == SourceState.ERROR and done.set()))
    assert done.wait(10), states
    source.stop()
    assert "vision-calibration.json" in states[-1].detail


def test_the_picture_of_a_roll_shows_each_die_left_to_right_and_frames_an_unread_one_red():
    """``dice_picture``: what the app shows beside a roll or a request to roll again."""
    from vision.reader import Die
    from vision.watch import UNREAD_FRAME, dice_picture

    frame = np.zeros((200, 300, 3), np.uint8)
    frame[40:80, 200:240] = (255, 255, 255)  # a white die on the right
    frame[100:140, 20:60] = (0, 200, 0)  # a green die on the left, unread
    dice = [Die(4, "white", (200, 40, 40, 40), 0.9), Die(None, "green", (20, 100, 40, 40), 0.4)]
    picture = dice_picture(frame, dice, height=60, gap=4)
    assert picture.shape == (60, 2 * 60 + 4, 3)
    left, right = picture[:, :60], picture[:, 64:]
    assert tuple(left[30, 30]) == (0, 200, 0) and tuple(right[30, 30]) == (255, 255, 255)  # left to right
    assert tuple(left[1, 30]) == UNREAD_FRAME and tuple(right[1, 30]) != UNREAD_FRAME  # only the unread one
    assert dice_picture(frame, [], height=60).shape[0] == 60


def test_the_camera_source_shows_what_it_sees_with_the_dice_it_read(studio, tmp_path):
    """The app's camera view: the latest picture with the tray outlined and the dice lying still framed with
    their faces (a table wondering why a roll was not read looks at it), none drawn while the dice move."""
    import threading

    from companion.dice import SourceState, open_source

    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=7).still(6).throw(by_face, (3, 4), [(240, 280), (400, 330)]).still(12)
    source = open_source(f"camera://{write_video(builder.frames, tmp_path / 'tray.avi')}")
    source.data_dir = tmp_path
    assert source.view() is None  # no picture yet
    done, rolls = threading.Event(), []
    source.start(rolls.append, lambda s: s.state in (SourceState.IDLE, SourceState.ERROR) and done.set())
    assert done.wait(60)
    source.stop()
    view = source.view()  # a video that ended leaves its last picture
    assert [sorted(r.values) for r in rolls] == [[3, 4]]
    assert view.phase == "settled" and sorted(d.face for d in view.dice) == [3, 4]
    assert view.picture.shape == builder.frames[-1].shape
    for die in view.dice:  # each die framed green on the picture, where the frame itself has no such green
        x, y, w, h = die.box
        edge = view.picture[y, x:x + w].astype(int)
        assert (edge[:, 1] - edge[:, [0, 2]].max(axis=1) > 100).mean() > 0.8
    small = source.view(long_side=320)
    assert max(small.picture.shape[:2]) == 320

    # A dim table: the view shows the picture lifted as the reader reads it, not a dark screen.
    dim = [(frame * 0.15).astype(np.uint8) for frame in builder.frames]
    source = open_source(f"camera://{write_video(dim, tmp_path / 'dim.avi')}")
    source.data_dir, done = tmp_path, threading.Event()
    source.start(lambda roll: None, lambda s: s.state in (SourceState.IDLE, SourceState.ERROR) and done.set())
    assert done.wait(60)
    source.stop()
    view = source.view()
    assert sorted(d.face for d in view.dice) == [3, 4]
    assert view.picture.mean() > 3 * dim[-1].mean()


@pytest.mark.parametrize("noise", [2.0, 4.0])
def test_a_roll_on_a_dim_table_is_seen_and_read(reader, studio, noise):
    """At 15 % of the light (an evening lamp), with a camera's noise: the dice moving are seen as motion and
    the settled roll is read, once; a hand passing afterwards is no roll.  (Without the lift no such throw
    gave a roll: bench/bench_dim_table.py, docs/vision.md.)"""
    tray, by_face = studio
    builder = SequenceBuilder(tray, seed=4).still(8).throw(by_face, (2, 5), [(250, 300), (390, 330)])
    settled_at = len(builder.frames)
    builder.still(14).hand_pass().still(14)
    rng = np.random.default_rng(int(noise))
    frames = [np.clip(f.astype(np.float32) * 0.15 + rng.normal(0, noise, f.shape), 0, 255).astype(np.uint8)
              for f in builder.frames]
    events, phases = run(RollDetector(reader), frames)
    assert [(e.kind, sorted(e.faces)) for _, e in events] == [("roll", [2, 5])]
    assert events[0][0] >= settled_at and Phase.MOVING in phases[8:settled_at]


def test_a_camera_source_says_when_the_tray_is_too_dark_to_read_and_when_it_is_light_again(studio, tmp_path):
    """The light switched off (or the lens covered) at the table: the source says so instead of watching a black
    tray in silence, and when the light is back it says it watches again and reads the next roll."""
    import threading

    from companion.dice import SourceState, open_source

    tray, by_face = studio
    frames = SequenceBuilder(tray, seed=7).still(40).frames + [(tray * 0.02).astype(np.uint8)] * 60  # the light off for 2 s
    after = SequenceBuilder(tray, seed=8).still(40).throw(by_face, (6, 1), [(240, 280), (400, 330)]).still(14)
    frames += after.frames
    source = open_source(f"camera://{write_video(frames, tmp_path / 'lights.avi')}")
    source.data_dir, done, statuses, rolls = tmp_path, threading.Event(), [], []

    def on_status(status):
        statuses.append(status)
        if status.state in (SourceState.IDLE, SourceState.ERROR):
            done.set()

    source.start(rolls.append, on_status)
    assert done.wait(60)
    source.stop()
    reasons = [s.reason for s in statuses]
    dark = reasons.index("too_dark")
    assert "the tray is too dark to read" in statuses[dark].detail
    assert "watching" in reasons[dark + 1:]  # light again
    assert [sorted(r.values) for r in rolls] == [[1, 6]]
