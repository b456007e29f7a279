"""The new-game screen says what the app keeps for a game without a hex board, where the board would be.

Playtest s10 (1280x800, English): Starfarers chosen, half the screen was empty. In the game, the strip said
"ships 1" and no ship was on the map, since the ships fly on the real board and the app is only told what they did.
Nothing had said so.  The card game's hands, likewise, stay unseen.  Real widgets under Xvfb, by taps."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(150)


def window_box(w) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = w.to_window(w.right, w.top)
    return x0, y0, x1, y1


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "upright-ja"])
def test_the_games_without_a_board_say_what_the_app_keeps(tmp_path, size, lang):
    app = d.start_app(tmp_path, size=size)
    try:
        if lang == "ja":
            d.tap(app.root.get_screen("start").ids.settings)
            d.tap(app.root.get_screen("settings").ids.lang_ja)
            d.tap(app.root.get_screen("settings").ids.save)
        ng = d.open_new_game(app, "starfarers")
        d.settle()
        about = ng.ids.about
        said = {"en": "The ships fly on the real board", "ja": "宇宙船は実際のボードで飛ばします"}[lang]
        assert said in about.text and about.opacity == 1
        x0, y0, x1, y1 = window_box(about)
        assert x0 >= 0 and y0 >= 0 and x1 <= size[0] and y1 <= size[1] and y1 - y0 > 100 and x1 - x0 > 300
        assert d.layout_problems(app.root) == []
        d.tap(ng.ids.g_card_game)
        d.settle()
        said = {"en": "the resource cards stay in your hands", "ja": "資源カードは各自の手札のまま"}[lang]
        assert said in about.text and about.opacity == 1
        assert d.layout_problems(app.root) == []
        d.tap(ng.ids.g_seafarers)  # a hex board again: its preview, no words in its place
        d.settle()
        assert about.opacity == 0 and about.height == 0 and ng.ids.preview.height > 200
        assert ng.ids.preview.board is not None
    finally:
        d.stop_app(app)
