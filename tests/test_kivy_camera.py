"""The device's camera through Kivy (``camera://0?via=kivy``, the default on a tablet), under Xvfb.

Real parts: Kivy's own camera provider on this machine (its OpenCV one, which plays a video file where a
tablet's provider shows the camera), its texture read back from the GPU, the camera dice source and the app.
What the tests cannot reach here: Android's provider and its preview buffer (no device).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.dice.camera import capture_spec, open_frames
from companion.dice.kivy_camera import STALL_SECONDS, open_kivy_camera
from companion.ui import driver as d
from test_ui_camera_roll import DATA, camera_game, throw_video
from vision.capture import CaptureError

pytestmark = pytest.mark.timeout(180)
PHOTO = DATA / "images" / "IMG_20191208_111328.jpg"


def video_of(photo: Path, out: Path, frames: int = 6) -> Path:
    picture = cv2.imread(str(photo))
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (picture.shape[1], picture.shape[0]))
    assert writer.isOpened(), "this OpenCV cannot write MJPG"
    for _ in range(frames):
        writer.write(picture)
    writer.release()
    return out


def read_in_a_thread(frames) -> tuple[list, threading.Thread]:
    """Read ``frames`` to their end in another thread (as the camera source does), the UI thread free."""
    got: list = []

    def read_all():
        while (frame := frames.read()) is not None:
            got.append((time.monotonic(), frame))
        got.append((time.monotonic(), None))

    thread = threading.Thread(target=read_all, daemon=True)
    thread.start()
    return got, thread


def test_a_camera_url_reads_through_kivy_when_asked_and_on_a_tablet(monkeypatch):
    assert capture_spec("camera://0?via=kivy") == ("kivy:0", {})
    assert capture_spec("camera://1") == (1, {})
    monkeypatch.setenv("ANDROID_ARGUMENT", "/data/app")  # as python-for-android starts an app
    assert capture_spec("camera://0?dice=3") == ("kivy:0", {"dice": "3"})
    assert capture_spec("camera://0?via=opencv") == (0, {})
    assert capture_spec("camera://v.mp4") == ("v.mp4", {})  # a file is OpenCV's
    with pytest.raises(ValueError, match="via must be kivy or opencv"):
        capture_spec("camera://0?via=v4l")


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_kivys_camera_picture_reaches_the_reader_as_the_camera_took_it(tmp_path):
    """The picture read back from Kivy's texture is the camera's, the right way up and in its colours (BGR),
    and when the camera stops showing anything the frames end after ``stall`` seconds, not never."""
    video = video_of(PHOTO, tmp_path / "table.avi")
    expected = cv2.VideoCapture(str(video)).read()[1]
    app = d.start_app(tmp_path)
    try:
        frames = open_kivy_camera(str(video), stall=3.0)
        got, reader = read_in_a_thread(frames)
        assert d.wait_until(lambda: not reader.is_alive(), timeout=15), "the frames never ended"
        pictures = [frame for _t, frame in got if frame is not None]
        assert pictures, "no picture came through Kivy"
        first = pictures[0]
        assert first.shape == expected.shape and first.dtype == np.uint8
        assert np.abs(first.astype(int) - expected).mean() < 1.0  # upside down: 25.6, RGB for BGR: 6.5 (measured)
        seen_last = max(t for t, frame in got if frame is not None)
        # Ended by the stall (3 s after the last was shown), not never (the thread ended, above); how long after
        # the stall the thread got to run depends on the machine's load, and is not measured here.
        assert got[-1][0] - seen_last >= 0.3
        frames.close()
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_androids_preview_buffer_is_read_as_the_picture_it_holds():
    """Android's provider keeps the camera's preview (NV21); that is read instead of the texture."""
    from companion.dice.kivy_camera import frame_of
    from vision.synthetic import nv21

    picture = cv2.imread(str(PHOTO))[:480, :640]

    class Preview:  # the two things frame_of asks of Android's provider
        resolution = (640, 480)
        texture = None

        def grab_frame(self):
            return nv21(picture)

    frame = frame_of(Preview())
    assert frame.shape == picture.shape
    assert np.abs(frame.astype(int) - picture).mean() < 3.0  # measured: 0.6 (chroma at half size); U for V: 8.0


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_a_camera_that_refuses_the_size_asked_for_is_opened_at_a_smaller_one(tmp_path, monkeypatch):
    """Android's camera starts only at a preview size of its own list (setParameters fails otherwise): a camera
    without 1280x720 is opened at 640x480.  Kivy's own (OpenCV) provider plays the camera, refusing 1280x720
    as Android's does; a camera refusing every size is named with each refusal."""
    import kivy.core.camera

    provider, asked = kivy.core.camera.Camera, []

    class NoHighDefinition(provider):
        def __init__(self, **kwargs):
            asked.append(kwargs["resolution"])
            if tuple(kwargs["resolution"]) == (1280, 720):
                raise RuntimeError("setParameters failed")
            super().__init__(**kwargs)

    monkeypatch.setattr(kivy.core.camera, "Camera", NoHighDefinition)
    video = video_of(PHOTO, tmp_path / "table.avi")
    app = d.start_app(tmp_path)
    try:
        # stall: the first picture may come a while after opening on a busy machine (1 s was too short in a
        # fresh clone beside another run: no picture, the frames ended)
        frames = open_kivy_camera(str(video), stall=3.0)
        try:
            got, reader = read_in_a_thread(frames)
            assert d.wait_until(lambda: not reader.is_alive(), timeout=15)
            assert asked == [(1280, 720), (640, 480)] and any(frame is not None for _t, frame in got)
        finally:
            frames.close()

        class NoCamera(provider):
            def __init__(self, **kwargs):
                raise RuntimeError("setParameters failed")

        monkeypatch.setattr(kivy.core.camera, "Camera", NoCamera)
        with pytest.raises(CaptureError, match=r"cannot open the camera \(1280x720: setParameters failed; "
                                               r"640x480: setParameters failed\)"):
            open_kivy_camera(str(video))
    finally:
        d.stop_app(app)


def test_a_kivy_camera_that_is_not_there_is_named_in_the_error(tmp_path):
    app = d.start_app(tmp_path)
    try:
        with pytest.raises(CaptureError, match="kivy camera 7: cannot open"):
            open_frames("kivy:7")
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not DATA.exists(), reason="the dice photographs are not here")
def test_a_roll_seen_through_kivys_camera_is_recorded(tmp_path):
    # Kivy shows the video at its 30 frames a second, the source copies at most 30 of them: the dice lie
    # still for 2 s, as a camera keeps showing them.
    video = throw_video(tmp_path / "throw.avi", (3, 5), still=60)
    app, play = camera_game(tmp_path, video, url=f"camera://{video}?via=kivy")
    try:
        assert d.wait_until(lambda: app.table.game.state.last_dice is not None, timeout=60), app.source_status
        assert sorted(app.table.game.state.last_dice) == [3, 5]
        assert app.table.record.events[-1]["source"] == "camera"
        assert d.wait_until(lambda: play.dice_picture is not None, timeout=5)
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_a_source_watching_kivys_camera_stops_at_once(tmp_path):
    """Kivy's pictures arrive on the UI thread, which is the thread that stops the source (leaving a game,
    calibrating): the source must not wait for a picture that cannot come while it is being stopped."""
    from companion.dice import open_source

    video = video_of(PHOTO, tmp_path / "long.avi", frames=300)  # 10 s of the table
    app = d.start_app(tmp_path)
    try:
        source = open_source(f"camera://{video}?via=kivy")
        statuses = []
        source.start(lambda roll: None, statuses.append)
        assert d.wait_until(lambda: any(s.reason.startswith("watching") for s in statuses), timeout=15)
        d.pump(5)
        started = time.monotonic()
        source.stop()
        assert time.monotonic() - started < STALL_SECONDS  # not the silence that ends the frames (it waited for it before)
        assert source.wait(0)
        d.pump(5)
        assert statuses[-1].reason.startswith("watching")  # nothing said after the stop (no "no more frames; retrying")
    finally:
        d.stop_app(app)
