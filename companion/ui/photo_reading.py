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
CAMERA_WARMUP_FRAMES = 5


def tr(key: str, **values) -> str:
    app = App.get_running_app()
    return app.tr(key, **values) if app is not None else i18n.tr(key, "en", **values)


def photo_problem(error: BaseException, name: str, other_size: str = "scan_other_size") -> str:
    """What the screen says of a photo that could not be read (``name``: the file's name or the camera entry;
    ``other_size``: the screen's words for a board of the other size)."""
    from companion.dice.camera import CameraChoiceError
    from vision.board.reader import HeicError, NoBoardError, OtherSizeError

    if isinstance(error, OtherSizeError):  # a 5-6 board at a 3-4 game, or the other way round
        return tr(other_size, name=name, players=error.players,
                  game="3-4" if error.players == "5-6" else "5-6")
    if isinstance(error, NoBoardError):
        return tr("scan_no_board", name=name)
    if isinstance(error, HeicError):  # a HEIC photo named .jpg (the pictures list says it before reading)
        return tr("pictures_heic", name=name)
    if isinstance(error, CameraChoiceError):  # said as Settings says it
        return tr("camera_problem_" + error.reason, entry=error.entry, scheme=error.scheme)
    if isinstance(error, OSError):
        return tr("scan_bad_photo", problem=str(error))
    log.error("reading a board photo failed", exc_info=error)
    return f"{name}: {error}"


def install_screen(app, manager, texts: dict, kv, screen_class, label_key: str):
    """Add an optional photo screen: its texts, its kv rules, the screen (stopped with the app), and a button
    going to it, whose words follow the language; the caller places the button.  Raises what went wrong (the
    caller logs it: an optional screen must not stop the table app)."""
    from kivy.factory import Factory
    from kivy.lang import Builder

    for key, entry in texts.items():
        i18n.TEXT.setdefault(key, entry)
    if str(kv) not in Builder.files:
        Builder.load_file(str(kv))
    made = screen_class()
    manager.add_widget(made)
    button = Factory.BigButton(text=tr(label_key))
    button.bind(on_release=lambda *_: app.go(made.name))
    app.bind(lang=lambda *_: setattr(button, "text", tr(label_key)))
    app.bind(on_stop=lambda *_: made.stop())
    return button


class PhotoReading:
    """A screen's photo reader (mixed into a Screen with ``message`` and ``reading`` properties): ``_start(work,
    name)`` runs ``work()`` on a thread, then ``_read(value)`` on the UI thread, or says why it failed."""

    _reading_message = "scan_reading"  # what the screen says while a photo is being read
    _other_size = "scan_other_size"    # what it says of a board of the other size (reader.OtherSizeError)
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
            self.message = photo_problem(value, name, self._other_size)
            return
        self._read(value)

    def _read(self, value) -> None:
        raise NotImplementedError

    def stop(self, timeout: float = 10.0) -> None:
        """Wait for a photo being read (the app is stopping): no thread outlives the app."""
        self._cancel.set()
        if self._thread is not None:
            self._thread.join(timeout)


def scan_file(path: str, players: str = "3-4"):
    """A picture file, read as a board photo (``players``: the board's size, "3-4" or "5-6")."""
    from vision.board.scan import BoardScan

    return BoardScan.of_file(path, players)


def scan_camera(entry: str, cancel: threading.Event, players: str = "3-4"):
    """One picture from the camera ``entry`` names (a number, a stream address, a video file), read.  Opened as
    the dice source opens it: through Kivy's camera on Android and iOS (the platform's), OpenCV elsewhere."""
    from companion.dice.camera import camera_url, capture_spec, open_frames
    from vision.board.scan import BoardScan

    spec, _options = capture_spec(camera_url(entry))
    frames = open_frames(spec, cancel=cancel)
    frame = None
    try:
        for _ in range(CAMERA_WARMUP_FRAMES):
            picture = frames.read()
            if picture is None or cancel.is_set():
                break
            frame = picture
    finally:
        frames.close()
    if frame is None:
        raise OSError(tr("scan_no_camera", camera=entry))
    return BoardScan.of_image(frame, players=players)


def cameras_here() -> list[str]:
    """The cameras this device has, as Settings names them ("0", "1", ...).  Android: the platform's count (no
    camera opened); elsewhere each /dev/video* that gives a picture (``doctor.camera_pictures``, which opens
    them: run it on a thread, and never while the game's camera source reads one)."""
    from companion.dice.camera import _platform

    if _platform() == "android":
        try:
            from jnius import autoclass  # python-for-android's; Kivy's own Android camera uses this class

            return [str(n) for n in range(autoclass("android.hardware.Camera").getNumberOfCameras())]
        except Exception:
            log.exception("the cameras could not be counted")
            return []
    from companion import doctor

    return [device.rsplit("video", 1)[-1] for device, size in doctor.camera_pictures() if size is not None]


def scan_camera_choices(settings, found: list[str]) -> list[str]:
    """The cameras "Scan the board" offers: the dice camera (Settings'), the cameras ``found``, and the one chosen
    there before (a stream or a video file is offered again), each once, in that order."""
    out: list[str] = []
    for entry in [settings.camera or "0", *found, settings.scan_camera]:
        if entry and entry not in out:
            out.append(entry)
    return out
