"""The card game in Japanese names its cards with the rules' own words (seed 001, the card game's rules page):
都市拡充 (city improvement), 議事堂 (its 4-point town hall) and 市場の日 (the city's market day).  The screen
said 都市拡張, 市庁舎 and 市の日, and the voice already says 市場の日 (playtest s10, upright Japanese).
Real widgets under Xvfb, by taps."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(150)


def test_the_card_games_builds_use_the_rules_words(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        d.tap(app.root.get_screen("start").ids.settings)
        d.tap(app.root.get_screen("settings").ids.lang_ja)
        d.tap(app.root.get_screen("settings").ids.save)
        d.new_game(app, 2, "card-game")
        screen = app.root.get_screen(app.root.current)
        d.settle()
        texts = d.screen_texts(screen)
        for word in ("都市：市場の日", "都市拡充：教会", "都市拡充：議事堂"):
            assert word in texts, (word, texts)
        assert any("拡充5" in t for t in texts), texts  # the decks line: 5 improvements left
        assert not [t for t in texts if "拡張" in t or "市庁舎" in t or "市の日" in t], texts
    finally:
        d.stop_app(app)
