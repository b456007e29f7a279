"""The start screen keeps the last finished games: who won, the final points, and (tapped) the game's end again with
"New game, same players".

A game played to its end left the resume list and nothing else on the start screen: the next evening the same
table chose the game and typed every name again, and "who won last time?" had no answer short of the journal's
command line. The game is the bundled High Tide example, journalled before its last event and ended by a tap, as
a table ends it; the app is then started again on the same journal, as the next evening starts it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.record import load_record
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(150)
EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-high-tide.json"
TABLE = [{"name": "Haruka", "color": "orange"}, {"name": "Sota", "color": "red"}, {"name": "Mio", "color": "white"}]
WORDS = {"en": ("Finished games", "{name} won"), "ja": ("終わったゲーム", "{name}の勝ち")}


def finished_rows(start) -> list:
    return [w for w in d.walk(start) if getattr(w, "finished_game", None) is not None]


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_a_finished_game_is_on_the_start_screen_and_opens_at_its_end(tmp_path, size, lang):
    record = load_record(EXAMPLE)
    record.events = record.events[:-1]  # the leader's last End turn is the table's tap
    record.players = [dict(p) for p in TABLE]
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    try:
        if lang != "en":
            app.apply_settings(replace(app.settings, lang=lang))
            d.settle()
        start = app.root.get_screen("start")
        assert finished_rows(start) == []  # not finished yet: on the resume list only
        play = d.resume(app, game_id)
        d.tap(play.ids.end_turn)
        game = app.table.game
        assert game.state.phase == "game_over"
        winner = TABLE[game.state.winner]["name"]
        points = [game.victory_points(p) for p in range(len(TABLE))]
    finally:
        d.stop_app(app)

    app = d.start_app(tmp_path, size=size)  # the next evening
    try:
        start = app.root.get_screen("start")
        d.settle()
        heading, won = WORDS[lang]
        assert heading in d.screen_texts(start)
        (row,) = finished_rows(start)
        assert row.finished_game == game_id
        assert won.format(name=winner) in row.text, row.text
        listed = ("、" if lang == "ja" else ", ").join(f"{seat['name']} {vp}" for seat, vp in zip(TABLE, points))
        assert listed in row.text, row.text  # as the language lists (「Haruka 10、Sota 8」, not 「…, …」)
        assert not d.layout_problems(start), d.layout_problems(start)
        d.tap(row)
        play = app.root.get_screen("play")
        assert app.root.current == "play" and app.table.game.state.phase == "game_over"
        d.tap(d.find(play.ids.actions, app.tr("play_again")))
        ng = app.root.get_screen("new_game")
        assert app.root.current == "new_game" and ng.ids.n3.state == "down"
    finally:
        d.stop_app(app)
