"""From a stream of frames to settled rolls: motion -> still -> the same reading agreed -> one roll.

The detector never reads dice while anything in the tray moves, so a tumbling die is never
reported.  Once the tray has been still for ``still_frames`` frames it reads every frame, and when
``agree_frames`` consecutive readings agree it decides, once per still period:

- a settled roll with every die readable gives a :class:`RollEvent` of kind ``"roll"`` carrying a
  :class:`~companion.dice.DiceRolled`-shaped result (faces, confidence);
- a crooked or unreadable die, or the wrong number of dice, gives kind ``"reroll"`` with a reason,
  instead of a guess;
- dice that are where they were, showing what they showed (a hand passed over, dice picked up and
  put back in place), give nothing: that is not a roll.

Dice that did not move and show the same face as before are treated as spectators (spare dice on
the table), so a roll of two dice is still found when a third die lies in view.  At start the
first settled reading is only remembered: dice already lying in the tray are not a new roll.
"""

from __future__ import annotations

import enum
import time
from dataclasses import dataclass

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.reader import DiceReader, Die


class Phase(enum.Enum):
    STARTING = "starting"  # no settled reading yet
    MOVING = "moving"      # something in the tray moves
    SETTLING = "settling"  # still, reading until the readings agree
    SETTLED = "settled"    # decided for this still period; waiting for motion


@dataclass(frozen=True)
class RollEvent:
    """What the detector decided.  ``kind`` is ``"roll"`` or ``"reroll"``."""

    kind: str
    faces: tuple[int, ...] = ()
    confidence: float = 0.0
    dice: tuple[Die, ...] = ()
    reason: str = ""
    at: float = 0.0

    @property
    def total(self) -> int:
        return sum(self.faces)


class RollDetector:
    """Feed it frames (:meth:`feed`); it returns a :class:`RollEvent` when a roll is decided."""

    def __init__(self, reader: DiceReader, expected_dice: int | None = 2, still_frames: int = 4,
                 agree_frames: int = 3, motion_level: int = 20, motion_pixels: int = 8,
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
        self._moved_since_decision = False

    # ------------------------------------------------------------------ public

    def feed(self, frame: np.ndarray, at: float | None = None) -> RollEvent | None:
        at = time.time() if at is None else at
        if self._moving(frame):
            self.phase = Phase.MOVING
            self._still = 0
            self._agreeing = []
            self._moved_since_decision = True
            return None
        self._still += 1
        if self.phase == Phase.SETTLED or self._still < self.still_frames:
            return None
        if self.phase != Phase.STARTING:
            self.phase = Phase.SETTLING
        reading = self.reader.read(frame)
        if self._agreeing and not _same_reading(self._agreeing[-1], reading):
            self._agreeing = []
        self._agreeing.append(reading)
        if len(self._agreeing) < self.agree_frames:
            return None
        return self._decide(self._agreeing, at)

    def reset(self) -> None:
        """Forget everything (e.g. after the camera moved)."""
        self.__init__(self.reader, self.expected_dice, self.still_frames, self.agree_frames,  # type: ignore[misc]
                      self.motion_level, self.motion_pixels, self.calibration)

    # ------------------------------------------------------------------ steps

    def _moving(self, frame: np.ndarray) -> bool:
        height, width = frame.shape[:2]
        x0, y0, x1, y1 = self.calibration.tray_pixels(width, height)
        tray = frame[y0:y1, x0:x1]
        gray = tray if tray.ndim == 2 else cv2.cvtColor(tray, cv2.COLOR_BGR2GRAY)
        scale = 320.0 / max(gray.shape)
        small = cv2.resize(gray, (max(1, round(gray.shape[1] * scale)), max(1, round(gray.shape[0] * scale))),
                           interpolation=cv2.INTER_AREA)
        small = cv2.GaussianBlur(small, (5, 5), 0)  # camera noise is not motion
        previous, self._previous = self._previous, small
        if previous is None or previous.shape != small.shape:
            return False
        changed = int(np.count_nonzero(cv2.absdiff(small, previous) > self.motion_level))
        return changed > self.motion_pixels

    def _decide(self, readings: list[list[Die]], at: float) -> RollEvent | None:
        first_settle = self.phase == Phase.STARTING
        moved = self._moved_since_decision
        self.phase = Phase.SETTLED
        self._moved_since_decision = False
        reading = readings[-1]
        baseline, self._baseline = self._baseline, reading
        if first_settle or not moved:
            return None  # dice already lying there at start are not a roll
        rolled = [d for d in reading if not _unchanged(d, baseline or [])]
        if not rolled:
            return None  # nothing changed: a hand passed, or dice were put back in place
        dice = reading if self.expected_dice is None or len(reading) == self.expected_dice else rolled
        if self.expected_dice is not None and len(dice) != self.expected_dice:
            return RollEvent("reroll", dice=tuple(reading), at=at,
                             reason=f"{len(dice)} dice seen, expected {self.expected_dice}")
        unsure = [d for d in dice if d.face is None]
        if unsure:
            return RollEvent("reroll", dice=tuple(dice), at=at,
                             reason=f"{len(unsure)} die{'s' if len(unsure) > 1 else ''} crooked or unreadable")
        # The roll's confidence is its least sure die, averaged over the agreeing frames.
        confidence = float(np.mean([min(_match_confidence(d, r) for d in dice) for r in readings]))
        return RollEvent("roll", faces=tuple(d.face for d in dice), confidence=round(min(1.0, confidence), 4),
                         dice=tuple(dice), at=at)


def _near(a: Die, b: Die, fraction: float) -> bool:
    (ax, ay), (bx, by) = a.centre, b.centre
    size = max(a.box[2], a.box[3], b.box[2], b.box[3], 1)
    return abs(ax - bx) <= fraction * size and abs(ay - by) <= fraction * size


def _same_reading(a: list[Die], b: list[Die]) -> bool:
    """Two readings of a still tray agree: same dice in the same places showing the same faces."""
    if len(a) != len(b):
        return False
    left = list(b)
    for die in a:
        match = next((o for o in left if o.face == die.face and _near(die, o, 0.35)), None)
        if match is None:
            return False
        left.remove(match)
    return True


def _unchanged(die: Die, baseline: list[Die]) -> bool:
    """This die lies where a die of the last settled reading lay, showing the same face."""
    return die.face is not None and any(o.face == die.face and _near(die, o, 0.5) for o in baseline)


def _match_confidence(die: Die, reading: list[Die]) -> float:
    same = [o.confidence for o in reading if o.face == die.face and _near(die, o, 0.35)]
    return max(same) if same else die.confidence
