"""After a restart, "New game, same players" deals from the finished game's seed + 1 (playtest s11: the record
kept no seed, the restarted app's form held 1, and the next board was always seed 2's).

A base game for three started by taps on the form with seed 41, played by the rules core's random legal play
(seed 4; seed 1's game ended on a development card since session 19's random play) to the winning city,
journalled without it; a new app on the same data folder resumes it from the start screen, the winning city is
built, then "New game, same players": the form holds seed 42; Start begins seed 42's board.
"""

from __future__ import annotations

import random

import pytest

from companion.record import new_game
from companion.record.journal import Journal
from companion.rules import standard_board
from companion.rules.random_play import random_events
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(240)


def test_same_players_after_a_restart_deals_from_the_finished_games_seed(tmp_path):
    app = d.start_app(tmp_path)
    try:
        ng = d.open_new_game(app, "base")
        d.tap(ng.ids.n3)
        ng.ids.seed.text = "41"
        d.tap(ng.ids.generate)
        d.tap(ng.ids.start)
        assert app.root.current == "play"
        started = app.table.record
        assert started.seed == 41 and started.board == standard_board(41, separate_red_numbers=True).to_json()
    finally:
        d.stop_app(app)

    with Journal(tmp_path / "journal.sqlite3") as stored:
        (info,) = stored.games()
        record = stored.load(info.id)
    game = new_game(record)
    record.events = list(random_events(game, random.Random(4), 20000))
    assert game.state.phase == "game_over" and record.events[-1]["type"] == "build"
    last = record.events.pop()  # the winning city: the table's
    game_id = d.journal(tmp_path, record)

    app = d.start_app(tmp_path)  # the app restarted: its form holds its own seed again
    try:
        assert app.root.get_screen("new_game").ids.seed.text != "41"
        play = d.resume(app, game_id)
        app.table.submit(last)  # as the board's tap sends it
        d.settle()
        assert app.table.game.state.phase == "game_over" and app.table.record.events[-1] == last
        assert app.table.record.seed == 41
        d.tap(d.find(play.ids.actions, app.tr("play_again")))
        assert app.root.current == "new_game"
        ng = app.root.get_screen("new_game")
        assert ng.ids.seed.text == "42", ng.ids.seed.text
        d.tap(ng.ids.start)
        assert app.root.current == "play"
        assert app.table.record.seed == 42
        assert app.table.record.board == standard_board(42, separate_red_numbers=True).to_json()
    finally:
        d.stop_app(app)
