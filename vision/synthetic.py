"""Synthetic frame sequences built from real photographs, for testing and benchmarking roll detection.

A real photo of a tray has its dice painted out (``cv2.inpaint``) to give an empty tray; real die
crops cut from labelled photos are then pasted onto it frame by frame: tumbling (moving, spinning,
changing face, motion-blurred), settling, lying crooked (two faces seen at a slant), or with a
hand-sized skin-coloured shape passing over the tray.  Each frame gets fresh sensor noise, as a
camera's would.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from vision import dataset
from vision.cocked import border_colour


@dataclass(frozen=True)
class DieCrop:
    """A real die cut from a photo: a square BGR image centred on the die, and its face."""

    image: np.ndarray
    face: int
    side: float  # the die's size in pixels within ``image``


def cut_dice(image: np.ndarray, dice: list[dataset.LabelledDie], margin: float = 1.5) -> list[DieCrop]:
    crops = []
    for die in dice:
        side = max(die.box[2], die.box[3])
        half = int(side * margin / 2)
        cx, cy = (int(round(v)) for v in die.centre)
        if cx - half < 0 or cy - half < 0 or cx + half >= image.shape[1] or cy + half >= image.shape[0]:
            continue
        crops.append(DieCrop(image[cy - half:cy + half, cx - half:cx + half].copy(), die.face, side))
    return crops


def empty_tray(image: np.ndarray, dice: list[dataset.LabelledDie], pad: float = 0.25) -> np.ndarray:
    """The photo with its dice painted out, each over its box grown by ``pad`` of its side on every side
    (more where the labels box only a die's top face and its sides show round it)."""
    mask = np.zeros(image.shape[:2], np.uint8)
    for die in dice:
        x, y, w, h = die.box
        grow = pad * max(w, h)
        cv2.rectangle(mask, (int(x - grow), int(y - grow)), (int(x + w + grow), int(y + h + grow)), 255, -1)
    return cv2.inpaint(image, mask, 5, cv2.INPAINT_TELEA)


def relit(image: np.ndarray, left, right=None, ramp: float = 1.0) -> np.ndarray:
    """``image`` under another light: per-channel gains (B, G, R) ``left``; with ``right``, gains that change
    from ``left`` at the left to ``right`` at the right over the middle ``ramp`` of the width (0.1: a sharp
    shadow's edge across the middle; 1.0: a lamp at one side fading across)."""
    if right is None:
        return np.clip(image * np.array(left, np.float64), 0, 255).astype(np.uint8)
    x = np.linspace(0.0, 1.0, image.shape[1])
    t = np.clip((x - (0.5 - ramp / 2)) / max(ramp, 1e-6), 0.0, 1.0)[None, :, None]
    gains = np.array(left, np.float64)[None, None, :] * (1 - t) + np.array(right, np.float64)[None, None, :] * t
    return np.clip(image * gains, 0, 255).astype(np.uint8)


@dataclass
class Placed:
    """A die crop placed on the tray: centre, turn in degrees, and motion blur length in pixels."""

    crop: DieCrop
    x: float
    y: float
    angle: float = 0.0
    blur: int = 0


def nv21(picture: np.ndarray) -> bytes:
    """A BGR picture (even width and height) as a phone camera's preview buffer: NV21, the full-size luma plane
    then the chroma at half size, V and U interleaved (what Android's camera hands over)."""
    height, width = picture.shape[:2]
    i420 = cv2.cvtColor(picture, cv2.COLOR_BGR2YUV_I420)
    quarter = height * width // 4
    u = i420[height:].ravel()[:quarter]
    v = i420[height:].ravel()[quarter:]
    return np.concatenate([i420[:height].ravel(), np.dstack([v, u]).ravel()]).tobytes()


def paste(frame: np.ndarray, placed: Placed) -> None:
    """Draw the die onto ``frame`` in place, with feathered edges so no seam looks like an edge."""
    crop = placed.crop.image
    size = crop.shape[0]
    matrix = cv2.getRotationMatrix2D((size / 2, size / 2), placed.angle, 1.0)
    turned = cv2.warpAffine(crop, matrix, (size, size), borderMode=cv2.BORDER_REFLECT)
    if placed.blur > 1:
        kernel = np.zeros((placed.blur, placed.blur), np.float32)
        kernel[placed.blur // 2, :] = 1.0 / placed.blur
        turned = cv2.filter2D(turned, -1, kernel)
    alpha = np.zeros((size, size), np.float32)
    cv2.circle(alpha, (size // 2, size // 2), int(size * 0.45), 1.0, -1)
    alpha = cv2.GaussianBlur(alpha, (0, 0), size * 0.06)[..., None]
    x0, y0 = int(round(placed.x - size / 2)), int(round(placed.y - size / 2))
    if x0 < 0 or y0 < 0 or x0 + size > frame.shape[1] or y0 + size > frame.shape[0]:
        return  # off the tray: not drawn
    region = frame[y0:y0 + size, x0:x0 + size].astype(np.float32)
    frame[y0:y0 + size, x0:x0 + size] = (region * (1 - alpha) + turned * alpha).astype(np.uint8)


def die_face(crop: DieCrop) -> np.ndarray:
    """The die's top face cut out of its crop and turned square: ``side`` x ``side`` pixels, no tray.

    The die is told from the tray by its difference from the tray's colour (the median of the crop's
    border); its outline's smallest turned rectangle is warped upright.  A die the difference
    cannot outline (a white die on a white tray) falls back to the labelled box.
    """
    image = crop.image
    size = image.shape[0]
    side = max(2, int(round(crop.side)))
    difference = np.linalg.norm(image.astype(np.float32) - border_colour(image), axis=2)
    difference = cv2.GaussianBlur(difference, (0, 0), max(1.0, side / 25))
    _, mask = cv2.threshold(np.clip(difference, 0, 255).astype(np.uint8), 0, 255,
                            cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    middle = labels[size // 2, size // 2]
    if middle > 0 and 0.4 * side * side <= stats[middle, cv2.CC_STAT_AREA] <= 1.6 * side * side:
        points = np.column_stack(np.nonzero(labels == middle)[::-1]).astype(np.float32)
        (cx, cy), (w, h), angle = cv2.minAreaRect(points)
        if 0.75 < w / max(h, 1e-3) < 1.33:
            corners = cv2.boxPoints(((cx, cy), (w, h), angle)).astype(np.float32)
            # boxPoints go round the rectangle; any three consecutive corners fix the affine warp.
            target = np.float32([[0, side], [0, 0], [side, 0]])
            return cv2.warpAffine(image, cv2.getAffineTransform(corners[:3], target), (side, side))
    middle_xy = (size / 2, size / 2)
    return cv2.getRectSubPix(image, (side, side), middle_xy)


def body_colour(crop: DieCrop) -> np.ndarray:
    """The die's body colour as a Lab triple (the median of the middle of its face)."""
    face = die_face(crop)
    quarter = face.shape[0] // 4
    middle = face[quarter:face.shape[0] - quarter, quarter:face.shape[1] - quarter]
    return np.median(cv2.cvtColor(middle, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32), axis=0)


def crooked(a: DieCrop, b: DieCrop, tilt: float = 45.0, background=None) -> DieCrop:
    """A die cocked on an edge, seen from above: face ``a`` and face ``b`` meeting at an edge.

    Each face is cut from its crop (:func:`die_face`: the die, not its tray) and squeezed to its
    seen width at ``tilt`` degrees (cos and sin of the tilt), the face turned away from the light a
    little darker, on a square of ``background`` (BGR; default the median of ``a``'s crop border)
    large enough that pasting does not clip its corners.  Give two crops of dice of one colour: one
    die has one colour.

    (Earlier versions squeezed the labelled boxes, tray margins and all, so the two faces lay apart
    with tray between them, sometimes in two colours: that looks like two small dice.)
    """
    side = max(2, int(round(a.side)))
    widths = [max(1, int(round(side * abs(math.cos(math.radians(t)))))) for t in (tilt, 90 - tilt)]
    faces = [cv2.resize(die_face(crop), (width, side), interpolation=cv2.INTER_AREA)
             for crop, width in zip((a, b), widths)]
    faces[1] = (faces[1].astype(np.float32) * 0.8).astype(np.uint8)
    body = np.hstack(faces)
    size = int(math.ceil(2.0 * side))
    if background is None:
        background = border_colour(a.image)
    canvas = np.empty((size, size, 3), np.uint8)
    canvas[:] = np.asarray(background, np.float32).astype(np.uint8)
    y0, x0 = (size - body.shape[0]) // 2, (size - body.shape[1]) // 2
    canvas[y0:y0 + body.shape[0], x0:x0 + body.shape[1]] = body
    return DieCrop(canvas, 0, float(side))


#: Two crops are of one kind of die when their body colours lie this close (Lab units).
COLOUR_MATCH = 12


def cocked_dice(tray: np.ndarray, crops: list[DieCrop], count: int, seed: int) -> list[tuple[DieCrop, DieCrop]]:
    """``count`` dice cocked on an edge at 30-60 degrees, each made of two faces of one body colour
    (as one real die shows), with a flat die of about the same size to roll beside it:
    ``[(cocked, flat)]``, drawn from ``crops`` by a generator seeded with ``seed``."""
    rng = np.random.default_rng(seed)
    tray_colour = np.median(tray.reshape(-1, 3), axis=0)
    colours = [body_colour(c) for c in crops]
    made = []
    for _ in range(100 * count):
        if len(made) == count:
            break
        pick = int(rng.integers(len(crops)))
        a = crops[pick]
        alike = [c for c in crops if 0.85 < c.side / a.side < 1.18]
        near = [c for c, colour in zip(crops, colours) if c.face != a.face and 0.85 < c.side / a.side < 1.18
                and np.linalg.norm(colour - colours[pick]) < COLOUR_MATCH]
        if near:
            b, flat = near[int(rng.integers(len(near)))], alike[int(rng.integers(len(alike)))]
            made.append((crooked(a, b, float(rng.uniform(30, 60)), tray_colour), flat))
    if len(made) < count:
        raise ValueError(f"only {len(made)} of {count} cocked dice: too few crops of one colour")
    return made


def studio_tray_and_crops(reader, items: list[dataset.LabelledImage]) -> tuple[np.ndarray, list[DieCrop]]:
    """An empty tray (the first photo with its dice painted out) and the crops of the dice of the
    other photos that ``reader`` reads right, and surely (confidence >= 0.6), in their own photo:
    a borderline reading may flip on a pasted copy, and these sequences test *when* a roll is
    reported, not reading accuracy."""
    first = cv2.imread(str(items[0].image_path))
    tray = empty_tray(first, items[0].read_dice(first.shape[1], first.shape[0]))
    crops = []
    for item in items[1:]:
        image = cv2.imread(str(item.image_path))
        labelled = item.read_dice(image.shape[1], image.shape[0])
        read = reader.read(image)
        # cut_dice drops dice at the border, so pair the crops with their dice by face as well.
        for die, crop in zip(labelled, cut_dice(image, labelled)):
            seen = [d for d in read if abs(d.centre[0] - die.centre[0]) < die.box[2] / 2
                    and abs(d.centre[1] - die.centre[1]) < die.box[3] / 2]
            if len(seen) == 1 and seen[0].face == die.face == crop.face and seen[0].confidence >= 0.6:
                crops.append(crop)
    return tray, crops


def draw_hand(frame: np.ndarray, x: float, y: float, scale: float) -> None:
    """A hand-sized skin-coloured shape (palm and fingers), shaded, centred at (x, y)."""
    palm = (int(x), int(y))
    colour = (120, 160, 215)  # BGR skin tone
    cv2.ellipse(frame, palm, (int(70 * scale), int(90 * scale)), 15, 0, 360, colour, -1, cv2.LINE_AA)
    for i in range(4):
        fx = int(x - 45 * scale + i * 30 * scale)
        cv2.ellipse(frame, (fx, int(y - 120 * scale)), (int(12 * scale), int(50 * scale)), 0, 0, 360,
                    (110, 150, 205), -1, cv2.LINE_AA)


class SequenceBuilder:
    """Builds a list of frames; every method appends frames and returns self."""

    def __init__(self, tray: np.ndarray, seed: int = 0, noise: float = 2.0) -> None:
        self.tray = tray
        self.frames: list[np.ndarray] = []
        self.rng = random.Random(seed)
        self.np_rng = np.random.default_rng(seed)
        self.noise = noise
        self.resting: list[Placed] = []  # dice lying still on the tray
        self.camera: tuple[float, float, float] = (0.0, 0.0, 0.0)  # where the camera was knocked: dx, dy, degrees

    def _frame(self, dice: list[Placed], hand: tuple[float, float, float] | None = None) -> np.ndarray:
        frame = self.tray.copy()
        for placed in dice:
            paste(frame, placed)
        if hand is not None:
            draw_hand(frame, *hand)
        if self.camera != (0.0, 0.0, 0.0):
            frame = self._seen_by_camera(frame, *self.camera)
        if self.noise:
            noise = self.np_rng.normal(0, self.noise, frame.shape)
            frame = np.clip(frame.astype(np.float32) + noise, 0, 255).astype(np.uint8)
        return frame

    def still(self, count: int) -> "SequenceBuilder":
        for _ in range(count):
            self.frames.append(self._frame(self.resting))
        return self

    def tumble(self, faces: list[list[DieCrop]], ends: list[tuple[float, float]], count: int = 20,
               settle: list[DieCrop] | None = None) -> "SequenceBuilder":
        """Dice thrown in from outside the tray edge, rolling to ``ends``, then lying still.

        ``faces[i]`` are crops of die i to flash through while it tumbles; ``settle[i]`` is the
        crop it comes to rest showing (default: the last of ``faces[i]``).
        """
        height, width = self.tray.shape[:2]
        starts = [(self.rng.uniform(0.1, 0.9) * width, height * 0.95) for _ in ends]
        spins = [self.rng.uniform(20, 45) * self.rng.choice((-1, 1)) for _ in ends]
        for step in range(count):
            t = (step + 1) / count
            ease = 1 - (1 - t) ** 2  # decelerating
            dice = list(self.resting)
            for i, ((sx, sy), (ex, ey)) in enumerate(zip(starts, ends)):
                speed = (1 - t) * 2 * math.hypot(ex - sx, ey - sy) / count
                crop = faces[i][step % len(faces[i])] if step < count - 1 else (settle or [f[-1] for f in faces])[i]
                dice.append(Placed(crop, sx + (ex - sx) * ease, sy + (ey - sy) * ease,
                                   spins[i] * step * (1 - t), blur=int(min(15, speed))))
            self.frames.append(self._frame(dice))
        final = settle or [f[-1] for f in faces]
        self.resting = [Placed(crop, ex, ey, self.rng.uniform(0, 90)) for crop, (ex, ey) in zip(final, ends)]
        return self

    def throw(self, by_face: dict[int, list[DieCrop]], faces: tuple[int, ...], ends, pick: int = 0,
              count: int = 18) -> "SequenceBuilder":
        """Dice thrown in, flashing through every face, settling at ``ends`` showing ``faces``: ``by_face[f]``
        holds crops of face f; die i settles as the ``(i + pick)``-th of them (another ``pick``, other dice);
        the throw lasts ``count`` frames."""
        tumbling = [[by_face[f][0] for f in (2, 5, 1, 6, 3, 4)] for _ in faces]
        settle = [by_face[f][(i + pick) % len(by_face[f])] for i, f in enumerate(faces)]
        return self.tumble(tumbling, ends, count=count, settle=settle)

    def pick_up(self) -> "SequenceBuilder":
        """Take every die off the tray (a hand sweeps them away)."""
        self.hand_pass()
        self.resting = []
        return self

    def hand_pass(self, count: int = 12, scale: float = 1.0) -> "SequenceBuilder":
        """A hand crossing the tray over the resting dice, leaving them as they were."""
        height, width = self.tray.shape[:2]
        for step in range(count):
            t = step / (count - 1)
            self.frames.append(self._frame(self.resting, (-100 + (width + 200) * t, height * 0.5, scale)))
        return self

    def hand_along(self, points: list[tuple[float, float]], scale: float = 1.0) -> "SequenceBuilder":
        """A hand moving through ``points`` (pixels), one frame each: a player reaching across the table."""
        for x, y in points:
            self.frames.append(self._frame(self.resting, (x, y, scale)))
        return self

    def _seen_by_camera(self, frame: np.ndarray, dx: float, dy: float, degrees: float) -> np.ndarray:
        height, width = frame.shape[:2]
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0)
        matrix[:, 2] += (dx, dy)
        return cv2.warpAffine(frame, matrix, (width, height), borderMode=cv2.BORDER_REFLECT)

    def knock_camera(self, dx: float, dy: float, degrees: float = 0.0, count: int = 4) -> "SequenceBuilder":
        """The camera's stand is knocked: over ``count`` frames the view shifts by (dx, dy) pixels and turns
        by ``degrees``, and stays so for every frame after (unlike :meth:`shake_camera`)."""
        start = self.camera
        for step in range(1, count + 1):
            t = step / count
            self.camera = tuple(a + (b - a) * t for a, b in zip(start, (start[0] + dx, start[1] + dy,
                                                                         start[2] + degrees)))
            self.frames.append(self._frame(self.resting))
        return self

    def shake_camera(self, count: int = 4, pixels: int = 6) -> "SequenceBuilder":
        """The table is bumped: the whole view shifts for a few frames and comes back."""
        for step in range(count):
            frame = self._frame(self.resting)
            shift = np.float32([[1, 0, pixels * (-1) ** step], [0, 1, 0]])
            self.frames.append(cv2.warpAffine(frame, shift, (frame.shape[1], frame.shape[0]),
                                              borderMode=cv2.BORDER_REFLECT))
        return self
