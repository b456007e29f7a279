"""Options a finger can set and harbour labels an eye can read.  Kivy's check boxes were 32 px boxes whose words
took no tap (a player aiming at "No 6 next to 8" changed nothing); the new game's preview drew harbour labels
down to 8 px.  Now each option is one row, box and words, a finger's height, and a tap anywhere on it ticks or
clears it; harbour labels are at least 11 sp on every board, the preview's discs growing instead.  Real widgets
under Xvfb, taps through Kivy's input path, upright and lying down, English and Japanese."""

from __future__ import annotations

import dataclasses

import pytest
from kivy.metrics import dp, sp

from companion.ui import driver as d
from companion.ui.board_view import harbor_min_px

pytestmark = pytest.mark.timeout(180)

HIGH_TIDE_OPTIONS = ("leader_vp8", "robber_to_desert", "flood_all", "spring_tide")


def words_of(row):
    """The words of an option row (the label beside its box)."""
    return next(w for w in d.walk(row) if getattr(w, "text", "") == row.text and w is not row)


def tap_the_words(row) -> None:
    words = words_of(row)
    assert words.width > dp(40), f"the words of {row.text!r} have no room"
    d.settle()
    d.tap_at(*words.to_window(words.x + min(words.width, words.texture_size[0]) / 2, words.center_y))


def new_game_in(data_dir, size, lang):
    """The app at ``size`` in ``lang``, on its New game screen (reached by a tap)."""
    app = d.start_app(data_dir, size=size)
    try:
        if lang == "ja":
            app.apply_settings(dataclasses.replace(app.settings, lang="ja"))
            d.settle()
        d.tap(app.root.get_screen("start").ids.new_game)
    except BaseException:
        d.stop_app(app)
        raise
    return app


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_an_option_is_set_by_a_tap_on_its_words(tmp_path, size, lang):
    app = new_game_in(tmp_path, size, lang)
    try:
        ng = app.root.get_screen("new_game")
        separate = ng.ids.separate
        assert separate.active
        tap_the_words(separate)
        assert not separate.active, "a tap on 'No 6 next to 8' did not clear it"
        tap_the_words(separate)
        assert separate.active
        d.tap(ng.ids.g_high_tide)
        for key in HIGH_TIDE_OPTIONS:
            row = ng.ids[key]
            before = row.active
            tap_the_words(row)
            assert row.active is not before, f"a tap on {row.text!r} changed nothing"
            assert row.height >= dp(48) and row.width >= dp(48)
        # the options the game starts with follow the rows
        assert ("leader_vp" in ng.options()) == ng.ids.leader_vp8.active
        assert d.layout_problems(app.root) == []
        d.tap(d.find(ng, app.tr("back")))
        d.tap(app.root.get_screen("start").ids.settings)
        settings = app.root.get_screen("settings")
        voice = settings.ids.voice
        before = voice.active
        d.tap(voice)
        assert voice.active is not before
        assert voice.height >= dp(48)
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size, lang", [((800, 1280), "en"), ((800, 1280), "ja"), ((1280, 800), "ja")])
def test_harbor_labels_on_the_preview_are_readable(tmp_path, size, lang):
    app = new_game_in(tmp_path, size, lang)
    try:
        ng = app.root.get_screen("new_game")
        for game in ("g_base", "g_base56", "g_seafarers"):
            if game not in ng.ids:
                continue
            d.tap(ng.ids[game])
            d.settle()
            preview = ng.ids.preview
            labels = [(text, px) for kind, text, px in preview.texts_drawn if kind == "harbor"]
            assert len(labels) >= 9, (game, labels)
            small = [(text, px) for text, px in labels if px < harbor_min_px()]
            assert not small, f"{game}: harbour labels under {sp(11):.0f} px: {small}"
    finally:
        d.stop_app(app)
