"""Settings: the language, the voice and its volume, the dice source (tapped, a dice box, a camera, the
simulator) with its port or camera, and which boxes and cameras this device has (its layout is
``settings.kv``)."""

from __future__ import annotations

import logging
import threading
from dataclasses import replace

from kivy.clock import Clock
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from ..dice.camera import camera_entry
from .settings import SOURCE_KINDS
from .widgets import app, load_rules

load_rules("settings.kv")

log = logging.getLogger(__name__)


class SettingsScreen(Screen):
    """The settings as typed, until Save.  A camera entry that names no camera is said under the fields and
    nothing is saved; going to the camera calibration and back keeps what was typed."""

    #: The dice source kind the spinner shows (``manual``, ``box``, ``camera``, ``sim``, or another scheme).
    kind = StringProperty("manual")
    #: What is wrong with the entries, in the player's language ("" when nothing is).
    problem = StringProperty("")
    #: The dice boxes and cameras this device has, in the player's language (looked for on a thread).
    found = StringProperty("")

    def __init__(self, **kw):
        super().__init__(name="settings", **kw)
        self._finder: threading.Thread | None = None
        self._editing = False  # back from the calibration: the fields keep what was typed
        self.ids.source.bind(text=lambda _spinner, text: setattr(self, "kind", self._kind_of(text)))

    def refresh(self) -> None:
        a = app()
        if getattr(a, "came_from", "calibration") not in ("calibration", "settings"):
            self.back_to = a.came_from  # Save and Back return there (the camera calibration is a detour)
        if self._editing:
            self._editing = False
            return
        s = app().settings
        self.ids.lang_en.state = "down" if s.lang == "en" else "normal"
        self.ids.lang_ja.state = "down" if s.lang == "ja" else "normal"
        self.ids.voice.active = s.voice
        self.ids.volume.value = s.volume
        kind = s.source_kind
        if a.demo:  # the demo plays with the dice-box simulator whatever is saved: show what is in use
            kind = "sim"
        self.ids.source.text = (app().tr("source_" + kind) if kind in SOURCE_KINDS else s.dice_source)
        self.kind = kind
        self.ids.port.text = s.box_port
        self.ids.camera.text = camera_entry(s.dice_source) if s.source_kind == "camera" else s.camera
        self.ids.camera.cursor = (0, 0)  # a long address or path shows its beginning
        self.ids.confirm_camera.active = s.confirm_camera
        self.problem = ""
        self.look_for_devices()

    def look_for_devices(self) -> None:
        """Say which dice boxes and cameras this device has (the ports answering identify, the cameras giving a
        picture), so that a player sees what to choose.  Asking opens the ports and cameras, so never while the
        open game's own source reads one; the asking runs on a thread (a probe waits for an answer) and its
        words reach the screen through the clock."""
        a = app()
        if a.table is not None and a.source is not None:
            self.found = a.tr("found_in_use")
            return
        if self._finder is not None and self._finder.is_alive():
            return
        self.found = a.tr("found_looking")
        named = [self.ids.port.text] if self.ids.port.text not in ("", "auto") else []
        self._finder = threading.Thread(target=self._find, args=(named,), name="settings-device-finder",
                                        daemon=True)
        self._finder.start()

    def _find(self, named: list[str]) -> None:
        from companion import doctor

        try:
            boxes = [(port, box) for port, box in doctor.boxes_answering(0.4, named) if box is not None]
            cameras = [(device, size) for device, size in doctor.camera_pictures() if size is not None]
        except Exception:  # pragma: no cover - a driver failing while asked: say nothing rather than crash
            log.exception("looking for dice boxes and cameras failed")
            boxes, cameras = [], []
        Clock.schedule_once(lambda _dt: self._say_found(boxes, cameras))

    def preview_language(self, lang: str) -> None:
        """A tap on English / 日本語 shows Settings in that language at once: the screen stayed English until Save,
        and a first-timer looking for 日本語 saw nothing happen (tried by touch). Save keeps it; Back puts the
        saved language back (the screens that follow the app's language follow it there and back)."""
        a = app()
        if a.lang == lang:
            return
        a.lang = lang
        self._relabel()

    def _relabel(self) -> None:
        """The texts this screen writes itself, in the app's language now."""
        a = app()
        if self.kind in SOURCE_KINDS:
            self.ids.source.text = a.tr("source_" + self.kind)
        if self._found is not None:
            self._say_found(*self._found)
        elif self.found:
            self.found = a.tr("found_in_use" if a.table is not None and a.source is not None else "found_looking")
        self.problem = ""  # (said in the other language; Save says it again if it still holds)

    _found: tuple | None = None  # the boxes and cameras last found, to say again in another language

    def _say_found(self, boxes, cameras) -> None:
        self._found = (boxes, cameras)
        tr = app().tr
        box_words = ", ".join(tr("found_box", model=box.model, port=port) for port, box in boxes)
        camera_words = ", ".join(tr("found_camera", number=device.rsplit("video", 1)[-1], size=f"{w}×{h}")
                                 for device, (w, h) in cameras)
        self.found = tr("found_here", boxes=box_words or tr("found_no_box"),
                        cameras=camera_words or tr("found_no_camera"))

    def stop_looking(self, timeout: float = 5.0) -> None:
        """The app stops: the finder's last probe ends (bounded by its answer wait) before the interpreter."""
        if self._finder is not None:
            self._finder.join(timeout)

    def _kind_of(self, label: str) -> str:
        for kind in SOURCE_KINDS:
            if label in (app().tr("source_" + kind, lang) for lang in ("en", "ja")):
                return kind
        return app().settings.source_kind  # a source set outside Settings, shown as its URL

    def _camera_problem(self, error, saving: bool) -> str:
        words = app().tr("camera_problem_" + error.reason, entry=error.entry, scheme=error.scheme)
        return words + app().tr("nothing_saved") if saving else words

    def calibrate(self) -> None:
        """The camera calibration, of the camera typed here (saved or not)."""
        from companion.dice.camera import CameraChoiceError, camera_url

        a = app()
        try:
            url = camera_url(self.ids.camera.text, a.settings.dice_source)
        except CameraChoiceError as error:
            self.problem = self._camera_problem(error, saving=False)
            return
        a.root.get_screen("calibration").chosen_camera = url
        self._editing = True
        a.go("calibration")

    def save(self) -> None:
        from companion.dice.camera import CameraChoiceError

        a = app()
        kind = a.settings.source_kind if a.demo and self.kind == "sim" else self.kind  # (the demo's is not saved)
        try:
            chosen = a.settings.choose_source(kind, self.ids.camera.text, self.ids.port.text)
        except CameraChoiceError as error:
            self.problem = self._camera_problem(error, saving=True)
            return
        settings = replace(chosen, lang="ja" if self.ids.lang_ja.state == "down" else "en",
                           voice=self.ids.voice.active, volume=round(float(self.ids.volume.value), 2),
                           confirm_camera=self.ids.confirm_camera.active)
        a.apply_settings(settings)
        self.back()

    back_to = "start"

    def back(self) -> None:
        """Back where Settings was opened from (the start screen, or the game), in the saved language."""
        a = app()
        if a.lang != a.settings.lang:  # a language tapped and not saved
            a.lang = a.settings.lang
            self._relabel()
        a.go(self.back_to if a.has_screen(self.back_to) and (self.back_to != "play" or a.table) else "start")
