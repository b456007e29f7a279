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
