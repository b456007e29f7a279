"""The dice panel's status line on a Japanese screen: the source named in Japanese, and a source that cannot be
opened said in Japanese (the source's own sentence is English), by touches on the real widgets under Xvfb."""

from __future__ import annotations

import dataclasses
import re

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def test_a_source_that_cannot_be_opened_is_said_in_japanese(tmp_path):
    url = "sim://?bogus=1"
    app = d.start_app(tmp_path, source_url=url)
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang="ja"))  # as Settings' Save does
        d.new_game(app, players=3)
        play = app.root.get_screen("play")
        assert app.source_state == "error"
        assert app.source_status == f"模擬ダイスボックス：エラー（{url} は使えません。設定の「ダイスの入力」を確かめてください）"
        assert re.findall(r"[A-Za-z]{2,}", play.ids.source_status.text.replace(url, "")) == []
    finally:
        d.stop_app(app)


def test_in_english_the_source_says_what_is_wrong(tmp_path):
    app = d.start_app(tmp_path, source_url="sim://?bogus=1")
    try:
        d.new_game(app, players=3)
        assert app.source_status.startswith("simulated box: error (dice source 'sim://?bogus=1': unknown option 'bogus'")
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang,expected", [("en", "simulated box: rolling…"), ("ja", "模擬ダイスボックス：転がり中…")])
def test_a_rolling_box_is_said_rolling_once(tmp_path, lang, expected):
    """The box reports its dice rolling with its own state word "rolling": the line said it twice, "simulated box:
    rolling… (rolling)" / 「模擬ダイスボックス：転がり中…（振っています）」 (seen by taps in the demo, session 18). A detail
    that says more ("handling") still shows."""
    from companion.dice import SourceState, SourceStatus

    app = d.start_app(tmp_path, source_url="sim://")
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang=lang))
        d.new_game(app, players=3)
        app._show_status(SourceStatus(SourceState.ROLLING, "rolling", reason="box_rolling"))
        assert app.source_status == expected, app.source_status
        app._show_status(SourceStatus(SourceState.ROLLING, "handling", reason="box_handling"))
        assert app.source_status == {"en": "simulated box: rolling… (handling)",
                                     "ja": "模擬ダイスボックス：転がり中…（準備中）"}[lang], app.source_status
    finally:
        d.stop_app(app)
