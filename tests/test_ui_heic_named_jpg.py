"""Scan the board with a HEIC photo named .jpg (some phones and transfers name an iPhone's HEIC so), by touches on
the real app: the pictures list says what it is by its header, not its name ("HEIC cannot be read: send it as
JPEG", in the player's language), and a tap on it, or its path typed, says so and reads nothing; the real JPEG
beside it is still read.  The HEIC file is an ISO base media file's first bytes as an iPhone writes them
(tests/test_board_heic.py)."""

from __future__ import annotations

import os
import threading

import pytest

from companion.ui import driver as d
from pictures_folder import pictures_folder
from tests.test_board_heic import IPHONE, PHOTOS

pytestmark = pytest.mark.timeout(300)

NEWEST = "IMG_20261127_193000.jpg"  # test4_1: a board
HEIC = "IMG_5000.jpg"               # an iPhone's HEIC, named .jpg


@pytest.fixture
def pictures(tmp_path, monkeypatch):
    folder = pictures_folder(tmp_path, monkeypatch, {NEWEST: (PHOTOS / "test4_1.jpg", 0), HEIC: ("", 1)})
    written = (folder / HEIC).stat().st_mtime
    (folder / HEIC).write_bytes(IPHONE)
    os.utime(folder / HEIC, (written, written))  # a day older than the board photo, as the fixture dated it
    return folder


def test_a_heic_named_jpg_is_said_as_heic_in_the_list_on_a_tap_and_typed(tmp_path, pictures):
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        d.tap(editor.ids.scan)
        screen = app.root.get_screen("board_scan")
        chooser = screen.ids.chooser

        def heic_row():
            return next((row for row in chooser.rows() if row.name == HEIC), None)

        assert d.wait_until(lambda: heic_row() is not None, timeout=60)
        d.settle()
        assert heic_row().detail == "HEIC cannot be read: send it as JPEG" and heic_row().thumb is None
        d.tap(heic_row())
        assert screen.message == f"{HEIC}: HEIC cannot be read: send it as JPEG.", screen.message
        assert not screen.reading and screen.scan is None and screen.choosing
        # its path typed: the same words, nothing read
        screen.message = ""
        screen.ids.path.text = str(pictures / HEIC)
        d.tap(screen.ids.read_file)
        assert screen.message == f"{HEIC}: HEIC cannot be read: send it as JPEG.", screen.message
        assert not screen.reading and screen.scan is None
        assert d.layout_problems(app.root) == []

        # in Japanese: the list made afresh in the player's language, the path typed
        app.lang = "ja"
        d.tap(screen.ids.back)
        d.tap(editor.ids.scan)
        assert d.wait_until(lambda: heic_row() is not None and heic_row().detail.startswith("HEIC形式"), timeout=60)
        d.settle()
        assert heic_row().detail == "HEIC形式は読めません。JPEGで送ってください"
        d.tap(heic_row())
        assert screen.message == f"{HEIC}：HEIC形式は読めません。JPEGで送ってください。", screen.message
        screen.message = ""
        screen.ids.path.text = str(pictures / HEIC)
        d.tap(screen.ids.read_file)
        assert screen.message == f"{HEIC}：HEIC形式は読めません。JPEGで送ってください。", screen.message
        assert screen.scan is None and d.layout_problems(app.root) == []

        # the real photo beside it is read as before
        app.lang = "en"
        row = next(row for row in chooser.rows() if row.name == NEWEST)
        d.tap(row)
        assert d.wait_until(lambda: not screen.reading, timeout=120)
        assert screen.scan is not None, screen.message
    finally:
        d.stop_app(app)
    assert not [t for t in threading.enumerate() if t.name in ("picture-thumbnails", "board-photo") and t.is_alive()]


def test_a_heic_the_reader_meets_is_said_in_the_players_words():
    """A HEIC the list did not catch (the file changed after it was listed, or read by the camera path's
    reader): the reader's refusal is said with the list's words, not as "not a readable image"."""
    from companion.ui.photo_reading import photo_problem
    from vision.board.reader import HeicError

    said = photo_problem(HeicError("/sdcard/DCIM/IMG_5000.jpg: a HEIC photo ..."), HEIC)
    assert said == f"{HEIC}: HEIC cannot be read: send it as JPEG."
