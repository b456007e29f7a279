"""A die the detector boxed too small, read again in a larger window, unless it may be a cocked die (issue 29).

A low camera's white die on white paper is boxed by the detector at 0.5-0.7 of its size (the labelled face 1.4-2.2
times the candidate's side); the classifier's patch then holds a piece of the die and says "not a die", or is too
unsure to report, and the die is missed. In a frame of few dice (:data:`vision.cocked.TOP_MOST_DICE`) every candidate
the reader dropped that lies on no die it read is read again in square windows :data:`WINDOWS` times its side, and
reported when one reading is clear (:data:`CLEAR`, :data:`NOT_A_DIE`, the face above "crooked", "not a standard die"
at most :data:`vision.reader.STROKE_SHARE`).

A die cocked on an edge whose candidate was dropped is read as a face in the larger window just as well (a guessed
roll where the goals want a re-roll), so the rescue is refused (:func:`refused`) when the candidate's own box looks
cocked by the reader's tests, when the larger window holds the centre of a die already read, or when the die's colour
stands out from the tray and its lit top face has :data:`RESCUE_BESIDE` times its area of body beside it or runs
:data:`RESCUE_LENGTH` candidate sides long. A white die on white paper, the die the rescue is for, does not stand out
from the tray, so that last test does not measure it.

Chosen on the training folds (bench/bench_grown_window.py; docs/vision.md, "the larger window with a check against
cocked dice"), measured held out once on fold 2. Kept apart from vision/reader.py, which calls :func:`with_rescued`
last.
"""

from __future__ import annotations

import numpy as np

from vision.cocked import TOP_MOST_DICE, looks_cocked, looks_cocked_at_any_angle, top_face_shape

#: The larger windows, in candidate sides (on fold 1's training photos 1.5 alone read 193 of 211 mixed-set dice against
#: 195 with 2.0 too; adding 2.5 read none more). Empty: the rule is off.
WINDOWS = (1.5, 2.0)
#: A reading is clear when its best face holds at least this share of the face probability (0.7 gave the same dice,
#: 0.9 one fewer on the training folds) ...
CLEAR = 0.8
#: ... and "not a die" is under this.
NOT_A_DIE = 0.3
#: A rescued die whose colour stands out from the tray is refused when its lit top face, measured in the candidate's
#: own box, has this many times its area of body beside it (a cocked die's second face: 1.35-2.1 on the synthetic
#: cocked dice rescued, 0.63 on the one coloured flat die rescued in fold 1's training photos) ...
RESCUE_BESIDE = 1.0
#: ... or runs this many candidate sides long.
RESCUE_LENGTH = 1.5
#: False: no check, every clear rescue is reported (the rule as session 12 measured it; bench_grown_window --no-check).
CHECKED = True


def with_rescued(reader, frame: np.ndarray, candidates, dice: list) -> list:
    """``dice`` (read by ``reader`` in ``frame``, as :meth:`DiceReader.read_all` reads it) with the dropped
    ``candidates`` (cx, cy, w, h, score) read clearly in a larger window and not refused, sorted left to right;
    ``dice`` as they are in a frame of more than :data:`TOP_MOST_DICE` standard dice."""
    from vision.reader import STROKE_SHARE, Die, die_colour  # vision.reader imports this module

    if not WINDOWS or len([d for d in dice if d.standard]) > TOP_MOST_DICE:
        return dice
    dice = list(dice)
    rescued = False
    for cx, cy, w, h, score in candidates:
        if len([d for d in dice if d.standard]) > TOP_MOST_DICE:
            break
        side = max(w, h)
        if any(abs(cx - d.centre[0]) < 0.5 * max(d.box[2], d.box[3]) and
               abs(cy - d.centre[1]) < 0.5 * max(d.box[2], d.box[3]) for d in dice):
            continue  # read already (or lies on a die read)
        best = None
        for grow, p in zip(WINDOWS, reader.classify(frame, [(cx, cy, side * grow) for grow in WINDOWS])):
            faces = p[1:7] / max(float(p[1:7].sum()), 1e-6)
            face = int(np.argmax(faces))
            crooked = float(p[7]) if len(p) > 7 else 0.0
            novelty = float(p[8]) if len(p) > 8 else 0.0
            if (p[0] < NOT_A_DIE and faces[face] >= CLEAR and p[1 + face] > crooked and novelty <= STROKE_SHARE
                    and (best is None or faces[face] > best[1])):
                best = (face + 1, float(faces[face]), side * grow, float(p[0]))
        if best is None:
            continue
        face, share, size, not_a_die = best
        box = (int(round(cx - size / 2)), int(round(cy - size / 2)), int(round(size)), int(round(size)))
        if CHECKED and refused(frame, (cx, cy, w, h), box, [d.centre for d in dice], reader.calibration.overhead):
            continue
        colour = die_colour(frame, box)
        if not reader.calibration.accepts_colour(colour):
            continue
        dice.append(Die(face, colour, box, round(float(min(1.0, score) * (1.0 - not_a_die) * share), 4)))
        rescued = True
    return sorted(dice, key=lambda d: (d.box[0], d.box[1])) if rescued else dice


def refused(frame: np.ndarray, candidate: tuple[float, float, float, float], window: tuple[int, int, int, int],
            others: list[tuple[float, float]], overhead: bool = False) -> bool:
    """Whether a die read in the larger ``window`` may be a cocked die or a piece of another: its ``candidate`` box
    (cx, cy, w, h: the die's size as the detector saw it) looks cocked by the reader's tests (``overhead``: also the
    overhead camera's), its lit top face there is held to the stricter :data:`RESCUE_BESIDE` / :data:`RESCUE_LENGTH`,
    or ``window`` holds one of ``others`` (the centres of the dice read)."""
    cx, cy, w, h = candidate
    own = (int(round(cx - w / 2)), int(round(cy - h / 2)), int(round(w)), int(round(h)))
    if looks_cocked_at_any_angle(frame, own, others):
        return True
    shape = top_face_shape(frame, own, others)
    if shape is not None and (shape[2] >= RESCUE_BESIDE or shape[0] >= RESCUE_LENGTH):
        return True
    if overhead and looks_cocked(frame, own, others):
        return True
    x, y, side, _ = window
    return any(x <= ox <= x + side and y <= oy <= y + side for ox, oy in others)
