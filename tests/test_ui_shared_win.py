"""A shared win on the game-over screen: High Tide for three ends with Aki and Ben on 8 VP and 6 cards each
(random legal play, seed 81 since session 19: test_high_tide_shared_win.py), so seed 002's rule -- most VP, a tie to the most
resource cards -- names neither.  The heading said "Game over — Aki wins" over two "1." lines (playtest s11); it
now says they share the win, and the ranking keeps both in first place; the next evening the start screen's
finished game says "Aki and Ben shared the win" (it said "Aki won").  Lying down in English, upright in
Japanese; the game journalled before the leader's last End turn, resumed from the start screen, ended by a tap.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from companion.ui import driver as d
from test_high_tide_shared_win import shared_win_record

pytestmark = pytest.mark.timeout(240)


@pytest.mark.parametrize("size, lang, heading, first", [
    ((1280, 800), "en", "Game over — Aki and Ben share the win", ("1. Aki — 8 VP (6 cards)", "1. Ben — 8 VP (6 cards)")),
    ((800, 1280), "ja", "ゲーム終了 — AkiとBenの同点勝ち", ("1. Aki — 8 点（手札6枚）", "1. Ben — 8 点（手札6枚）"))])
def test_players_level_on_points_and_cards_share_the_win_on_the_screen(tmp_path, size, lang, heading, first):
    record, _game = shared_win_record()
    last = record.events.pop()
    assert last["type"] == "end_turn"
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    try:
        if lang != "en":
            app.apply_settings(replace(app.settings, lang=lang))
            d.settle()
        play = d.resume(app, game_id)
        d.tap(play.ids.end_turn)
        assert app.table.game.state.phase == "game_over" and app.table.record.events[-1] == last
        d.settle()
        assert play.prompt == heading
        ranking = d.find_label(play.ids.actions, app.tr("ranking")).text.splitlines()[1:]
        assert tuple(ranking[:2]) == first and ranking[2].startswith("3. Chie")
        assert d.layout_problems(app.root) == []
        d.screenshot(tmp_path / f"shared-win-{lang}.png")
    finally:
        d.stop_app(app)

    app = d.start_app(tmp_path, size=size)  # the next evening: the finished game on the start screen
    try:
        start = app.root.get_screen("start")
        d.settle()
        (row,) = [w for w in d.walk(start) if getattr(w, "finished_game", None) == game_id]
        said = {"en": "Aki and Ben shared the win", "ja": "AkiとBenの同点勝ち"}[lang]
        assert said in row.text and "Aki won" not in row.text and "Akiの勝ち" not in row.text, row.text
        d.screenshot(tmp_path / f"shared-win-start-{lang}.png")
    finally:
        d.stop_app(app)
