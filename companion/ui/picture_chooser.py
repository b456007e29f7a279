"""A picture file chosen by a finger, for "Scan the board": Kivy's own FileChooser with rows a finger can hit.

Opened in the Pictures folder (Android: the camera's DCIM/Camera, where the tablet's photos are), or in the
folder of the last picture read; folders first, then the pictures newest first (the photo just taken is the
top row); only ``.jpg``, ``.jpeg`` and ``.png`` files are listed (any case).  One tap on a picture chooses it
(``on_submit``), one tap on a folder opens it, the top row goes up a folder.  Each row is 64 dp high: a small
picture of the photo (made on a thread of its own, newest first, handed over by ``Clock.schedule_once``), its
name in large letters and its date and size under it.  Layout in picture_chooser.kv, loaded here (one chooser
for both screens that read a board photo: Scan the board, board_scan.kv, and Check the board, board_check.kv).

A phone's camera folder holds thousands of photos: the folder is listed in one pass (``os.scandir``: name, kind
and time written together), and only the newest FIRST_PAGE pictures get a row; scrolled to its end, or a tap on the
last row, "More pictures (N older)", the list adds the next PAGE under them, a few rows a frame.  An iPhone's HEIC photos (and HEIF) are listed as what they are, with
what to do ("HEIC cannot be read: send it as JPEG"): the reader's OpenCV cannot decode them, and a tap on one
says so and reads nothing -- also when the file is named .jpg (some phones and transfers name a HEIC so): its
header tells (vision/board/heic.py).
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from pathlib import Path
from weakref import ref

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.filechooser import FileChooserController

from .fitted_label import Hideable
from .steady_scroll import PatientScroll  # noqa: F401  (the list's scrolling, in picture_chooser.kv)

log = logging.getLogger(__name__)

PICTURE_SUFFIXES = (".jpg", ".jpeg", ".png")
#: An iPhone's (and some Android phones') photos: listed, but OpenCV cannot decode them (said on the row and on
#: a tap: send it as JPEG).
UNREADABLE_SUFFIXES = (".heic", ".heif")
#: A row's small picture: its long side in pixels (the row's 56 dp square at a tablet's 2x density).
THUMB_SIZE = 112
#: Pictures given a row when a folder is shown, newest first; then PAGE more each time the list is scrolled to its
#: end or "More pictures" is tapped.  A row cost ~36 ms to build at load ~12 (its two labels' text, on the UI
#: thread): 60 rows at once took 3.2-5.8 s to the first screen at load 10-12, 18 rows 1.1-1.6 s
#: (bench/bench_picture_folder.py).
FIRST_PAGE = 18
PAGE = 30
#: Rows built a frame while a page is added (the list keeps scrolling meanwhile).
ROWS_A_FRAME = 3

TEXT: dict[str, dict[str, str]] = {
    "pictures_more": {"en": "More pictures ({n} older)", "ja": "さらに表示（古い写真あと{n}枚）"},
    "pictures_heic_row": {"en": "HEIC cannot be read: send it as JPEG", "ja": "HEIC形式は読めません。JPEGで送ってください"},
    # short: the scan screen's message box holds about two lines lying down (a longer one shrank to ~9 px)
    "pictures_heic": {"en": "{name}: HEIC cannot be read: send it as JPEG.",
                      "ja": "{name}：HEIC形式は読めません。JPEGで送ってください。"},
}


def _tr(key: str, **values) -> str:
    from .photo_reading import tr

    return tr(key, **values)


def is_picture_name(_folder: str, path: str) -> bool:
    """A FileChooser filter: a file named as a photo is (``IMG_0001.JPG`` as well as ``board.jpg``)."""
    return path.lower().endswith(PICTURE_SUFFIXES)


def is_listed_name(_folder: str, path: str) -> bool:
    """The list's filter: a picture (``is_picture_name``), or a photo the reader cannot decode (HEIC), listed to
    say so."""
    return path.lower().endswith(PICTURE_SUFFIXES + UNREADABLE_SUFFIXES)


def is_unreadable_name(path: str) -> bool:
    """A HEIC/HEIF photo: OpenCV (the board reader's decoder) cannot read it -- named so, or with a picture's name
    (``IMG_1234.jpg``, as some phones and transfers name it) and a HEIC header (vision/board/heic.py: the file's
    first 64 bytes)."""
    if path.lower().endswith(UNREADABLE_SUFFIXES):
        return True
    from vision.board.heic import heic_brand

    return path.lower().endswith(PICTURE_SUFFIXES) and heic_brand(path) is not None


def folder_newest_first(path: str) -> tuple[list[str], list[str]]:
    """(the folders, by name; the pictures listed (``is_listed_name``), newest first) of folder ``path``, hidden
    names left out: one ``os.scandir`` pass (the kind and the time written come with each name: one stat a
    picture at most, none for a folder on Linux and Android)."""
    folders, pictures = [], []
    with os.scandir(path) as entries:
        for entry in entries:
            if entry.name.startswith("."):
                continue
            try:
                if entry.is_dir():
                    folders.append(entry.path)
                elif is_listed_name(path, entry.name):
                    pictures.append((-entry.stat().st_mtime, entry.name.lower(), entry.path))
            except OSError:  # gone meanwhile, or a link to nowhere
                continue
    folders.sort(key=lambda f: os.path.basename(f).lower())
    pictures.sort()
    return folders, [p for _, _, p in pictures]


def pictures_folder(last_picture: str = "", *, platform: str | None = None) -> Path:
    """Where the chooser opens: the folder of ``last_picture`` while it is there; else, on Android, the camera's
    folder (``DCIM/Camera``, else ``DCIM``) and then Pictures; elsewhere the user's Pictures folder
    (platformdirs: ``XDG_PICTURES_DIR``, ``~/Pictures``); else the home folder."""
    from companion.dice.camera import _platform

    places = []
    if last_picture:
        places.append(Path(last_picture).expanduser().parent)
    if (platform or _platform()) == "android":
        storage = Path(os.environ.get("EXTERNAL_STORAGE", "/storage/emulated/0"))
        places += [storage / "DCIM" / "Camera", storage / "DCIM", storage / "Pictures"]
    else:
        try:
            import platformdirs

            places.append(Path(platformdirs.user_pictures_dir()))
        except Exception:  # pragma: no cover - a platform platformdirs does not know: home below
            pass
    places.append(Path.home())
    return next((p for p in places if p.is_dir()), Path.home())


#: What Android asks before an app reads the photos of others (the camera app's): 13 and later, and before.
PICTURE_PERMISSIONS = ("android.permission.READ_MEDIA_IMAGES", "android.permission.READ_EXTERNAL_STORAGE")


def may_read_pictures() -> bool:
    """Whether the pictures may be listed: on Android the user's permission, asked for at the first use (the
    dialog answers later: False until then); elsewhere always."""
    from companion.dice.camera import _platform

    if _platform() != "android":
        return True
    try:  # pragma: no cover - needs an Android device
        from android.permissions import check_permission, request_permissions  # type: ignore

        if any(check_permission(p) for p in PICTURE_PERMISSIONS):
            return True
        request_permissions(list(PICTURE_PERMISSIONS))
    except Exception:  # pragma: no cover
        return True  # no permission module: listed as far as the platform lets
    return False  # pragma: no cover


def newest_first(files: list[str], filesystem) -> list[str]:
    """FileChooser's ``sort_func``: folders first by name, then files by the time they were written, newest
    first (a phone names its photos by date, but a copied or renamed one keeps only its time)."""
    def written(path: str) -> float:
        try:
            return os.stat(path).st_mtime
        except OSError:
            return 0.0

    folders = sorted((f for f in files if filesystem.is_dir(f)), key=lambda f: os.path.basename(f).lower())
    pictures = sorted((f for f in files if not filesystem.is_dir(f)),
                      key=lambda f: (-written(f), os.path.basename(f).lower()))
    return folders + pictures


def describe(path: str, isdir: bool) -> str:
    """A row's second words: a picture's date and size ("2026-11-27 12:14 · 2.4 MB"); nothing for a folder; for
    a HEIC photo what to do with it instead."""
    if isdir:
        return ""
    if is_unreadable_name(path):
        return _tr("pictures_heic_row")
    try:
        st = os.stat(path)
    except OSError:
        return ""
    size = st.st_size / 1024
    size_text = f"{size:.0f} KB" if size < 1024 else f"{size / 1024:.1f} MB"
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(st.st_mtime)) + " · " + size_text


def thumbnail(path: str):
    """A small copy of the picture at ``path`` (BGR, THUMB_SIZE on its long side), or None for a file that is no
    picture or cannot be read.  The header is read first (as the board reader does): nothing else is decoded
    for a file that is no PNG/JPEG/BMP or claims more pixels than a photo has; a large JPEG is decoded at an
    eighth of its size (libjpeg's scaled decode: ~0.2 s for a 12 MP photo on a loaded 2-core machine)."""
    import cv2

    from vision.evaluate import MAX_PIXELS
    from vision.image_header import HeaderError, image_size

    try:
        width, height = image_size(path)
    except (HeaderError, OSError):
        return None
    if width * height > MAX_PIXELS:
        return None
    long_side = max(width, height)
    flag = next((f for f, k in ((cv2.IMREAD_REDUCED_COLOR_8, 8), (cv2.IMREAD_REDUCED_COLOR_4, 4),
                                (cv2.IMREAD_REDUCED_COLOR_2, 2)) if long_side / k >= THUMB_SIZE), cv2.IMREAD_COLOR)
    image = cv2.imread(path, flag)
    if image is None:
        return None
    scale = THUMB_SIZE / max(image.shape[:2])
    return cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else image


class Thumbnails:
    """Small pictures made on one thread of its own, in the order asked (the rows top first: newest first);
    each handed to its callback on the UI thread by ``Clock.schedule_once``.  ``forget()`` drops what was asked
    and not yet made (another folder shown); ``stop()`` ends the thread (the app stops)."""

    def __init__(self):
        self._asked: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()
        self._made: dict[tuple[str, float], object] = {}  # (path, time written) -> picture or None

    def ask(self, path: str, callback) -> None:
        try:
            key = (path, os.stat(path).st_mtime)
        except OSError:
            return
        if key in self._made:
            callback(self._made[key])
            return
        if self._stopped.is_set():
            return
        self._asked.put((key, callback))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="picture-thumbnails")
            self._thread.start()

    def forget(self) -> None:
        try:
            while True:
                self._asked.get_nowait()
        except queue.Empty:
            pass

    def _run(self) -> None:
        while not self._stopped.is_set():
            item = self._asked.get()
            if item is None:
                return
            key, callback = item
            try:
                picture = thumbnail(key[0])
            except Exception:  # a decoder failing on one file: that row without its picture, the others made
                log.exception("no small picture of %s", key[0])
                picture = None
            if len(self._made) > 500:
                self._made.clear()
            self._made[key] = picture
            Clock.schedule_once(lambda _dt, p=picture, c=callback: c(p))

    def stop(self, timeout: float = 10.0) -> None:
        self._stopped.set()
        self.forget()
        self._asked.put(None)
        if self._thread is not None:
            self._thread.join(timeout)


class PictureRow(ButtonBehavior, BoxLayout):
    """One row of the chooser: a folder or a picture (the FileChooser's entry: ``path``, ``locked``,
    ``selected``), a button reporting its press and release to the chooser as Kivy's own entries report their
    touches (inside the chooser's ScrollView: a drag scrolls the list and chooses nothing)."""

    path = StringProperty("")
    name = StringProperty("")
    detail = StringProperty("")
    isdir = BooleanProperty(False)
    locked = BooleanProperty(False)      # a folder that could not be listed (the chooser sets it)
    selected = BooleanProperty(False)
    controller = ObjectProperty(None)    # a weak reference to the chooser
    thumb = ObjectProperty(None, allownone=True)  # the picture's small copy, a texture (once made)
    more = BooleanProperty(False)        # the last row: "More pictures (N older)"

    def show_thumbnail(self, picture) -> None:
        from .camera_picture import bgr_texture

        if picture is not None:
            self.thumb = bgr_texture(picture)

    def on_press(self):
        if self.controller is not None and self.last_touch is not None and not self.more:
            self.controller().entry_touched(self, self.last_touch)

    def on_release(self):
        if self.controller is not None:
            self.controller().entry_released(self, self.last_touch)  # (None: trigger_action, no finger)


class PictureChooser(Hideable, FileChooserController):
    """Kivy's FileChooser listing pictures in finger-sized rows (``PictureRow``), newest first; a tap on a
    picture dispatches ``on_submit([path], touch)``.  Hidden (``shown`` False) it lets touches through."""

    up_text = StringProperty("..")   # the top row's words (the screen sets them in the player's language)

    def __init__(self, **kw):
        kw.setdefault("filters", [is_listed_name])
        kw.setdefault("sort_func", newest_first)
        self.thumbnails = Thumbnails()
        self._older: list[str] = []   # the folder's pictures with no row yet, newest first ("More pictures")
        self._more_row: PictureRow | None = None
        self._adding = None           # the clock event adding a page of rows
        super().__init__(**kw)

    def _add_files(self, path, parent=None):
        """The folder's rows (Kivy's FileChooser asks them one by one, 50 ms of them a frame): its folders, then
        its newest PAGE pictures, then "More pictures" when there are older ones (``show_more``)."""
        path = os.path.expanduser(path)
        if os.path.isfile(path):
            path = os.path.dirname(path)
        folders, pictures = folder_newest_first(path)
        self._older = pictures[FIRST_PAGE:]
        self._more_row = None
        self._adding = None
        listed = folders + pictures[:FIRST_PAGE]
        self.files[:] = listed
        total = len(listed) + bool(self._older)
        controller = ref(self)
        for index, fn in enumerate(listed):
            yield index, total, self._create_entry_widget(
                {"name": os.path.basename(fn), "path": fn, "controller": controller, "isdir": index < len(folders)})
        if self._older:
            self._more_row = self._more_entry()
            yield total - 1, total, self._more_row

    def _more_entry(self) -> PictureRow:
        return PictureRow(path="", name=_tr("pictures_more", n=f"{len(self._older):,}"), more=True,
                          controller=ref(self))

    def show_more(self) -> None:
        """The next PAGE older pictures get their rows under those shown, ROWS_A_FRAME a frame (the list stays
        where it is and keeps scrolling); the "More pictures" row moves under them, or goes when none are left."""
        if self._adding is not None or not self._older:
            return
        page, self._older = self._older[:PAGE], self._older[PAGE:]
        self.files.extend(page)
        controller = ref(self)
        waiting = list(page)

        def add(_dt):
            rows = self.ids.rows
            more = self._more_row
            if more is not None:
                rows.remove_widget(more)
            for fn in waiting[:ROWS_A_FRAME]:
                self.on_entry_added(self._create_entry_widget(
                    {"name": os.path.basename(fn), "path": fn, "controller": controller, "isdir": False}))
            del waiting[:ROWS_A_FRAME]
            if waiting:
                if more is not None:
                    rows.add_widget(more)
                return True
            self._adding.cancel()
            self._adding = None
            self._more_row = None
            if self._older:
                self._more_row = self._more_entry()
                rows.add_widget(self._more_row)
            return False

        self._adding = Clock.schedule_interval(add, 0)

    def on_scrolled(self, scroll_y: float) -> None:
        """The list scrolled to its end (its last rows in sight): the next older pictures are added."""
        if scroll_y <= 0.02 and self._more_row is not None and self.ids.scroll.height < self.ids.rows.height:
            self.show_more()

    def _update_files(self, *args, **kwargs):
        """Listed only while shown (a folder of a thousand photos is not read when the app starts), and again
        each time it is shown (a photo taken meanwhile comes on top)."""
        if self.shown:
            super()._update_files(*args, **kwargs)

    def on_shown(self, _chooser, shown: bool) -> None:
        if shown:
            self._trigger_update()

    def _create_entry_widget(self, ctx):
        up = ctx["name"].startswith("..")
        name = (self.up_text + "  (" + Path(self.path).parent.name + ")") if up else ctx["name"]
        return PictureRow(path=ctx["path"], name=name + ("/" if ctx["isdir"] and not up else ""),
                          detail=describe(ctx["path"], ctx["isdir"]), isdir=ctx["isdir"],
                          controller=ctx["controller"])

    def on_entry_added(self, node, parent=None):
        self.ids.rows.add_widget(node)
        if not node.isdir and not node.more and not is_unreadable_name(node.path):
            self.thumbnails.ask(node.path, node.show_thumbnail)

    def on_entries_cleared(self):
        if getattr(self, "_adding", None) is not None:  # another folder (or this one afresh): no page half-added
            self._adding.cancel()
            self._adding = None
        self.thumbnails.forget()
        self.ids.rows.clear_widgets()
        self.ids.scroll.scroll_y = 1  # a new folder is seen from its top (its newest pictures)

    def entry_released(self, entry, touch):
        """A folder opens; a picture is chosen at once (one tap, not Kivy's double tap)."""
        if touch is not None and "button" in touch.profile and touch.button.startswith("scroll"):
            return False
        if entry.more:
            self.show_more()
        elif self.file_system.is_dir(entry.path):
            self.open_entry(entry)
        else:
            self.selection = [entry.path]
            self.dispatch("on_submit", [entry.path], touch)

    def rows(self) -> list[PictureRow]:
        """The rows as shown, top first."""
        return list(reversed(self.ids.rows.children))

    def stop(self, timeout: float = 10.0) -> None:
        """The app stops: the thread making the small pictures ends."""
        self.thumbnails.stop(timeout)


class ReadsAPicture:
    """The picture list's side of a screen that reads one photo (Scan the board, Check the board): until a photo is
    read the pictures stand in its place, newest first; a tap on one reads it; a typed path is read the same way.
    The screen names its own messages (``CHOOSE``, ``NO_PERMISSION``, ``NO_PATH``: i18n keys) and has ``path`` (the
    last picture read), ``scan``, ``choosing``, ``message``, ``ids.chooser``, ``ids.path`` and ``read_file``."""

    CHOOSE = NO_PERMISSION = NO_PATH = ""
    _opened = False

    def show_pictures(self) -> None:
        """On entering: the list when nothing is read yet, opened once in the Pictures folder (later visits stay
        where the user was), listed afresh (a photo taken, or a permission given, meanwhile comes on top)."""
        from .photo_reading import tr

        if self.scan is None:
            self.choosing = True
            self.message = tr(self.CHOOSE) if may_read_pictures() else tr(self.NO_PERMISSION)
        if not self._opened:
            self._opened = True
            self.ids.chooser.path = str(pictures_folder(self.path))
        if self.choosing:
            self.ids.chooser._trigger_update()

    def choose_picture(self, path: str) -> None:
        """A picture tapped in the list: read (a file that is no picture is said; nothing changes).  A HEIC photo
        is not read: what to do is said (nothing changes)."""
        if is_unreadable_name(path):
            self.message = _tr("pictures_heic", name=Path(path).name)
            return
        self.ids.path.text = path
        self.read_file()

    def typed_picture(self) -> str | None:
        """The path typed (or tapped), when it names a file; otherwise the message says what is wrong and None."""
        from .photo_reading import tr

        path = self.ids.path.text.strip()
        if not path:
            self.message = tr(self.NO_PATH)
            return None
        if not Path(path).is_file():
            self.message = tr("scan_no_file", path=path)
            return None
        if is_unreadable_name(path):
            self.message = tr("pictures_heic", name=Path(path).name)
            return None
        return path


def _install_texts() -> None:
    from . import i18n

    for key, entry in TEXT.items():
        i18n.TEXT.setdefault(key, entry)


_install_texts()
KV = Path(__file__).resolve().with_suffix(".kv")
if str(KV) not in Builder.files:
    Builder.load_file(str(KV))
