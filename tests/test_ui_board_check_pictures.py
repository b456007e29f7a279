"""Play's "Check the board" with the photo tapped in the tablet's pictures (the list Scan the board shows,
picture_chooser.py), by touches on the real app: a real Pictures folder (platformdirs' XDG_PICTURES_DIR) holding
CatanAI's test4/test5 photo (never trained on; its 54 pieces labelled in tests/data/pieces) as the photo just
taken, an older photo of another board, and a file named .jpg that is no picture.  The game holds every labelled
piece but a red road: Check board, the newest picture, Add -- three taps, no path typed."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from companion.ui import driver as d
from labelled_pieces_game import record_of_the_labelled_board
from pictures_folder import pictures_folder
from tests.test_ui_board_check import PHOTOS, ROAD, SCREENS, assert_only_the_road_is_sure
from tests.test_ui_board_scan_pictures import lines_opening_with_punctuation

pytestmark = pytest.mark.timeout(300)

NEWEST = "IMG_20261127_193000.jpg"  # test4_1: the game's board, red's road on it
OLDER = "IMG_20261120_200000.jpg"   # testimg3: another board


@pytest.fixture
def pictures(tmp_path, monkeypatch):
    """A tablet's Pictures folder: the photo just taken, a file named .jpg that is no picture, an older photo."""
    return pictures_folder(tmp_path, monkeypatch, {
        NEWEST: (PHOTOS / "test4_1.jpg", 0), "board-notes.jpg": ("not a photo: the scores of last week", 2),
        OLDER: (PHOTOS / "testimg3.jpg", 7)})


def names(chooser) -> list[str]:
    return [row.name for row in chooser.rows()]


def wait_read(check) -> None:
    assert d.wait_until(lambda: not check.reading, timeout=180), "the photo is still being read"
    d.settle()


def test_the_newest_picture_tapped_is_checked_and_its_road_added(tmp_path, pictures):
    record, game = record_of_the_labelled_board(without=ROAD)
    app, check = d.open_board_check(tmp_path, record)  # tap 1: Check board
    try:
        events = len(app.table.record.events)
        chooser = check.ids.chooser
        # Nothing read yet: the pictures in the photo's place, the newest on top, rows a finger can hit.
        assert check.choosing and chooser.shown and Path(chooser.path) == pictures
        expected = ["Up a folder  (" + pictures.parent.name + ")", NEWEST, "board-notes.jpg", OLDER]
        assert d.wait_until(lambda: names(chooser) == expected, timeout=30), names(chooser)
        assert check.message == "Tap the photo of the board (newest first), or Camera."
        assert check.ids.pictures.disabled  # nothing read to go back to
        assert all(row.height >= 48 for row in chooser.rows())
        assert d.layout_problems(app.root) == []

        # A file named .jpg that is no picture: the reader's refusal, naming it; nothing read, nothing listed.
        d.tap(chooser.rows()[2])
        wait_read(check)
        assert "board-notes.jpg: not a readable image" in check.message, check.message
        assert check.scan is None and check.choosing and not check.ids.differences.children
        assert len(app.table.record.events) == events

        # The photo just taken, one tap (tap 2): read, its pieces marked in the list's place, red's road sure.
        d.tap(chooser.rows()[1])
        wait_read(check)
        assert check.scan is not None, check.message
        assert not check.choosing and not chooser.shown and check.ids.picture.texture is not None
        assert check.ids.path.text == str(pictures / NEWEST)
        assert_only_the_road_is_sure(check, "Not sure: ")
        assert len(app.table.record.events) == events, "something was recorded without a tap"
        assert d.layout_problems(app.root) == []

        # Add (tap 3): red's road recorded as a tap on the board records it.
        road = next(row for row in check.ids.differences.children if row.difference.at == ROAD)
        d.tap(road.action)
        assert app.table.game.state.pieces.get(ROAD) == (0, "road"), check.message
        assert app.table.record.events[-1] == {"type": "build", "player": 0, "piece": "road",
                                               "at": [list(h) for h in ROAD]}
        assert check.message.startswith("Recorded: a red road on the side between the "), check.message

        # "Pictures" shows the list again (the photo read one tap away); a path typed still reads: the older
        # photo's board is not the game's, said; nothing recorded.
        d.tap(check.ids.pictures)
        assert check.choosing and check.ids.pictures.text == "The photo read"
        d.tap(check.ids.pictures)
        assert not check.choosing and check.scan is not None
        d.tap(check.ids.pictures)
        assert d.wait_until(lambda: names(chooser) == expected, timeout=30), names(chooser)
        events = len(app.table.record.events)
        check.ids.path.text = str(pictures / OLDER)
        d.tap(check.ids.read_file)
        wait_read(check)
        assert check.message.startswith("This photo's board is not the game's board: only "), check.message
        assert not check.ids.differences.children and len(app.table.record.events) == events
    finally:
        d.stop_app(app)
    assert not [t for t in threading.enumerate() if t.name in ("picture-thumbnails", "board-check")]


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((1280, 800), "ja"), ((800, 1280), "en"),
                                        ((800, 1280), "ja")],
                         ids=["landscape-en", "landscape-ja", "portrait-en", "portrait-ja"])
def test_the_pictures_fit_lying_down_and_upright(tmp_path, pictures, size, lang):
    # The pictures in the photo's place, the path row under them, the panel beside (upright: under) them: every
    # control whole and finger-sized, no text cut or past its box, no word or phrase broken, no Japanese line
    # begun with 。 or 、 (the title and help were one markup label, which Kivy breaks anywhere).
    record, game = record_of_the_labelled_board(without=ROAD)
    app, check = d.open_board_check(tmp_path, record, size=size, lang=lang)
    try:
        chooser = check.ids.chooser
        assert d.wait_until(lambda: len(chooser.rows()) == 4, timeout=30), names(chooser)
        assert d.wait_until(lambda: chooser.rows()[1].thumb is not None, timeout=60)
        d.settle()
        orientation = "landscape" if size[0] > size[1] else "portrait"
        d.screenshot(SCREENS / f"board-check-pictures-{orientation}-{lang}.png")
        assert d.layout_problems(app.root) == []
        assert lines_opening_with_punctuation(app.root) == []
        assert chooser.rows()[1].name == NEWEST and chooser.rows()[1].height >= 48
    finally:
        d.stop_app(app)
