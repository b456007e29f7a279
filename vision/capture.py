"""Frames from somewhere, behind one small interface.

The roll detector only needs ``read() -> frame or None``.  On a desktop that is a
``cv2.VideoCapture`` (camera index, video file, stream URL); on a tablet it is the pictures that
Kivy's camera hands over (:class:`PushedFrames`, filled by ``companion.dice.kivy_camera``); in tests it
may be a list of arrays (:class:`FrameList`).
"""

from __future__ import annotations

import queue
import weakref
from pathlib import Path
from typing import Iterable

import cv2
import numpy as np


class CaptureError(OSError):
    """A frame source that cannot be opened or read; the message names the source."""


#: Sources holding a camera, a video file or a stream open (or pushed frames not yet closed).  Weak: one the
#: program dropped without closing is released by its finaliser.
_open: weakref.WeakSet = weakref.WeakSet()


def open_sources() -> list["FrameSource"]:
    """The frame sources open now: a test's check that every capture it opened was closed before it ended."""
    return list(_open)


class FrameSource:
    """Base of every frame source: ``read`` gives the next BGR frame, or None at the end."""

    name = "frames"
    #: Frames per second the source delivers, when known (video files, cameras); else None.
    fps: float | None = None

    def read(self) -> np.ndarray | None:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def __iter__(self):
        while (frame := self.read()) is not None:
            yield frame

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class VideoCaptureSource(FrameSource):
    """``cv2.VideoCapture`` over a camera index (``"0"``), a video file or a stream URL."""

    def __init__(self, spec: str | int) -> None:
        self.name = str(spec)
        target: str | int = int(spec) if str(spec).isdigit() else str(spec)
        if isinstance(target, str) and "://" not in target and not Path(target).exists():
            raise CaptureError(f"{target}: no such video file")
        self._capture = cv2.VideoCapture(target)
        if not self._capture.isOpened():
            kind = "camera" if isinstance(target, int) else "video"
            raise CaptureError(f"{self.name}: cannot open the {kind}")
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = float(fps) if fps and fps > 0 else None
        self.is_file = isinstance(target, str) and "://" not in target
        _open.add(self)

    def read(self) -> np.ndarray | None:
        ok, frame = self._capture.read()
        return frame if ok else None

    def close(self) -> None:
        self._capture.release()
        _open.discard(self)


class FrameList(FrameSource):
    """Frames from an iterable of arrays (tests, recorded sequences)."""

    def __init__(self, frames: Iterable[np.ndarray], fps: float | None = 30.0, name: str = "frames") -> None:
        self._frames = iter(frames)
        self.fps = fps
        self.name = name

    def read(self) -> np.ndarray | None:
        return next(self._frames, None)


class PushedFrames(FrameSource):
    """Frames pushed in by someone else's camera callback (Kivy, Android), read by the detector thread.

    Only the newest few frames are kept: if reading falls behind, old frames are dropped rather
    than the camera being slowed down.
    """

    def __init__(self, keep: int = 2, timeout: float = 1.0, name: str = "pushed") -> None:
        self._queue: queue.Queue = queue.Queue(maxsize=keep)
        self._timeout = timeout
        self._closed = False
        self.name = name
        _open.add(self)

    def push(self, frame: np.ndarray) -> None:
        while True:
            try:
                self._queue.put_nowait(frame)
                return
            except queue.Full:
                try:
                    self._queue.get_nowait()
                except queue.Empty:
                    pass

    def read(self) -> np.ndarray | None:
        while not self._closed:
            frame = self.next_frame(self._timeout)
            if frame is not None:
                return frame
        return None

    def next_frame(self, timeout: float) -> np.ndarray | None:
        """The next frame pushed within ``timeout`` seconds, else None."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def close(self) -> None:
        self._closed = True
        _open.discard(self)


def open_capture(spec: str | int) -> FrameSource:
    """A frame source by name: a camera index (``0``), a video file path or a stream URL."""
    return VideoCaptureSource(spec)
