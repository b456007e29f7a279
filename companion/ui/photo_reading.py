"""Reading a board photo off the UI thread, for the screens that read one (Scan the board, Check the board).

A photo takes a second or two to read, so it is read on a thread of its own and the result handed back with
``Clock.schedule_once``; one photo at a time; a photo that cannot be read is said on the screen (no board in it,
a camera that cannot be used, a file that is not a picture) and nothing else changes. When the app stops, a
camera still opening gives up and the thread is waited for: no thread outlives the app.
"""

from __future__ import annotations

import logging
import threading

from kivy.app import App
from kivy.clock import Clock

from . import i18n

log = logging.getLogger(__name__)


def tr(key: str, **values) -> str:
    app = App.get_running_app()
    return app.tr(key, **values) if app is not None else i18n.tr(key, "en", **values)


def photo_problem(error: BaseException, name: str) -> str:
    """What the screen says of a photo that could not be read (``name``: the file's name or the camera entry)."""
    from companion.dice.camera import CameraChoiceError
    from vision.board.reader import NoBoardError

    if isinstance(error, NoBoardError):
        return tr("scan_no_board", name=name)
    if isinstance(error, CameraChoiceError):  # said as Settings says it
        return tr("camera_problem_" + error.reason, entry=error.entry, scheme=error.scheme)
    if isinstance(error, OSError):
        return tr("scan_bad_photo", problem=str(error))
    log.error("reading a board photo failed", exc_info=error)
    return f"{name}: {error}"


class PhotoReading:
    """A screen's photo reader (mixed into a Screen with ``message`` and ``reading`` properties): ``_start(work,
    name)`` runs ``work()`` on a thread, then ``_read(value)`` on the UI thread, or says why it failed."""

    _reading_message = "scan_reading"  # what the screen says while a photo is being read
    _thread_name = "board-photo"

    def _init_reading(self) -> None:
        self._thread: threading.Thread | None = None
        self._cancel = threading.Event()  # set when the app stops: a camera still opening gives up

    def _start(self, work, name: str) -> None:
        if self.reading:
            return  # one photo at a time
        self.reading = True
        self.message = tr(self._reading_message)

        def run():
            try:
                result = ("read", work())
            except Exception as error:  # said on the screen; the screen stays as it was
                result = ("error", error)
            Clock.schedule_once(lambda _dt: self._done(result, name))

        self._thread = threading.Thread(target=run, name=self._thread_name)
        self._thread.start()

    def _done(self, result, name: str) -> None:
        self.reading = False
        kind, value = result
        if kind == "error":
            self.message = photo_problem(value, name)
            return
        self._read(value)

    def _read(self, value) -> None:
        raise NotImplementedError

    def stop(self, timeout: float = 10.0) -> None:
        """Wait for a photo being read (the app is stopping): no thread outlives the app."""
        self._cancel.set()
        if self._thread is not None:
            self._thread.join(timeout)
