"""docs/screens shows the screen as a user sees it: the picture ``driver.screenshot`` writes is read back and its
pixels compared with what the widgets draw there (the screen's background, a button's face, a heading's text).

Frames in the tests are kept in the back buffer unpresented; read straight after a draw, Xvfb's software
rasteriser left a black or half-painted picture there (docs/screens came out garbled).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[1]
BACKGROUND = (18, 20, 26)  # the screens' opaque background, rgba 0.07, 0.08, 0.1 in companion.kv


def pixel(image, widget, dx: float = 0, dy: float = 0) -> tuple[int, int, int]:
    """The picture's colour at the widget's centre (moved by dx, dy window pixels), 0-255 per channel."""
    x, y = widget.to_window(*widget.center)
    x, y = int(x + dx), int(y + dy)
    r, g, b, *_ = image.read_pixel(x, image.height - 1 - y)  # the picture's rows run top-down
    return round(r * 255), round(g * 255), round(b * 255)


def near(a, b, tolerance: int = 3) -> bool:
    return all(abs(p - q) <= tolerance for p, q in zip(a, b))


def read_back(path):
    from kivy.core.image import Image as CoreImage

    return CoreImage(str(path), keep_data=True)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_a_screenshot_is_the_screen_a_user_sees(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        start = app.root.get_screen("start")
        for turn in range(2):  # a second picture, after more frames have gone by unpresented
            image = read_back(d.screenshot(tmp_path / f"start-{turn}.png"))
            assert (image.width, image.height) == size
            button = start.ids.new_game
            face = pixel(image, button, dx=-button.width / 2 + 6)  # the button's face, left of its words
            beside = pixel(image, button, dy=-button.height / 2 - 4)  # the screen just below the button
            assert near(beside, BACKGROUND), f"below New game: {beside}, not the screen's background"
            assert not near(face, BACKGROUND) and not near(face, (0, 0, 0)), f"New game's face: {face}"
            # the heading's words are drawn: light pixels along its middle row
            heading = start.children[0].children[-1]
            row = [pixel(image, heading, dx=dx) for dx in range(-int(heading.width / 2) + 2, int(heading.width / 2) - 2, 2)]
            assert sum(1 for p in row if min(p) > 150) >= 5, "the app's title is not in the picture"
            d.pump(5)
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang, size", [("en", (1280, 800)), ("ja", (800, 1280))])
def test_pictures_of_the_start_screen_after_a_journal_it_could_not_open(tmp_path, lang, size):
    """docs/screens/start-damaged-journal-*.png (docs/app.md): a newer companion's journal kept aside, its games
    carried over and offered to resume, the notice in the app's language."""
    import json

    from test_ui_damaged_journal import _make

    _make(tmp_path / "journal.sqlite3", "newer")
    (tmp_path / "settings.json").write_text(json.dumps({"lang": lang}))
    app = d.start_app(tmp_path, size=size)
    try:
        start = app.root.get_screen("start")
        notice = "The game journal could not be opened" if lang == "en" else "ゲームの記録ファイルを開けなかった"
        d.find_label(start, notice)
        shot = d.screenshot(ROOT / "docs" / "screens" / f"start-damaged-journal-{lang}.png")
        assert read_back(shot).width == size[0]
    finally:
        d.stop_app(app)
