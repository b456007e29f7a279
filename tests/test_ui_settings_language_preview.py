"""Settings speaks the language tapped at once; Back keeps the saved one, Save keeps the new one.

Tried by touch on a first evening (800x1280): a tap on 日本語 left every word of Settings in English until Save,
so the player looking for Japanese saw nothing happen. Real widgets under Xvfb, taps as a user taps."""

from __future__ import annotations

import pytest

from companion.ui import driver as d
from companion.ui.settings import Settings

pytestmark = pytest.mark.timeout(120)


def words(screen) -> set[str]:
    return set(d.screen_texts(screen))


def test_a_tapped_language_shows_at_once_and_back_keeps_the_saved_one(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        start = app.root.get_screen("start")
        d.tap(start.ids.settings)
        settings = app.root.get_screen("settings")
        assert {"Settings", "Language", "Save"} <= words(settings)
        d.tap(settings.ids.lang_ja)
        d.settle()
        assert {"設定", "言語", "保存"} <= words(settings), sorted(words(settings))
        assert settings.ids.source.text == app.tr("source_manual", "ja")  # the dice source's own words too
        assert Settings.load(tmp_path).lang == "en"  # shown, not saved
        d.tap(settings.ids.lang_en)
        d.settle()
        assert {"Settings", "Language", "Save"} <= words(settings)
        d.tap(settings.ids.lang_ja)
        d.tap(find_back(settings))  # changed their mind: the app stays as it was
        d.settle()
        assert app.root.current == "start" and app.lang == "en"
        assert "New game" in words(start)
        d.tap(start.ids.settings)
        assert settings.ids.lang_en.state == "down" and settings.ids.lang_ja.state == "normal"
        assert "Settings" in words(settings)
        d.tap(settings.ids.lang_ja)
        d.tap(settings.ids.save)
        d.settle()
        assert app.root.current == "start" and app.lang == "ja"
        assert "新しいゲーム" in words(start)
        assert Settings.load(tmp_path).lang == "ja"
    finally:
        d.stop_app(app)


def test_a_language_tried_during_a_game_and_not_saved_leaves_the_game_in_its_language(tmp_path):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        prompt = play.prompt
        d.tap(d.find(play, app.tr("menu")))
        d.tap(app.root.get_screen("start").ids.settings)
        settings = app.root.get_screen("settings")
        assert app.root.current == "settings"
        d.tap(settings.ids.lang_ja)
        d.settle()
        assert "設定" in words(settings)
        d.tap(find_back(settings))
        d.settle()
        assert app.root.current == "start" and app.lang == "en"
        play = d.resume(app, game_id)
        assert play.prompt == prompt, play.prompt
        assert "End turn" in words(play)
    finally:
        d.stop_app(app)


def find_back(settings):
    return d.find(settings, app_tr("back"))


def app_tr(key: str) -> str:
    from kivy.app import App

    return App.get_running_app().tr(key)
