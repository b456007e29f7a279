"""The camera calibration screen, by touch under Xvfb: a real photograph of dice as the table's camera (a
one-frame MJPG video named by the settings' ``camera://`` source), the tray's corners dragged with a finger,
the reader's dice inside the tray shown, saved, and the saved file loaded back as the same calibration; a
slanted tray (four corners in a trapezoid, as a camera at an angle sees it) leaves out the dice beside it.

A dim table (the photograph at 30 % light): the brightness slider raised by touch brings the dice's colours
back (the picture and the reader's re-reading follow), a tap on a die counts its colour, a colour toggled on,
saved; the camera dice source, watching the table, then reports exactly the two counted dice in the tray; the
screen opened again shows what was saved.  Without a camera the screen says so and writes nothing.  Writes
docs/screens/calibration-{en,ja}.png (tray), calibration-light-{en,ja}.png, calibration-colours-{en,ja}.png
calibration-slanted-en.png and calibration-portrait-en.png.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screens"
PHOTO = Path("/work/shared/data/dice/nell-byler-dice_detection/images/IMG_20191208_111328.jpg")
TRAY = (0.45, 0.35, 0.65, 0.5)  # around two of the photo's dice, away from the others
DIM = 0.3  # a dim table: the photograph at 30 % of its light
TRAY3 = (0.45, 0.35, 0.72, 0.5)  # around the two yellow dice and a white one
#: The tray as a camera at an angle would see it, narrower at the top; dice lie beside both slanted sides.
SLANTED = [(0.47, 0.33), (0.66, 0.33), (0.75, 0.76), (0.35, 0.76)]


def dim_photo():
    import cv2
    import numpy as np

    return (cv2.imread(str(PHOTO)).astype(np.float32) * DIM).astype(np.uint8)


def write_video(frames, out: Path) -> Path:
    import cv2

    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), 30.0, (w, h))
    assert writer.isOpened(), "this OpenCV cannot write MJPG"
    for frame in frames:
        writer.write(frame)
    writer.release()
    return out


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


def drag_corners(view, handles, to) -> None:
    """Drag the tray's corner handles at ``handles`` to ``to`` (fractions of the frame), one after another."""
    for (hx, hy), (tx, ty) in zip(handles, to):
        drag(*view.to_window(*view.to_widget(hx, hy)), *view.to_window(*view.to_widget(tx, ty)))
    d.settle()


def open_calibration(app, from_start: bool = True):
    if from_start:
        d.tap(app.root.get_screen("start").ids.settings)
    d.tap(app.root.get_screen("settings").ids.calibration)
    assert app.root.current == "calibration"
    return app.root.get_screen("calibration")


def calibrate_from(app, video: Path):
    """The calibration screen opened from the start screen with ``video`` as the table's camera (as chosen in
    Settings), its picture taken and read; returns the screen and its picture view."""
    app.settings.dice_source = f"camera://{video}"
    screen = open_calibration(app)
    wait_read(screen)
    return screen, screen.ids.view


def wait_read(screen) -> None:
    """Until the picture is there and its dice read (both come from a background thread)."""
    assert d.wait_until(lambda: screen.frame is not None and not screen.reading, timeout=60), screen.summary
    d.settle()


def wait_reread(screen) -> None:
    """Until the dice are read again after the tray or the light changed (the screen waits REREAD_DELAY for
    the change to rest first: until then a re-reading is due)."""
    assert d.wait_until(lambda: not screen.reread_due(), timeout=60)
    wait_read(screen)


def live_threads() -> list:
    import threading

    return [t for t in threading.enumerate() if t.name == "calibration live"]


def slide(slider, value: float) -> None:
    """A finger put down on ``slider`` where it shows ``value`` (and lifted)."""
    x = slider.x + slider.padding + (value - slider.min) / (slider.max - slider.min) * (slider.width - 2 * slider.padding)
    d.tap_at(*slider.to_window(x, slider.center_y))


def tap_die(view, index: int) -> None:
    x, y, w, h = view.die_rect(view.dice[index][1])
    d.tap_at(*view.to_window(x + w / 2, y + h / 2))


def shot(name: str) -> None:
    d.screenshot(SHOTS / f"{name}.png")


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_drag_tray_read_dice_and_save(tmp_path):
    from vision.calibration import Calibration, default_path
    from vision.reader import DiceReader

    video = one_frame_video(PHOTO, tmp_path / "table.avi")
    data = tmp_path / "data"
    app = d.start_app(data)
    try:
        screen, view = calibrate_from(app, video)
        assert view.texture is not None and tuple(view.frame_size) == (640, 640)
        # Every die in the photo is inside the untouched (whole-frame) tray.
        assert screen.summary.startswith(f"{len(screen.found)} dice:") and len(screen.found) >= 5

        # Drag the four corner handles onto the tray's corners with a finger on the picture.
        x0, y0, x1, y1 = TRAY
        drag_corners(view, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)], [(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        wait_reread(screen)  # the dice in the tray read as the camera will read them
        assert screen.tray == pytest.approx(list(TRAY), abs=0.01)
        # The sliders follow the drag.
        assert screen.ids.x0.value == pytest.approx(screen.tray[0]) and screen.ids.y1.value == pytest.approx(screen.tray[3])

        # What the screen shows is what the reader reads with this tray.
        reader = DiceReader(calibration=screen.calibration())
        expected = reader.read(screen.frame)
        assert [f.face for f in expected] == [2, 4]
        assert [f.colour for f in expected] == ["yellow", "yellow"]
        assert screen.summary == "2 dice: yellow 2 and yellow 4"
        inside = [face for face, _box, ok, _colour, _counted in view.dice if ok]
        assert inside == [2, 4] and len(view.dice) == len(screen.found)
        # This photo is taken from straight above the tray: say so (cocked dice are then told by shape).
        assert screen.ids.overhead.text == "Camera straight above the tray" and not screen.overhead
        d.tap(screen.ids.overhead)
        assert screen.overhead and screen.ids.overhead.state == "down"
        shot("calibration-en")

        assert not default_path(data).exists()
        d.tap(screen.ids.save)
        assert default_path(data).exists(), screen.message
        assert screen.message == "Saved: the camera reads this tray from now on"
        saved = Calibration.load(default_path(data))
        assert saved == screen.calibration() and saved.overhead
        assert saved.bounds == pytest.approx(TRAY, abs=0.01)

        # Japanese: the same screen speaks Japanese; a moved tray then cancelled is not saved.
        app.lang = "ja"
        d.settle()
        assert screen.summary == "ダイス2個：黄の2と黄の4"
        assert screen.ids.overhead.text == "カメラはトレイの真上"
        shot("calibration-ja")
        drag(*view.to_window(*view.to_widget(*TRAY[2:])), *view.to_window(*view.to_widget(0.9, 0.9)))
        assert screen.tray[2] == pytest.approx(0.9, abs=0.01)
        d.tap(screen.ids.cancel)
        assert app.root.current == "settings"
        assert Calibration.load(default_path(data)) == saved
        # The camera source would read with the saved tray; a fresh visit shows the saved camera angle.
        assert Calibration.load(default_path(app.data_dir)).tray == saved.tray
        open_calibration(app, from_start=False)
        wait_read(screen)
        assert screen.overhead and screen.ids.overhead.state == "down"
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_a_slanted_tray_by_its_four_corners(tmp_path):
    """A camera at an angle sees the tray as a trapezoid: its four corners dragged onto it, the dice beside its
    slanted sides (inside the rectangle round it) do not count, as the reader with the saved file reads."""
    from vision.calibration import Calibration, default_path, is_corners
    from vision.reader import DiceReader
    from vision.tray import find_tray

    data = tmp_path / "data"
    app = d.start_app(data)
    try:
        screen, view = calibrate_from(app, one_frame_video(PHOTO, tmp_path / 'table.avi'))
        drag_corners(view, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)], SLANTED)
        wait_reread(screen)
        calibration = screen.calibration()
        assert is_corners(calibration.tray)
        assert [v for c in calibration.tray for v in c] == pytest.approx([v for c in SLANTED for v in c], abs=0.01)
        assert screen.tray == pytest.approx(list(calibration.bounds))  # the sliders show the rectangle round it

        read = DiceReader(calibration=calibration).read(screen.frame)
        in_rectangle = DiceReader(calibration=Calibration(tray=calibration.bounds)).read(screen.frame)
        assert 2 <= len(read) < len(in_rectangle), "the slant must leave out dice the rectangle takes in"
        assert [face for face, _box, inside, _colour, _counted in view.dice if inside] == [die.face for die in read]
        assert screen.summary.startswith(f"{len(read)} dice: ")
        shot("calibration-slanted-en")

        # "Find the tray": the corners go round the tray's floor, where the dice lie; every die read counts.
        boxes = [box for _f, box, _c in screen.found]
        d.tap(screen.ids.find_tray)
        assert screen.message == "Tray found round the dice; drag a corner to fit it better"
        found = [v for c in find_tray(screen.frame, boxes) for v in c]
        assert screen.corners == found and view.corners == found
        wait_reread(screen)  # the dice read again in the tray found, as the camera will read them
        assert all(inside for _face, _box, inside, _colour, _counted in view.dice)
        assert screen.summary.startswith(f"{len(screen.found)} dice: ")
        shot("calibration-found-en")
        app.lang = "ja"
        d.settle()
        assert screen.ids.find_tray.text == "ダイスの周りのトレイを探す"
        app.lang = "en"
        screen.corners = [v for c in calibration.tray for v in c]  # back to the slanted tray dragged above
        wait_reread(screen)

        # A corner dragged across the tray would fold it: the corner stays where the tray is still a tray.
        before = list(screen.corners)
        drag(*view.to_window(*view.to_widget(*SLANTED[2])), *view.to_window(*view.to_widget(0.2, 0.1)))
        assert Calibration(tray=tuple(zip(screen.corners[0::2], screen.corners[1::2])))  # still a convex tray
        assert screen.corners[:4] + screen.corners[6:] == before[:4] + before[6:]  # only that corner moved...
        assert screen.corners[4:6] != pytest.approx([0.2, 0.1], abs=0.05)  # ...and not across the tray

        screen.corners = before
        d.tap(screen.ids.save)
        saved = Calibration.load(default_path(data))
        assert saved == calibration
        d.tap(screen.ids.cancel)
        open_calibration(app, from_start=False)
        wait_read(screen)
        assert screen.corners == pytest.approx(before) and view.corners == pytest.approx(before)
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_dim_table_light_and_dice_colours_by_touch_then_the_camera_source_uses_them(tmp_path):
    import threading

    import cv2
    import numpy as np

    from companion.dice import SourceState, open_source
    from vision.calibration import Calibration, default_path, floor_colour
    from vision.reader import DiceReader
    from vision.synthetic import draw_hand

    dim = dim_photo()
    video = write_video([dim], tmp_path / "dim-table.avi")
    data = tmp_path / "data"
    app = d.start_app(data)
    try:
        screen, view = calibrate_from(app, video)
        for edge, value in zip(("x0", "y0", "x1", "y1"), TRAY3):
            slide(screen.ids[edge], value)
        wait_reread(screen)
        assert screen.tray == pytest.approx(list(TRAY3), abs=0.01)
        # In the dim light the reader lifts the picture itself (vision.exposure): the colours are named right
        # before any light is set (read as the picture came, the yellow 2 was black and the white die grey).
        dark = DiceReader(calibration=Calibration(tray=tuple(screen.tray))).read(screen.frame)
        assert [(die.face, die.colour) for die in dark] == [(2, "yellow"), (4, "yellow"), (5, "white")]
        assert screen.summary == "3 dice: yellow 2, yellow 4 and white 5"

        # Light: the brightness raised by a finger on its slider.
        d.tap(screen.ids.tab_light)
        assert screen.ids.sections.current == "light"
        def shown_light() -> float:  # the picture's mean level, as the GPU holds it (RGBA; alpha left out)
            return float(np.frombuffer(view.texture.pixels, np.uint8).reshape(-1, 4)[:, :3].mean())

        before = shown_light()
        slide(screen.ids.brightness, math.log2(1 / DIM))
        gains = list(screen.gains)
        assert gains[0] == gains[1] == gains[2] and gains[0] == pytest.approx(1 / DIM, rel=0.05)
        # The picture shows at once what the reader will see; the reading follows from its thread.
        assert shown_light() > 2.5 * before
        assert screen.reading and screen.summary == "Reading the dice…"
        wait_read(screen)
        assert screen.ids.brightness_value.text == f"×{gains[0]:.2f}"
        truth = DiceReader(calibration=Calibration(tray=tuple(screen.tray), gains=tuple(gains))).read(screen.frame)
        assert [(die.face, die.colour) for die in truth] == [(2, "yellow"), (4, "yellow"), (5, "white")]
        assert screen.summary == "3 dice: yellow 2, yellow 4 and white 5"
        shot("calibration-light-en")

        # Dice colours: tap the yellow 2 on the picture; then red (Catan's other die) by its toggle.
        d.tap(screen.ids.tab_colours)
        two = next(i for i, die in enumerate(view.dice) if die[2] and die[0] == 2)
        tap_die(view, two)
        assert screen.colours == ["yellow"] and screen.message == "Yellow dice count"
        assert screen.tray == pytest.approx(list(TRAY3), abs=0.01)  # tapping a die moved no corner
        assert screen.summary == "2 dice: yellow 2 and yellow 4 (1 of another colour ignored)"
        d.tap(screen.chips["red"])
        assert screen.colours == ["yellow", "red"] and screen.chips["yellow"].state == "down"
        shot("calibration-colours-en")
        d.tap(screen.ids.save)
        saved = Calibration.load(default_path(data))
        assert saved == screen.calibration()
        assert (saved.tray, saved.colours, saved.gains) == (tuple(screen.tray), ("yellow", "red"), tuple(gains))
        # The tray's bare surface as the reader sees it under these gains: as in the photograph at full light.
        full_light = floor_colour(cv2.imread(str(PHOTO)), saved.tray, exclude=[box for _f, box, _c in screen.found])
        assert saved.floor == pytest.approx(full_light, abs=12), (saved.floor, full_light)
        # A die's side as the dice in the picture had it (a speck on the floor is measured against it later).
        sides = sorted(max(w, h) for _f, (_x, _y, w, h), _c in screen.found)
        assert saved.die_side == pytest.approx(sides[len(sides) // 2] / screen.preview.shape[1])

        # The camera dice source over the same dim table: the tray empty, a hand rolls, the dice settle.
        tray_px = saved.tray_pixels(dim.shape[1], dim.shape[0])
        mask = np.zeros(dim.shape[:2], np.uint8)
        for _face, (x, y, w, h), _colour in screen.found:
            if saved.in_tray((x + w / 2) / dim.shape[1], (y + h / 2) / dim.shape[0]):
                cv2.rectangle(mask, (x - 8, y - 8), (x + w + 8, y + h + 8), 255, -1)
        empty = cv2.inpaint(dim, mask, 5, cv2.INPAINT_TELEA)
        frames = [empty] * 10
        for step in range(6):
            hand = empty.copy()
            draw_hand(hand, tray_px[0] + step * (tray_px[2] - tray_px[0]) / 5, (tray_px[1] + tray_px[3]) / 2 + 60, 0.8)
            frames.append(hand)
        frames += [dim] * 12
        rolls, states, done = [], [], threading.Event()

        def on_status(status):
            states.append(status)
            if status.state in (SourceState.IDLE, SourceState.ERROR):
                done.set()

        source = open_source(f"camera://{write_video(frames, tmp_path / 'a-roll.avi')}")
        source.data_dir = app.data_dir  # as the app sets it: the calibration beside its settings
        source.start(rolls.append, on_status)
        try:
            assert done.wait(60), states
        finally:
            source.stop()
        # Only the two counted dice (the yellow ones, read as yellow in the corrected light), no re-roll asked.
        assert [sorted(r.values) for r in rolls] == [[2, 4]], [s.detail for s in states]
        assert not any(s.reroll for s in states), [s.detail for s in states]

        # Back to Settings and in again: the screen shows what was saved.
        d.tap(screen.ids.cancel)
        screen = open_calibration(app, from_start=False)
        wait_read(screen)
        assert screen.tray == pytest.approx(list(saved.tray)) and screen.colours == ["yellow", "red"]
        assert screen.gains == pytest.approx(list(saved.gains))
        assert screen.ids.brightness.value == pytest.approx(math.log2(saved.gains[0]), abs=1e-3)
        assert [c for c, chip in screen.chips.items() if chip.state == "down"] == ["red", "yellow"]
        assert screen.summary == "2 dice: yellow 2 and yellow 4 (1 of another colour ignored)"

        # Japanese, then the light reset and balanced on the tray's bare surface by its button.
        app.lang = "ja"
        d.settle()
        assert screen.summary == "ダイス2個：黄の2と黄の4（他の色1個は無視）"
        assert screen.chips["yellow"].text == "黄"
        shot("calibration-colours-ja")
        d.tap(screen.ids.tab_light)
        d.tap(screen.ids.reset_light)
        assert screen.gains == [1.0, 1.0, 1.0]
        wait_read(screen)
        # No gains: the reader's own lift still names the dim yellow 2 yellow (as the picture came: black).
        assert screen.summary == "ダイス2個：黄の2と黄の4（他の色1個は無視）"
        d.tap(screen.ids.balance)
        wait_read(screen)
        assert all(2.4 < g < 3.6 for g in screen.gains), screen.gains  # the dim tray brought to mid-grey
        assert screen.summary == "ダイス2個：黄の2と黄の4（他の色1個は無視）"
        shot("calibration-light-ja")
        d.tap(screen.ids.cancel)
        assert Calibration.load(default_path(data)) == saved  # cancelled: nothing written
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_a_small_tray_in_a_wide_view_shows_its_dice_once_its_corners_are_on_it(tmp_path):
    """A camera on a stand sees the board and the table round the tray: in the whole picture the dice are a
    few pixels across and few are found.  With the corners dragged onto the tray the dice in it are read as
    the camera source will read them (the tray alone, enlarged), and "Find the tray" has dice to go by."""
    import cv2
    import numpy as np

    from vision.calibration import Calibration
    from vision.reader import DiceReader

    photo = cv2.imread(str(PHOTO))
    alone = DiceReader().read(photo)
    h, w = photo.shape[:2]
    view_frame = np.empty((3 * h, 3 * w, 3), np.uint8)
    view_frame[:] = (60, 90, 130)  # a wooden table
    view_frame[h:2 * h, w:2 * w] = photo
    cv2.imwrite(str(tmp_path / "wide.png"), view_frame)
    app = d.start_app(tmp_path / "data")
    try:
        screen, view = calibrate_from(app, one_frame_video(tmp_path / "wide.png", tmp_path / "wide.avi"))
        assert screen.found == [], "the whole picture must miss the dice for this test to say anything"
        d.tap(screen.ids.find_tray)  # no dice to go by yet: the screen says what to do
        assert screen.message.startswith("No dice to find the tray by") and "drag the corners roughly" in screen.message
        tray = [(1 / 3, 1 / 3), (2 / 3, 1 / 3), (2 / 3, 2 / 3), (1 / 3, 2 / 3)]
        drag_corners(view, [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)], tray)
        wait_reread(screen)
        counted = [face for face, _box, inside, _colour, ok in view.dice if inside and ok]
        assert len(counted) >= len(alone) - 1
        assert screen.summary.startswith(f"{len(counted)} dice: ")
        assert screen.message == ""  # the advice followed ("drag the corners roughly round it") goes
        shot("calibration-wide-en")

        d.tap(screen.ids.find_tray)
        assert screen.message == "Tray found round the dice; drag a corner to fit it better"
        # The photo's tray (its floor, grown by a die's side for dice on the walls), not the table round it.
        x0, y0, x1, y1 = Calibration(tray=tuple(zip(screen.corners[0::2], screen.corners[1::2]))).bounds
        assert 1 / 3 - 0.03 < x0 < x1 < 2 / 3 + 0.03 and 1 / 3 - 0.03 < y0 < y1 < 2 / 3 + 0.03, (x0, y0, x1, y1)
        wait_reread(screen)
        assert len([ok for _face, _box, inside, _colour, ok in view.dice if inside and ok]) >= len(alone) - 1
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_portrait(tmp_path):
    import numpy as np

    app = d.start_app(tmp_path / "data", size=(800, 1280))
    try:
        screen, view = calibrate_from(app, one_frame_video(PHOTO, tmp_path / 'table.avi'))
        assert view.top > screen.ids.summary.top  # the picture above, the controls below
        # The colour slider warms the picture: red gain over blue gain ×2 (a cold window light taken out).
        d.tap(screen.ids.tab_light)
        slide(screen.ids.warmth, 0.5)
        b, g, r = screen.gains
        assert r / b == pytest.approx(2.0, rel=0.05) and g == 1.0 and r * b == pytest.approx(1.0, rel=0.02)
        pixels = np.frombuffer(view.texture.pixels, np.uint8).reshape(-1, 4)
        red, blue = pixels[:, 0].mean(), pixels[:, 2].mean()
        assert red > 1.3 * blue  # the picture shown is the corrected one
        d.tap(screen.ids.reset_light)
        assert screen.gains == [1.0, 1.0, 1.0] and screen.ids.warmth.value == 0
        wait_read(screen)
        d.tap(screen.ids.tab_colours)
        tap_die(view, 0)
        assert screen.colours == [view.dice[0][3]]
        shot("calibration-portrait-en")
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_the_camera_watching_the_game_lends_it_to_calibration_and_restarts_with_what_was_saved(tmp_path):
    from companion.record import COLORS, Record
    from companion.rules import standard_board

    app = d.start_app(tmp_path / "data")
    try:
        app.settings.dice_source = f"camera://{one_frame_video(PHOTO, tmp_path / 'table.avi')}"
        app.start_game(Record("base", [{"name": n, "color": COLORS[i]} for i, n in enumerate(("Aki", "Ben", "Chie"))],
                              standard_board(2).to_json()))
        watching = app.source
        assert watching is not None and watching.name == "camera"
        app.go("settings")
        screen = open_calibration(app, from_start=False)
        # The game's camera lets the camera go while this screen takes pictures (a webcam or a tablet's camera
        # opens for one user at a time).
        assert app.source is None and watching.wait(0)
        wait_read(screen)
        d.tap(screen.ids.save)
        assert app.source is None  # not before the screen gives the camera back
        d.tap(screen.ids.cancel)
        # A new camera source, started after the file was written: it loads the new calibration.
        assert d.wait_until(lambda: app.source is not None, timeout=5)
        assert app.source is not watching and app.source.name == "camera" and app.source.data_dir == app.data_dir
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
        d.tap(screen.ids.find_tray)
        assert screen.message == "No picture to find the tray in" and screen.tray == [0.0, 0.0, 1.0, 1.0]
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
        wait_read(screen)
        default_path(data).mkdir(parents=True)  # a directory where the file should go: it cannot be written
        d.tap(screen.ids.save)
        assert screen.message.startswith(f"Cannot save {default_path(data)}")
        assert default_path(data).is_dir()
    finally:
        d.stop_app(app)


@pytest.mark.skipif(not PHOTO.exists(), reason="the dice photographs are not here")
def test_the_live_view_follows_the_camera_while_it_is_aimed_then_keeps_the_last_picture(tmp_path):
    """Aiming the camera: with Live view down the picture follows what the camera sees and the dice are read as
    they come; off (tapped, or the camera's frames ended), the camera is let go and the last picture stays, read,
    to calibrate on; leaving the screen lets the camera go too.  Waits on the screen and its threads, never on
    seconds or frame counts: the video plays at its own 30 frames a second, the screen shows what it can."""
    import cv2
    from test_ui_camera_roll import throw_video

    video = throw_video(tmp_path / "throw.avi", (3, 5), still=45)  # 8 frames of an empty tray, the throw, 1.5 s still
    app = d.start_app(tmp_path / "data")
    try:
        screen, _view = calibrate_from(app, video)
        assert screen.found == []  # the first picture: the empty tray
        first, seen = screen.frame, set()
        d.tap(screen.ids.live)
        assert screen.live and screen.message.startswith("Live from ")
        assert d.wait_until(lambda: seen.add(screen.frame.tobytes()[::4099]) or not screen.live, timeout=30)
        # More than the picture before and the last one: the picture followed the camera (how many of the
        # video's frames were shown depends on the machine's speed: a slow one shows fewer, as a slow tablet would).
        assert len(seen) >= 3, "the picture did not follow the camera"
        # The video ended: live went off by itself, the last picture (the settled throw) stays and is read.
        assert screen.frame is not first and screen.ids.live.state == "normal"
        assert d.wait_until(lambda: not screen.reading, timeout=15)
        assert sorted(face for face, _box, _colour in screen.found) == [3, 5]
        assert d.wait_until(lambda: not live_threads(), timeout=5)  # the camera let go
        d.screenshot(SHOTS / "calibration-live-en.png")

        # Again, on a camera showing 10 s of the table, and off by a tap: the picture stops following.
        screen.frame_spec = str(write_video([cv2.imread(str(PHOTO))] * 300, tmp_path / "long.avi"))
        d.tap(screen.ids.live)
        assert d.wait_until(lambda: len(screen.found) > 2, timeout=10)
        d.screenshot(SHOTS / "calibration-live-on-en.png")
        d.tap(screen.ids.live)
        assert not screen.live and screen.message == ""
        assert d.wait_until(lambda: not live_threads(), timeout=5)  # the camera let go
        kept = screen.frame
        d.settle()  # a picture handed over before the thread ended is not shown
        assert screen.frame is kept

        d.tap(screen.ids.live)  # and on when the screen is left
        d.tap(screen.ids.cancel)
        assert not screen.live
        assert d.wait_until(lambda: not live_threads(), timeout=5)
    finally:
        d.stop_app(app)
