"""The camera calibration screen, by touch under Xvfb: a real photograph of dice as the table's camera (a
one-frame MJPG video named by the settings' ``camera://`` source), the tray's corners dragged with a finger,
the reader's dice inside the tray shown, saved, and the saved file loaded back as the same calibration.
Without a camera the screen says so and writes nothing.  Also writes docs/screens/calibration-{en,ja}.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screens"
PHOTO = Path("/work/shared/data/dice/nell-byler-dice_detection/images/IMG_20191208_111328.jpg")
TRAY = (0.45, 0.35, 0.65, 0.5)  # around two of the photo's dice, away from the others


def one_frame_video(photo: Path, out: Path) -> Path:
    import cv2

    frame = cv2.imread(str(photo))
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), 1.0, (frame.shape[1], frame.shape[0]))
    assert writer.isOpened(), "this OpenCV cannot write MJPG"
    writer.write(frame)
    writer.release()
    return out


def drag(x0: float, y0: float, x1: float, y1: float) -> None:
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x0, y0)
    touch.touch_down()
    for i in range(1, 6):  # a finger's path, not a jump
        touch.touch_move(x0 + (x1 - x0) * i / 5, y0 + (y1 - y0) * i / 5)
    touch.touch_up()
    d.pump(1)


def open_calibration(app):
    d.tap(app.root.get_screen("start").ids.settings)
    d.tap(app.root.get_screen("settings").ids.calibration)
    assert app.root.current == "calibration"
    return app.root.get_screen("calibration")


def shot(name: str) -> None:
    from kivy.core.window import Window

    d.settle()
    SHOTS.mkdir(parents=True, exist_ok=True)
    Window.dispatch("on_draw")
    written = Window.screenshot(str(SHOTS / f"tmp-{name}.png"))
    Path(written).replace(SHOTS / f"{name}.png")
    assert (SHOTS / f"{name}.png").stat().st_size > 8_000


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_drag_tray_read_dice_and_save(tmp_path):
    from vision.calibration import Calibration, default_path
    from vision.reader import DiceReader

    video = one_frame_video(PHOTO, tmp_path / "table.avi")
    data = tmp_path / "data"
    app = d.start_app(data)
    try:
        app.settings.dice_source = f"camera://{video}"  # the table's camera, as chosen in Settings
        screen = open_calibration(app)
        assert d.wait_until(lambda: screen.frame is not None, timeout=60), screen.summary
        d.settle()
        view = screen.ids.view
        assert view.texture is not None and tuple(view.frame_size) == (640, 640)
        # Every die in the photo is inside the untouched (whole-frame) tray.
        assert screen.summary.startswith(f"{len(screen.found)} dice:") and len(screen.found) >= 5

        # Drag the top-left handle, then the bottom-right one, with a finger on the picture.
        drag(*view.to_window(*view.to_widget(0.0, 0.0)), *view.to_window(*view.to_widget(TRAY[0], TRAY[1])))
        drag(*view.to_window(*view.to_widget(1.0, 1.0)), *view.to_window(*view.to_widget(TRAY[2], TRAY[3])))
        d.settle()
        assert screen.tray == pytest.approx(list(TRAY), abs=0.01)
        # The sliders follow the drag.
        assert screen.ids.x0.value == pytest.approx(screen.tray[0]) and screen.ids.y1.value == pytest.approx(screen.tray[3])

        # What the screen shows is what the reader reads with this tray.
        reader = DiceReader(calibration=Calibration(tray=tuple(screen.tray)))
        expected = reader.read(screen.frame)
        assert [f.face for f in expected] == [2, 4]
        assert screen.summary == "2 dice: 2 and 4"
        inside = [face for face, _box, ok in view.dice if ok]
        assert inside == [2, 4] and len(view.dice) == len(screen.found)
        shot("calibration-en")

        assert not default_path(data).exists()
        d.tap(screen.ids.save)
        assert default_path(data).exists(), screen.message
        assert screen.message.startswith("Saved to")
        saved = Calibration.load(default_path(data))
        assert saved == Calibration(tray=tuple(screen.tray))

        # Japanese: the same screen speaks Japanese; a moved tray then cancelled is not saved.
        app.lang = "ja"
        d.settle()
        assert screen.summary == "ダイス2個：2と4"
        shot("calibration-ja")
        drag(*view.to_window(*view.to_widget(*TRAY[2:])), *view.to_window(*view.to_widget(0.9, 0.9)))
        assert screen.tray[2] == pytest.approx(0.9, abs=0.01)
        d.tap(screen.ids.cancel)
        assert app.root.current == "settings"
        assert Calibration.load(default_path(data)) == saved
        # The camera source would read with the saved tray.
        assert Calibration.load(default_path(app.data_dir)).tray == saved.tray
    finally:
        d.stop_app(app)


def test_no_camera_says_so_and_writes_nothing(tmp_path):
    from vision.calibration import default_path

    data = tmp_path / "data"
    app = d.start_app(data)
    try:
        missing = tmp_path / "no-such-camera.avi"
        app.settings.dice_source = f"camera://{missing}"
        screen = open_calibration(app)
        assert d.wait_until(lambda: screen.summary.startswith("No picture"), timeout=30), screen.summary
        assert str(missing) in screen.summary and "no such video file" in screen.summary
        d.tap(screen.ids.save)
        assert screen.message == "Nothing saved: there is no picture to calibrate on"
        assert not default_path(data).exists()
        # Dragging on an empty picture moves nothing.
        view = screen.ids.view
        drag(*view.to_window(*view.center), *view.to_window(view.x + 5, view.y + 5))
        assert screen.tray == [0.0, 0.0, 1.0, 1.0]
    finally:
        d.stop_app(app)


def test_unwritable_calibration_file_is_named(tmp_path):
    from vision.calibration import default_path

    data = tmp_path / "data"
    app = d.start_app(data)
    try:
        screen = open_calibration(app)
        screen.frame_spec = str(PHOTO) if PHOTO.exists() else ""
        if not PHOTO.exists():
            pytest.skip("the dice photographs are not here")
        screen.grab()
        assert d.wait_until(lambda: screen.frame is not None, timeout=60), screen.summary
        default_path(data).mkdir(parents=True)  # a directory where the file should go: it cannot be written
        d.tap(screen.ids.save)
        assert screen.message.startswith(f"Cannot save {default_path(data)}")
        assert default_path(data).is_dir()
    finally:
        d.stop_app(app)
