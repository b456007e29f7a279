"""The board editor's "Scan the board": a photo of the table's board read by the board reader (vision/board),
shown with the reading drawn over it, unsure hexes ringed; a tap on a hex and a tap on a terrain or number
puts it right; "Use this board" hands it to the board editor (and straight to the new game when the board
passes the same check Start makes).

Nothing read from a photo becomes a game without a person's tap.  The reading (0.5-1 s for a 12 MP photo)
runs on a thread of its own, joined when the app stops; its result reaches the screen by
``Clock.schedule_once``.  The photo is a picture file, tapped in the pictures listed newest first
(picture_chooser.py: the Pictures folder, on Android the camera's DCIM/Camera) or its path typed, or one picture
from a camera: the one chosen on this screen when the device has more than one (remembered in Settings as
``scan_camera``), else the dice camera Settings names (opened as the dice source opens it: Kivy's camera on
Android).

Added to the app by :func:`install` (one line in app.py): the screen, and its button in the board editor's
mode row.  Layout in board_scan.kv.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.metrics import dp
from kivy.graphics import Color, Rectangle
from kivy.properties import BooleanProperty, ListProperty, ObjectProperty, StringProperty
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from .photo_reading import (PhotoReading, cameras_here, install_screen, scan_camera, scan_camera_choices,
                            scan_file, tr)
from .steady_scroll import PatientScroll  # noqa: F401  (the pictures' list, in board_scan.kv)
from .picture_chooser import PictureChooser, ReadsAPicture  # noqa: F401  (PictureChooser: kv)

log = logging.getLogger(__name__)
KV = Path(__file__).resolve().parent / "board_scan.kv"

TEXT: dict[str, dict[str, str]] = {
    "scan_board": {"en": "Scan the board", "ja": "盤面を撮影して読む"},
    "scan_help": {"en": "A photo of the whole board from above (any side, any turn). Orange rings: the reader is "
                        "not sure; the first is selected (white). Tap its terrain or number, or another hex "
                        "or harbour.",
                  "ja": "盤面全体を上から撮った写真（どの向きでも可）。オレンジの枠は読み取りに自信がない地形で、"
                        "最初の一つが選ばれています（白）。正しい地形か数字を選ぶか、別の地形か港をタップ。"},
    "scan_read_file": {"en": "Read", "ja": "読む"},
    "scan_path_hint": {"en": "or a picture's path", "ja": "または写真のパス"},
    "scan_pictures": {"en": "Pictures", "ja": "写真を選ぶ"},
    "scan_show_read": {"en": "The board read", "ja": "読んだ盤面"},
    "scan_up": {"en": "Up a folder", "ja": "上のフォルダへ"},
    "scan_choose": {"en": "Tap the photo of the board (newest first), or Camera.",
                    "ja": "盤面の写真をタップ（新しい順）、または「カメラ」。"},
    "scan_pictures_permission": {"en": "The pictures need your permission: allow it, then Back and Scan the board.",
                                 "ja": "写真を読むには許可が必要です。許可してから「戻る」、もう一度「盤面を撮影して読む」。"},
    "scan_no_path": {"en": "Type a picture's path, or tap Pictures.", "ja": "写真のパスを入力するか、「写真を選ぶ」。"},
    "scan_camera_n": {"en": "Camera {n}", "ja": "カメラ {n}"},
    "scan_dice_mark": {"en": " (dice)", "ja": "（ダイス）"},
    "scan_camera": {"en": "Camera", "ja": "カメラ"},
    "scan_use": {"en": "Use this board", "ja": "この盤面を使う"},
    "scan_reading": {"en": "Reading the photo…", "ja": "写真を読んでいます…"},
    "scan_read": {"en": "Board read in {ms} ms.", "ja": "盤面を読みました（{ms} ms）。"},
    "scan_unsure": {"en": "{n} hexes to check (ringed).", "ja": "確認が必要な地形：{n}（枠付き）。"},
    "scan_unsure_1": {"en": "1 hex to check (ringed).", "ja": "確認が必要な地形：1（枠付き）。"},
    "scan_all_sure": {"en": "Nothing unsure: check the board against the photo, then use it.",
                      "ja": "不確かな所はありません。写真と見比べてから使ってください。"},
    "scan_no_board": {"en": "No board found in {name}: the whole board, tokens up, from above.",
                      "ja": "{name}に盤面が見つかりません。数字チップが見えるよう、盤面全体を上から撮ってください。"},
    "scan_other_size": {"en": "{name} shows a {players} player board; this game is for {game} players. Choose "
                             "the number of players first, then scan again.",
                        "ja": "{name}は{players}人用の盤面です。このゲームは{game}人用です。先に人数を選んでから、"
                              "もう一度読んでください。"},
    "scan_no_file": {"en": "{path}: no such file.", "ja": "{path}：ファイルがありません。"},
    "scan_bad_photo": {"en": "{problem}", "ja": "{problem}"},
    "scan_no_camera": {"en": "The camera {camera} gave no picture.", "ja": "カメラ {camera} から画像が得られません。"},
    "scan_nothing_yet": {"en": "Read a photo first.", "ja": "先に写真を読んでください。"},
    "scan_number_unknown": {"en": "number not read", "ja": "数字不明"},
    "scan_robber_here": {"en": "Robber here", "ja": "盗賊はここ"},
    "scan_robber": {"en": "robber", "ja": "盗賊"},
    "scan_unsure_harbours": {"en": "{n} hexes to check, and {m} harbours (ringed).",
                             "ja": "確認が必要な地形：{n}、港：{m}（枠付き）。"},
    # (one hex, one harbour: said as one; "1 harbours" was shown, session 16's trial on test5_2)
    "scan_unsure_harbours_1": {"en": "1 hex to check, and {m} harbours (ringed).", "ja": "確認が必要な地形：1、港：{m}（枠付き）。"},
    "scan_unsure_harbour": {"en": "{n} hexes to check, and 1 harbour (ringed).", "ja": "確認が必要な地形：{n}、港：1（枠付き）。"},
    "scan_unsure_harbour_1": {"en": "1 hex to check, and 1 harbour (ringed).", "ja": "確認が必要な地形：1、港：1（枠付き）。"},
    "scan_harbour": {"en": "harbour {trade}", "ja": "港 {trade}"},
    # (short: the message's 52 dp hold four sentences in ~11 px letters; the editor says what to do)
    "scan_harbours_short": {"en": "{have} of {want} harbours read.", "ja": "港は{want}個中{have}個。"},
    "scan_other_edge": {"en": "Other coast", "ja": "隣の海岸へ"},
    "scan_robber_unknown": {"en": "The robber was not found: select its hex, then Robber here.",
                            "ja": "盗賊が見つかりません。その地形を選んで「盗賊はここ」。"},
    "scan_set_note_one": {"en": "{number} on {count} hexes (the set has {has})", "ja": "{number}が{count}か所（{has}枚）"},
    "scan_set_note_many": {"en": "More than the standard set holds: {numbers}. One of each is misread, or your tokens "
                                 "are not the standard set.",
                           "ja": "標準セットより多い数字：{numbers}。読み違いか、標準でない数字チップです。"},
    "scan_set_note": {"en": "{number} is on {count} hexes; the standard set has {has}: one is misread, or your "
                            "tokens are not the standard set.",
                      "ja": "{number}が{count}か所にあります（標準セットでは{has}枚）。読み違いか、標準でない"
                            "数字チップです。"},
}



def unsure_line(hexes: int, harbours: int) -> str:
    """The reading's count of what to check: "3 hexes to check, and 1 harbour (ringed)." (one said as one)."""
    if harbours:
        return tr("scan_unsure_harbour" if harbours == 1 else "scan_unsure_harbours", n=hexes, m=harbours)
    return tr("scan_unsure", n=hexes) if hexes else tr("scan_all_sure")


class ScanPicture(Widget):
    """The photo (a texture, fitted inside the widget with its shape kept); a tap on it reports the photo pixel
    tapped (``on_photo_tap``, x right and y down from the top-left corner, as OpenCV counts)."""

    is_picture = True  # texts and controls must not lie over it (driver.layout_problems)

    texture = ObjectProperty(None, allownone=True)
    photo_size = ListProperty([0, 0])  # the photo's width and height in pixels

    __events__ = ("on_photo_tap",)

    def __init__(self, **kw):
        super().__init__(**kw)
        self.bind(texture=self._redraw, pos=self._redraw, size=self._redraw)

    def frame(self) -> tuple[float, float, float, float]:
        """Where the photo is drawn: x, y, width, height in window coordinates."""
        w, h = self.photo_size
        if not w or not h:
            return (self.x, self.y, 0.0, 0.0)
        scale = min(self.width / w, self.height / h)
        dw, dh = w * scale, h * scale
        return (self.x + (self.width - dw) / 2, self.y + (self.height - dh) / 2, dw, dh)

    def _redraw(self, *_):
        self.canvas.clear()
        if self.texture is None:
            return
        x, y, w, h = self.frame()
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self.texture, pos=(x, y), size=(w, h))

    def window_pos(self, px: float, py: float) -> tuple[float, float]:
        """The window point showing photo pixel ``(px, py)``."""
        x, y, w, h = self.frame()
        return (x + px * w / self.photo_size[0], y + h - py * h / self.photo_size[1])

    def on_touch_down(self, touch):
        x, y, w, h = self.frame()
        if self.texture is None or not (x <= touch.x <= x + w and y <= touch.y <= y + h):
            return super().on_touch_down(touch)
        px = (touch.x - x) * self.photo_size[0] / w
        py = (y + h - touch.y) * self.photo_size[1] / h
        self.dispatch("on_photo_tap", px, py)
        return True

    def on_photo_tap(self, px: float, py: float) -> None:
        pass


class ScanBoardScreen(ReadsAPicture, PhotoReading, Screen):
    """Read a photo of the board, show it, let a person correct it, hand it to the board editor."""

    CHOOSE, NO_PERMISSION, NO_PATH = "scan_choose", "scan_pictures_permission", "scan_no_path"
    message = StringProperty("")
    set_note = StringProperty("")      # a number shown more often than the standard set has it (BoardScan.surplus)
    selected_text = StringProperty("")
    picking = BooleanProperty(False)   # a hex is selected: the terrain and number buttons are shown
    picking_harbour = BooleanProperty(False)  # a harbour is selected: its trade buttons are shown
    reading = BooleanProperty(False)   # a photo is being read (the read buttons wait)
    path = StringProperty("")          # the last picture file read (or typed)
    choosing = BooleanProperty(False)  # the pictures are listed in the photo's place
    has_scan = BooleanProperty(False)  # a photo has been read (there is a board to go back to)
    cameras = ListProperty([])         # the cameras offered (scan_camera_choices); a choice when 2 or more

    def __init__(self, **kw):
        super().__init__(name="board_scan", **kw)
        self.scan = None                # a vision.board.scan.BoardScan once a photo is read
        self.selected = None
        self.selected_harbour = None    # a harbour's sea hex, when one is selected (then no hex is)
        self._init_reading()
        self._camera_finder = None      # the thread looking for the device's cameras (once a run)
        self._found_cameras: list[str] = []
        Clock.schedule_once(lambda _dt: App.get_running_app().bind(lang=lambda *_: self._update()))

    def on_pre_enter(self, *_):
        self.show_pictures()
        self._look_for_cameras()

    # --- reading ---------------------------------------------------------------------------------------
    def read_file(self) -> None:
        path = self.typed_picture()
        if path is None:
            return
        self.path = path
        players = self.board_size()
        self._start(lambda: scan_file(path, players), Path(path).name)

    def read_camera(self) -> None:
        entry = self.camera_entry()
        players = self.board_size()
        self._start(lambda: scan_camera(entry, self._cancel, players), entry)

    def board_size(self) -> str:
        """The board the new game plays on: "5-6" (30 land hexes) for the base game's 5-6 box, else "3-4" (the
        board the new-game screen's check holds it to: new_game_screen.board_problems)."""
        new_game = App.get_running_app().root.get_screen("new_game")
        return "5-6" if new_game.game in ("base", "base56") and new_game.count >= 5 else "3-4"

    # --- the camera --------------------------------------------------------------------------------------
    def camera_entry(self) -> str:
        """The camera Camera reads: the one chosen here, else the dice camera Settings names."""
        settings = App.get_running_app().settings
        return settings.scan_camera or settings.camera or "0"

    def choose_camera(self, entry: str) -> None:
        """Read the board with camera ``entry`` from now on (saved in Settings; the dice camera unchanged).  Its
        toggle is down already (the toggles are one group)."""
        from dataclasses import replace

        app = App.get_running_app()
        if app.settings.scan_camera != entry:
            app.settings = replace(app.settings, scan_camera=entry)
            app.settings.save(app.data_dir)

    def read_with(self, entry: str) -> None:
        """A camera's toggle tapped: that camera chosen (remembered) and read."""
        if self.reading:
            self._show_cameras()  # one photo at a time: the toggles as they were
            return
        self.choose_camera(entry)
        self.read_camera()

    def _look_for_cameras(self) -> None:
        """Which cameras the device has, looked for once a run on a thread (a probe opens each camera), never
        while the game's own camera source reads one; the choices are shown meanwhile without them."""
        app = App.get_running_app()
        self._show_cameras()
        if self._camera_finder is not None or (app.table is not None and app.source is not None):
            return

        def find():
            try:
                found = cameras_here()
            except Exception:  # pragma: no cover - a driver failing while asked: the choices as they are
                log.exception("looking for cameras failed")
                found = []
            Clock.schedule_once(lambda _dt: self._cameras_found(found))

        self._camera_finder = threading.Thread(target=find, name="scan-camera-finder")
        self._camera_finder.start()

    def _cameras_found(self, found: list[str]) -> None:
        self._found_cameras = found
        self._show_cameras()

    def _show_cameras(self) -> None:
        """The camera choices, as toggles (shown when there are two or more): the one Camera reads is down."""
        from kivy.factory import Factory

        settings = App.get_running_app().settings
        self.cameras = scan_camera_choices(settings, self._found_cameras)
        row = self.ids.camera_choices
        row.clear_widgets()
        if len(self.cameras) < 2:
            return
        chosen = self.camera_entry()
        for entry in self.cameras:
            toggle = Factory.BigToggle(text=self.camera_label(entry), group="scan_camera", height=dp(56),
                                       allow_no_selection=False, state="down" if entry == chosen else "normal")
            toggle.camera_entry = entry
            toggle.bind(on_release=lambda t: self.read_with(t.camera_entry))
            row.add_widget(toggle)

    def camera_label(self, entry: str) -> str:
        """A camera as the screen names it: "Camera 1", a stream's host, a video file's name; the dice camera
        marked "(dice)"."""
        settings = App.get_running_app().settings
        if entry.isdigit():
            words = tr("scan_camera_n", n=entry)
        elif "://" in entry:
            words = entry.split("://", 1)[1].split("/", 1)[0]
        else:
            words = Path(entry).name
        return words + (tr("scan_dice_mark") if entry == (settings.camera or "0") else "")

    def stop(self, timeout: float = 10.0) -> None:
        super().stop(timeout)
        self.ids.chooser.stop(timeout)  # the small pictures' thread
        if self._camera_finder is not None:
            self._camera_finder.join(timeout)

    def _read(self, value) -> None:
        self.scan = value
        self.has_scan = True
        self.choosing = False  # the photo read, with the board drawn over it, in the pictures' place
        self._select_next()  # the first hex (or harbour) to check is selected: one tap less each
        self._update(read_ms=round(value.reading.ms))

    # --- corrections -----------------------------------------------------------------------------------
    def on_photo_tap(self, px: float, py: float) -> None:
        if self.scan is None:
            return
        # a harbour's badge lies on the sea, outside every hex: it is looked for first
        self.selected_harbour = self.scan.harbour_at(px, py)
        self.selected = None if self.selected_harbour is not None else self.scan.hex_at(px, py)
        self._update()

    def set_terrain(self, terrain: str) -> None:
        if self.scan is not None and self.selected is not None:
            self.scan.set_terrain(self.selected, terrain)
            if terrain == "desert":
                self._checked()  # no number follows
            self._update()

    def set_number(self, number: int | None) -> None:
        if self.scan is not None and self.selected is not None:
            self.scan.set_number(self.selected, number)
            self._checked()
            self._update()

    def set_trade(self, trade: str) -> None:
        """The selected harbour trades ``trade`` (its own trade as read: a person says it is right)."""
        if self.scan is not None and self.selected_harbour is not None:
            self.scan.set_trade(self.selected_harbour, trade)
            self._select_next()
            self._update()

    def other_edge(self) -> None:
        """The selected harbour serves its other coast edge; it stays selected (its trade may follow)."""
        if self.scan is not None and self.selected_harbour is not None:
            self.scan.other_edge(self.selected_harbour)
            self._update()

    def _checked(self) -> None:
        """The selected hex is settled: the next one to check (reading order) is selected, or none."""
        if self.selected not in self.scan.unsure:
            self._select_next()

    def _select_next(self) -> None:
        """The first hex still to check, in the board's reading order (LAND: column by column); when none, the
        first harbour still to check; when none, nothing."""
        self.selected = min(self.scan.unsure) if self.scan.unsure else None
        harbours = self.scan.unsure_harbours
        self.selected_harbour = min(harbours) if self.selected is None and harbours else None

    def set_robber(self) -> None:
        if self.scan is not None and self.selected is not None:
            self.scan.set_robber(self.selected)
            self._update()

    # --- the board -------------------------------------------------------------------------------------
    def board_json(self) -> dict | None:
        return self.scan.board_json() if self.scan is not None else None

    def use(self) -> None:
        """The board as read and corrected goes to the board editor; when it passes the check Start makes, on
        to the new game directly (the editor still holds it, to add harbours)."""
        if self.scan is None:
            self.message = tr("scan_nothing_yet")
            return
        app = App.get_running_app()
        editor = app.root.get_screen("board_editor")
        data = self.board_json()
        editor.load(data, back=editor.back)
        if editor.problems() or self.harbours_short():
            app.go("board_editor")  # the editor names what is wrong and rings it, or the harbours short of the set
            return
        app.root.get_screen("new_game").board_json = editor.to_json()
        app.go(editor.back)

    def harbours_short(self) -> tuple[int, int] | None:
        """(read, the set's) when the reading holds fewer harbours than the base game's set (a photo that cut
        the frame off, a ship the reader did not see), else None."""
        want = App.get_running_app().root.get_screen("new_game").harbour_set()
        have = len(self.scan.harbours) if self.scan is not None else 0
        return (have, want) if want is not None and have < want else None

    def _update(self, read_ms: int | None = None) -> None:
        from .board_view import TERRAIN_COLORS
        from .camera_picture import bgr_texture

        if self.scan is None:
            return
        picture = self.ids.picture
        drawn = self.scan.drawn(TERRAIN_COLORS, self.selected, self.selected_harbour)
        reuse = picture.texture if picture.texture is not None and tuple(picture.texture.size) == (
            drawn.shape[1], drawn.shape[0]) else None
        picture.photo_size = [drawn.shape[1], drawn.shape[0]]
        picture.texture = bgr_texture(drawn, reuse)
        if reuse is not None:
            picture._redraw()
        lines = []
        if read_ms is not None:
            lines.append(tr("scan_read", ms=read_ms))
        n, m = len(self.scan.unsure), len(self.scan.unsure_harbours)
        lines.append(unsure_line(n, m))
        short = self.harbours_short()
        if short:
            lines.append(tr("scan_harbours_short", have=short[0], want=short[1]))
        if self.scan.robber is None and not getattr(self.scan.reading, "robber_sure", True):
            lines.append(tr("scan_robber_unknown"))  # asked, not guessed (a game has its robber somewhere)
        self.message = " ".join(lines)
        # said apart from the message, which is sized for its few lines: the numbers as they now stand, so a
        # correction that makes the board a standard set's takes the note away
        surplus = self.scan.surplus()
        if len(surplus) == 1:
            self.set_note = tr("scan_set_note", number=surplus[0][0], count=surplus[0][1], has=surplus[0][2])
        else:  # several numbers in one sentence: a sentence each ran the panel off the window (a 5-6 reading)
            sep = "、" if App.get_running_app().lang == "ja" else ", "
            self.set_note = (tr("scan_set_note_many", numbers=sep.join(
                tr("scan_set_note_one", number=n, count=k, has=has) for n, k, has in surplus)) if surplus else "")
        self.picking = self.selected is not None
        self.picking_harbour = self.selected_harbour is not None
        if self.selected is not None:
            self.selected_text = self._place(self.selected)
        elif self.selected_harbour is not None:
            harbour = self.scan.harbour(self.selected_harbour)
            trade = "3:1" if harbour.trade == "3:1" else "2:1 " + tr(harbour.trade)
            self.selected_text = tr("scan_harbour", trade=trade)
        else:
            self.selected_text = ""

    def _place(self, h) -> str:
        """The selected hex as players say it ("the 6 hills"), from the board as it now stands."""
        from ..rules import board_from_json
        from .refusals_text import app_places

        board = board_from_json(self.scan.board_json(), check=False)
        text = app_places(board).hex(self.scan.in_record(h))
        if self.scan.terrains[h] != "desert" and self.scan.numbers.get(h) is None:
            text += f" ({tr('scan_number_unknown')})"
        if h == self.scan.robber:
            text += f" — {tr('scan_robber')}"
        return text


def install(app, manager) -> None:
    """Add the screen, its texts and its button in the board editor (beside Terrain/Number and Harbor)."""
    try:
        button = install_screen(app, manager, TEXT, KV, ScanBoardScreen, "scan_board")
        editor = manager.get_screen("board_editor")
        row = editor.ids.mode_hex.parent
        button.height = row.height
        row.add_widget(button)
        editor.ids["scan"] = button
    except Exception:  # an optional screen must not stop the table app
        log.exception("the board scan screen could not be added")
