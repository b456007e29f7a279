"""A build button that cannot be used says why under its name, and its name stays whole.

Seen by touch under Xvfb (High Tide, 1280x800, after a 7): six builds stand in one row of the panel (Road,
Settlement, City, Ship, Dike, Move ship), and "Settlement" over "can't pay" was cut "Settlemen / t": the name
and its reason are markup, which the buttons' shrink-to-fit skipped (and the layout check did not read).  Real
widgets under Xvfb; the set-up recorded (seeded), the roll tapped."""

from __future__ import annotations

import pytest

from companion.ui import driver as d
from companion.ui.wrapping import broken_words

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("game_name, size, lang", [("high_tide", (1280, 800), "en"), ("seafarers", (1280, 800), "ja"),
                                                   ("high_tide", (800, 1280), "ja"), ("base", (1280, 800), "ja"),
                                                   ("high_tide", (1280, 800), "ja")])
def test_every_build_button_shows_its_name_whole(tmp_path, game_name, size, lang):
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        d.new_game(app, 4, game_name)
        d.submit_seeded_setup(app, 7)
        play = app.root.get_screen("play")
        game = app.table.game
        d.tap_dice(play, 6)
        assert d.wait_until(lambda: game.state.phase == "main")
        d.settle()
        builds = [w for w in d.walk(play.ids.actions) if getattr(w, "group", None) == "build"]
        assert len(builds) >= 3, [b.text for b in builds]
        assert any("\n" in b.text for b in builds), "no build says why it cannot be used: the premise is gone"
        for b in builds:
            assert broken_words(b) == [], (b.text, b.width, b.font_size)
            assert b.texture_size[0] <= b.width + 2, (b.text, b.texture_size, b.width)
        # every button of the panel in Japanese: a name over its reason is broken between phrases, not cut
        # ("カードを使|う" over "カードなし" in the 4-player landscape panel)
        buttons = [w for w in d.walk(play.ids.actions) if hasattr(w, "trigger_action") and w.markup and w.width]
        cuts = {b.text: broken_words(b, japanese_in_markup=True) for b in buttons}
        assert not any(cuts.values()), cuts
        assert d.layout_problems(play) == []
    finally:
        d.stop_app(app)


def test_play_card_in_japanese_breaks_between_phrases(tmp_path):
    """「カードを使う」 (a card held from the turn before) is markup: Kivy lays it out itself and cut it
    「カードを使|う」 in the 1280x800 panel; its lines are now broken between phrases as every other button's."""
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=(1280, 800))
    try:
        app.lang = "ja"
        play = d.resume(app, game_id)
        d.settle()
        button = d.find(play.ids.actions, app.tr("play_card"), startswith=True)
        assert button.markup
        assert broken_words(button, japanese_in_markup=True) == [], (button._label.text, button.width)
        assert button.texture_size[0] <= button.width + 2 and button.texture_size[1] <= button.height + 2
    finally:
        d.stop_app(app)
