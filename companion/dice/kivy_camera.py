"""The device's own camera through Kivy, as the frames the camera dice source reads (``camera://0?via=kivy``).

On a desktop ``cv2.VideoCapture`` opens a webcam by itself; on a tablet the camera belongs to the platform and
Kivy's camera provider (Android's, iOS's) is the way in, so a camera index is read through Kivy there by default.
Kivy delivers each picture on the UI thread, as a texture; :class:`KivyCameraFrames` copies it out (Android's
preview buffer where the provider keeps one, else a read-back of the texture) at most ``fps`` times a second
and hands it to the source's thread through :class:`vision.capture.PushedFrames`, which drops old pictures
rather than slow the UI down.  A camera that stops delivering for :data:`STALL_SECONDS` ends the frames, and the
source opens it again, as it does an unplugged webcam.
"""

from __future__ import annotations

import threading
import time

import cv2
import numpy as np

from vision.capture import CaptureError, PushedFrames

#: Pictures copied out of Kivy per second at most.  Each costs the UI thread a copy (a 1280x720 texture read
#: back: 4.3 ms under software GL; Android's preview buffer: 0.3 ms), but the roll detector counts frames: at
#: 15 a second a roll arrived 0.70-0.73 s after the dice came to rest, at 30 0.40-0.42 s (bench_camera_latency).
FRAMES_PER_SECOND = 30.0
#: A camera that delivers nothing for this long is taken for gone (another app took it, it was unplugged).
STALL_SECONDS = 5.0
#: How long opening may take on the UI thread before the source gives up and tries again.
OPEN_SECONDS = 10.0


def frame_of(camera) -> np.ndarray | None:
    """The picture a Kivy camera shows now, as a BGR array with its top row first (None before the first)."""
    grab = getattr(camera, "grab_frame", None)
    if grab is not None:  # Android's provider keeps the preview buffer (NV21) as the sensor gave it
        try:
            buffer = grab()
        except Exception:
            pass  # a provider whose buffer cannot be copied: its texture still can be, below
        else:
            if buffer is None:
                return None  # no preview yet
            width, height = camera.resolution
            yuv = np.frombuffer(bytes(buffer), np.uint8)
            if yuv.size != width * height * 3 // 2:
                return None  # a preview of another size than the camera says (being reconfigured)
            return cv2.cvtColor(yuv.reshape(height * 3 // 2, width), cv2.COLOR_YUV2BGR_NV21)
    texture = camera.texture
    if texture is None:
        return None
    width, height = texture.size
    frame = cv2.cvtColor(np.frombuffer(texture.pixels, np.uint8).reshape(height, width, 4), cv2.COLOR_RGBA2BGR)
    # Pixels come back in the order they were uploaded. A provider that uploads the picture top row first flips
    # its texture for drawing (Kivy's OpenCV and GStreamer ones do); one that does not uploaded it bottom first.
    _u0, v0, _u1, _v1, _u2, v2, _u3, _v3 = texture.tex_coords
    return frame if v0 > v2 else np.ascontiguousarray(frame[::-1])


class KivyCameraFrames(PushedFrames):
    """The pictures of an open Kivy camera (see :func:`open_kivy_camera`), read by another thread."""

    def __init__(self, camera, name: str, fps: float = FRAMES_PER_SECOND, stall: float = STALL_SECONDS,
                 is_file: bool = False) -> None:
        super().__init__(keep=2, timeout=0.25, name=name)
        self.fps = fps
        self.stall = stall
        self.is_file = is_file  # Kivy's OpenCV provider plays a video file too: its end is the end
        self._camera = camera
        self._gap = 1.0 / fps
        self._last_copied = 0.0
        self._last_pushed = time.monotonic()  # opening counts as a sign of life
        camera.bind(on_texture=self._on_texture)

    def _on_texture(self, camera) -> None:
        """On the UI thread, each time the camera shows a new picture."""
        now = time.monotonic()
        if self._closed or now - self._last_copied < self._gap:
            return
        self._last_copied = now
        frame = frame_of(camera)
        if frame is not None:
            self._last_pushed = now
            self.push(frame)

    def read(self) -> np.ndarray | None:
        """The newest picture; None once closed, or when the camera has shown nothing for ``stall`` seconds."""
        while not self._closed:
            frame = self.next_frame(self._timeout)
            if frame is not None:
                return frame
            if time.monotonic() - self._last_pushed > self.stall:
                return None
        return None

    def close(self) -> None:
        if not self._closed:
            super().close()
            on_ui_thread(self._release)

    def _release(self) -> None:
        self._camera.unbind(on_texture=self._on_texture)
        self._camera.stop()


def on_ui_thread(work) -> None:
    """Run ``work()`` on Kivy's UI thread: now when already there, else at its next frame."""
    if threading.current_thread() is threading.main_thread():
        work()
    else:
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: work())


def open_kivy_camera(target: int | str, resolution: tuple[int, int] = (1280, 720),
                     fps: float = FRAMES_PER_SECOND, stall: float = STALL_SECONDS,
                     cancel: threading.Event | None = None) -> KivyCameraFrames:
    """Open Kivy's camera ``target`` (an index) on the UI thread, from any thread; raises CaptureError naming
    the camera when it cannot be opened (none there, no permission, no provider), the UI does not get to
    it within OPEN_SECONDS, or ``cancel`` is set meanwhile (the UI thread may be the one stopping the caller)."""
    name = f"kivy camera {target}"
    opened: dict = {}
    done, lock = threading.Event(), threading.Lock()

    def open_it() -> None:
        try:
            from kivy.core.camera import Camera

            if Camera is None:
                raise CaptureError(f"{name}: Kivy has no camera provider on this system")
            _ask_for_the_camera()
            camera = _camera_at_a_size(Camera, target, resolution)
            frames = KivyCameraFrames(camera, name, fps, stall, is_file=isinstance(target, str))
        except CaptureError as error:
            opened["error"] = error
        except Exception as error:  # each provider fails its own way (an exception, a missing picture)
            opened["error"] = CaptureError(f"{name}: cannot open the camera ({error})")
        else:
            with lock:
                if done.is_set():  # too late: the caller has given up on it
                    frames.close()
                else:
                    opened["frames"] = frames
        done.set()

    on_ui_thread(open_it)
    deadline = time.monotonic() + OPEN_SECONDS
    while not done.wait(0.05):
        if time.monotonic() > deadline or (cancel is not None and cancel.is_set()):
            with lock:
                if not done.is_set():
                    done.set()
                    why = "opening it was cancelled" if cancel is not None and cancel.is_set() else \
                        f"the app did not open it within {OPEN_SECONDS:g} s"
                    raise CaptureError(f"{name}: {why}")
    if "error" in opened:
        raise opened["error"]
    return opened["frames"]


#: Picture sizes tried after the one asked for, when a camera refuses it (Android's preview sizes are the
#: camera's own list: a camera without 1280x720 fails to start with it rather than pick another).
FALLBACK_SIZES = ((640, 480),)


def _camera_at_a_size(camera_class, target, resolution):
    """Kivy's camera ``target`` at ``resolution``, else at the first of :data:`FALLBACK_SIZES` it accepts; the
    error of each refusal is kept in the last one's message."""
    refusals = []
    for size in (resolution, *[s for s in FALLBACK_SIZES if s != tuple(resolution)]):
        try:
            return camera_class(index=target, resolution=size, stopped=False)
        except Exception as error:  # a provider refuses a size its own way (Android: "setParameters failed")
            refusals.append(f"{size[0]}x{size[1]}: {error}")
    raise RuntimeError("; ".join(refusals))


def _ask_for_the_camera() -> None:
    """On Android the camera needs the user's permission, asked for at the first use (no-op elsewhere)."""
    from kivy.utils import platform

    if platform == "android":  # pragma: no cover - needs an Android device
        from android.permissions import Permission, check_permission, request_permissions

        if not check_permission(Permission.CAMERA):
            request_permissions([Permission.CAMERA])
            raise CaptureError("the camera needs your permission: allow it, and the camera is tried again")
