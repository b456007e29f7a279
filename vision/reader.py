"""Reading the dice in one frame: a BGR image in, a list of :class:`Die` out.

Two small networks trained by :mod:`vision.training.train` from the labelled photos in
``../shared/data/dice`` and run with ``cv2.dnn`` (OpenCV is the only run-time dependency):

1. the *detector* looks at the whole frame shrunk to 320 px and marks die centres on a heat map
   with each die's box size (CenterNet-style, one class "a die");
2. the *face classifier* looks at each found die, cut out of the full-resolution frame as a 32 px
   colour patch, and says "not a die", a face 1..6, or "crooked" (cocked on an edge).  Pips are
   rotation-symmetric, so a patch whose upright reading is not clear is read at four right-angle turns
   and the answers averaged, which steadies borderline readings (a clear one is not re-read: the same
   answers for a fraction of the work).

A die the classifier finds crooked, or whose face it is not sure of (a blurred or half-hidden die),
is reported with ``face=None`` rather than a guess: the roll detector asks for a re-roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import cv2
import numpy as np

from vision import exposure, grown_window, preprocess
from vision.calibration import FLOOR_REACH, Calibration, colour_name, floor_colour, floor_colours_near
from vision.cocked import TOP_MOST_DICE, looks_cocked, looks_cocked_at_any_angle
from vision.face_marks import blob_shapes, marks_on_face, round_pips, stroke_without_pips
from vision.top_face import DOUBTFUL, top_face_reading

#: The committed networks ship inside the package (``vision/models/``), found through importlib.resources
#: so an installed wheel or an APK reads them as a checkout does.
DEFAULT_MODEL_DIR = Path(str(files("vision") / "models"))

#: Right-angle turns of each patch the classifier reads and averages (1 = no averaging).
TURNS = 4
#: An upright reading whose top class has at least this probability is taken as it is; below it the
#: patch is read at all :data:`TURNS` and averaged.
CLEAR_READING = 0.9
#: A doubtful patch is read at the half turn first and taken when the two readings together are clear (their
#: average's top class at least :data:`CLEAR_READING`); the others at the two quarter turns too, all four averaged.
#: Of the 937 doubtful patches of the 499 photos, 100 are settled so (two patches fewer each; on bench_vision's
#: 2-dice photo, its doubtful die: 0.887 upright, 0.919 with the half turn): no die's face changed on the sets or
#: folds 1-3 held out, confidences did on 113 of 802 photo readings (docs/performance.md, session 15).
HALF_TURN_FIRST = True
#: With a tray calibrated, the detector reads the rectangle round it grown by this share of its size...
TRAY_MARGIN = 0.04
#: ...enlarged to fill the detector's input, at most this many times more than the whole frame would be --
MAX_TRAY_ZOOM = 3.0
#: -- or, in a large frame (a 1920x1080 camera), up to the frame's own pixels: a small tray is read at full
#: resolution, where three times the whole frame's shrink would still leave its dice a few pixels across.
FULL_RESOLUTION = 1.0
#: A heat-map peak above this is a die candidate (the classifier then confirms or rejects it).
DETECT_THRESHOLD = 0.3
#: A candidate whose "not a die" probability is above this is dropped.  This and the two bars below
#: are chosen on the training folds only (never the held-out one), for the committed networks, by
#: dice right + photos fully right - 3 x invented summed over the sets: 0.7 / 30 % / 0.15 for the
#: classifier trained with drawn dice (0.5 / 30 % / 0.2 for the one before, 0.4 / 35 % / 0.25 before it).
NOT_A_DIE_THRESHOLD = 0.7
#: A die whose best face has less than this share of the face probability is "unsure" (a higher
#: bar, 70 %, turned many right readings into re-roll requests).
FACE_THRESHOLD = 0.3
#: A die read with less overall confidence than this is not reported: it removes most invented
#: dice (keyboard keys, specks on the tray) for about 1 % of real ones.
MIN_CONFIDENCE = 0.15
#: A die whose "not a standard die" class (numerals, symbols, a blank face; a classifier with 9 classes)
#: holds more than this share of its "is a die" probability is not a pip die: reported as such by
#: :meth:`DiceReader.read_all`, left out by :meth:`DiceReader.read` (never read as a pip face).  The ninth class
#: has a tail of its own (vision/training/novelty_branch.py); of the reader's dice on the 2,562 labelled pip dice
#: of the sets, two motion-blurred desk dice (four_50.jpg) reach 0.80 and 0.95 and every other stays under 0.54: a
#: share alone lost one or both of them at any bar from 0.8 to 0.95, so a die under this bar, or one whose marks
#: are the pips of the face read, is judged by its marks (:data:`NOT_STANDARD_LOW_SHARE`; docs/vision.md).
NOT_STANDARD_SHARE = 0.95
#: Above this share (and under :data:`NOT_STANDARD_SHARE`) a die is not a pip die when its face shows fewer than two
#: separate marks (:func:`vision.face_marks.marks_on_face`: a numeral or a symbol is one stroke, pips lie apart).
#: It lies above every labelled pip die's share but the two blurred ones' (0.54), which show 3 and 4 marks.
NOT_STANDARD_LOW_SHARE = 0.6
#: Above this share a die is also not a pip die when its face shows a long stroke and no mark shaped as a pip
#: (:func:`vision.face_marks.stroke_without_pips`: a numeral, a 1 included). Of the reader's dice on the sets' photos
#: (2,616), 28 pass it, 22 of them labelled dice; with the face's own colour taken from its middle none of them shows a
#: stroke without a pip (the nearest such die sits at 0.21, a right 1 of the tray set). It was 0.4 while the colour was
#: the whole box's: then two right 1s at 0.30 and 0.36 (their side face, seen at a slant, a long dark blob beside a
#: small pip) showed one.
STROKE_SHARE = 0.25


class ModelError(RuntimeError):
    """The model files are missing or unreadable; the message names the file."""


@dataclass(frozen=True)
class Die:
    """One die seen in a frame.

    ``face`` is 1..6, or ``None`` when the die is there but its face cannot be read with confidence
    (crooked, blurred, half hidden).  ``colour`` is a coarse name ("white", "red", ...), ``box`` is
    ``(x, y, width, height)`` in frame pixels, ``confidence`` in 0..1 combines "this is a die" and
    "this is its face".
    """

    face: int | None
    colour: str
    box: tuple[int, int, int, int]
    confidence: float
    #: False for a die that is not a standard pip die (numerals, symbols, a blank face); its face is None.
    standard: bool = True

    @property
    def centre(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2

    @property
    def unsure(self) -> bool:
        return self.face is None


#: The floor round a die lit differently from the whole tray's by more than this factor in a channel: the die
#: is corrected by its own light (a lamp on half of the tray), else by the whole tray's.
UNEVEN_LIGHT = 1.15
#: A die under this share of the other dice's side (their median), and read with a confidence under
#: :data:`SPECK_DOUBT`, is a speck on the floor, not a die: a dot 10 px across read "1" at 0.20 beside two 44 px
#: dice on a calibrated tray (the tray enlarged shows the floor's crumbs as large as a pip).
SPECK_SIDE = 0.5
SPECK_DOUBT = 0.5


class DiceReader:
    """Reads dice from frames.  One instance per thread (``cv2.dnn`` nets are not shared)."""

    #: How far round a die (in die sides) its floor is measured to correct its colour; 0: the whole tray's.
    floor_reach = FLOOR_REACH

    def __init__(self, model_dir: str | Path | None = None, calibration: Calibration | None = None,
                 threads: int | None = 1) -> None:
        model_dir = Path(model_dir) if model_dir is not None else DEFAULT_MODEL_DIR
        self.detector = load_net(model_dir / "detector.onnx")
        self.classifier = load_net(model_dir / "faces.onnx")
        self.calibration = calibration or Calibration()
        # The detector's input, written in place every frame (preprocess.detector_input's ``out``).
        self._detector_blob = np.empty((1, 3, preprocess.DETECTOR_SIZE, preprocess.DETECTOR_SIZE), np.float32)
        if threads is not None:
            # One core by default: the camera thread must not starve the UI on a tablet.
            cv2.setNumThreads(threads)

    # ------------------------------------------------------------------ public

    def read(self, frame: np.ndarray) -> list[Die]:
        """The standard pip dice in ``frame`` (BGR, or grey), sorted left to right.

        A frame with no die in it gives an empty list.  Raises ``ValueError`` for something that is
        not an image (wrong type, empty, wrong number of channels).  A die showing numerals, symbols or a
        blank face is not one of them (as a die of a colour the table does not play with is not):
        :meth:`read_all` names it.
        """
        return [die for die in self.read_all(frame) if die.standard]

    def read_all(self, frame: np.ndarray) -> list[Die]:
        """As :meth:`read`, with the dice that are not standard pip dice too (``standard`` False, ``face`` None)."""
        frame = as_read(_as_bgr(frame), self.calibration)
        height, width = frame.shape[:2]
        # Outside the calibrated tray nothing is read (and nothing is spent classifying it).
        candidates = [c for c in self._detect(frame) if self.calibration.in_tray(c[0] / width, c[1] / height)]
        if not candidates:
            return []
        probs = self.classify(frame, [(c[0], c[1], max(c[2], c[3])) for c in candidates])
        ratios = self._colour_ratios(frame, candidates)
        dice = []
        for (cx, cy, w, h, score), p, ratio in zip(candidates, probs, ratios):
            if p[0] > NOT_A_DIE_THRESHOLD:
                continue
            crooked = float(p[7]) if len(p) > 7 else 0.0
            faces = p[1:7] / max(float(p[1:7].sum()), 1e-6)
            best = int(np.argmax(faces))
            box = (int(round(cx - w / 2)), int(round(cy - h / 2)), int(round(w)), int(round(h)))
            colour = die_colour(frame, box, ratio)
            if not self.calibration.accepts_colour(colour):
                continue
            novelty = float(p[8]) if len(p) > 8 else 0.0
            if novelty > STROKE_SHARE and _not_pips(frame, box, novelty, best + 1):
                confidence = float(min(1.0, score) * (1.0 - p[0]) * novelty)
                if confidence >= MIN_CONFIDENCE:
                    dice.append(Die(None, colour, box, round(confidence, 4), standard=False))
                continue
            sure = faces[best] >= FACE_THRESHOLD and p[1 + best] > crooked
            face = best + 1 if sure else None
            confidence = float(min(1.0, score) * (1.0 - p[0]) * (faces[best] if sure else max(crooked, 1 - faces[best])))
            if confidence >= MIN_CONFIDENCE:
                dice.append(Die(face, colour, box, round(confidence, 4)))
        windows: dict = {}  # the cocked tests' windows round each die, worked out once (vision.cocked._die_window)
        if self.calibration.overhead:
            # From straight above, a die showing two faces side by side is cocked on an edge: the
            # detector boxed one face and the classifier read it, a guess.  Unsure instead.
            dice = [Die(None, d.colour, d.box, d.confidence)
                    if d.face is not None and looks_cocked(frame, d.box, [o.centre for o in dice if o is not d],
                                                           windows)
                    else d for d in dice]
        if len([d for d in dice if d.standard]) <= TOP_MOST_DICE:
            # A camera low and close: the box holds a side face beside the top one, read as one face without
            # confidence; the top face alone, where a strip at one end of the box is read as a face.
            dice = [self._top_face_of(frame, d) if d.face is not None and d.confidence < DOUBTFUL else d for d in dice]
            # Whatever the camera's angle, a cocked die whose top face runs past the one face the detector boxed.
            dice = [Die(None, d.colour, d.box, d.confidence)
                    if d.face is not None
                    and looks_cocked_at_any_angle(frame, d.box, [o.centre for o in dice if o is not d], windows)
                    else d for d in dice]
        calibrated = None if self.calibration.die_side is None else self.calibration.die_side * width
        dice = sorted(_without_specks(dice, calibrated), key=lambda d: (d.box[0], d.box[1]))
        # A die the detector boxed too small, dropped as "not a die": read again in a larger window, not if cocked.
        return grown_window.with_rescued(self, frame, candidates, dice)

    # ------------------------------------------------------------------ steps

    def _top_face_of(self, frame: np.ndarray, die: Die) -> Die:
        """``die`` read on its top face alone when its box holds a side face too (vision/top_face.py)."""
        found = top_face_reading(frame, die.box, self._class_probabilities)
        if found is None:
            return die
        face, confidence = found
        return Die(face, die.colour, die.box, round(confidence, 4))

    def _colour_ratios(self, frame: np.ndarray, candidates) -> list[np.ndarray | None]:
        """Per candidate, the per-channel factors that bring the light where it lies back to the calibration's,
        measured on the tray's bare surface (``Calibration.floor``): the whole tray's, or the floor round the die
        where that is lit differently (by more than :data:`UNEVEN_LIGHT` in a channel: a lamp on half of the
        tray, a shadow); ``None`` for each when no floor was calibrated."""
        if self.calibration.floor is None:
            return [None] * len(candidates)
        boxes = [(cx - w / 2, cy - h / 2, w, h) for cx, cy, w, h, _score in candidates]
        floor = np.array(self.calibration.floor)
        whole = np.array(floor_colour(frame, self.calibration.tray, exclude=boxes))
        ratios = []
        for near in floor_colours_near(frame, self.calibration.tray, boxes, self.floor_reach):
            # Round a die the floor is a few thousand pixels and may hold a wall or a shadow: a small
            # difference from the whole tray's is that, not the light.
            uneven = near is not None and np.abs(np.log(np.array(near) / whole)).max() > np.log(UNEVEN_LIGHT)
            ratios.append(np.clip(floor / (np.array(near) if uneven else whole), 0.2, 5.0))
        return ratios

    def _detect(self, frame: np.ndarray) -> list[tuple[float, float, float, float, float]]:
        """Die candidates as (cx, cy, w, h, score) in frame pixels.

        With a tray calibrated, the detector looks at the tray alone (the rectangle round it, grown by
        :data:`TRAY_MARGIN` for dice on its walls), enlarged to fill its input up to :data:`MAX_TRAY_ZOOM`
        times the whole frame's scale, or up to the frame's own pixels (:data:`FULL_RESOLUTION`) where that
        is more: a camera that sees the board and the table round a small tray shows the dice at a few pixels
        in the whole frame shrunk to the detector's size, and in a large frame the tray's own pixels hold them
        whole.
        """
        height, width = frame.shape[:2]
        x0, y0, x1, y1 = self.calibration.grown_pixels(width, height, TRAY_MARGIN)
        if (x0, y0, x1, y1) == (0, 0, width, height):
            return detect_candidates(self.detector, frame, buffer=self._detector_blob)
        scale = max(MAX_TRAY_ZOOM * preprocess.detector_scale(height, width), FULL_RESOLUTION)
        found = detect_candidates(self.detector, frame[y0:y1, x0:x1], scale, buffer=self._detector_blob)
        return [(cx + x0, cy + y0, w, h, score) for cx, cy, w, h, score in found]

    def classify(self, frame: np.ndarray, dice: list[tuple[float, float, float]]) -> np.ndarray:
        """Class probabilities (not-a-die, faces 1..6, crooked) per die, each given as (cx, cy, side) in frame
        pixels: the detector's candidates, or boxes from elsewhere (a set's labels, for bench/audit_labels.py);
        with a 9-class network, a ninth column: the share of "is a die" that is "not a standard die".

        Each patch is read once upright; a patch whose upright reading is not clear (its top class
        below :data:`CLEAR_READING`) is also read at the other right-angle turns and the readings
        averaged.  A plain, well-lit die costs one pass instead of :data:`TURNS`.  With four turns the
        half turn is read first: a patch whose two readings together are clear is taken so, and only the
        others are read at the quarter turns (:data:`HALF_TURN_FIRST`).
        """
        patches = [preprocess.die_patch(frame, (cx, cy), side) for cx, cy, side in dice]
        probs = self._class_probabilities(patches)
        doubtful = [i for i, p in enumerate(probs) if p[:8].max() < CLEAR_READING] if TURNS > 1 else []
        if not doubtful:
            return probs
        if HALF_TURN_FIRST and TURNS == 4:
            half = self._class_probabilities([np.rot90(patches[i], 2) for i in doubtful])
            still = []
            for row, i in enumerate(doubtful):
                both = probs[i] + half[row]
                if both[:8].max() >= 2 * CLEAR_READING:
                    probs[i] = both / 2
                else:
                    still.append((i, both))
            if still:
                quarter = self._class_probabilities([np.rot90(patches[i], k) for i, _ in still for k in (1, 3)])
                for row, (i, both) in enumerate(still):
                    probs[i] = (both + quarter[2 * row] + quarter[2 * row + 1]) / 4
            return probs
        turned = [np.rot90(patches[i], k) for i in doubtful for k in range(1, TURNS)]
        more = self._class_probabilities(turned).reshape(len(doubtful), TURNS - 1, -1)
        for row, i in enumerate(doubtful):
            probs[i] = (probs[i] + more[row].sum(axis=0)) / TURNS
        return probs

    def _class_probabilities(self, patches: list[np.ndarray]) -> np.ndarray:
        blob = np.ascontiguousarray(np.stack(patches).transpose(0, 3, 1, 2), dtype=np.float32)
        self.classifier.setInput(blob)
        logits = self.classifier.forward().reshape(len(patches), -1)
        logits -= logits.max(axis=1, keepdims=True)
        probs = np.exp(logits)
        if probs.shape[1] <= 8:
            return probs / probs.sum(axis=1, keepdims=True)
        # The first eight classes among themselves (exactly what a network without the ninth row says of them:
        # the committed one is that network with the row added), then the ninth's share of "is a die".
        first = probs[:, :8] / probs[:, :8].sum(axis=1, keepdims=True)
        whole = probs / probs.sum(axis=1, keepdims=True)
        share = whole[:, 8] / np.maximum(1.0 - whole[:, 0], 1e-6)
        return np.hstack([first, share[:, None]])


def _without_specks(dice: list[Die], calibrated_side: float | None = None) -> list[Die]:
    """``dice`` without a speck read as a die: one under :data:`SPECK_SIDE` of the side of the others (their
    median, with the side a die had when the tray was calibrated, ``calibrated_side`` in pixels, counted as one
    of them) and unsure (confidence under :data:`SPECK_DOUBT`).  The dice of one throw are one size give or take
    the camera's slant; a crumb or a dot on the floor, enlarged with the tray, is read as a lone pip, also in an
    empty tray."""
    sides = [max(d.box[2], d.box[3]) for d in dice]
    known = [] if calibrated_side is None else [calibrated_side]
    kept = []
    for i, die in enumerate(dice):
        others = sides[:i] + sides[i + 1:] + known
        if not others or not (die.confidence < SPECK_DOUBT and sides[i] < SPECK_SIDE * float(np.median(others))):
            kept.append(die)
    return kept


def _not_pips(frame: np.ndarray, box: tuple[int, int, int, int], share: float, face: int) -> bool:
    """Whether a die whose "not a standard die" share passed :data:`STROKE_SHARE` is a novelty die: its face shows a
    long stroke and no pip; or, past :data:`NOT_STANDARD_LOW_SHARE`, fewer than two marks, or fewer round pips than
    half the face read (a drawn 5 read as 5 showed none, a 3 read as 3 one; the blurred fours of four_50.jpg show 3
    and 2); or, past :data:`NOT_STANDARD_SHARE`, marks that are not the pips of the face read (the blurred desk die
    at 0.95 reads 4 and shows 4 marks; a ship reads 1 and shows 2)."""
    levels = None  # the face's blobs, worked out once for both tests below
    if share > NOT_STANDARD_LOW_SHARE:
        marks = marks_on_face(frame, box)
        if marks < 2 or (share > NOT_STANDARD_SHARE and marks != face):
            return True
        levels = blob_shapes(frame, box)
        if 2 * round_pips(frame, box, levels) < face:
            return True
    return stroke_without_pips(frame, box, levels)


def as_read(frame: np.ndarray, calibration: Calibration) -> np.ndarray:
    """A BGR frame as the reader reads it: the table's light correction, then a dim picture brightened (an
    evening lamp, a webcam that does not open up; judged on the tray).  Also what the app's camera view shows."""
    frame = calibration.correct_lighting(frame)
    return exposure.lifted(frame, exposure.frame_gain(frame, calibration.tray_pixels(frame.shape[1], frame.shape[0])))


def detect_candidates(detector, frame: np.ndarray, scale: float | None = None,
                      buffer: np.ndarray | None = None) -> list[tuple[float, float, float, float, float]]:
    """Die candidates of the detector net ``detector`` in a BGR ``frame``, as (cx, cy, w, h, score); ``scale``
    as :func:`preprocess.detector_input` takes it, and ``buffer`` as its ``out`` (the net's input written there).

    A function of its own because training mines the detector's false finds on training photos
    (hard "not a die" examples for the classifier) with exactly the reader's candidate rule.
    """
    blob, scale = preprocess.detector_input(frame, scale, buffer)
    detector.setInput(blob)
    out = detector.forward()[0]
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    # A peak is a cell that is the maximum of its 3x3 neighbourhood.
    peaks = (heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))) & (heat > DETECT_THRESHOLD)
    found = []
    stride = preprocess.DETECTOR_STRIDE
    height, width = frame.shape[:2]
    for iy, ix in zip(*np.nonzero(peaks)):
        ox, oy = 1.0 / (1.0 + np.exp(-out[3:5, iy, ix]))
        w, h = np.exp(np.clip(out[1:3, iy, ix], -3, 6)) * stride / scale
        cx, cy = (ix + ox) * stride / scale, (iy + oy) * stride / scale
        if 0 <= cx < width and 0 <= cy < height:
            found.append((float(cx), float(cy), float(w), float(h), float(heat[iy, ix])))
    return _suppress_overlaps(found)


def die_colour(frame: np.ndarray, box: tuple[int, int, int, int], ratio=None) -> str:
    """Coarse colour name of the die body: the median colour of the box's centre, times the per-channel
    ``ratio`` when given (the light's change since calibration where the die lies, :meth:`DiceReader._colour_ratios`).

    Pips cover well under half of a face, so the median is the body colour, not the pips'.
    """
    x, y, w, h = box
    x0, y0 = max(0, x + w // 4), max(0, y + h // 4)
    x1, y1 = min(frame.shape[1], x + w - w // 4), min(frame.shape[0], y + h - h // 4)
    if x1 <= x0 or y1 <= y0:
        return "unknown"
    core = frame[y0:y1, x0:x1].reshape(-1, 3)
    median = np.median(core, axis=0)
    return colour_name(median if ratio is None else median * ratio)


def _suppress_overlaps(found: list[tuple[float, float, float, float, float]]):
    """Drop a weaker candidate whose centre lies well inside a stronger one's box."""
    kept: list[tuple[float, float, float, float, float]] = []
    for cand in sorted(found, key=lambda c: -c[4]):
        cx, cy = cand[0], cand[1]
        if any(abs(cx - k[0]) < 0.4 * k[2] and abs(cy - k[1]) < 0.4 * k[3] for k in kept):
            continue
        kept.append(cand)
    return kept


def _as_bgr(frame) -> np.ndarray:
    if not isinstance(frame, np.ndarray):
        raise ValueError(f"a frame must be a numpy image array, got {type(frame).__name__}")
    if frame.size == 0 or frame.ndim not in (2, 3):
        raise ValueError(f"a frame must be a non-empty HxW or HxWxC image, got shape {frame.shape}")
    if frame.dtype != np.uint8:
        frame = np.clip(frame, 0, 255).astype(np.uint8)
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    channels = frame.shape[2]
    if channels == 3:
        return frame
    if channels == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if channels == 1:
        return cv2.cvtColor(frame[:, :, 0], cv2.COLOR_GRAY2BGR)
    raise ValueError(f"a frame must have 1, 3 or 4 channels, got {channels}")


def load_net(path: Path):
    if not path.exists():
        raise ModelError(f"{path}: model file missing (reinstall catan-companion; in a checkout, train with python -m vision.training.train)")
    try:
        net = cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as error:
        raise ModelError(f"{path}: cannot load the model: {error}") from None
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
    return net
