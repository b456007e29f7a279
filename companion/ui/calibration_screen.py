"""Camera calibration for one table: grab a frame, set the tray, the light and the dice colours, see what the
reader reads there, save.

Self-contained like the tournament desk: its layout is ``calibration.kv``.  The frame comes from the configured
camera (the one typed in Settings, ``chosen_camera``; else the settings' dice source when it is ``camera://…``, else
camera 0; ``frame_spec`` overrides it: a camera
index, a video file or a still photograph) and is grabbed and read in a background thread, whose results reach
the UI through ``Clock.schedule_once``.  *Live view* keeps the camera open in that thread while the camera is being
aimed: the picture follows it (a frame handed over only once the UI has shown the previous one) and the dice are
read twice a second; off, the last picture stays to calibrate on.  Every thread the screen starts is kept, and
:meth:`CalibrationScreen.close` (the app's shutdown) stops the live view and waits for them all: the camera is let
go, and no thread is left inside OpenCV when the interpreter exits (a daemon thread there aborts the process,
"terminate called without an active exception").

The three parts of :class:`vision.calibration.Calibration`, each on its own tab beside the picture:

- *Tray*: drag the tray's four corners onto the tray's own on the picture (a camera at an angle sees it as a
  trapezoid), or move its edges with the sliders.  The dice are read once over the whole
  frame; moving the tray only filters them by their centre, with ``Calibration.in_tray`` as in the reader, so
  dragging stays smooth.  A toggle says whether the camera looks straight down (``Calibration.overhead``: a
  die showing two faces side by side is then cocked, a re-roll).
- *Light*: the per-channel ``gains`` the reader multiplies each frame by.  A brightness slider scales all three
  (a dim table), a colour slider trades red against blue (a warm lamp, a window's blue light), "Balance on the
  tray" measures them on the tray's bare surface around the dice (``measure_gains``, grey-world: a lamp's cast
  goes).  The picture shows the corrected frame at once; the
  reader re-reads it with the new gains in a background thread shortly after the slider stops.
- *Dice colours*: tap a die on the picture to count its colour (the colour the reader names under this light),
  or toggle the colours; dice of other colours on the table are then ignored, as ``Calibration.accepts_colour``
  does in the reader.  No colour chosen: every die counts.

Saving writes ``default_path(app.data_dir)``, where the camera dice source reads it; cancelling writes nothing.
"""

from __future__ import annotations

import math
import threading
import time
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.logger import Logger
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.label import CoreLabel
from kivy.uix.screenmanager import Screen
from kivy.uix.togglebutton import ToggleButton
from kivy.uix.widget import Widget

TEXTS = {
    "en": {"title": "Camera calibration", "grabbing": "Taking a picture from {spec}…", "save": "Save",
           "cancel": "Cancel", "retake": "New picture", "no_frame": "No picture from {spec}: {why}",
           "live": "Live view", "live_on": "Live from {spec}: aim the camera; the dice are read twice a second. "
           "Tap Live view again to calibrate on the picture shown",
           "no_dice": "No dice in the tray", "dice": "{n} dice: {faces}", "one": "1 die: {faces}",
           "and": " and ", "comma": ", ", "unsure": "?", "die": "{colour} {face}", "ignored": " ({n} of another colour ignored)",
           "saved": "Saved: the camera reads this tray from now on", "cannot_save": "Cannot save {path}: {why}",
           "need_frame": "Nothing saved: there is no picture to calibrate on", "hint":
           "Drag the four green corners onto the tray's corners on the picture, or move its edges with the "
           "sliders",
           "find_tray": "Find the tray round the dice", "no_picture": "No picture to find the tray in",
           "tray_found": "Tray found round the dice; drag a corner to fit it better",
           "no_tray": "No dice to find the tray by: put the dice in the tray and take a new picture, or, where the "
                      "tray is small in the picture, drag the corners roughly round it first",
           "reader": "The dice reader cannot run: {why}", "left": "left", "top": "top", "right": "right",
           "bottom": "bottom", "overhead": "Camera straight above the tray",
           "overhead_hint": "From straight above, a die showing two faces side by side is cocked: roll again. "
                            "Leave off for a camera at an angle, which sees a side of every die.",
           "damaged": "The stored calibration cannot be used ({why}); starting afresh",
           "tab_tray": "Tray", "tab_light": "Light", "tab_colours": "Dice colours",
           "light_hint": "Dim or coloured light: raise the brightness and move the colour until the dice look "
                         "right, or balance on the tray's bare surface. The reader sees the picture as shown.",
           "brightness": "Brightness", "warmth": "Colour", "cooler": "cooler", "warmer": "warmer", "gains": "Gains  red ×{r:.2f} · green ×{g:.2f} · blue ×{b:.2f}",
           "balance": "Balance on the tray", "reset_light": "Reset light", "no_balance": "No picture to balance on",
           "balanced": "Balanced on the tray around the dice",
           "colours_hint": "Tap a die on the picture to count its colour (Catan: one red, one yellow die); "
                           "dice of other colours on the table are then ignored. None chosen: every die counts.",
           "dice_tip": "Dice the camera reads best: opaque, with pips that stand out from the die, like the "
                       "game's own. Marbled or see-through dice with pips of a near colour are misread more often.",
           "every_colour": "Every colour", "counts": "{colour} dice count", "no_longer": "{colour} dice no "
           "longer count", "every": "Every die counts, whatever its colour", "reading": "Reading the dice…",
           "white": "white", "black": "black", "grey": "grey", "red": "red", "orange": "orange",
           "yellow": "yellow", "green": "green", "blue": "blue", "purple": "purple", "pink": "pink"},
    "ja": {"title": "カメラ較正", "grabbing": "{spec} から撮影中…", "save": "保存", "cancel": "キャンセル",
           "retake": "撮り直す", "no_frame": "{spec} から画像を取得できません：{why}", "no_dice": "トレイにダイスがありません",
           "live": "ライブ表示", "live_on": "{spec} からライブ表示中：カメラの向きを合わせてください（ダイスは毎秒2回認識）。"
           "もう一度「ライブ表示」をタップすると、表示中の画像で較正できます",
           "dice": "ダイス{n}個：{faces}", "one": "ダイス1個：{faces}", "and": "と", "comma": "、", "unsure": "?",
           "die": "{colour}の{face}", "ignored": "（他の色{n}個は無視）",
           "saved": "保存しました：これからはこのトレイを読みます", "cannot_save": "{path} に保存できません：{why}",
           "need_frame": "保存していません：較正する画像がありません",
           "hint": "画像上の緑の4つの角をトレイの角までドラッグするか、スライダーで辺を動かしてください",
           "find_tray": "ダイスの周りのトレイを探す", "no_picture": "トレイを探す画像がありません",
           "tray_found": "ダイスの周りにトレイを見つけました。角をドラッグして合わせられます",
           "no_tray": "トレイを探す手がかりのダイスがありません：ダイスをトレイに置いて撮り直すか、画像でトレイが"
                      "小さいときは先に角をおおまかにトレイの周りへドラッグしてください",
           "reader": "ダイス認識を実行できません：{why}", "left": "左", "top": "上", "right": "右", "bottom": "下",
           "overhead": "カメラはトレイの真上",
           "overhead_hint": "真上から見て2つの面が並んで見えるダイスは傾いて止まっています（振り直し）。"
                            "斜めから写すカメラではオフにしてください（どのダイスも側面が見えます）。",
           "damaged": "保存された較正は使えません（{why}）。初期値から始めます",
           "tab_tray": "トレイ", "tab_light": "明るさ", "tab_colours": "ダイスの色",
           "light_hint": "暗い・色のついた照明では、ダイスが正しく見えるまで明るさと色合いを調整するか、トレイの何もない面で"
                         "色を整えてください。認識はこの表示どおりの画像で行われます。",
           "brightness": "明るさ", "warmth": "色合い", "cooler": "青み", "warmer": "赤み", "gains": "補正  赤×{r:.2f}・緑×{g:.2f}・青×{b:.2f}",
           "balance": "トレイで色を整える", "reset_light": "明るさを戻す", "no_balance": "色を整える画像がありません",
           "balanced": "ダイスを除いたトレイの面で色を整えました",
           "colours_hint": "画像のダイスをタップすると、その色のダイスを数えます（カタンは赤と黄の2個）。"
                           "ほかの色のダイスは無視します。色を選ばなければすべてのダイスを数えます。",
           "dice_tip": "カメラが読みやすいのは、目がはっきり見える不透明なダイス（ゲーム付属のものなど）です。"
                       "マーブル模様や透けるダイスで目の色が地の色に近いものは読み違いが増えます。",
           "every_colour": "すべての色", "counts": "{colour}のダイスを数えます", "no_longer": "{colour}のダイスは数えません",
           "every": "色に関係なくすべてのダイスを数えます", "reading": "ダイスを認識中…",
           "white": "白", "black": "黒", "grey": "灰", "red": "赤", "orange": "オレンジ", "yellow": "黄",
           "green": "緑", "blue": "青", "purple": "紫", "pink": "ピンク"},
}

#: How each die colour the reader names is drawn (a swatch on the picture and on its toggle).
SWATCHES = {"white": (0.96, 0.96, 0.96), "black": (0.08, 0.08, 0.08), "grey": (0.55, 0.55, 0.55),
            "red": (0.85, 0.12, 0.12), "orange": (0.98, 0.55, 0.1), "yellow": (0.98, 0.86, 0.1),
            "green": (0.15, 0.7, 0.25), "blue": (0.15, 0.4, 0.95), "purple": (0.6, 0.25, 0.8),
            "pink": (0.98, 0.55, 0.75)}

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp"}
HANDLE_RADIUS = dp(14)  # a tray corner's handle; a finger on it drags the corner even over a die
MIN_SPAN = 0.02  # the tray is never thinner than this share of the frame (Calibration needs x0 < x1)
#: The whole frame, as corners clockwise from the top left: x, y, x, y, ... (fractions, y down).
WHOLE_FRAME = [0.0, 0.0, 1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
#: The brightness slider is log2 of the mean gain: ×¼ .. ×4, one step per doubling, 1 in the middle.
BRIGHTNESS_RANGE = (-2.0, 2.0)
#: The colour slider: red over blue from ¼ (cooler) to 4 (warmer).
WARMTH_RANGE = (-1.0, 1.0)
GAIN_LIMITS = (0.2, 5.0)  # what Calibration accepts
#: The reader re-reads this long after the last change of the light (a slider being dragged reads once).
REREAD_DELAY = 0.25
#: How often the live view reads the dice (each read is one frame's work, ~10-30 ms, in its thread).
LIVE_READ_SECONDS = 0.5


def corner_pairs(flat) -> list[tuple[float, float]]:
    """``[x0, y0, x1, y1, ...]`` as ``[(x0, y0), (x1, y1), ...]``."""
    return [(flat[i], flat[i + 1]) for i in range(0, len(flat), 2)]


def bounds_of(flat) -> list[float]:
    """The rectangle round the corners: x0, y0, x1, y1."""
    xs, ys = flat[0::2], flat[1::2]
    return [min(xs), min(ys), max(xs), max(ys)]


def fair_tray(flat) -> bool:
    """Whether the corners make a tray a finger may leave: convex, no edge shorter than ``MIN_SPAN``."""
    from vision.calibration import is_convex

    pairs = corner_pairs(flat)
    edges = zip(pairs, pairs[1:] + pairs[:1])
    return is_convex(pairs, MIN_SPAN ** 2) and all(math.dist(a, b) >= MIN_SPAN for a, b in edges)


def tray_value(flat):
    """The corners as ``Calibration.tray`` stores them: four edges when they make an upright rectangle (as a
    calibration of before corners did), else the four corners."""
    x0, y0, x1, y1 = bounds_of(flat)
    if [tuple(c) for c in corner_pairs(flat)] == [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]:
        return (x0, y0, x1, y1)
    return tuple(corner_pairs(flat))


def grab_frame(spec: str):
    """One BGR frame from ``spec`` (camera index, video file or still photograph); raises OSError saying why."""
    import cv2

    from companion.dice.camera import open_frames

    if Path(spec).suffix.lower() in IMAGE_SUFFIXES:
        frame = cv2.imread(spec)
        if frame is None:
            raise OSError(f"{spec}: not a readable picture")
        return frame
    with open_frames(spec) as capture:
        frame = capture.read()
    if frame is None:
        raise OSError(f"{spec}: gave no frame")
    return frame


def camera_spec(dice_source: str) -> str:
    """The camera the settings name (``camera://1`` → ``"1"``, ``camera:///v.mp4`` → ``"/v.mp4"``,
    ``camera://0?via=kivy`` → ``"kivy:0"``), else camera 0 (read as the camera source would read it)."""
    from companion.dice.camera import capture_spec

    try:
        spec, _options = capture_spec(dice_source if dice_source.startswith("camera://") else "camera://0")
    except ValueError:
        spec, _options = capture_spec("camera://0")
    return str(spec)


def read_dice(frame, gains, tray=(0.0, 0.0, 1.0, 1.0)) -> list[tuple]:
    """Every die in ``frame`` under ``gains``: ``(face or None, box, colour)`` (which of them count, by the tray
    and colours, the screen shows live).  Inside ``tray`` the dice are those read as the camera source will
    read them — the tray alone, enlarged, which finds the small dice of a wide view — and outside it those
    of the whole frame.  Runs in a background thread: a reader per call (``cv2.dnn`` nets belong to one thread;
    building one takes about 10 ms), the two readings by one reader."""
    from vision.calibration import Calibration
    from vision.reader import DiceReader

    reader = DiceReader(calibration=Calibration(gains=tuple(gains)))
    whole = reader.read(frame)
    if tuple(tray) == (0.0, 0.0, 1.0, 1.0):
        return [(d.face, d.box, d.colour) for d in whole]
    calibration = reader.calibration = Calibration(tray=tray, gains=tuple(gains))
    inside = reader.read(frame)
    height, width = frame.shape[:2]
    beside = [d for d in whole if not calibration.in_tray(d.centre[0] / width, d.centre[1] / height)]
    return [(d.face, d.box, d.colour) for d in sorted(inside + beside, key=lambda d: (d.box[0], d.box[1]))]


class ColourChip(ToggleButton):
    """A die colour to count, with its swatch (layout in calibration.kv)."""

    colour = StringProperty("")
    swatch = ListProperty([1, 1, 1])


class TrayView(Widget):
    """The frame, the tray with a handle on each of its four corners, and the dice the reader found.

    A finger on a corner handle drags it (where the tray would fold or turn inside out the corner waits for
    the finger); a tap on a die (off the handles) fires ``on_die`` with the die's index (to count its colour); a
    finger anywhere else brings the nearest corner to it.
    """

    is_picture = True  # texts and controls must not lie over it (driver.layout_problems)

    texture = ObjectProperty(None, allownone=True)
    frame_size = ListProperty([0, 0])  # width, height in pixels
    #: The tray's corners clockwise from the top left, fractions x, y, x, y, ... (y down, as in the frame).
    corners = ListProperty(WHOLE_FRAME)
    #: [(face or None, (x, y, w, h) in frame pixels, inside tray?, colour, counted?)]
    dice = ListProperty([])

    __events__ = ("on_die",)

    def __init__(self, **kw):
        super().__init__(**kw)
        self._corner = None
        self.bind(pos=self.redraw, size=self.redraw, texture=self.redraw, corners=self.redraw, dice=self.redraw)

    def on_die(self, index: int) -> None:
        pass

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

    def die_rect(self, box) -> tuple[float, float, float, float]:
        """A die's box (frame pixels) in widget coordinates: x, y, width, height."""
        fw, fh = self.frame_size
        bx, by, bw, bh = box
        x0, y1 = self.to_widget(bx / fw, by / fh)
        x1, y0 = self.to_widget((bx + bw) / fw, (by + bh) / fh)
        return x0, y0, x1 - x0, y1 - y0

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
        with self.canvas.after:
            for face, box, inside, colour, counted in self.dice:
                x, y, w, h = self.die_rect(box)
                # Yellow: read as part of a roll; red: in the tray but of a colour not counted; grey: outside.
                rgba = (1, 0.85, 0.1, 1) if counted else (1, 0.3, 0.3, 0.9) if inside else (0.6, 0.6, 0.6, 0.8)
                Color(*rgba)
                Line(rectangle=(x, y, w, h), width=dp(2) if counted else dp(1.2))
                label = CoreLabel(text=str(face) if face else "?", font_size=dp(26), bold=True)
                label.refresh()
                Rectangle(texture=label.texture, pos=(x, y + h + dp(2)), size=label.texture.size)
                # The colour the reader names, as a swatch beside the face.
                side = dp(12)
                sx, sy = x + label.texture.size[0] + dp(3), y + h + dp(6)
                Color(0, 0, 0, 1)
                Rectangle(pos=(sx - 1, sy - 1), size=(side + 2, side + 2))
                Color(*SWATCHES.get(colour, (0.5, 0.5, 0.5)), 1)
                Rectangle(pos=(sx, sy), size=(side, side))
            handles = [self.to_widget(fx, fy) for fx, fy in corner_pairs(self.corners)]
            Color(0.2, 0.95, 0.3, 1)
            Line(points=[v for point in handles for v in point], close=True, width=dp(2.5))
            for cx, cy in handles:
                Line(circle=(cx, cy, HANDLE_RADIUS), width=dp(2.5))

    # --- touches: a corner dragged, a die tapped ----------------------------------------------------------
    def on_touch_down(self, touch):
        if self.texture is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        handles = [self.to_widget(fx, fy) for fx, fy in corner_pairs(self.corners)]
        near = [math.dist(touch.pos, h) for h in handles]
        die = self.die_at(*touch.pos)
        if min(near) > HANDLE_RADIUS + dp(6) and die is not None:
            self.dispatch("on_die", die)
            return True
        fx, fy = self.to_frame(*touch.pos)
        # The nearest handle follows the finger, from where it went down.
        self._corner = min(range(4), key=lambda i: math.dist((fx, fy), corner_pairs(self.corners)[i]))
        touch.grab(self)
        self._move(fx, fy)
        return True

    def die_at(self, x: float, y: float) -> int | None:
        """The index of the die under ``(x, y)`` (widget coordinates, a finger's margin around its box)."""
        margin = dp(6)
        for i, (_face, box, *_rest) in enumerate(self.dice):
            bx, by, bw, bh = self.die_rect(box)
            if bx - margin <= x <= bx + bw + margin and by - margin <= y <= by + bh + margin:
                return i
        return None

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
        corners = list(self.corners)
        corners[2 * self._corner:2 * self._corner + 2] = [round(fx, 4), round(fy, 4)]
        if fair_tray(corners):
            self.corners = corners


class CalibrationScreen(Screen):
    lang = StringProperty("en")
    #: The frame source to use instead of the settings' camera (tests, a photograph of the table).
    frame_spec = StringProperty("")
    #: The ``camera://`` URL typed in Settings (saved or not), calibrated instead of the saved dice source's.
    chosen_camera = StringProperty("")
    message = StringProperty("")
    summary = StringProperty("")
    #: The tray's corners clockwise from the top left, fractions x, y, x, y, ... (as TrayView.corners).
    corners = ListProperty(WHOLE_FRAME)
    #: The rectangle round the tray, x0, y0, x1, y1: what the edge sliders show (follows the corners).
    tray = ListProperty([0.0, 0.0, 1.0, 1.0])
    #: Per-channel light correction (B, G, R), as Calibration.gains.
    gains = ListProperty([1.0, 1.0, 1.0])
    #: The die colours that count (empty: every colour), as Calibration.colours.
    colours = ListProperty([])
    #: The camera looks straight down on the tray, as Calibration.overhead (a die showing two faces is cocked).
    overhead = BooleanProperty(False)
    #: Which tab is open beside the picture: "tray", "light" or "colours".
    section = StringProperty("tray")
    #: The dice are being read (a picture just taken, or the light changed).
    reading = BooleanProperty(False)
    #: The picture follows the camera (for aiming it); off, the last picture stays to calibrate on.
    live = BooleanProperty(False)

    def __init__(self, **kw):
        kw.setdefault("name", "calibration")
        # Set before the kv rule applies (it fires on_kv_post and the property handlers below).
        self.frame = None    # the camera's frame as taken
        self.preview = None  # the frame as the reader sees it (light corrected), shown
        self.found = []      # every die the reader found in the whole frame: (face, box, colour)
        self.chips: dict[str, ColourChip] = {}
        self._stored = None
        self._grab_id = 0
        self._read_id = 0
        self._reread = Clock.create_trigger(lambda _dt: self.read_again(), REREAD_DELAY)
        self._live_stop = threading.Event()
        self._live_shown = threading.Event()  # the UI has shown the last live frame handed to it
        self._live_frames = None  # the frames the live thread has open (closed from here when pushed: Kivy's camera)
        self._threads: list[threading.Thread] = []  # every thread started here and not yet seen to end
        super().__init__(**kw)
        app = App.get_running_app()
        if app is not None and getattr(app, "lang", None) in TEXTS:
            self.lang = app.lang
            if app.property("lang", quiet=True) is not None:
                app.bind(lang=lambda _a, value: setattr(self, "lang", value if value in TEXTS else "en"))

    def on_pre_enter(self, *_args) -> None:
        # The colour chips come from the vision layer, which loads OpenCV and numpy (~40 MB): built on the
        # first visit, not at the app's start, so a table that never calibrates never pays for them.
        if not self.chips:
            self._build_chips()

    def _build_chips(self) -> None:
        from vision.calibration import COLOURS

        for colour in COLOURS:
            chip = ColourChip(colour=colour, swatch=list(SWATCHES[colour]))
            chip.bind(on_release=lambda c: self.set_colour(c.colour, c.state == "down"))
            self.ids.chips.add_widget(chip)
            self.chips[colour] = chip
        self._sync_chips()

    def t(self, key: str, _lang: str | None = None, **values) -> str:
        return TEXTS.get(_lang or self.lang, TEXTS["en"])[key].format(**values)

    # --- where things are -----------------------------------------------------------------------------
    def path(self) -> Path:
        from vision.calibration import default_path

        return default_path(App.get_running_app().data_dir)

    def spec(self) -> str:
        if self.frame_spec:
            return self.frame_spec
        if self.chosen_camera:
            return camera_spec(self.chosen_camera)
        settings = getattr(App.get_running_app(), "settings", None)
        return camera_spec(settings.dice_source if settings is not None else "")

    def calibration(self):
        """What Save would write: the tray, the camera's angle, the colours and the light as set now, and the
        colour of the tray's bare surface under that light (so that the reader can name die colours alike
        when the room's light changes later)."""
        from vision.calibration import Calibration, floor_colour

        tray = tray_value(self.corners)
        floor = die_side = None
        if self.preview is not None:
            floor = floor_colour(self.preview, tray, exclude=[box for _face, box, _colour in self.found])
            sides = sorted(max(w, h) for _face, (_x, _y, w, h), _colour in self.found)
            if sides:  # the dice in the picture: a speck on the floor is told by them later, with none beside it
                die_side = min(0.99, sides[len(sides) // 2] / self.preview.shape[1])
        return Calibration(tray=tray, colours=tuple(self.colours), gains=tuple(self.gains), overhead=self.overhead,
                           floor=floor, die_side=die_side)

    # --- showing --------------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Start afresh from the stored calibration and take a new picture."""
        from vision.calibration import Calibration, CalibrationError

        app = App.get_running_app()
        if hasattr(app, "lend_camera"):
            app.lend_camera()  # a camera watching the game lets go of it before this screen takes its picture

        self.message = ""
        try:
            self._stored = Calibration.load(self.path())
        except CalibrationError as error:
            self._stored = Calibration()
            self.message = self.t("damaged", why=error)
        self.corners = [v for corner in self._stored.corners for v in corner]
        self.colours = list(self._stored.colours)
        self.gains = list(self._stored.gains)
        self.overhead = self._stored.overhead
        self.grab()

    def grab(self) -> None:
        """Grab and read one frame in a background thread (a camera can take seconds to open)."""
        self.live = False
        self.frame = self.preview = None
        self.found = []
        self._grab_id += 1
        self._read_id += 1
        self._reread.cancel()
        spec = self.spec()
        self.summary = self.t("grabbing", spec=spec)
        self.reading = True
        if "view" in self.ids:
            self.ids.view.texture = None
            self.ids.view.dice = []
        self._start_thread("calibration grab", self._grab_and_read, self._grab_id, self._read_id, spec,
                           list(self.gains), tray_value(self.corners))

    def _grab_and_read(self, grab_id: int, read_id: int, spec: str, gains, tray) -> None:
        try:
            frame = grab_frame(spec)
        except Exception as error:  # a camera that cannot open: its message is shown, nothing else happens
            why = str(error)
            Clock.schedule_once(lambda dt: self._no_frame(grab_id, spec, why))
            return
        Clock.schedule_once(lambda dt: self._got_frame(grab_id, read_id, frame))
        self._read(read_id, frame, gains, tray)

    # --- the live view ---------------------------------------------------------------------------------
    def on_live(self, _screen, live: bool) -> None:
        """On: a thread keeps the camera open and shows what it sees (aiming the camera), the dice read twice a
        second; off: the camera closes, and the last picture stays, to calibrate on."""
        self._live_stop.set()  # a previous live view ends
        self._close_pushed_frames()
        if not live:
            if self.message == self.t("live_on", spec=self.spec()):
                self.message = ""
            return
        self._live_stop = stop = threading.Event()
        self._grab_id += 1
        self._read_id += 1
        self._reread.cancel()
        spec = self.spec()
        self.message = self.t("live_on", spec=spec)
        self._live_shown.set()
        self._start_thread("calibration live", self._watch_live, self._grab_id, spec, stop)

    def _watch_live(self, grab_id: int, spec: str, stop: threading.Event) -> None:
        """In a background thread until ``stop``: frames to the UI as fast as it shows them (a video file at its
        own pace), the dice read every LIVE_READ_SECONDS."""
        from companion.dice.camera import is_pushed, open_frames

        try:
            frames = open_frames(spec, cancel=stop)  # Kivy's camera opens on the UI thread: not while it stops us
        except Exception as error:
            why = str(error)
            Clock.schedule_once(lambda dt: self._live_ended(grab_id, spec, why))
            return
        self._live_frames = frames
        if stop.is_set() and is_pushed(frames):
            frames.close()  # stopped while it opened: on_live found nothing to close
        period = 1.0 / frames.fps if getattr(frames, "is_file", False) and frames.fps else 0.0
        last_read = 0.0
        with frames:
            while not stop.is_set():
                started = time.monotonic()
                frame = frames.read()
                if frame is None:
                    break  # a video's end, or a camera gone: the last picture stays
                if self._live_shown.is_set():  # the UI keeps up: never a queue of frames behind it
                    self._live_shown.clear()
                    read_id = self._read_id
                    Clock.schedule_once(lambda dt, f=frame, r=read_id: self._got_live_frame(grab_id, r, f))
                if started - last_read >= LIVE_READ_SECONDS:
                    last_read = started
                    self._read(self._read_id, frame, list(self.gains), tray_value(self.corners))
                if period:
                    stop.wait(max(0.0, period - (time.monotonic() - started)))
        if self._live_frames is frames:
            self._live_frames = None
        if not stop.is_set():
            Clock.schedule_once(lambda dt: self._live_ended(grab_id, spec, ""))

    def _close_pushed_frames(self) -> None:
        """Pictures pushed from the UI thread (Kivy's camera) cannot come while that thread waits for the live
        thread: closed, its frames end at once (OpenCV's are closed by the live thread itself)."""
        frames = self._live_frames
        if frames is None:
            return
        from companion.dice.camera import is_pushed

        if is_pushed(frames):
            frames.close()

    def _start_thread(self, name: str, target, *args) -> None:
        self._threads = [thread for thread in self._threads if thread.is_alive()]
        # A daemon still: a camera that hangs in its driver must not keep the app from ending (close() waits a while).
        thread = threading.Thread(target=target, args=args, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def close(self, timeout: float = 10.0) -> bool:
        """Stop everything the screen has under way and wait (at most ``timeout`` seconds in all) for its threads
        to end: the live view's camera closes, a picture being taken or dice being read are dropped when they
        come.  True if every thread ended (a camera hanging in its driver may not)."""
        self._grab_id += 1
        self._read_id += 1
        self._reread.cancel()
        self.live = False
        self._live_stop.set()
        self._close_pushed_frames()
        end = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, end - time.monotonic()))
        self._threads = [thread for thread in self._threads if thread.is_alive()]
        return not self._threads

    def _got_live_frame(self, grab_id: int, read_id: int, frame) -> None:
        self._live_shown.set()
        if grab_id == self._grab_id and self.live:
            self._got_frame(grab_id, read_id, frame, live=True)

    def _live_ended(self, grab_id: int, spec: str, why: str) -> None:
        """The camera could not open (``why``), or its frames ended: live off, the last picture kept and read."""
        if grab_id != self._grab_id:
            return
        self.live = False
        if why:
            self.reading = False
            self.summary = self.t("no_frame", spec=spec, why=why)
        elif self.frame is not None:
            self.read_again()

    def _read(self, read_id: int, frame, gains, tray) -> None:
        """In a background thread: read the dice under ``gains`` (in ``tray`` as the camera will); the result
        is handed to the UI."""
        dice, problem = [], ""
        try:
            dice = read_dice(frame, gains, tray)
        except Exception as error:
            problem = self.t("reader", why=error)
        Clock.schedule_once(lambda dt: self._got_dice(read_id, dice, problem))

    def reread_due(self) -> bool:
        """Whether the dice will be read again once the last change (the tray dragged, the light set) has rested
        REREAD_DELAY: the summary and the boxes shown are then the last reading's."""
        return bool(self._reread.is_triggered)

    def read_again(self) -> None:
        """The light or the tray changed: read the dice again, in the background, under the new gains and in
        the new tray."""
        if self.frame is None:
            return
        self._read_id += 1
        self.reading = True
        self._start_thread("calibration read", self._read, self._read_id, self.frame, list(self.gains),
                           tray_value(self.corners))

    def _no_frame(self, grab_id: int, spec: str, why: str) -> None:
        if grab_id == self._grab_id:
            self.reading = False
            self.summary = self.t("no_frame", spec=spec, why=why)

    def _got_frame(self, grab_id: int, read_id: int, frame, live: bool = False) -> None:
        if grab_id != self._grab_id:
            return  # an older picture, superseded by a newer request
        self.frame = frame
        h, w = frame.shape[:2]
        view = self.ids.view
        if view.texture is None or tuple(view.texture.size) != (w, h):
            view.frame_size = [w, h]
            view.texture = Texture.create(size=(w, h), colorfmt="rgb")
        self.show_light()
        if live:
            return  # the live thread reads the dice itself, twice a second
        self.summary = self.t("reading")
        if read_id != self._read_id:
            self._reread()  # the light changed while the picture was on its way: read it under the new one

    def _got_dice(self, read_id: int, dice, problem: str) -> None:
        if read_id != self._read_id:
            return  # read under an older light (or for an older picture): a newer reading is on its way
        self.reading = False
        self.found = dice
        if problem:
            self.message = problem
        elif dice and self.message == self.t("no_tray"):
            self.message = ""  # the advice was followed: there are dice to find the tray by now
        self.show_counted()

    def show_light(self, *_args) -> None:
        """Show the frame as the reader sees it under the current gains (a look-up table: fast enough to
        follow a slider on the UI thread)."""
        from vision.calibration import Calibration

        from .camera_picture import bgr_texture

        if self.frame is None or "view" not in self.ids or self.ids.view.texture is None:
            return
        self.preview = Calibration(gains=tuple(self.gains)).correct_lighting(self.frame)
        view = self.ids.view
        bgr_texture(self.preview, view.texture)
        view.redraw()

    def on_corners(self, *_args) -> None:
        bounds = bounds_of(self.corners)
        if bounds != list(self.tray):
            self.tray = bounds  # the sliders follow
        self.show_counted()
        if self.frame is not None:
            # The camera source reads the tray alone, enlarged: a small tray in a wide view shows dice the whole
            # frame missed.  Read them so, once the corners rest.
            self._reread()

    def show_counted(self, *_args) -> None:
        """The tray moved (dragged or by slider) or the colours changed: show which dice count now."""
        from vision.calibration import Calibration

        if "view" not in self.ids:
            return
        view = self.ids.view
        if list(view.corners) != list(self.corners):
            view.corners = list(self.corners)
        if self.frame is None:
            view.dice = []
            return
        h, w = self.frame.shape[:2]
        # The tray and colours only: the floor's colour (measured on Save) does not say which dice count.
        calibration = Calibration(tray=tray_value(self.corners), colours=tuple(self.colours))
        shown = []
        for face, (bx, by, bw, bh), colour in self.found:
            inside = calibration.in_tray((bx + bw / 2) / w, (by + bh / 2) / h)
            counted = inside and calibration.accepts_colour(colour)
            shown.append((face, (bx, by, bw, bh), inside, colour, counted))
        view.dice = shown
        if self.reading:
            return  # the summary waits for the reading under the current light
        counted = [(face, colour) for face, _box, _inside, colour, ok in shown if ok]
        others = sum(1 for _f, _b, inside, _c, ok in shown if inside and not ok)
        self.summary = self.describe(counted, others)

    on_colours = show_counted

    def describe(self, dice: list, ignored: int = 0) -> str:
        """"2 dice: yellow 2 and red 4" — what the reader sees inside the tray, in the colours that count."""
        if not dice:
            text = self.t("no_dice")
        else:
            names = [self.t("die", colour=self.colour_text(colour), face=face or self.t("unsure")) for face, colour in dice]
            named = self.t("and").join([self.t("comma").join(names[:-1]), names[-1]] if len(names) > 1 else names)
            text = self.t("one", faces=named) if len(dice) == 1 else self.t("dice", n=len(dice), faces=named)
        return text + (self.t("ignored", n=ignored) if ignored else "")

    def colour_text(self, colour: str) -> str:
        return TEXTS.get(self.lang, TEXTS["en"]).get(colour, colour)

    def on_lang(self, *_args) -> None:
        self.message = ""  # it was said in the other language
        self._sync_chips()
        if self.frame is not None:
            self.show_counted()

    def on_section(self, _screen, section: str) -> None:
        if "sections" in self.ids:
            self.ids.sections.current = section

    def view_moved(self, corners) -> None:
        """The view's corners were dragged: the screen's tray follows (and so do the sliders)."""
        if list(corners) != list(self.corners):
            self.corners = list(corners)

    def find_tray(self) -> None:
        """Set the corners to the tray found round the dice in the picture (``vision.tray.find_tray``): a start
        that the corners' handles then fit."""
        from vision.tray import find_tray

        if self.frame is None:
            self.message = self.t("no_picture")
            return
        corners = find_tray(self.frame, [box for _face, box, _colour in self.found])
        if corners is None:
            self.message = self.t("no_tray")
            return
        self.corners = [v for corner in corners for v in corner]
        self.message = self.t("tray_found")

    def set_edge(self, index: int, value: float) -> None:
        """A slider moved one edge of the rectangle round the tray (0 left, 1 top, 2 right, 3 bottom): the
        corners stretch with it, a slanted tray keeping its shape; the tray never turns inside out."""
        old = bounds_of(self.corners)
        new = list(old)
        value = round(float(value), 4)
        if index in (0, 1):
            value = min(value, old[index + 2] - MIN_SPAN)
        else:
            value = max(value, old[index - 2] + MIN_SPAN)
        new[index] = max(0.0, min(1.0, value))
        if new == old:
            return  # the slider following the corners, not a finger

        def stretch(v: float, axis: int) -> float:
            return round(new[axis] + (v - old[axis]) * (new[axis + 2] - new[axis]) / (old[axis + 2] - old[axis]), 4)

        corners = [stretch(v, i % 2) for i, v in enumerate(self.corners)]
        if corners != list(self.corners):
            self.corners = corners

    # --- light ----------------------------------------------------------------------------------------
    def brightness_level(self, gains=None) -> float:
        """The brightness slider's position: log2 of the mean gain (0 = as the camera sees it)."""
        gains = self.gains if gains is None else gains
        return math.log2(sum(gains) / 3)

    def set_brightness(self, level: float) -> None:
        """The brightness slider moved: scale all three gains (their balance kept) to a mean of 2**level."""
        level = min(BRIGHTNESS_RANGE[1], max(BRIGHTNESS_RANGE[0], float(level)))
        if abs(level - self.brightness_level()) < 1e-3:
            return  # the slider following the gains, not a finger
        factor = 2 ** level / (sum(self.gains) / 3)
        self.gains = [round(min(GAIN_LIMITS[1], max(GAIN_LIMITS[0], g * factor)), 3) for g in self.gains]

    def warmth_level(self, gains=None) -> float:
        """The colour slider's position: half the log2 of red gain over blue gain (0 = no cast corrected;
        positive warms the picture, negative cools it)."""
        b, _g, r = self.gains if gains is None else gains
        return math.log2(r / b) / 2

    def set_warmth(self, level: float) -> None:
        """The colour slider moved: red and blue gains pulled apart (or together) around their geometric mean,
        green kept, so a warm lamp's orange or a window's blue can be taken out by eye."""
        level = min(WARMTH_RANGE[1], max(WARMTH_RANGE[0], float(level)))
        if abs(level - self.warmth_level()) < 1e-3:
            return  # the slider following the gains, not a finger
        b, g, r = self.gains
        middle = math.sqrt(r * b)
        clamp = lambda v: round(min(GAIN_LIMITS[1], max(GAIN_LIMITS[0], v)), 3)  # noqa: E731
        self.gains = [clamp(middle * 2 ** -level), g, clamp(middle * 2 ** level)]

    def balance(self) -> None:
        """Measure the gains on the tray's bare surface (the dice left out): neutral grey, mid-bright."""
        from vision.calibration import measure_gains

        if self.frame is None:
            self.message = self.t("no_balance")
            return
        dice = [box for _face, box, inside, _colour, _ok in self.ids.view.dice if inside]
        gains = measure_gains(self.frame, tray_value(self.corners), exclude=dice)
        self.gains = [round(g, 3) for g in gains]
        self.message = self.t("balanced")

    def reset_light(self) -> None:
        self.gains = [1.0, 1.0, 1.0]
        self.message = ""

    def on_gains(self, *_args) -> None:
        self.show_light()
        self._read_id += 1  # a reading under the old light, still on its way, is dropped
        if self.frame is not None:
            # The boxes shown are the last reading's; the summary waits for the reading under this light.
            self.reading = True
            self.summary = self.t("reading")
            self._reread()

    # --- dice colours ---------------------------------------------------------------------------------
    def tap_die(self, index: int) -> None:
        """A die was tapped on the picture: its colour counts (or, tapped again, no longer does)."""
        if not 0 <= index < len(self.ids.view.dice):
            return
        colour = self.ids.view.dice[index][3]
        if colour not in SWATCHES:
            return  # the reader could not name it
        self.set_colour(colour, colour not in self.colours)

    def set_colour(self, colour: str, counts: bool) -> None:
        colours = [c for c in self.colours if c != colour] + ([colour] if counts else [])
        if colours != list(self.colours):
            self.colours = colours
        self.message = self.t("counts" if counts else "no_longer", colour=self.colour_text(colour).capitalize())
        self._sync_chips()

    def every_colour(self) -> None:
        self.colours = []
        self.message = self.t("every")
        self._sync_chips()

    def _sync_chips(self) -> None:
        for colour, chip in self.chips.items():
            chip.text = self.colour_text(colour)
            chip.state = "down" if colour in self.colours else "normal"

    # --- leaving --------------------------------------------------------------------------------------
    def save(self) -> bool:
        """Write the tray, the colours and the light to the app's calibration file (where the camera reads it)."""
        from vision.calibration import CalibrationError

        if self.frame is None:
            self.message = self.t("need_frame")
            return False
        path = self.path()
        try:
            self.calibration().save(path)
        except (OSError, CalibrationError) as error:
            self.message = self.t("cannot_save", path=path, why=error.strerror if isinstance(error, OSError)
                                  and error.strerror else error)
            return False
        self.message = self.t("saved")  # where the file went is for the log, not for the table
        Logger.info(f"Calibration: saved to {path}")
        app = App.get_running_app()
        if hasattr(app, "calibration_saved"):
            app.calibration_saved()  # a camera already watching the table takes the new calibration
        return True

    def on_leave(self, *_args) -> None:
        self.live = False  # the camera is not kept open behind another screen
        app = App.get_running_app()
        if hasattr(app, "camera_returned"):
            app.camera_returned()

    def cancel(self) -> None:
        self._grab_id += 1  # a picture still on its way is dropped
        self._read_id += 1
        self._reread.cancel()
        self.go_back()

    def save_and_leave(self) -> None:
        if self.save():
            self.go_back()

    def go_back(self) -> None:
        app = App.get_running_app()
        if app is not None and hasattr(app, "go") and self.manager is not None and self.manager.has_screen("settings"):
            app.go("settings")
