"""A network camera (a phone streaming MJPEG over HTTP, an IP camera) as the table's dice camera, and its
connection lost and back: the source opens it again, and the app says so out loud.

Real parts: an MJPEG-over-HTTP server on loopback (the stream phone camera apps serve), OpenCV's own reader
of it, the camera dice source, the app under Xvfb and its announcer.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import cv2
import pytest

from companion.ui import driver as d
from test_ui_camera_roll import DATA

pytestmark = pytest.mark.timeout(120)
PHOTO = DATA / "images" / "IMG_20191208_111328.jpg"


class MjpegCamera:
    """A camera serving one picture as an MJPEG stream at 30 frames a second on loopback; ``unplug(seconds)``
    drops every viewer and refuses new ones for that long, then serves again on the same port."""

    def __init__(self, picture) -> None:
        self.jpeg = cv2.imencode(".jpg", picture)[1].tobytes()
        self.port = 0
        self._serving = threading.Event()
        self._server = None
        self.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/stream.mjpg"

    def start(self) -> None:
        camera = self

        class Stream(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
                self.end_headers()
                part = b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(camera.jpeg)
                try:
                    while camera._serving.is_set():
                        self.wfile.write(part + camera.jpeg + b"\r\n")
                        time.sleep(1 / 30)
                except OSError:
                    pass  # the viewer went

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Stream)
        self._server.daemon_threads = True
        self.port = self._server.server_address[1]
        self._serving.set()
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self._serving.clear()
        self._server.shutdown()
        self._server.server_close()

    def unplug(self, seconds: float) -> None:
        self.stop()
        time.sleep(seconds)
        self.start()


def watching_network_camera(camera: MjpegCamera, data_dir: Path, retry_seconds: float = 2.0):
    """A camera dice source started on ``camera`` (its calibration looked for in ``data_dir``) and the
    statuses it reports, once it says it is watching (at most 20 s)."""
    from companion.dice import open_source

    source = open_source(f"camera://{camera.url}")
    source.data_dir, source.retry_seconds = data_dir, retry_seconds
    statuses: list = []
    source.start(lambda roll: None, statuses.append)
    assert wait_for_watching(statuses, 0), statuses
    return source, statuses


def wait_for_watching(statuses: list, since: int, timeout: float = 20) -> bool:
    """Until a status from index ``since`` on says the source watches (calibrated or not); ``timeout`` is a hang
    guard counted as the UI tests' waits count it (the seconds this process has had: see ``driver.wait_until``)."""
    started = d.app_time()
    while d.app_time(started) < timeout:
        if any(s.reason.startswith("watching") for s in statuses[since:]):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def network_camera():
    camera = MjpegCamera(cv2.imread(str(PHOTO)))
    yield camera
    camera.stop()


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_a_stream_that_drops_is_opened_again_until_it_serves(tmp_path, network_camera):
    from companion.dice import SourceState

    source, statuses = watching_network_camera(network_camera, tmp_path, retry_seconds=0.3)
    try:
        seen = len(statuses)
        network_camera.unplug(1.5)
        assert wait_for_watching(statuses, seen), statuses  # watching again, not given up
        assert statuses[seen].state == SourceState.DISCONNECTED, statuses[seen:]  # lost, said so
        assert not any(s.state == SourceState.ERROR for s in statuses)
    finally:
        source.stop()


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_the_table_hears_when_its_camera_is_lost_and_when_it_is_back(tmp_path, network_camera):
    from companion.announce import phrase_for_notice

    record, _game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    game_id = d.journal(tmp_path, record, "network camera")
    app = d.start_app(tmp_path, source_url=f"camera://{network_camera.url}")
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        captions = []
        app.announcer.add_caption_listener(lambda a: captions.append(a.caption))
        app.source.retry_seconds = 0.3
        assert d.wait_until(lambda: app.source_state == "connected", timeout=20), app.source_status
        assert "no tray set" in app.source_status  # a first-time table is told where to set the tray
        d.settle()
        d.screenshot(Path(__file__).resolve().parents[1] / "docs" / "screens" / "play-camera-uncalibrated-en.png")
        unplugging = threading.Thread(target=network_camera.unplug, args=(1.5,))
        unplugging.start()
        lost, back = (phrase_for_notice(n, "en").caption for n in ("camera_lost", "camera_back"))
        assert (lost, back) == ("Camera lost.", "Camera back.")
        assert d.wait_until(lambda: back in captions, timeout=20), (captions, app.source_status)
        unplugging.join()
        assert [c for c in captions if c in (lost, back)] == [lost, back]  # once each, not once per retry
        assert app.source_state == "connected"
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_a_camera_not_yet_calibrated_says_so_beside_what_it_watches(tmp_path, network_camera):
    """A first-time table: with no tray set the whole picture is read (dice beside the tray would count), and
    the status says where to set it; once a calibration is saved, plain "watching"."""
    from companion.ui import i18n
    from vision.calibration import Calibration, default_path

    def first_watch(data_dir):
        source, statuses = watching_network_camera(network_camera, data_dir)
        source.stop()
        return next(s for s in statuses if s.reason.startswith("watching"))

    fresh = first_watch(tmp_path)
    assert fresh.reason == "watching_uncalibrated" and "no tray set" in fresh.detail
    assert i18n.tr("why_watching_uncalibrated", "ja", **dict(fresh.params)).endswith("設定のカメラ較正へ")
    Calibration(tray=(0.2, 0.2, 0.8, 0.8)).save(default_path(tmp_path))
    assert first_watch(tmp_path).reason == "watching"


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_a_camera_still_being_let_go_at_start_is_waited_for_not_reported_lost(tmp_path, network_camera):
    """The calibration screen gives the camera back and the game's source opens it at once: a camera that takes
    a moment to be free is tried again quietly (the table is not told "Camera lost." then "Camera back."); one
    still absent after the grace is reported lost, as before."""
    from companion.dice import SourceState, open_source

    def statuses_when_free_after(seconds: float, grace: float) -> list:
        network_camera.stop()  # busy: refusing viewers on its port
        source = open_source(f"camera://{network_camera.url}")
        source.data_dir, source.retry_seconds, source.open_grace = tmp_path, 0.3, grace
        statuses: list = []
        source.start(lambda roll: None, statuses.append)
        time.sleep(seconds)
        network_camera.start()
        try:
            assert wait_for_watching(statuses, 0), statuses
        finally:
            source.stop()
        return [s.state for s in statuses]

    # Freed well within the grace (a loaded machine may take seconds to try again), then without one.
    assert SourceState.DISCONNECTED not in statuses_when_free_after(0.6, grace=15.0)
    assert SourceState.DISCONNECTED in statuses_when_free_after(0.6, grace=0.0)  # without the grace: "lost"
