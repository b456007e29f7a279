"""From a stream of frames to settled rolls: motion -> still -> the same reading agreed -> one roll.

The detector never reads dice while anything in the tray moves, so a tumbling die is never
reported; it remembers where motion passed.  Once the tray has been still for ``still_frames``
frames it reads ``agree_frames`` frames, keeps the dice most of those readings agree on (same place,
same face: a glint read as a die in one frame is outvoted) and decides, once per still period.
A *rolled* die is one that lies where motion passed and not where a die with the same face lay
before.  The decision:

- a settled roll with every die readable gives a :class:`RollEvent` of kind ``"roll"`` carrying a
  :class:`~companion.dice.DiceRolled`-shaped result (faces, confidence);
- a crooked or unreadable die, or the wrong number of dice, gives kind ``"reroll"`` with a reason,
  instead of a guess;
- dice that are where they were, showing what they showed (a hand passed over, dice picked up and
  put back in place, a hand resting over some of them), give nothing: that is not a roll.  Only a
  decision that reports something replaces the reference reading, so dice taken away and put back
  unchanged are recognised however long they were gone.

Things that never moved (a spare die, a speck on the tray read as a die) are remembered as scenery,
and when more dice than expected rolled, ones far smaller than the largest are dropped (dice of one
game are one size), so a roll of two dice is still found when a third die lies in view -- unless a
small one touches another rolled find, as the half-seen faces of a die cocked on an edge do: that is a
re-roll naming a crooked die.  At start the
first settled reading is only remembered: dice already lying in the tray are not a new roll.

A camera knocked askew (the tablet's stand bumped) moves every die in the picture at once; the
reference reading is carried along with the camera's motion (:mod:`vision.camera_motion`) before the
dice are compared, so that is not a roll either, and the next real roll is read as usual.
"""

from __future__ import annotations

import dataclasses
import enum
import math
import time
from dataclasses import dataclass

import cv2
import numpy as np

from vision import exposure
from vision.calibration import Calibration, is_convex
from vision.camera_motion import camera_motion
from vision.reader import DiceReader, Die

#: A knocked camera is told on the tray and round it: its rectangle grown by this share of its size each way.
KNOCK_VIEW_MARGIN = 0.15


class Phase(enum.Enum):
    STARTING = "starting"  # no settled reading yet
    MOVING = "moving"      # something in the tray moves
    SETTLING = "settling"  # still, reading until the readings agree
    SETTLED = "settled"    # decided for this still period; waiting for motion


@dataclass(frozen=True)
class RollEvent:
    """What the detector decided.  ``kind`` is ``"roll"`` or ``"reroll"``.

    A re-roll's ``reason`` is English for logs; ``reason_code`` and ``reason_params`` say the same for
    an app to put in its user's language: ``"cocked"`` (a die cocked on an edge), ``"count"``
    (``seen``, ``expected``: not the number of dice expected), ``"unreadable"`` (``count`` dice
    crooked or unreadable).
    """

    kind: str
    faces: tuple[int, ...] = ()
    confidence: float = 0.0
    dice: tuple[Die, ...] = ()
    reason: str = ""
    at: float = 0.0
    reason_code: str = ""
    reason_params: tuple[tuple[str, int], ...] = ()

    @property
    def total(self) -> int:
        return sum(self.faces)


class RollDetector:
    """Feed it frames (:meth:`feed`); it returns a :class:`RollEvent` when a roll is decided."""

    def __init__(self, reader: DiceReader, expected_dice: int | None = 2, still_frames: int = 4,
                 agree_frames: int = 5, motion_level: int = 20, motion_pixels: int = 8,
                 calibration: Calibration | None = None) -> None:
        self.reader = reader
        self.expected_dice = expected_dice
        self.still_frames = still_frames
        self.agree_frames = agree_frames
        #: A pixel "moved" when its grey level changed by more than this between two frames...
        self.motion_level = motion_level
        #: ...and the tray moves when more than this many pixels of the 320 px view moved.
        self.motion_pixels = motion_pixels
        self.calibration = calibration or reader.calibration
        self.phase = Phase.STARTING
        self._previous: np.ndarray | None = None
        self._still = 0
        self._agreeing: list[list[Die]] = []
        self._baseline: list[Die] | None = None  # the last settled reading
        self._scenery: list[Die] = []  # things read as dice that never took part in a roll
        self._moved_since_decision = False
        self._motion: np.ndarray | None = None  # where anything moved since the last decision (320 px view)
        self._view_scale = 1.0
        self._frame_shape: tuple[int, ...] = (0, 0)
        self._tray_mask_for: tuple | None = None
        self._tray_mask_view: np.ndarray | None = None
        self._last_frame: np.ndarray | None = None
        # The view round the tray when the reference reading was taken, its origin in the frame and its scale.
        self._reference: tuple[np.ndarray, tuple[int, int], float] | None = None
        #: How many times the camera was found to have moved (knocked) and the dice followed it.
        self.camera_moves = 0
        #: The dice lying still in the tray as last agreed on (every die read, rolled or not); empty while
        #: anything moves.  For a look at what the camera sees (the app's camera view), not for deciding.
        self.dice_in_view: list[Die] = []

    # ------------------------------------------------------------------ public

    def feed(self, frame: np.ndarray, at: float | None = None) -> RollEvent | None:
        at = time.time() if at is None else at
        if self._moving(frame):
            self.phase = Phase.MOVING
            self.dice_in_view = []
            self._still = 0
            self._agreeing = []
            self._moved_since_decision = True
            return None
        self._still += 1
        if self.phase == Phase.SETTLED or self._still < self.still_frames:
            return None
        if self.phase != Phase.STARTING:
            self.phase = Phase.SETTLING
        self._frame_shape = frame.shape
        self._agreeing.append(self.reader.read(frame))
        if len(self._agreeing) < self.agree_frames:
            return None
        return self._decide(_consensus(self._agreeing), self._agreeing, at)

    def reset(self) -> None:
        """Forget everything (e.g. after the camera moved)."""
        self.__init__(self.reader, self.expected_dice, self.still_frames, self.agree_frames,  # type: ignore[misc]
                      self.motion_level, self.motion_pixels, self.calibration)

    # ------------------------------------------------------------------ steps

    def _tray_view(self, frame: np.ndarray) -> tuple[np.ndarray, float]:
        """The rectangle round the tray, grey, shrunk to 320 px on its long side; and that shrink."""
        x0, y0, x1, y1 = self.calibration.tray_pixels(frame.shape[1], frame.shape[0])
        return _grey_view(frame[y0:y1, x0:x1])

    def _knock_view(self, frame: np.ndarray) -> tuple[np.ndarray, tuple[int, int], float]:
        """The view a knocked camera is told by: the rectangle round the tray grown by :data:`KNOCK_VIEW_MARGIN`
        (the tray's rim and walls, which hold still, where a plain tray floor has few marks to match and the
        dice on it may all have rolled), grey, 320 px on its long side; its origin in the frame and its scale."""
        x0, y0, x1, y1 = self.calibration.grown_pixels(frame.shape[1], frame.shape[0], KNOCK_VIEW_MARGIN)
        small, scale = _grey_view(frame[y0:y1, x0:x1])
        # Dim, the rim's corners are too faint for the corner finder: lifted, a knock is told as in daylight.
        return exposure.lifted(small, exposure.gain_for(small)), (x0, y0), scale

    def _moving(self, frame: np.ndarray) -> bool:
        small, scale = self._tray_view(frame)
        self._last_frame = frame
        small = cv2.GaussianBlur(small, (5, 5), 0)  # camera noise is not motion
        # A dim tray lifted as the reader lifts it: dice moving in it change its levels by less than
        # motion_level otherwise.  (Blurred first, so camera noise is lifted less than the dice.)
        gain = exposure.gain_for(small)
        small = exposure.lifted(small, gain)
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return False
        changed_mask = cv2.absdiff(small, previous) > self.motion_level
        if gain > 1.0:
            # Lifted, the camera's noise crosses the bar here and there, a pixel at a time; a die moving
            # changes a patch of pixels.  Single specks are opened away.
            changed_mask = cv2.morphologyEx(changed_mask.view(np.uint8), cv2.MORPH_OPEN, _SPECK).astype(bool)
        inside = self._tray_mask(frame.shape, small.shape)
        if inside is not None:
            changed_mask &= inside  # a hand over the board beside a slanted tray is not the dice moving
        changed = int(np.count_nonzero(changed_mask))
        if changed > self.motion_pixels:
            self._view_scale = scale
            self._motion = changed_mask if self._motion is None or self._motion.shape != changed_mask.shape \
                else self._motion | changed_mask
            return True
        return False

    def _tray_mask(self, frame_shape, view_shape) -> np.ndarray | None:
        """The tray's pixels in the motion view (``None``: all of it); made once per frame size."""
        key = (frame_shape[:2], view_shape, self.calibration.tray)
        if self._tray_mask_for != key:
            inside = self.calibration.tray_mask(frame_shape[1], frame_shape[0])
            if inside is not None:
                inside = cv2.resize(inside.astype(np.uint8), (view_shape[1], view_shape[0]),
                                    interpolation=cv2.INTER_NEAREST).astype(bool)
            self._tray_mask_for, self._tray_mask_view = key, inside
        return self._tray_mask_view

    def _moved_here(self, die: Die, frame_shape) -> bool:
        """Whether anything moved over this die's place since the last decision."""
        if self._motion is None:
            return False
        x0, y0, _, _ = self.calibration.tray_pixels(frame_shape[1], frame_shape[0])
        x, y, w, h = die.box
        s = self._view_scale
        left, top = max(0, int((x - x0) * s)), max(0, int((y - y0) * s))
        right, bottom = int((x + w - x0) * s) + 1, int((y + h - y0) * s) + 1
        return bool(self._motion[top:bottom, left:right].any())

    def _decide(self, reading: list[Die], readings: list[list[Die]], at: float) -> RollEvent | None:
        first_settle = self.phase == Phase.STARTING
        moved = self._moved_since_decision
        motion_seen = self._moved_here
        self.phase = Phase.SETTLED
        self._moved_since_decision = False
        self.dice_in_view = reading
        try:
            if first_settle:
                self._baseline = reading  # dice already lying there at start are not a roll
                self._reference = self._knock_view(self._last_frame)
                return None
            if not moved:
                return None
            if self._follow_the_camera():
                # Knocked in the roll's own motion (the throwing arm hit the stand): the dice were read in the
                # tray where it was, and the motion seen was the whole view moving. Read them again where the
                # tray is now; what rolled is told by the carried reference alone.
                reading = self.reader.read(self._last_frame)
                readings = [reading]
                self.dice_in_view = reading
                motion_seen = lambda _die, _shape: True  # noqa: E731
            known = (self._baseline or []) + self._scenery
            # A rolled die moved (motion passed over where it lies) and lies differently than before.
            rolled = [d for d in reading if motion_seen(d, self._frame_shape) and not _unchanged(d, known)]
            self._scenery += [d for d in reading if d not in rolled and not _unchanged(d, known)]
            if not rolled:
                # Nothing new: a hand passed, dice were put back where they lay, or a hand still
                # hides some of them.  The last settled reading stays the reference, so dice that
                # reappear unchanged later are not taken for a roll either.
                return None
            crooked = False
            if self.expected_dice is not None and len(rolled) > self.expected_dice:
                # Dice of one game are one size: something far smaller (a speck, a pip-like mark
                # the dice rolled past) is not one of them -- unless it touches another rolled
                # "die" as the half-seen face of a die cocked on an edge does.
                size = max(max(d.box[2], d.box[3]) for d in rolled)
                small = [d for d in rolled if max(d.box[2], d.box[3]) < 0.7 * size]
                rolled = [d for d in rolled if d not in small]
                crooked = any(_cocked_pair(s, d, size) for s in small for d in rolled + small if d is not s)
            self._baseline = reading
            self._reference = self._knock_view(self._last_frame)
            return self._event(rolled, readings, at, crooked)
        finally:
            self._motion = None

    def _follow_the_camera(self) -> bool:
        """When the camera itself moved since the reference reading (the tablet knocked: every die lies
        somewhere new, showing what it showed), carry the reference dice and the scenery with it, so that
        only dice that really rolled count (:mod:`vision.camera_motion`).  True when the calibrated tray was
        carried too (the frame is then read anew)."""
        if self._reference is None or self._last_frame is None:
            return False
        before, origin, _scale = self._reference
        now = self._knock_view(self._last_frame)
        matrix = camera_motion(before, now[0]) if now[1] == origin else None
        if matrix is None:
            return False
        self.camera_moves += 1
        self._baseline = [self._carried(d, matrix) for d in self._baseline or []]
        self._scenery = [self._carried(d, matrix) for d in self._scenery]
        tray = self._carried_tray(matrix)
        if tray is not None:
            # The tray moved in the picture with the camera: read where it is now (for this session; the
            # stored calibration is the user's to redo).
            if self.reader.calibration.tray == self.calibration.tray:
                self.reader.calibration = dataclasses.replace(self.reader.calibration, tray=tray)
            self.calibration = dataclasses.replace(self.calibration, tray=tray)
            self._previous = None  # the view is cut from the frame anew
        # The view now is the reference from here on (cut again round the tray where it now lies).
        self._reference = self._knock_view(self._last_frame) if tray is not None else now
        return tray is not None

    def _carried_tray(self, matrix: np.ndarray):
        """The tray's corners carried by the camera's motion ``matrix`` (fractions, cut at the frame's edges);
        ``None`` for a tray that is the whole frame (nothing calibrated: it stays the whole frame) or one the
        frame's edges would fold."""
        if self.calibration.tray == (0.0, 0.0, 1.0, 1.0):
            return None
        height, width = self._frame_shape[:2]
        corners = []
        for fx, fy in self.calibration.corners:
            x, y = self._carried_point(fx * width, fy * height, matrix)
            corners.append((round(min(1.0, max(0.0, x / width)), 4), round(min(1.0, max(0.0, y / height)), 4)))
        return tuple(corners) if is_convex(corners) else None

    def _carried(self, die: Die, matrix: np.ndarray) -> Die:
        """``die`` where the camera's motion ``matrix`` puts it."""
        x, y = self._carried_point(*die.centre, matrix)
        zoom = math.sqrt(abs(float(np.linalg.det(matrix[:, :2]))))
        w, h = die.box[2] * zoom, die.box[3] * zoom
        return dataclasses.replace(die, box=(round(x - w / 2), round(y - h / 2), round(w), round(h)))

    def _carried_point(self, x: float, y: float, matrix: np.ndarray) -> tuple[float, float]:
        """The frame pixel (x, y) where the camera's motion ``matrix`` (in pixels of the reference's view round
        the tray, as :func:`~vision.camera_motion.camera_motion` gives it) puts it."""
        _, (x0, y0), s = self._reference
        vx, vy = matrix @ np.array([(x - x0) * s, (y - y0) * s, 1.0])
        return vx / s + x0, vy / s + y0

    def _event(self, dice: list[Die], readings: list[list[Die]], at: float, crooked: bool = False) -> RollEvent:
        if crooked or (self.expected_dice is not None and len(dice) == self.expected_dice + 1
                       and _has_cocked_pair(dice)):
            return RollEvent("reroll", dice=tuple(dice), at=at, reason_code="cocked",
                             reason="a die is crooked (cocked on an edge: two faces seen side by side)")
        if self.expected_dice is not None and len(dice) != self.expected_dice:
            count = len(dice)
            return RollEvent("reroll", dice=tuple(dice), at=at, reason_code="count",
                             reason_params=(("seen", count), ("expected", self.expected_dice)),
                             reason=f"{count} {'die' if count == 1 else 'dice'} seen, expected {self.expected_dice}")
        unsure = [d for d in dice if d.face is None]
        if unsure:
            return RollEvent("reroll", dice=tuple(dice), at=at, reason_code="unreadable",
                             reason_params=(("count", len(unsure)),),
                             reason=f"{len(unsure)} {'die' if len(unsure) == 1 else 'dice'} crooked or unreadable")
        # The roll's confidence is its least sure die, averaged over the readings.
        confidence = float(np.mean([min(_match_confidence(d, r) for d in dice) for r in readings]))
        return RollEvent("roll", faces=tuple(d.face for d in dice), confidence=round(min(1.0, confidence), 4),
                         dice=tuple(dice), at=at)


#: Two boxes that touch and together span less than this many times the longer side of either are
#: the two half-seen faces of one die cocked on an edge (two flat dice side by side span twice a side).
COCKED_SPAN = 1.7


#: The structuring element that opens noise specks out of a lifted (dim) tray's motion mask.
_SPECK = np.ones((3, 3), np.uint8)


def _grey_view(part: np.ndarray) -> tuple[np.ndarray, float]:
    """A part of a frame, grey, shrunk to 320 px on its long side; and that shrink."""
    gray = part if part.ndim == 2 else cv2.cvtColor(part, cv2.COLOR_BGR2GRAY)
    scale = 320.0 / max(gray.shape)
    small = cv2.resize(gray, (max(1, round(gray.shape[1] * scale)), max(1, round(gray.shape[0] * scale))),
                       interpolation=cv2.INTER_AREA)
    return small, scale


def _has_cocked_pair(dice: list[Die]) -> bool:
    """Whether two read "dice" may be one die leaning on an edge or on another die.

    The detector boxes each visible face of a cocked die on its own, and each half may read as a
    face: a guess.  Their boxes touch or overlap and together are barely larger than one die.  Two
    flat dice packed tight can look the same (boxes are loose: on the tray photos 80 such pairs of
    real dice), so this only names the likely cause when one die too many was seen, never turns a
    roll of the expected number of dice into a re-roll.
    """
    return any(_cocked_pair(a, b) for i, a in enumerate(dice) for b in dice[i + 1:])


#: Two boxes this many die sides apart still touch: the boxes of half-seen faces are loose (at 0.15,
#: a cocked die the detector saw as two faces was often called "3 dice seen").
TOUCH_GAP = 0.25


def _cocked_pair(a: Die, b: Die, side: float | None = None) -> bool:
    """Whether the boxes of ``a`` and ``b`` touch (within :data:`TOUCH_GAP` die sides) and together
    span little more than one die of ``side`` pixels (by default the larger of the two)."""
    (ax, ay, aw, ah), (bx, by, bw, bh) = a.box, b.box
    side = side or max(aw, ah, bw, bh)
    gap = max(bx - (ax + aw), ax - (bx + bw), by - (ay + ah), ay - (by + bh))
    span = max(max(ax + aw, bx + bw) - min(ax, bx), max(ay + ah, by + bh) - min(ay, by))
    return gap <= TOUCH_GAP * side and span < COCKED_SPAN * side


def _near(a: Die, b: Die, fraction: float) -> bool:
    (ax, ay), (bx, by) = a.centre, b.centre
    size = max(a.box[2], a.box[3], b.box[2], b.box[3], 1)
    return abs(ax - bx) <= fraction * size and abs(ay - by) <= fraction * size


def _consensus(window: list[list[Die]]) -> list[Die]:
    """The dice seen, in the same place with the same face, in most readings of a still tray.

    A glint read as a die in one or two frames, or a die whose reading flickers, is outvoted.
    """
    groups: list[list] = []  # [die as last seen, number of readings it is in]
    for reading in window:
        for die in reading:
            for group in groups:
                if group[0].face == die.face and _near(group[0], die, 0.35):
                    group[0], group[1] = die, group[1] + 1
                    break
            else:
                groups.append([die, 1])
    return sorted((die for die, count in groups if count > len(window) / 2), key=lambda d: (d.box[0], d.box[1]))


def _unchanged(die: Die, baseline: list[Die]) -> bool:
    """This die lies where a die of the last settled reading lay, showing the same face.

    An unreadable thing that has not moved (a mark on the tray, a die on the board at the edge of
    view) counts as unchanged too: it is scenery, not part of this roll.
    """
    return any(o.face == die.face and _near(die, o, 0.5) for o in baseline)


def _match_confidence(die: Die, reading: list[Die]) -> float:
    same = [o.confidence for o in reading if o.face == die.face and _near(die, o, 0.35)]
    return max(same) if same else die.confidence
