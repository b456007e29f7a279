"""``python -m vision watch SOURCE``: the annotated live view, for calibrating at a real table.

Draws every die read (box, face or "?", colour), the tray region and the roll detector's phase
and last decision on each frame.  OpenCV here is the headless build (no ``cv2.imshow``), so the
view is a small Kivy window; ``--out FILE.mp4`` writes the annotated frames to a video instead
(no window: for a headless machine or for a record of a session; ``.avi`` is written as MJPG).
"""

from __future__ import annotations

import argparse
import sys

import cv2
import numpy as np

from vision.calibration import Calibration
from vision.capture import open_capture
from vision.reader import DiceReader, Die
from vision.rolls import Phase, RollDetector, RollEvent

#: The frame round a die that could not be read, in :func:`dice_picture` (BGR red).
UNREAD_FRAME = (40, 40, 230)
_PHASE_COLOURS = {Phase.STARTING: (200, 200, 200), Phase.MOVING: (0, 140, 255),
                  Phase.SETTLING: (0, 220, 220), Phase.SETTLED: (0, 200, 0)}


def annotate(frame: np.ndarray, dice: list[Die], phase: Phase, last: RollEvent | None,
             calibration: Calibration) -> np.ndarray:
    """A copy of ``frame`` with the dice, the tray and the detector's state drawn on it."""
    out = tray_and_dice(frame, dice, calibration)
    text = phase.value
    if last is not None:
        text += f" | last: {'+'.join(map(str, last.faces)) + ' = ' + str(last.total) if last.kind == 'roll' else 're-roll: ' + last.reason}"
    cv2.putText(out, text, (8, 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, _PHASE_COLOURS[phase], 2, cv2.LINE_AA)
    return out


def tray_and_dice(frame: np.ndarray, dice, calibration: Calibration, long_side: int | None = None) -> np.ndarray:
    """A copy of ``frame`` (shrunk to at most ``long_side`` pixels) with the tray's outline and each die read:
    its box (green, red when unread) and its face and colour above it.  What the camera sees, as the reader
    sees it: for aiming the camera and for a table wondering why a roll was not read."""
    scale = 1.0 if long_side is None else min(1.0, long_side / max(frame.shape[:2]))
    # Linear, not area: a look, not a record, and area averaging at a ratio like 0.75 costs 7 ms at 1280x720.
    out = frame.copy() if scale == 1.0 else cv2.resize(frame, (round(frame.shape[1] * scale),
                                                               round(frame.shape[0] * scale)), interpolation=cv2.INTER_LINEAR)
    cv2.polylines(out, [calibration.tray_polygon(out.shape[1], out.shape[0])], True, (255, 160, 0), 1)
    for die in dice:
        x, y, w, h = (round(v * scale) for v in die.box)
        colour = (0, 200, 0) if die.face else (0, 0, 255)
        cv2.rectangle(out, (x, y), (x + w, y + h), colour, 2)
        cv2.putText(out, f"{die.face or '?'} {die.colour}", (x, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    colour, 1, cv2.LINE_AA)
    return out


def dice_picture(frame: np.ndarray, dice, height: int = 96, gap: int = 6) -> np.ndarray:
    """The dice of a roll as the camera saw them: each die cut square round its box (with a little of the
    tray round it), scaled to ``height`` pixels, side by side, left to right as they lie.

    Shown beside the roll the app announces, so the players see at a glance what was read and can put a
    misread right (Undo, then the faces by tap), and beside a request to roll again, so they see why: a die
    that could not be read (``face`` None) is framed red.  BGR; an empty ``dice`` gives a picture ``height``
    high and ``gap`` wide.
    """
    tiles = []
    for die in sorted(dice, key=lambda d: d.centre[0]):
        (cx, cy), side = die.centre, 1.5 * max(die.box[2], die.box[3])
        matrix = np.float32([[height / side, 0, height / 2 - cx * height / side],
                             [0, height / side, height / 2 - cy * height / side]])
        tile = cv2.warpAffine(frame, matrix, (height, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        if die.face is None:
            cv2.rectangle(tile, (1, 1), (height - 2, height - 2), UNREAD_FRAME, 3)
        tiles.append(tile)
        tiles.append(np.zeros((height, gap, 3), np.uint8))
    return np.hstack(tiles[:-1]) if tiles else np.zeros((height, gap, 3), np.uint8)


def roll_photo(frame: np.ndarray, dice, calibration: Calibration | None = None, long_side: int = 640,
               quality: int = 80) -> bytes:
    """The tray as the camera saw it when a roll settled, as a JPEG kept with the game record.

    The evidence for a disputed roll, read later (a tournament umpire, the players after the game): the
    rectangle round the ``calibration``'s tray (default: the whole frame) grown by a tenth for dice on the
    walls, shrunk to at most ``long_side`` pixels, each die read framed just outside its box (green, red when
    unread) with its face above, so the frame hides nothing of the die.  About 20-60 kB.
    """
    view, (left, top), scale = _tray_view(frame, calibration, long_side)
    view = view.copy()  # drawn on: never the camera's own frame
    for die in dice:
        x, y, w, h = die.box
        grow = 0.15 * max(w, h)
        p0 = (round((x - left - grow) * scale), round((y - top - grow) * scale))
        p1 = (round((x + w - left + grow) * scale), round((y + h - top + grow) * scale))
        colour = (0, 200, 0) if die.face else UNREAD_FRAME
        cv2.rectangle(view, p0, p1, colour, 2)
        cv2.putText(view, str(die.face or "?"), (p0[0], max(14, p0[1] - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.6,
                    colour, 2, cv2.LINE_AA)
    return jpeg(view, quality)


def plain_photo(frame: np.ndarray, dice, calibration: Calibration | None = None, long_side: int = 960,
                quality: int = 90) -> tuple[bytes, tuple[tuple[int, int, int, int, int | None], ...]]:
    """The tray as the camera saw it when a roll settled, with nothing drawn on it (JPEG), and each die read as
    ``(x, y, w, h, face or None)`` in that picture's pixels: a labelled photo once the table has said the roll
    (``journal export --dataset``), for ``vision evaluate`` at that table and for training.  The same view as
    :func:`roll_photo`, kept larger (960 px) and finer (quality 90) for the dice's pips: 37 kB for a 640x640
    camera, 54 kB for 1280x720."""
    view, (left, top), scale = _tray_view(frame, calibration, long_side)
    boxes = tuple((round((d.box[0] - left) * scale), round((d.box[1] - top) * scale), round(d.box[2] * scale),
                   round(d.box[3] * scale), d.face) for d in dice)
    return jpeg(view, quality), boxes


def _tray_view(frame: np.ndarray, calibration: Calibration | None, long_side: int):
    """The rectangle round the tray grown by a tenth (dice on its walls), shrunk to at most ``long_side`` pixels
    (a view of ``frame`` when not shrunk); its top-left corner in the frame and the shrink."""
    left, top, right, bottom = (calibration or Calibration()).grown_pixels(frame.shape[1], frame.shape[0], 0.1)
    view = frame[top:bottom, left:right]
    scale = min(1.0, long_side / max(view.shape[:2]))
    if scale < 1.0:
        view = cv2.resize(view, (round(view.shape[1] * scale), round(view.shape[0] * scale)),
                          interpolation=cv2.INTER_AREA)
    return view, (left, top), scale


def jpeg(picture: np.ndarray, quality: int = 80) -> bytes:
    """A BGR picture as JPEG bytes (for the journal)."""
    ok, encoded = cv2.imencode(".jpg", picture, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise ValueError(f"OpenCV could not write a {picture.shape[1]}x{picture.shape[0]} picture as a JPEG")
    return encoded.tobytes()


class Annotator:
    """Feeds frames to a roll detector and returns them annotated."""

    def __init__(self, reader: DiceReader, expected_dice: int) -> None:
        self.reader = reader
        self.detector = RollDetector(reader, expected_dice)
        self.last: RollEvent | None = None

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        event = self.detector.feed(frame)
        if event is not None:
            self.last = event
            print(f"{event.kind}: {event.faces or ''} {event.reason} (confidence {event.confidence:.2f})", flush=True)
        dice = [] if self.detector.phase == Phase.MOVING else self.reader.read(frame)
        return annotate(frame, dice, self.detector.phase, self.last, self.reader.calibration)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision watch")
    parser.add_argument("source", help="camera index (0), video file or stream URL")
    parser.add_argument("--out", help="write the annotated video here instead of showing a window")
    parser.add_argument("--frames", type=int, help="stop after this many frames")
    parser.add_argument("--calibration", help="calibration JSON (default: the app's stored one)")
    parser.add_argument("--dice", type=int, default=2, help="dice in a roll (default 2)")
    parser.add_argument("--model", help="model folder (default: the bundled vision/models)")
    args = parser.parse_args(argv)
    calibration = Calibration.load(args.calibration)
    annotator = Annotator(DiceReader(args.model, calibration), args.dice)
    frames = open_capture(args.source)
    if args.out:
        return _write(frames, annotator, args.out, args.frames)
    return _show(frames, annotator, args.frames)


def _write(frames, annotator: Annotator, out: str, limit: int | None) -> int:
    writer = None
    count = 0
    with frames:
        while (limit is None or count < limit) and (frame := frames.read()) is not None:
            shown = annotator(frame)
            if writer is None:
                codec = "MJPG" if out.lower().endswith(".avi") else "mp4v"
                writer = cv2.VideoWriter(out, cv2.VideoWriter_fourcc(*codec), frames.fps or 30.0,
                                         (shown.shape[1], shown.shape[0]))
                if not writer.isOpened():
                    raise OSError(f"{out}: cannot write a video here")
            writer.write(shown)
            count += 1
    if writer is not None:
        writer.release()
    print(f"wrote {count} annotated frames to {out}")
    return 0


def _show(frames, annotator: Annotator, limit: int | None) -> int:  # pragma: no cover - needs a display
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.graphics.texture import Texture
    from kivy.uix.image import Image

    class WatchApp(App):
        title = f"vision watch {frames.name}"

        def build(self):
            self.view = Image(fit_mode="contain")
            self.count = 0
            Clock.schedule_interval(self.tick, 1.0 / (frames.fps or 30.0))
            return self.view

        def tick(self, _dt):
            frame = frames.read()
            if frame is None or (limit is not None and self.count >= limit):
                self.stop()
                return
            self.count += 1
            shown = cv2.flip(annotator(frame), 0)  # Kivy textures start at the bottom row
            texture = Texture.create(size=(shown.shape[1], shown.shape[0]), colorfmt="bgr")
            texture.blit_buffer(shown.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
            self.view.texture = texture

    try:
        WatchApp().run()
    finally:
        frames.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
