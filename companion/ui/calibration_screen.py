"""Camera calibration for one table: grab a frame, drag the tray's corners, see what the reader reads there, save.

Self-contained like the tournament desk: its layout is ``calibration.kv``.  The frame comes from the configured
camera (the settings' dice source when it is ``camera://…``, else camera 0; ``frame_spec`` overrides it: a camera
index, a video file or a still photograph) and is grabbed and read in a background thread, whose results reach
the UI through ``Clock.schedule_once``.  The dice are read once over the whole frame; moving the tray only
filters them by their centre, as :meth:`vision.calibration.Calibration.in_tray` does in the reader, so dragging
stays smooth.  Saving writes ``default_path(app.data_dir)`` (keeping the stored colours and gains); cancelling
writes nothing.
"""

from __future__ import annotations

import threading
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import CoreLabel
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

TEXTS = {
    "en": {"title": "Camera calibration", "grabbing": "Taking a picture from {spec}…", "save": "Save",
           "cancel": "Cancel", "retake": "New picture", "no_frame": "No picture from {spec}: {why}",
           "no_dice": "No dice in the tray", "dice": "{n} dice: {faces}", "one": "1 die: {faces}",
           "and": " and ", "unsure": "?", "saved": "Saved to {path}", "cannot_save": "Cannot save {path}: {why}",
           "need_frame": "Nothing saved: there is no picture to calibrate on", "hint":
           "Drag a corner of the tray (green) on the picture, or use the sliders",
           "reader": "The dice reader cannot run: {why}", "left": "left", "top": "top", "right": "right",
           "bottom": "bottom", "damaged": "The stored calibration cannot be used ({why}); starting afresh"},
    "ja": {"title": "カメラ較正", "grabbing": "{spec} から撮影中…", "save": "保存", "cancel": "キャンセル",
           "retake": "撮り直す", "no_frame": "{spec} から画像を取得できません：{why}", "no_dice": "トレイにダイスがありません",
           "dice": "ダイス{n}個：{faces}", "one": "ダイス1個：{faces}", "and": "と", "unsure": "?",
           "saved": "{path} に保存しました", "cannot_save": "{path} に保存できません：{why}",
           "need_frame": "保存していません：較正する画像がありません",
           "hint": "画像上でトレイ（緑）の角をドラッグするか、スライダーを使ってください",
           "reader": "ダイス認識を実行できません：{why}", "left": "左", "top": "上", "right": "右", "bottom": "下",
           "damaged": "保存された較正は使えません（{why}）。初期値から始めます"},
}

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}
MIN_SPAN = 0.02  # the tray is never thinner than this share of the frame (Calibration needs x0 < x1)


def grab_frame(spec: str):
    """One BGR frame from ``spec`` (camera index, video file or still photograph); raises OSError saying why."""
    import cv2

    from vision.capture import open_capture

    if Path(spec).suffix.lower() in IMAGE_SUFFIXES:
        frame = cv2.imread(spec)
        if frame is None:
            raise OSError(f"{spec}: not a readable picture")
        return frame
    with open_capture(spec) as capture:
        frame = capture.read()
    if frame is None:
        raise OSError(f"{spec}: gave no frame")
    return frame


def camera_spec(dice_source: str) -> str:
    """The camera the settings name (``camera://1`` → ``"1"``, ``camera:///v.mp4`` → ``"/v.mp4"``), else ``"0"``."""
    if dice_source.startswith("camera://"):
        rest = dice_source[len("camera://"):].split("?", 1)[0]
        return rest or "0"
    return "0"


class TrayView(Widget):
    """The frame, the tray rectangle with its two corner handles, and the dice the reader found."""

    texture = ObjectProperty(None, allownone=True)
    frame_size = ListProperty([0, 0])  # width, height in pixels
    tray = ListProperty([0.0, 0.0, 1.0, 1.0])  # fractions x0, y0, x1, y1 (y down, as in the frame)
    dice = ListProperty([])  # [(face or None, (x, y, w, h) in frame pixels, inside tray?)]

    def __init__(self, **kw):
        super().__init__(**kw)
        self._corner = None
        self.bind(pos=self.redraw, size=self.redraw, texture=self.redraw, tray=self.redraw, dice=self.redraw)

    def image_rect(self) -> tuple[float, float, float, float]:
        """Where the frame is drawn: fitted in the widget, aspect kept, centred."""
        fw, fh = self.frame_size
        if not fw or not fh:
            return self.x, self.y, self.width, self.height
        scale = min(self.width / fw, self.height / fh)
        w, h = fw * scale, fh * scale
        return self.x + (self.width - w) / 2, self.y + (self.height - h) / 2, w, h

    def to_frame(self, x: float, y: float) -> tuple[float, float]:
        ix, iy, iw, ih = self.image_rect()
        return min(1.0, max(0.0, (x - ix) / iw)), min(1.0, max(0.0, 1.0 - (y - iy) / ih))

    def to_widget(self, fx: float, fy: float) -> tuple[float, float]:
        ix, iy, iw, ih = self.image_rect()
        return ix + fx * iw, iy + (1.0 - fy) * ih

    def redraw(self, *_args) -> None:
        self.canvas.after.clear()
        self.canvas.before.clear()
        ix, iy, iw, ih = self.image_rect()
        with self.canvas.before:
            Color(0.1, 0.1, 0.12, 1)
            Rectangle(pos=self.pos, size=self.size)
            if self.texture is not None:
                Color(1, 1, 1, 1)
                Rectangle(texture=self.texture, pos=(ix, iy), size=(iw, ih))
        if self.texture is None:
            return
        fw, fh = self.frame_size
        with self.canvas.after:
            for face, (bx, by, bw, bh), inside in self.dice:
                x0, y1 = self.to_widget(bx / fw, by / fh)
                x1, y0 = self.to_widget((bx + bw) / fw, (by + bh) / fh)
                Color(*((1, 0.85, 0.1, 1) if inside else (0.6, 0.6, 0.6, 0.8)))
                Line(rectangle=(x0, y0, x1 - x0, y1 - y0), width=dp(2))
                label = CoreLabel(text=str(face) if face else "?", font_size=dp(26), bold=True)
                label.refresh()
                Rectangle(texture=label.texture, pos=(x0, y1 + dp(2)), size=label.texture.size)
            tx0, ty0, tx1, ty1 = self.tray
            left, top = self.to_widget(tx0, ty0)
            right, bottom = self.to_widget(tx1, ty1)
            Color(0.2, 0.95, 0.3, 1)
            Line(rectangle=(left, bottom, right - left, top - bottom), width=dp(2.5))
            r = dp(14)
            for cx, cy in ((left, top), (right, bottom)):
                Line(circle=(cx, cy, r), width=dp(2.5))

    # --- dragging the corners --------------------------------------------------------------------------
    def on_touch_down(self, touch):
        if self.texture is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        tx0, ty0, tx1, ty1 = self.tray
        fx, fy = self.to_frame(*touch.pos)
        # The nearer of the two handles follows the finger, from where it went down.
        self._corner = 0 if (fx - tx0) ** 2 + (fy - ty0) ** 2 <= (fx - tx1) ** 2 + (fy - ty1) ** 2 else 1
        touch.grab(self)
        self._move(fx, fy)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is self:
            self._move(*self.to_frame(*touch.pos))
            return True
        return super().on_touch_move(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is self:
            touch.ungrab(self)
            self._move(*self.to_frame(*touch.pos))
            self._corner = None
            return True
        return super().on_touch_up(touch)

    def _move(self, fx: float, fy: float) -> None:
        x0, y0, x1, y1 = self.tray
        if self._corner == 0:
            x0, y0 = min(fx, x1 - MIN_SPAN), min(fy, y1 - MIN_SPAN)
        else:
            x1, y1 = max(fx, x0 + MIN_SPAN), max(fy, y0 + MIN_SPAN)
        self.tray = [round(max(0.0, x0), 4), round(max(0.0, y0), 4), round(min(1.0, x1), 4), round(min(1.0, y1), 4)]


class CalibrationScreen(Screen):
    lang = StringProperty("en")
    #: The frame source to use instead of the settings' camera (tests, a photograph of the table).
    frame_spec = StringProperty("")
    message = StringProperty("")
    summary = StringProperty("")
    tray = ListProperty([0.0, 0.0, 1.0, 1.0])

    def __init__(self, **kw):
        kw.setdefault("name", "calibration")
        super().__init__(**kw)
        self.frame = None
        self.found = []  # every die the reader found in the whole frame
        self._stored = None
        self._grab_id = 0
        app = App.get_running_app()
        if app is not None and getattr(app, "lang", None) in TEXTS:
            self.lang = app.lang
            if app.property("lang", quiet=True) is not None:
                app.bind(lang=lambda _a, value: setattr(self, "lang", value if value in TEXTS else "en"))

    def t(self, key: str, _lang: str | None = None, **values) -> str:
        return TEXTS.get(_lang or self.lang, TEXTS["en"])[key].format(**values)

    # --- where things are -----------------------------------------------------------------------------
    def path(self) -> Path:
        from vision.calibration import default_path

        return default_path(App.get_running_app().data_dir)

    def spec(self) -> str:
        if self.frame_spec:
            return self.frame_spec
        settings = getattr(App.get_running_app(), "settings", None)
        return camera_spec(settings.dice_source if settings is not None else "")

    # --- showing --------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Start afresh from the stored calibration and take a new picture."""
        from vision.calibration import Calibration, CalibrationError

        self.message = ""
        try:
            self._stored = Calibration.load(self.path())
        except CalibrationError as error:
            self._stored = Calibration()
            self.message = self.t("damaged", why=error)
        self.tray = list(self._stored.tray)
        self.grab()

    def grab(self) -> None:
        """Grab and read one frame in a background thread (a camera can take seconds to open)."""
        self.frame = None
        self.found = []
        self._grab_id += 1
        spec = self.spec()
        self.summary = self.t("grabbing", spec=spec)
        if "view" in self.ids:
            self.ids.view.texture = None
            self.ids.view.dice = []
        stored = self._stored
        threading.Thread(target=self._grab_and_read, args=(self._grab_id, spec, stored),
                         name="calibration grab", daemon=True).start()

    def _grab_and_read(self, grab_id: int, spec: str, stored) -> None:
        try:
            frame = grab_frame(spec)
        except Exception as error:  # a camera that cannot open: its message is shown, nothing else happens
            why = str(error)
            Clock.schedule_once(lambda dt: self._no_frame(grab_id, spec, why))
            return
        dice, problem = [], ""
        try:
            from vision.calibration import Calibration
            from vision.reader import DiceReader

            # The whole frame is read (tray filtering happens live in the UI); colours and light as stored.
            reader = DiceReader(calibration=Calibration(colours=stored.colours, gains=stored.gains))
            dice = [(d.face, d.box) for d in reader.read(frame)]
        except Exception as error:
            problem = self.t("reader", why=error)
        Clock.schedule_once(lambda dt: self._got_frame(grab_id, frame, dice, problem))

    def _no_frame(self, grab_id: int, spec: str, why: str) -> None:
        if grab_id == self._grab_id:
            self.summary = self.t("no_frame", spec=spec, why=why)

    def _got_frame(self, grab_id: int, frame, dice, problem: str) -> None:
        if grab_id != self._grab_id:
            return  # an older picture, superseded by a newer request
        import cv2

        self.frame = frame
        self.found = dice
        h, w = frame.shape[:2]
        rgb = cv2.cvtColor(frame, cv2.COLOR_BGR2RGB)[::-1].copy()  # a texture's first row is the bottom
        texture = Texture.create(size=(w, h), colorfmt="rgb")
        texture.blit_buffer(rgb.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        view = self.ids.view
        view.frame_size = [w, h]
        view.texture = texture
        if problem:
            self.message = problem
        self.on_tray()

    def on_tray(self, *_args) -> None:
        """The tray moved (dragged or by slider): show which dice are inside it now."""
        if "view" not in self.ids:
            return
        view = self.ids.view
        if list(view.tray) != list(self.tray):
            view.tray = list(self.tray)
        if self.frame is None:
            view.dice = []
            return
        h, w = self.frame.shape[:2]
        x0, y0, x1, y1 = self.tray
        shown = []
        for face, (bx, by, bw, bh) in self.found:
            cx, cy = (bx + bw / 2) / w, (by + bh / 2) / h
            shown.append((face, (bx, by, bw, bh), x0 <= cx <= x1 and y0 <= cy <= y1))
        view.dice = shown
        inside = [face for face, _box, ok in shown if ok]
        self.summary = self.describe(inside)

    def describe(self, faces: list) -> str:
        """"2 dice: 3 and 4" — what the reader sees inside the tray."""
        if not faces:
            return self.t("no_dice")
        text = self.t("and").join(str(f) if f else self.t("unsure") for f in faces)
        return self.t("one", faces=text) if len(faces) == 1 else self.t("dice", n=len(faces), faces=text)

    def on_lang(self, *_args) -> None:
        self.message = ""  # it was said in the other language
        if self.frame is not None:
            self.on_tray()

    def view_moved(self, tray) -> None:
        """The view's corners were dragged: the screen's tray follows (and so do the sliders)."""
        if list(tray) != list(self.tray):
            self.tray = list(tray)

    def set_edge(self, index: int, value: float) -> None:
        """A slider moved one edge; the tray never turns inside out."""
        tray = list(self.tray)
        value = round(float(value), 4)
        if index in (0, 1):
            value = min(value, tray[index + 2] - MIN_SPAN)
        else:
            value = max(value, tray[index - 2] + MIN_SPAN)
        tray[index] = max(0.0, min(1.0, value))
        if tray != list(self.tray):
            self.tray = tray

    # --- leaving --------------------------------------------------------------------------------------
    def save(self) -> bool:
        """Write the tray (with the stored colours and gains) to the app's calibration file."""
        from vision.calibration import Calibration, CalibrationError

        if self.frame is None:
            self.message = self.t("need_frame")
            return False
        stored = self._stored or Calibration()
        path = self.path()
        try:
            Calibration(tray=tuple(self.tray), colours=stored.colours, gains=stored.gains).save(path)
        except (OSError, CalibrationError) as error:
            self.message = self.t("cannot_save", path=path, why=error.strerror if isinstance(error, OSError)
                                  and error.strerror else error)
            return False
        self.message = self.t("saved", path=path)
        return True

    def cancel(self) -> None:
        self._grab_id += 1  # a picture still on its way is dropped
        self.go_back()

    def save_and_leave(self) -> None:
        if self.save():
            self.go_back()

    def go_back(self) -> None:
        app = App.get_running_app()
        if app is not None and hasattr(app, "go") and self.manager is not None and self.manager.has_screen("settings"):
            app.go("settings")
