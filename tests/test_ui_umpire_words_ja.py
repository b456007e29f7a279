"""One word per thing in Japanese: the base game's road is 道 on its build button (seed 000 says 道), and the
umpire's "remove a road or ship" said 街道・船 (the card game's word).  Seen in the upright Japanese playtest.
Real widgets under Xvfb, by taps."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def test_the_umpire_names_the_road_as_the_build_button_does(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        d.tap(app.root.get_screen("start").ids.settings)
        d.tap(app.root.get_screen("settings").ids.lang_ja)
        d.tap(app.root.get_screen("settings").ids.save)
        d.new_game(app, 4)
        d.place_setup(app)
        play = app.root.get_screen("play")
        d.tap_dice(play, 8)
        d.settle()
        assert any(t.startswith("道") for t in d.screen_texts(play.ids.actions))  # the build button
        d.tap(d.find(play, "審判"))
        texts = d.screen_texts(play)
        assert "道・船" in texts, texts
        assert not [t for t in texts if "街道" in t]
    finally:
        d.stop_app(app)
