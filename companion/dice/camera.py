"""The camera over the dice tray as a dice source: ``camera://0`` or ``camera://path/to/video.mp4``.

A thread pulls frames from a :class:`vision.capture.FrameSource`, feeds them to a
:class:`vision.rolls.RollDetector` and delivers each settled roll as a :class:`DiceRolled` with
``source="camera"``, carrying the dice as read (``picture``) and its photos for the record (``photo``).
While the dice move the status is ``ROLLING``; a crooked or unreadable die sets a re-roll status (carrying
its picture and photo the same way) instead of guessing.  A camera or a stream that stops
delivering is opened again (``DISCONNECTED`` until it delivers); a video file that ends leaves the source ``IDLE``.

A tablet's own camera is read through Kivy (``camera://0?via=kivy``, the default on Android and iOS:
:mod:`companion.dice.kivy_camera`); any other frame callback can hand frames in with ``frames=PushedFrames()``.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from companion.dice import DiceRolled, DiceSource, RollPhoto, SourceState, register_scheme

#: A capture spec read through Kivy's camera (companion.dice.kivy_camera).
KIVY_PREFIX = "kivy:"
#: The options of a ``camera://`` URL (after ``?``): dice a roll has, a video played in real time, the route.
OPTIONS = ("dice", "realtime", "via")
#: The streams OpenCV reads (through FFmpeg) that a camera entry may name: a phone's or an IP camera's.
STREAM_SCHEMES = ("http", "https", "rtsp", "rtsps", "rtmp", "udp", "tcp")
#: How often a camera that will not open at start is tried again within ``CameraSource.open_grace``.
OPEN_STEP = 0.25
#: Every how many pictures the tray's light is judged (too dark to read, or light again): ~1 s at 30 a second.
DARK_CHECK_FRAMES = 30


@dataclass(frozen=True)
class CameraView:
    """What the camera sees now (:meth:`CameraSource.view`): ``picture`` (BGR) with the tray outlined and the
    dice lying still framed with their faces; ``phase`` is the roll detector's (``starting``, ``moving``,
    ``settling``, ``settled``); ``dice`` the dice lying still as last agreed on (none while anything moves)."""

    picture: Any
    phase: str
    dice: tuple


class CameraSource(DiceSource):
    name = "camera"
    #: Seconds a camera that will not open at start is tried again quietly (every OPEN_STEP) before it is
    #: reported lost: the calibration screen or a previous source may still be letting it go.
    open_grace = 1.5

    def __init__(self, spec: str | int = 0, frames=None, expected_dice: int = 2, calibration=None,
                 model_dir=None, retry_seconds: float = 2.0, realtime: bool = False, data_dir=None) -> None:
        """``spec`` is a camera index or a video path/URL (ignored when ``frames`` is given).

        Without a ``calibration`` the table's stored one is used: the file in ``data_dir`` (the app's
        data directory, beside its settings), by default the user data directory.

        ``realtime`` paces a video file at its own frame rate (for demos); by default a file is read
        as fast as it decodes.
        """
        super().__init__()
        self.spec = spec
        self._frames = frames
        self.expected_dice = expected_dice
        self.calibration = calibration
        self.data_dir = data_dir
        self.model_dir = model_dir
        self.retry_seconds = retry_seconds
        self.realtime = realtime
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.rolls = 0
        self._run_id = ""  # set by start(): roll ids are "camera-<run>-<n>"
        self._opened = None  # the frames the thread opened (from ``spec``) and reads now
        self._seen = None  # the latest frame and what the roll detector made of it (for view())

    def start(self, on_roll, on_status=None) -> None:
        super().start(on_roll, on_status)
        self._stop.clear()
        # A roll id must never repeat within a game: the table drops a roll whose id it already holds
        # (a box resending one). A count alone restarts at 1 with the app, and the first roll after a
        # restart mid-game would be silently dropped; a random part per start keeps ids apart.
        self._run_id = secrets.token_hex(4)
        self._set_status(SourceState.SEARCHING, f"opening {self.spec}", reason="opening",
                         params=(("spec", str(self.spec)),))
        self._thread = threading.Thread(target=self._run, name=f"camera {self.spec}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._frames is not None:
            self._frames.close()
        elif is_pushed(self._opened):
            # Pictures pushed from the UI thread (Kivy's camera) cannot come while that thread waits here:
            # closed, the frames end at once instead of after STALL_SECONDS of silence.
            self._opened.close()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def view(self, long_side: int = 960) -> CameraView | None:
        """What the camera sees now, drawn as the reader sees it (its light corrected, a dim picture lifted, shrunk
        to at most ``long_side`` pixels); ``None`` before the first picture and while the camera is lost (a video
        file that ended: its last picture).  Drawn in the caller's thread (0.9-2.4 ms a look with the texture,
        bench/bench_kivy_camera.py): a look twice a second costs the source's thread nothing."""
        seen = self._seen
        if seen is None:
            return None
        from vision.reader import as_read
        from vision.watch import tray_and_dice

        frame, phase, dice, calibration = seen
        shown = () if phase == "moving" else tuple(dice)
        return CameraView(tray_and_dice(as_read(frame, calibration), shown, calibration, long_side), phase, shown)

    @staticmethod
    def _pictures_of(frame, dice, calibration):
        """The dice picture and the photos of a settled reading (in this thread: ~1-4 ms a roll), which the roll
        or the request to roll again carries to the app."""
        from vision.watch import dice_picture, jpeg, plain_photo, roll_photo

        picture = dice_picture(frame, dice)
        return picture, RollPhoto(roll_photo(frame, dice, calibration), jpeg(picture),
                                  *plain_photo(frame, dice, calibration))

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until the source's thread ends (a video file ran out); True if it did."""
        if self._thread is not None:
            self._thread.join(timeout)
            return not self._thread.is_alive()
        return True

    # ------------------------------------------------------------------ thread

    def _run(self) -> None:
        # OpenCV is imported here, in the source's thread, so that merely registering the scheme
        # (which open_source does for every URL) stays cheap.
        from vision.calibration import Calibration, default_path
        from vision.capture import CaptureError
        from vision.reader import DiceReader, ModelError
        from vision.rolls import RollDetector

        # Uncalibrated, the whole picture is read as the tray: dice beside it (on the board, a spare) would be
        # counted. Said beside "watching", so a first-time table knows where to set the tray.
        calibrated = self.calibration is not None or default_path(self.data_dir).exists()
        try:
            calibration = self.calibration or Calibration.load(default_path(self.data_dir))
            detector = RollDetector(DiceReader(self.model_dir, calibration), self.expected_dice)
        except (ModelError, ValueError) as error:
            self._set_status(SourceState.ERROR, str(error))
            return
        grace_ends = time.monotonic() + self.open_grace  # until the camera first opens
        while not self._stop.is_set():
            try:
                frames = self._frames or open_frames(self.spec, cancel=self._stop)
                self._opened = frames
            except CaptureError as error:
                if self._stop.is_set():
                    return
                if not is_live(self.spec):
                    self._set_status(SourceState.ERROR, str(error))  # a missing file will not appear
                    return
                if time.monotonic() < grace_ends:
                    self._stop.wait(OPEN_STEP)  # still "opening": not lost before it was ever there
                    continue
                self._set_status(SourceState.DISCONNECTED, str(error))
                self._stop.wait(self.retry_seconds)
                continue
            grace_ends = 0.0  # opened once: a later failure is a camera lost
            if calibrated:
                self._set_status(SourceState.CONNECTED, f"watching {frames.name}", reason="watching",
                                 params=(("name", frames.name),))
            else:
                self._set_status(SourceState.CONNECTED, f"watching {frames.name}; no tray set, the whole picture is "
                                 "read: Settings, Camera calibration", reason="watching_uncalibrated",
                                 params=(("name", frames.name),))
            ended = self._watch(frames, detector)
            frames.close()
            if not ended:
                self._seen = None  # a camera lost shows nothing, not its last picture (a video's stays)
            if self._stop.is_set():
                return  # stopped: nothing more to say (a status now would land after the next source's)
            if ended or self._frames is not None:
                self._set_status(SourceState.IDLE, f"{frames.name}: end of video", reason="end_of_video",
                                 params=(("name", frames.name),))
                return
            self._set_status(SourceState.DISCONNECTED, f"{frames.name}: no more frames; retrying",
                             reason="no_frames", params=(("name", frames.name),))
            self._stop.wait(self.retry_seconds)

    def _watch(self, frames, detector) -> bool:
        """Read frames until the source runs dry or stop(); True when a video file ended."""
        from vision import exposure
        from vision.rolls import Phase

        period = 1.0 / frames.fps if self.realtime and frames.fps else 0.0
        was_moving = dark = False
        camera_moves = detector.camera_moves
        seen = 0
        while not self._stop.is_set():
            started = time.monotonic()
            frame = frames.read()
            if frame is None:
                return bool(getattr(frames, "is_file", False))
            seen += 1
            if seen % DARK_CHECK_FRAMES == 1:
                # The light off, or the lens covered: said, rather than watching a black tray in silence.
                calibration = detector.calibration
                box = calibration.tray_pixels(frame.shape[1], frame.shape[0])
                if exposure.too_dark(exposure.sampled_grey(calibration.correct_lighting(frame), box)) != dark:
                    dark = not dark
                    if dark:
                        self._say_too_dark()
                    else:
                        self._set_status(SourceState.CONNECTED, f"watching {frames.name}", reason="watching",
                                         params=(("name", frames.name),))
            event = detector.feed(frame)
            # One reference swapped whole: view() in another thread reads a consistent tuple, no lock.
            self._seen = (frame, detector.phase.value, detector.dice_in_view, detector.calibration)
            moving = detector.phase == Phase.MOVING
            if moving != was_moving:
                if dark and not moving:  # still, and still too dark: the advice stays on the line
                    self._say_too_dark()
                else:
                    self._set_status(SourceState.ROLLING if moving else SourceState.CONNECTED,
                                     "dice moving" if moving else "dice still", reason="moving" if moving else "still")
                was_moving = moving
            if detector.camera_moves != camera_moves:
                camera_moves = detector.camera_moves
                # Not an error: the dice and the tray were followed, for this session; the stored calibration
                # is the user's to redo.
                self._set_status(SourceState.CONNECTED, "the camera moved; dice and tray followed (calibrate "
                                 "again to keep the new view)", reason="camera_moved")
            if event is not None and event.kind == "roll":
                self.rolls += 1
                roll_id = f"camera-{self._run_id}-{self.rolls}"
                picture, photo = self._pictures_of(frame, event.dice, detector.calibration)
                self._emit_roll(DiceRolled(event.faces, "camera", event.confidence, event.at, roll_id=roll_id,
                                           picture=picture, photo=photo))
            elif event is not None:
                picture, photo = self._pictures_of(frame, event.dice, detector.calibration)
                self._set_status(SourceState.CONNECTED, event.reason, reroll=True, reason=event.reason_code,
                                 params=event.reason_params, picture=picture, photo=photo)
            if period:
                self._stop.wait(max(0.0, period - (time.monotonic() - started)))
        return False

    def _say_too_dark(self) -> None:
        self._set_status(SourceState.CONNECTED, "the tray is too dark to read: more light on it", reason="too_dark")


def open_frames(spec: str | int, cancel: threading.Event | None = None):
    """The frames of a capture spec: ``kivy:0`` through Kivy's camera, anything else through OpenCV (a camera
    index, a video file, a stream URL).  Raises CaptureError naming it when it cannot be opened (or ``cancel``
    was set while Kivy's camera was opening: that waits for the UI thread)."""
    if str(spec).startswith(KIVY_PREFIX):
        from companion.dice.kivy_camera import open_kivy_camera

        target = str(spec)[len(KIVY_PREFIX):]
        return open_kivy_camera(int(target) if target.isdigit() else target, cancel=cancel)
    from vision.capture import open_capture

    return open_capture(spec)


def is_pushed(frames) -> bool:
    """Whether ``frames`` are pushed in by another thread (and so can be closed from any thread)."""
    from vision.capture import PushedFrames

    return isinstance(frames, PushedFrames)


def is_live(spec: str | int) -> bool:
    """Whether a capture spec names a camera or a stream (worth opening again when it fails: a cable comes
    back, a network camera restarts), not a video file (which will not appear)."""
    return str(spec).removeprefix(KIVY_PREFIX).isdigit() or "://" in str(spec)


def capture_spec(url: str) -> tuple[str | int, dict[str, str]]:
    """A ``camera://`` URL's capture spec (for :func:`open_frames`) and its other options.

    A camera index is read through Kivy's camera with ``?via=kivy``, and by default on Android and iOS, where
    the camera belongs to the platform; through OpenCV with ``?via=opencv`` and by default elsewhere."""
    rest = url.split("://", 1)[1] if "://" in url else url.split(":", 1)[1]
    query = ""
    if "?" in rest:
        rest, query = rest.split("?", 1)
    parts = [part for part in query.split("&") if part]
    ours = [part for part in parts if part.split("=", 1)[0] in OPTIONS]
    if "://" in rest:
        # A stream's address keeps its own query (an IP camera's ``videostream.cgi?user=…``); ours are taken out.
        theirs = [part for part in parts if part not in ours]
        rest += "?" + "&".join(theirs) if theirs else ""
    elif len(ours) < len(parts):
        unknown = sorted(part.split("=", 1)[0] for part in parts if part not in ours)
        raise ValueError(f"{url}: unknown option(s) {unknown} (known: {', '.join(OPTIONS)})")
    options = dict(part.split("=", 1) for part in ours if "=" in part)
    if not rest:
        raise ValueError(f"{url}: expected camera://INDEX or camera://PATH")
    via = options.pop("via", None) or ("kivy" if rest.isdigit() and (_platform() in ("android", "ios")
                                                                  or not _opencv_captures()) else "opencv")
    if via not in ("kivy", "opencv"):
        raise ValueError(f"{url}: via must be kivy or opencv, got {via!r}")
    if via == "kivy":
        return KIVY_PREFIX + rest, options
    return (int(rest) if rest.isdigit() else rest), options


class CameraChoiceError(ValueError):
    """What a player typed as the camera (Settings) names none: ``reason`` is ``"empty"``, ``"scheme"`` (a stream
    OpenCV does not read, ``scheme`` names it) or ``"unknown"`` (no number, address or video file)."""

    def __init__(self, reason: str, entry: str, scheme: str = ""):
        self.reason, self.entry, self.scheme = reason, entry, scheme
        words = {"empty": "enter a camera number (0, 1, ...) or a stream address (http://...)",
                 "scheme": f"{scheme}:// is not read; use one of {', '.join(s + '://' for s in STREAM_SCHEMES)}",
                 "unknown": f"{entry!r} is no camera number, stream address (http://..., rtsp://...) or video file"}
        super().__init__(f"camera: {words[reason]}")


def camera_url(entry: str, previous: str = "", is_file=os.path.isfile) -> str:
    """The ``camera://`` URL of what a player typed as the camera: a number (``0``, the tablet's back camera;
    ``1``, its front), a phone's or an IP camera's stream address, or a video file (to try the app without a
    table).  ``previous`` is the URL in use: when it names the same camera it is kept as it is, options
    (``?via=``, ``?dice=``) and all.  Raises :class:`CameraChoiceError` naming what is wrong."""
    entry = entry.strip()
    if previous.startswith("camera://") and entry and camera_entry(previous) == entry:
        return previous  # the camera in use, as it is (a video file it plays may have gone: the source says so)
    if not entry:
        raise CameraChoiceError("empty", entry)
    if "://" in entry:
        scheme, _, rest = entry.partition("://")
        if scheme.lower() not in STREAM_SCHEMES:
            raise CameraChoiceError("scheme", entry, scheme)
        if not rest.split("/", 1)[0].split("?", 1)[0]:
            raise CameraChoiceError("unknown", entry)
    elif not entry.isdigit() and not is_file(entry):
        raise CameraChoiceError("unknown", entry)
    return f"camera://{entry}"


def camera_entry(url: str) -> str:
    """What a player sees as the camera of a ``camera://`` URL (its number, address or file; not the options):
    the inverse of :func:`camera_url`.  Not a camera URL: ``"0"``, the first camera."""
    if not url.startswith("camera://"):
        return "0"
    try:
        spec, _options = capture_spec(url)
    except ValueError:
        return url[len("camera://"):]
    return str(spec).removeprefix(KIVY_PREFIX)


def _opencv_captures() -> bool:
    """Whether this OpenCV can open cameras (python-for-android's is built without video capture)."""
    import cv2

    return hasattr(cv2, "VideoCapture")


def _platform() -> str:
    """"android", "ios" or "desktop", told as Kivy tells it (without importing Kivy: the command line uses this)."""
    if "ANDROID_ARGUMENT" in os.environ:
        return "android"
    return "ios" if os.environ.get("KIVY_BUILD") == "ios" else "desktop"


def from_url(url: str) -> CameraSource:
    """``camera://0`` (camera index), ``camera://path/to/video.mp4`` (relative), ``camera:///abs/v.mp4``,
    ``camera://rtsp://host/stream``; ``?dice=N`` sets how many dice a roll has (default 2), ``?via=kivy`` reads
    the camera through Kivy (see :func:`capture_spec`)."""
    spec, options = capture_spec(url)
    try:
        dice = int(options.get("dice", 2))
    except ValueError:
        raise ValueError(f"{url}: dice must be a whole number, got {options['dice']!r}") from None
    return CameraSource(spec, expected_dice=dice, realtime=options.get("realtime") in ("1", "true"))


register_scheme("camera", from_url)
