"""The pictures' list of "Scan the board" on a phone's camera folder, by touches on the real app: hundreds of
photos (real small JPEG files, as a camera names and dates them) and an iPhone's HEIC photos sent over.  The
newest pictures come first, a screen's worth of rows at once; the list's end scrolled into sight, or "More
pictures (N older)" tapped, adds the next ones under them; a small picture is made only for a row shown.  A HEIC
photo is listed with what to do ("HEIC cannot be read: send it as JPEG", in the player's language); a tap on it
says so and reads nothing."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.ui import driver as d
from companion.ui.picture_chooser import FIRST_PAGE, PAGE
from pictures_folder import DAY, NOW, pictures_folder

pytestmark = pytest.mark.timeout(300)

PHOTOS = 200


@pytest.fixture
def camera_folder(tmp_path, monkeypatch):
    """A Pictures folder with PHOTOS small JPEGs one minute apart (IMG_..._000000.jpg the newest), two HEIC photos
    (5.5 minutes old, on the first page, and a day old, the oldest) and a folder."""
    folder = pictures_folder(tmp_path, monkeypatch, {
        "IMG_4001.HEIC": ("an iPhone's photo (HEIF)", 330 / DAY), "IMG_4000.heic": ("an iPhone's photo (HEIF)", 1.0)},
        folders=("Screenshots",))
    rng = np.random.default_rng(0)
    picture = cv2.GaussianBlur(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), (9, 9), 0)
    data = cv2.imencode(".jpg", picture)[1].tobytes()
    for n in range(PHOTOS):
        path = folder / f"IMG_20261118_{n:06d}.jpg"
        path.write_bytes(data)
        os.utime(path, (NOW - n * 60 - 60, NOW - n * 60 - 60))  # the newest a minute old, then one a minute
    return folder


def pictures_shown(chooser) -> list[str]:
    return [row.name for row in chooser.rows() if not row.isdir and not row.more]


def newest(n: int) -> list[str]:
    """The ``n`` newest names of the folder: the JPEGs a minute to ~3 hours old, a HEIC 5.5 minutes old among them,
    the other a day old (after all 200)."""
    names = [f"IMG_20261118_{k:06d}.jpg" for k in range(PHOTOS)]
    names.insert(5, "IMG_4001.HEIC")
    names.append("IMG_4000.heic")
    return names[:n]


def test_a_camera_folder_is_paged_newest_first_and_heic_is_said(tmp_path, camera_folder):
    app = d.start_app(tmp_path)
    try:
        editor = d.open_board_editor(app)
        d.tap(editor.ids.scan)
        screen = app.root.get_screen("board_scan")
        chooser = screen.ids.chooser
        total = PHOTOS + 2

        # The first screen: the folder, the FIRST_PAGE newest pictures, and the row that adds older ones.
        assert d.wait_until(lambda: chooser.rows() and chooser.rows()[-1].more, timeout=60), pictures_shown(chooser)
        d.settle()
        assert pictures_shown(chooser) == newest(FIRST_PAGE)
        assert [row.name for row in chooser.rows()][1] == "Screenshots/"
        more = chooser.rows()[-1]
        assert more.name == f"More pictures ({total - FIRST_PAGE:,} older)" and more.height >= 48
        # small pictures only for the rows shown (the others are not decoded)
        assert d.wait_until(lambda: all(row.thumb is not None for row in chooser.rows()
                                        if not row.isdir and not row.more and row.name.endswith(".jpg")), timeout=60)
        assert {Path(path).name for path, _ in chooser.thumbnails._made} <= set(newest(FIRST_PAGE))

        # The list's end scrolled into sight: the next PAGE added under them, the More row under those.
        chooser.ids.scroll.scroll_y = 0
        assert d.wait_until(lambda: chooser._adding is None and chooser.rows()[-1].more, timeout=120)
        assert pictures_shown(chooser) == newest(FIRST_PAGE + PAGE)
        assert chooser.rows()[-1].name == f"More pictures ({total - FIRST_PAGE - PAGE:,} older)"
        # "More pictures" tapped: the next PAGE, by a finger
        d.settle()
        d.tap(chooser.rows()[-1])
        assert d.wait_until(lambda: chooser._adding is None and len(pictures_shown(chooser)) > FIRST_PAGE + PAGE,
                            timeout=120)
        assert pictures_shown(chooser) == newest(FIRST_PAGE + 2 * PAGE)

        # A HEIC photo: listed with what to do; a tap says it and reads nothing.
        heic = next(row for row in chooser.rows() if row.name == "IMG_4001.HEIC")
        assert heic.detail == "HEIC cannot be read: send it as JPEG" and heic.thumb is None
        chooser.ids.scroll.scroll_to(heic, padding=0, animate=False)
        d.settle()
        d.tap(heic)
        assert screen.message == "IMG_4001.HEIC: HEIC cannot be read: send it as JPEG.", screen.message
        assert not screen.reading and screen.scan is None and screen.choosing
        # in Japanese too (the list made afresh in the player's language)
        app.lang = "ja"
        d.tap(screen.ids.back)
        d.tap(editor.ids.scan)
        assert d.wait_until(lambda: chooser.rows() and chooser.rows()[-1].more, timeout=60)
        d.settle()
        heic = next(row for row in chooser.rows() if row.name == "IMG_4001.HEIC")
        assert heic.detail == "HEIC形式は読めません。JPEGで送ってください"
        assert chooser.rows()[-1].name == f"さらに表示（古い写真あと{total - FIRST_PAGE}枚）"
        chooser.ids.scroll.scroll_to(heic, padding=0, animate=False)
        d.settle()
        d.tap(heic)
        assert screen.message == "IMG_4001.HEIC：HEIC形式は読めません。JPEGで送ってください。", screen.message
        assert screen.scan is None and d.layout_problems(app.root) == []

        # An older picture, from a page added later, is read as any other (this one shows no board).
        app.lang = "en"
        chooser.ids.scroll.scroll_y = 0
        assert d.wait_until(lambda: chooser._adding is None and len(pictures_shown(chooser)) > FIRST_PAGE, timeout=120)
        d.settle()
        row = chooser.rows()[-2]
        d.tap(row)
        assert d.wait_until(lambda: not screen.reading, timeout=60)
        assert screen.message.startswith(f"No board found in {row.name}"), screen.message
    finally:
        d.stop_app(app)
    assert not [t for t in __import__("threading").enumerate() if t.name == "picture-thumbnails" and t.is_alive()]
