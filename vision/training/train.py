"""Train the dice detector and the face classifier from labelled photo sets; export ONNX to vision/models.

    /work/venvs/torch/bin/python -m vision.training.train [--fold F | --fold all] [--out DIR] SET_DIR...

With ``--fold F`` the photos of fold F (see :func:`vision.dataset.fold_of`) are left out, so
``python -m vision evaluate SET --model DIR --split held-out --fold F`` scores photos that model
never saw (cross-validation); ``--fold all`` trains on every photo (the committed model).
Runs on one CPU thread (the machine is shared) in a few minutes.  Needs torch (and onnx for the
export) in a separate venv; the app and the tests never import this module.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import queue as queue_module
import random
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

from vision import dataset
from vision.evaluate import pair_up
from vision.preprocess import DETECTOR_SIZE, DETECTOR_STRIDE, PAD_VALUE, PATCH_MARGIN, PATCH_SIZE, die_patch
from vision.reader import DEFAULT_MODEL_DIR, detect_candidates, load_net
from vision.training.models import DiceDetector, FaceClassifier
from vision.training.die_lists import oversampled, read_die_list
from vision.training.novelty_dice import drawn_novelty_die
from vision.training.synthetic_dice import drawn_die

GRID = DETECTOR_SIZE // DETECTOR_STRIDE
#: Range of the log of the random zoom applied to each detector training photo (on top of the
#: shrink to DETECTOR_SIZE): dice are seen from 0.6x to 1.4x their size in the photos.  A wider
#: range (0.45x-1.7x, meant for the huge dice-tower dice and the tiny tray dice), tried with crooked
#: dice pasted in, read more dice on held-out fold 0 but fewer on fold 1; pooled over folds 0+1
#: every set got worse (white-dice desk set 96 % -> 87-91 % of dice), so it was not adopted.
DETECTOR_ZOOM = (-0.5, 0.35)
#: Share of detector training photos that get a die cocked on an edge pasted in
#: (:func:`paste_crooked_die`).  Off: at 0.3 (with the wider zoom above) the detector still boxed the
#: synthetic crooked die of tests/test_vision_rolls.py as two dice, and read fewer real dice.
CROOKED_PASTE = 0.0
#: Each labelled die is cut this many times per classifier epoch (each copy with its own turn,
#: shift, size and light): with one copy the classifier read 91 % of held-out tray dice (fold 0,
#: labelled boxes), with three 94 %.
DIE_COPIES = 3
#: "Not a die" patches cut per photo per classifier epoch: 16 rather than 8 keeps their share of
#: the epoch near what it was before the three die copies, and the classifier invented fewer dice
#: on held-out photos (folds 0+1 pooled: 2.9 -> 2.3 % desk, 0.8 -> 0.6 % tray, 2.3 -> 1.7 % N3VERS4YDIE).
NEGATIVES_PER_IMAGE = 16
#: Copies per classifier epoch of each *hard* negative: a thing the detector itself takes for a die
#: on a training photo (``--hard-negatives DETECTOR``: a side face seen at an angle, a keyboard key,
#: a second box on one die), each copy with its own turn, shift and size.
HARD_NEGATIVE_COPIES = 4
#: Chances that a die patch is foreshortened, shrunk or blurred (:func:`degrade`).
TILT_CHANCE, SHRINK_CHANCE, BLUR_CHANCE = 0.4, 0.3, 0.2
#: Drawn dice (:mod:`vision.training.synthetic_dice`) per photo per classifier epoch, each on a random
#: piece of that photo (table, tray, now and then part of a real die) as its background.
DRAWN_PER_IMAGE = 3
#: Drawn dice that are not standard pip dice (numerals, shapes, a blank face: :mod:`vision.training.novelty_dice`)
#: per photo per classifier epoch, class "not a standard die".
NOVELTY_PER_IMAGE = 2
#: Chance that a photo's patches are cut from its grey copy (for grey cameras, such as the dice tower's) in a
#: classifier epoch.  Grey copies teach faces without colour, where a marbled die's pale swirl and its red pips
#: look alike: at 0.25 the fold models read 95.7 % of the held-out tray dice on their labelled boxes and 94.0 %
#: through the reader; at 0.05, 97.1 and 96.9 % (N3VERS4YDIE, grey photos and all, 78.1 -> 80.2 % and
#: 67.6 -> 69.0 %; the desk set tied; 2026-11-24, folds 0+1 pooled, the 50-epoch fold detectors).
GREY_COPY_CHANCE = 0.05
#: Copies per classifier epoch of each die named in an ``--oversample`` list (in place of ``DIE_COPIES``): the
#: retraining plan for the tray set's dark marbled red-pip dice (bench/dark-red-pip-dice.txt) gives them 9.
OVERSAMPLE_COPIES = 9


def mine_hard_negatives(samples, detector_path: Path) -> list[list[tuple[tuple[float, float], float]]]:
    """Per training photo, the detector's candidates that match no labelled die: (centre, side).

    A candidate matches a die when its centre lies within the die's box enlarged by a quarter (the
    evaluation's rule); each die takes its nearest candidate, so a second box on one die is a
    negative too.  Use a detector that was trained without the held-out fold, so nothing of that
    fold leaks into the classifier.
    """
    net = load_net(detector_path)
    mined = []
    for image, dice in samples:
        found = detect_candidates(net, image)
        used_c = {j for _, j in pair_up(dice, [(c[0], c[1]) for c in found])}
        mined.append([((c[0], c[1]), max(c[2], c[3])) for j, c in enumerate(found) if j not in used_c])
    print(f"hard negatives: {sum(map(len, mined))} detector false finds on {len(samples)} photos", flush=True)
    return mined


def load_sets(folders: list[str], fold: int | None, names: list[str] | None = None
              ) -> list[tuple[np.ndarray, list[dataset.LabelledDie]]]:
    """Every photo of ``folders`` except those of ``fold`` (all photos when ``fold`` is None); each photo's
    stem is appended to ``names`` when given (in the same order)."""
    samples = []
    for folder in folders:
        images = dataset.list_images(folder)
        for item in images if fold is None else dataset.split(images, "seen", fold):
            image = cv2.imread(str(item.image_path), cv2.IMREAD_COLOR)
            height, width = image.shape[:2]
            samples.append((image, item.read_dice(width, height)))
            if names is not None:
                names.append(item.image_path.stem)
    return samples


# ---------------------------------------------------------------- detector

def jitter_colour(image: np.ndarray, rng: random.Random) -> np.ndarray:
    out = image.astype(np.float32)
    if rng.random() < 0.4:  # two of the sets are grey: make colour no crutch
        out = np.repeat(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)[..., None], 3, axis=2).astype(np.float32)
    out = out * rng.uniform(0.6, 1.4) + rng.uniform(-40, 40)
    out = out * np.array([rng.uniform(0.85, 1.15) for _ in range(3)], np.float32)
    if rng.random() < 0.2:
        k = rng.choice((3, 5))
        out = cv2.GaussianBlur(out, (k, k), 0)
    return np.clip(out, 0, 255).astype(np.uint8)


def paste_crooked_die(image: np.ndarray, dice, rng: random.Random):
    """The photo with one more die pasted in, cocked on an edge, and the dice with its box added.

    Seen from above, a die leaning at an angle t shows two faces meeting at an edge, squeezed to
    cos t and sin t of their width: two real faces of the photo are squeezed so and put edge to
    edge, turned at random and feathered onto an empty part of the photo.  Without this the
    detector, which never saw one, boxes the two half faces as two small dice and the classifier's
    "crooked" class never gets the whole die.  Returns the inputs unchanged when there is no room.
    """
    if not dice:
        return image, dice
    a, b = rng.choice(dice), rng.choice(dice)
    side = max(a.box[2], a.box[3]) * rng.uniform(0.9, 1.1)
    size = int(round(side))
    if size < 8:
        return image, dice
    lean = math.radians(rng.uniform(25, 65))
    faces = []
    for die, squeeze in ((a, math.cos(lean)), (b, math.sin(lean))):
        face = cv2.getRectSubPix(image, (size, size), die.centre)
        faces.append(cv2.resize(face, (max(1, round(size * squeeze)), size), interpolation=cv2.INTER_AREA))
    body = np.hstack(faces)
    h, w = body.shape[:2]
    angle = rng.uniform(0, 360)
    cos, sin = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    box_w, box_h = w * cos + h * sin, w * sin + h * cos
    span = int(math.ceil(max(box_w, box_h))) + 4
    turn = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    turn[0, 2] += span / 2 - w / 2
    turn[1, 2] += span / 2 - h / 2
    canvas = cv2.warpAffine(body, turn, (span, span), borderMode=cv2.BORDER_REPLICATE)
    alpha = cv2.warpAffine(np.ones((h, w), np.float32), turn, (span, span))
    alpha = cv2.GaussianBlur(alpha, (0, 0), max(0.7, size * 0.03))[..., None]
    height, width = image.shape[:2]
    if span >= min(width, height):
        return image, dice
    for _ in range(10):
        x0, y0 = rng.randint(0, width - span), rng.randint(0, height - span)
        cx, cy = x0 + span / 2, y0 + span / 2
        if any(abs(cx - d.centre[0]) < 0.5 * (d.box[2] + box_w) + 2 and abs(cy - d.centre[1]) < 0.5 * (d.box[3] + box_h) + 2
               for d in dice):
            continue
        out = image.copy()
        region = out[y0:y0 + span, x0:x0 + span].astype(np.float32)
        out[y0:y0 + span, x0:x0 + span] = (region * (1 - alpha) + canvas * alpha).astype(np.uint8)
        # The face (1) is a placeholder: the detector learns boxes only.
        return out, [*dice, dataset.LabelledDie(1, (cx - box_w / 2, cy - box_h / 2, box_w, box_h))]
    return image, dice


def detector_sample(image, dice, rng: random.Random):
    """One augmented detector input and its targets (heat, size, offset, mask)."""
    if CROOKED_PASTE and rng.random() < CROOKED_PASTE:  # (no draw when off: same stream as before)
        image, dice = paste_crooked_die(image, dice, rng)
    height, width = image.shape[:2]
    scale = DETECTOR_SIZE / max(height, width) * math.exp(rng.uniform(*DETECTOR_ZOOM))
    angle = rng.choice((0, 90, 180, 270)) + rng.uniform(-10, 10)
    centre = (width / 2, height / 2)
    matrix = cv2.getRotationMatrix2D(centre, angle, scale)
    matrix[0, 2] += DETECTOR_SIZE / 2 - centre[0] + rng.uniform(-0.2, 0.2) * DETECTOR_SIZE
    matrix[1, 2] += DETECTOR_SIZE / 2 - centre[1] + rng.uniform(-0.2, 0.2) * DETECTOR_SIZE
    if rng.random() < 0.5:
        matrix = np.array([[-1, 0, DETECTOR_SIZE], [0, 1, 0]], np.float64) @ np.vstack([matrix, [0, 0, 1]])
    border = rng.choice((PAD_VALUE, rng.randint(0, 255)))
    canvas = cv2.warpAffine(jitter_colour(image, rng), matrix, (DETECTOR_SIZE, DETECTOR_SIZE),
                            flags=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR, borderValue=(border,) * 3)
    heat = np.zeros((GRID, GRID), np.float32)
    size = np.zeros((2, GRID, GRID), np.float32)
    offset = np.zeros((2, GRID, GRID), np.float32)
    mask = np.zeros((GRID, GRID), np.float32)
    quarter = round(angle / 90) % 2 == 1
    ys, xs = np.mgrid[0:GRID, 0:GRID]
    for die in dice:
        cx, cy = matrix @ np.array([*die.centre, 1.0])
        w, h = die.box[2] * scale, die.box[3] * scale
        if quarter:
            w, h = h, w
        gx, gy = cx / DETECTOR_STRIDE, cy / DETECTOR_STRIDE
        if not (0 <= gx < GRID and 0 <= gy < GRID):
            continue
        sigma = max(0.8, max(w, h) / DETECTOR_STRIDE / 6)
        heat = np.maximum(heat, np.exp(-((xs - gx) ** 2 + (ys - gy) ** 2) / (2 * sigma ** 2)))
        ix, iy = int(gx), int(gy)
        heat[iy, ix] = 1.0
        size[:, iy, ix] = np.log(max(w, 1.0) / DETECTOR_STRIDE), np.log(max(h, 1.0) / DETECTOR_STRIDE)
        offset[:, iy, ix] = gx - ix, gy - iy
        mask[iy, ix] = 1.0
    blob = canvas.astype(np.float32).transpose(2, 0, 1) / 255.0
    return blob, heat, size, offset, mask


def detector_loss(output, heat, size, offset, mask):
    logits = output[:, 0]
    prob = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    positive = heat.eq(1).float()
    # CenterNet focal loss: cells near a centre are penalised less for firing.
    pos_loss = -(torch.log(prob) * (1 - prob) ** 2 * positive).sum()
    neg_loss = -(torch.log(1 - prob) * prob ** 2 * (1 - heat) ** 4 * (1 - positive)).sum()
    count = positive.sum().clamp(min=1)
    m = mask[:, None]
    box_loss = (F.l1_loss(output[:, 1:3] * m, size * m, reduction="sum")
                + F.l1_loss(torch.sigmoid(output[:, 3:5]) * m, offset * m, reduction="sum")) / count
    return (pos_loss + neg_loss) / count + box_loss


# ---------------------------------------------------------------- classifier

CROOKED = 7
NOT_STANDARD = 8


def crooked_patch(colour: np.ndarray, a, b, rng: random.Random) -> np.ndarray:
    """A die leaning on something, seen from above: halves of two real faces, each squeezed as if
    seen at about 45 degrees, turned at random; sometimes off-centre, as a detector may box it."""
    side = max(a.box[2], a.box[3])
    pa = die_patch(colour, a.centre, side, rng.choice((0, 90, 180, 270)) + rng.uniform(-8, 8))
    pb = die_patch(colour, b.centre, max(b.box[2], b.box[3]), rng.choice((0, 90, 180, 270)) + rng.uniform(-8, 8))
    split = rng.randint(PATCH_SIZE * 3 // 8, PATCH_SIZE * 5 // 8)
    left = cv2.resize(pa, (split, PATCH_SIZE), interpolation=cv2.INTER_AREA)
    right = cv2.resize(pb, (PATCH_SIZE - split, PATCH_SIZE), interpolation=cv2.INTER_AREA)
    both = np.concatenate([left, right], axis=1)
    shift = rng.uniform(-0.15, 0.15) * PATCH_SIZE
    matrix = cv2.getRotationMatrix2D((PATCH_SIZE / 2, PATCH_SIZE / 2), rng.uniform(0, 360), rng.uniform(0.85, 1.15))
    matrix[0, 2] += shift
    out = cv2.warpAffine(both, matrix, (PATCH_SIZE, PATCH_SIZE), borderMode=cv2.BORDER_REPLICATE)
    return out.reshape(PATCH_SIZE, PATCH_SIZE, -1).astype(np.float32)


def degrade(patch: np.ndarray, rng: random.Random) -> np.ndarray:
    """A die patch as a worse camera would give it: seen at a slant (one axis foreshortened),
    smaller (fewer pixels, then scaled back up) or out of focus; each with its own chance."""
    size = patch.shape[0]
    if rng.random() < TILT_CHANCE:
        turn = rng.uniform(0, math.pi)
        c, s = math.cos(turn), math.sin(turn)
        rot = np.array([[c, -s], [s, c]])
        squash = rot @ np.diag([1.0, rng.uniform(0.7, 1.0)]) @ rot.T
        centre = np.array([size / 2, size / 2])
        matrix = np.hstack([squash, (centre - squash @ centre)[:, None]])
        patch = cv2.warpAffine(patch, matrix, (size, size), borderMode=cv2.BORDER_REPLICATE).reshape(patch.shape)
    if rng.random() < SHRINK_CHANCE:
        small = rng.randint(size // 3, size * 2 // 3)
        patch = cv2.resize(cv2.resize(patch, (small, small), interpolation=cv2.INTER_AREA), (size, size),
                           interpolation=cv2.INTER_LINEAR).reshape(patch.shape)
    if rng.random() < BLUR_CHANCE:
        patch = cv2.GaussianBlur(patch, (0, 0), rng.uniform(0.5, 1.5)).reshape(patch.shape)
    return patch


def classifier_samples(samples, rng: random.Random, negatives_per_image: int = NEGATIVES_PER_IMAGE,
                       copies: int = DIE_COPIES, hard=None, novelty_per_image: int = NOVELTY_PER_IMAGE,
                       extra=None, marbled_share: float = 0.0):
    """Augmented 32x32 colour patches: every labelled die (class = face) plus "not a die" patches (class 0).

    ``extra`` (per photo, a list of its dice) gives those dice ``OVERSAMPLE_COPIES`` copies instead of
    ``copies``; ``marbled_share`` of the drawn dice are drawn as dark marbled red-pip dice with thin light
    streaks (:func:`vision.training.synthetic_dice.drawn_die`'s ``marbled``).  Both off by default, and
    then the random stream is that of the runs before them.

    The negatives are the things the detector is fooled by: corners and marks on the table
    (keyboard keys, stickers, tray edges), a single pip or part of a big die, a window spanning
    several dice, and the edge of a die half in view; a few are plain background.
    """
    patches, classes = [], []
    for index, (image, dice) in enumerate(samples):
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        # Colour augmentation: swapped channels turn a red die blue, grey copies stand for grey
        # cameras, and gain/offset/blur for other light and focus.  The name ``gray`` is kept for
        # the corner finder below; ``colour`` is what the patches are cut from.
        colour = image[:, :, rng.sample(range(3), 3)] if rng.random() < 0.5 else image
        if rng.random() < GREY_COPY_CHANCE:
            colour = cv2.cvtColor(gray, cv2.COLOR_GRAY2BGR)
        colour = np.clip(colour.astype(np.float32) * rng.uniform(0.7, 1.3) + rng.uniform(-30, 30), 0, 255).astype(np.uint8)
        if rng.random() < 0.2:
            colour = cv2.GaussianBlur(colour, (3, 3), 0)
        sides = [max(d.box[2], d.box[3]) for d in dice] or [40.0]
        listed = extra[index] if extra else []
        for die in dice * copies + listed * (OVERSAMPLE_COPIES - copies):
            side = max(die.box[2], die.box[3])
            cx, cy = die.centre
            jitter = 0.12 * side
            centre = (cx + rng.uniform(-jitter, jitter), cy + rng.uniform(-jitter, jitter))
            patch = die_patch(colour, centre, side * math.exp(rng.uniform(-0.2, 0.2)), rng.uniform(0, 360))
            patches.append(degrade(patch, rng))
            classes.append(die.face)
        if dice:  # a die cocked on an edge: two faces, each foreshortened, side by side
            a, b = rng.choice(dice), rng.choice(dice)
            patches.append(crooked_patch(colour, a, b, rng))
            classes.append(CROOKED)
        for (hx, hy), hside in (hard[index] if hard else []) * HARD_NEGATIVE_COPIES:
            jitter = 0.1 * hside
            centre = (hx + rng.uniform(-jitter, jitter), hy + rng.uniform(-jitter, jitter))
            patches.append(die_patch(colour, centre, hside * math.exp(rng.uniform(-0.15, 0.15)), rng.uniform(0, 360)))
            classes.append(0)
        height, width = gray.shape
        for _ in range(DRAWN_PER_IMAGE):
            side = rng.choice(sides) * PATCH_MARGIN * math.exp(rng.uniform(-0.3, 0.6))
            x, y = rng.uniform(0, max(1.0, width - side)), rng.uniform(0, max(1.0, height - side))
            piece = colour[int(y):int(y + side) + 1, int(x):int(x + side) + 1]
            if piece.size:
                face = rng.randint(1, 6)
                marbled = marbled_share > 0 and rng.random() < marbled_share
                patches.append(degrade(drawn_die(piece, face, rng, marbled=marbled), rng))
                classes.append(face)
        for _ in range(novelty_per_image):
            side = rng.choice(sides) * PATCH_MARGIN * math.exp(rng.uniform(-0.3, 0.6))
            x, y = rng.uniform(0, max(1.0, width - side)), rng.uniform(0, max(1.0, height - side))
            piece = colour[int(y):int(y + side) + 1, int(x):int(x + side) + 1]
            if piece.size:
                patches.append(degrade(drawn_novelty_die(piece, rng), rng))
                classes.append(NOT_STANDARD)
        corners = cv2.goodFeaturesToTrack(gray, 40, 0.05, 8)
        corners = [] if corners is None else [tuple(c) for c in corners.reshape(-1, 2)]
        for _ in range(negatives_per_image):
            side = rng.choice(sides) * math.exp(rng.uniform(-0.3, 0.3))
            kind = rng.random()
            if dice and kind < 0.2:  # a pip or a corner of a die, read as if it were a whole die
                die = rng.choice(dice)
                big = max(die.box[2], die.box[3])
                side = big * rng.uniform(0.2, 0.45)
                centre = (die.centre[0] + rng.uniform(-0.3, 0.3) * big, die.centre[1] + rng.uniform(-0.3, 0.3) * big)
                patches.append(die_patch(colour, centre, side, rng.uniform(0, 360)))
                classes.append(0)
                continue
            if dice and kind < 0.3:  # a window over several dice at once
                die = rng.choice(dice)
                big = max(die.box[2], die.box[3])
                patches.append(die_patch(colour, die.centre, big * rng.uniform(2.2, 3.5), rng.uniform(0, 360)))
                classes.append(0)
                continue
            if dice and kind < 0.45:  # half off a die: must not count as a second die
                die = rng.choice(dice)
                angle = rng.uniform(0, 2 * math.pi)
                reach = max(die.box[2], die.box[3]) * rng.uniform(0.75, 1.1)
                centre = (die.centre[0] + reach * math.cos(angle), die.centre[1] + reach * math.sin(angle))
            elif corners and kind < 0.85:  # something with edges on the table
                x, y = rng.choice(corners)
                centre = (x + rng.uniform(-0.2, 0.2) * side, y + rng.uniform(-0.2, 0.2) * side)
            else:
                centre = (rng.uniform(0, width), rng.uniform(0, height))
            near = any(abs(centre[0] - d.centre[0]) < 0.7 * d.box[2] and abs(centre[1] - d.centre[1]) < 0.7 * d.box[3]
                       for d in dice)
            if near:
                continue
            patches.append(die_patch(colour, centre, side, rng.uniform(0, 360)))
            classes.append(0)
    order = list(range(len(patches)))
    rng.shuffle(order)
    x = np.stack([patches[i] for i in order]).transpose(0, 3, 1, 2)
    return torch.from_numpy(np.ascontiguousarray(x)), torch.tensor([classes[i] for i in order])


# ---------------------------------------------------------------- loops and export

class Checkpoint:
    """A long training cut into short jobs (the machine is shared; no job may run past 10 minutes).

    With a ``path`` the state after each epoch (weights, optimiser, schedule, the random stream) is saved
    there, and a run started again with the same path and arguments goes on from the last saved epoch;
    past ``minutes`` a run stops after its epoch (exit status 3: run again to go on).  The result is the
    same network as one uninterrupted run would give, up to floating-point order.
    """

    def __init__(self, path: Path | None, minutes: float | None) -> None:
        self.path, self.minutes, self.started = path, minutes, time.time()

    def resume(self, parts: dict) -> int:
        """Load the saved state into ``parts`` (name -> object with load_state_dict, or a random.Random);
        the epoch to start from."""
        if self.path is None or not self.path.exists():
            return 0
        saved = torch.load(self.path, weights_only=False)
        for name, part in parts.items():
            if isinstance(part, random.Random):
                part.setstate(saved[name])
            else:
                part.load_state_dict(saved[name])
        print(f"resumed from {self.path} after epoch {saved['epoch']}", flush=True)
        return saved["epoch"]

    def save(self, parts: dict, epoch: int, epochs: int) -> None:
        """Save the state after ``epoch`` (1-based); stop the process when the time is up and epochs remain."""
        if self.path is None:
            return
        state = {name: part.getstate() if isinstance(part, random.Random) else part.state_dict()
                 for name, part in parts.items()}
        torch.save({**state, "epoch": epoch}, self.path)
        if self.minutes is not None and epoch < epochs and time.time() - self.started > self.minutes * 60:
            print(f"stopped after epoch {epoch}/{epochs}: run again with --checkpoint {self.path} to go on", flush=True)
            raise SystemExit(3)


NO_CHECKPOINT = Checkpoint(None, None)


def train_detector(samples, epochs: int, seed: int, checkpoint: Checkpoint = NO_CHECKPOINT) -> DiceDetector:
    rng = random.Random(seed)
    model = DiceDetector()
    optimiser = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    batch = 16
    steps = epochs * math.ceil(len(samples) / batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(optimiser, max_lr=3e-3, total_steps=steps, pct_start=0.1)
    state = {"model": model, "optimiser": optimiser, "schedule": schedule, "rng": rng}
    for epoch in range(checkpoint.resume(state), epochs):
        started, total = time.time(), 0.0
        order = list(range(len(samples)))
        rng.shuffle(order)
        model.train()
        for i in range(0, len(order), batch):
            parts = [detector_sample(*samples[j], rng) for j in order[i:i + batch]]
            tensors = [torch.from_numpy(np.stack(p)) for p in zip(*parts)]
            loss = detector_loss(model(tensors[0]), *tensors[1:])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            schedule.step()
            total += loss.item() * len(parts)
        print(f"detector epoch {epoch + 1}/{epochs} loss {total / len(order):.3f} ({time.time() - started:.0f} s)", flush=True)
        checkpoint.save(state, epoch + 1, epochs)
    return model.eval()


def classifier_from_onnx(path: Path) -> FaceClassifier:
    """A :class:`FaceClassifier` holding the weights of an exported ``faces.onnx``.

    The export folds each batch norm into its convolution, so the convolutions get the folded
    weights and each batch norm becomes the identity plus the folded bias (mean 0, variance 1 - eps);
    fine-tuning then keeps the batch norms' statistics frozen (see :func:`train_classifier`).
    """
    import onnx  # only needed here
    from onnx import numpy_helper

    tensors = [(t.name, numpy_helper.to_array(t).copy()) for t in onnx.load(str(path)).graph.initializer]
    named = dict(tensors)
    folded = [w for name, w in tensors if name.startswith("onnx::")]  # conv weight, bias, in order
    model = FaceClassifier()
    convs = [m for m in model.features if isinstance(m, torch.nn.Sequential)]
    if len(folded) != 2 * len(convs):
        raise ValueError(f"{path}: expected {2 * len(convs)} folded tensors, found {len(folded)}")
    with torch.no_grad():
        for block, weight, bias in zip(convs, folded[0::2], folded[1::2]):
            conv, norm = block[0], block[1]
            conv.weight.copy_(torch.from_numpy(weight))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(bias))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        # A network exported before the "not a standard die" class had 8 outputs: its rows are kept and
        # the new class starts from torch's own initialisation.
        weight, bias = named["classify.weight"], named["classify.bias"]
        model.classify.weight[:len(weight)].copy_(torch.from_numpy(weight))
        model.classify.bias[:len(bias)].copy_(torch.from_numpy(bias))
    return model


def _draw_epochs(samples, rng_state, hard, epochs: int, out, more: dict) -> None:
    """The worker of ``draw_ahead``: each epoch's patches, in order, from the same random stream the
    training process would have drawn them from, each with the stream's state after it."""
    cv2.setNumThreads(1)
    rng = random.Random()
    rng.setstate(rng_state)
    for _ in range(epochs):
        x, y = classifier_samples(samples, rng, hard=hard, **more)
        out.put((x.numpy(), y.numpy(), rng.getstate()))


class PatchesAhead:
    """Each classifier epoch's patches drawn in a second process while the network trains on the epoch
    before (drawing took about a third of an epoch's time).  The stream of random numbers is the one the
    training process would use (that stream draws patches and nothing else), so the patches, and the
    network, are those of drawing them in turn; the state after each epoch is handed back for the checkpoint."""

    def __init__(self, samples, rng: random.Random, hard, epochs: int, more: dict | None = None) -> None:
        context = multiprocessing.get_context("fork")  # the photos are shared, not copied through a pipe
        self.rng, self.queue = rng, context.Queue(maxsize=1)
        self.worker = context.Process(target=_draw_epochs,
                                      args=(samples, rng.getstate(), hard, epochs, self.queue, more or {}),
                                      daemon=True)
        self.worker.start()

    def next_epoch(self):
        while True:
            try:
                x, y, state = self.queue.get(timeout=5)
                break
            except queue_module.Empty:
                if not self.worker.is_alive():
                    raise RuntimeError(f"the patch-drawing process ended (exit status {self.worker.exitcode})")
        self.rng.setstate(state)
        return torch.from_numpy(x), torch.from_numpy(y)


def train_classifier(samples, epochs: int, seed: int, hard=None, init: Path | None = None,
                     lr: float = 3e-3, checkpoint: Checkpoint = NO_CHECKPOINT,
                     draw_ahead: bool = False, extra=None, marbled_share: float = 0.0) -> FaceClassifier:
    rng = random.Random(seed + 1)
    more = {"extra": extra, "marbled_share": marbled_share}
    model = FaceClassifier() if init is None else classifier_from_onnx(init)
    optimiser = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    state = {"model": model, "optimiser": optimiser, "rng": rng}
    first = checkpoint.resume(state)
    ahead = PatchesAhead(samples, rng, hard, epochs - first, more) if draw_ahead and first < epochs else None
    for epoch in range(first, epochs):
        started = time.time()
        for group in optimiser.param_groups:
            group["lr"] = lr * 0.5 * (1 + math.cos(math.pi * epoch / epochs))
        x, y = ahead.next_epoch() if ahead else classifier_samples(samples, rng, hard=hard, **more)
        model.train()
        if init is not None:  # fine-tuning: the folded batch norms keep their (identity) statistics
            for module in model.modules():
                if isinstance(module, torch.nn.BatchNorm2d):
                    module.eval()
        total, right = 0.0, 0
        for i in range(0, len(y), 64):
            logits = model(x[i:i + 64])
            loss = F.cross_entropy(logits, y[i:i + 64], label_smoothing=0.05)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
            total += loss.item() * len(logits)
            right += (logits.argmax(1) == y[i:i + 64]).sum().item()
        print(f"classifier epoch {epoch + 1}/{epochs} loss {total / len(y):.3f} "
              f"train acc {right / len(y):.3f} ({time.time() - started:.0f} s)", flush=True)
        checkpoint.save(state, epoch + 1, epochs)
    return model.eval()


def export(model: torch.nn.Module, shape: tuple[int, ...], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.onnx.export(model, torch.zeros(shape), str(path), dynamo=False, opset_version=13,
                      input_names=["input"], output_names=["output"])
    print(f"wrote {path} ({path.stat().st_size // 1024} KiB)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sets", nargs="+", help="labelled folders (images/, labels/)")
    parser.add_argument("--epochs-detector", type=int, default=200)
    parser.add_argument("--epochs-classifier", type=int, default=50)
    parser.add_argument("--only", choices=("detector", "classifier"))
    parser.add_argument("--out", type=Path, default=DEFAULT_MODEL_DIR)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--fold", default="0", help="fold to leave out (0..4), or 'all' to train on every photo")
    parser.add_argument("--hard-negatives", type=Path, metavar="DETECTOR",
                        help="detector.onnx (trained without the same fold) whose false finds on the training "
                             "photos are added to the classifier's 'not a die' class")
    parser.add_argument("--init-classifier", type=Path, metavar="FACES_ONNX",
                        help="fine-tune this exported classifier instead of starting from random weights")
    parser.add_argument("--lr-classifier", type=float, default=3e-3, help="peak learning rate (cosine decay)")
    parser.add_argument("--checkpoint", type=Path, metavar="FILE",
                        help="save the state after each epoch here and go on from it when run again (with --only)")
    parser.add_argument("--max-minutes", type=float, metavar="M",
                        help="with --checkpoint: stop after the epoch that passes M minutes (exit status 3)")
    parser.add_argument("--draw-ahead", action="store_true",
                        help="draw the classifier's patches for the next epoch in a second process while this one "
                             "trains (the same patches; a second core's worth of work)")
    parser.add_argument("--oversample", type=Path, metavar="LIST",
                        help=f"dice this list names (photo | die number from 1 | ..., as bench/dark-red-pip-dice.txt) "
                             f"get {OVERSAMPLE_COPIES} copies an epoch instead of {DIE_COPIES}")
    parser.add_argument("--marbled-share", type=float, default=0.0, metavar="P",
                        help="share of the drawn dice drawn as dark marbled red-pip dice with thin light streaks")
    args = parser.parse_args(argv)
    if not 0.0 <= args.marbled_share <= 1.0:
        parser.error(f"--marbled-share {args.marbled_share}: a share from 0 to 1")
    if args.checkpoint is not None and args.only is None:
        parser.error("--checkpoint needs --only detector or --only classifier (one network per checkpoint)")
    checkpoint = Checkpoint(args.checkpoint, args.max_minutes)
    torch.set_num_threads(1)  # the machine is shared
    cv2.setNumThreads(1)
    torch.manual_seed(args.seed)
    fold = None if args.fold == "all" else int(args.fold)
    names: list[str] = []
    samples = load_sets(args.sets, fold, names)
    print(f"{len(samples)} training photos (fold left out: {args.fold}), {sum(len(d) for _, d in samples)} dice")
    extra = None
    if args.oversample is not None:
        extra = oversampled(samples, names, read_die_list(args.oversample))
        print(f"oversampled: {sum(map(len, extra))} listed dice of {args.oversample.name} in the training photos, "
              f"{OVERSAMPLE_COPIES} copies an epoch", flush=True)
    if args.only in (None, "classifier"):
        hard = mine_hard_negatives(samples, args.hard_negatives) if args.hard_negatives else None
        export(train_classifier(samples, args.epochs_classifier, args.seed, hard,
                                args.init_classifier, args.lr_classifier, checkpoint, args.draw_ahead,
                                extra, args.marbled_share),
               (1, 3, PATCH_SIZE, PATCH_SIZE),
               args.out / "faces.onnx")
    if args.only in (None, "detector"):
        export(train_detector(samples, args.epochs_detector, args.seed, checkpoint), (1, 3, DETECTOR_SIZE, DETECTOR_SIZE),
               args.out / "detector.onnx")


if __name__ == "__main__":
    main()
