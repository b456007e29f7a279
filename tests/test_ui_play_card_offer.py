"""Play card (and the knight before the roll) say why when no development card can be played now.  They were
offered to a player holding no card, opened a panel, and its OK was refused.  Now the button says "no card" (or
"bought this turn", "one played") and a tap says the rules' whole sentence, opening nothing; with a card from an
earlier turn the panel opens as before.  Real widgets under Xvfb, taps through Kivy's input path."""

from __future__ import annotations

import pytest

from companion.ui import driver as d
from companion.ui.refusals_text import app_describe

pytestmark = pytest.mark.timeout(180)

BUY = {"ore": 1, "grain": 1, "wool": 1}
ROUND = [{"type": "end_turn"}, {"type": "roll", "dice": [1, 1]}, {"type": "end_turn"},
         {"type": "roll", "dice": [1, 1]}, {"type": "end_turn"}]


def journal_game(data_dir, events) -> int:
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    record.events += events
    return d.journal(data_dir, record)


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_play_card_says_why_no_card_can_be_played(tmp_path, size, lang):
    game_id = journal_game(tmp_path, [{"type": "set_hand", "player": 0, "cards": BUY},
                                      {"type": "roll", "dice": [1, 1]}])
    app = d.start_app(tmp_path, size=size)
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        game = app.table.game
        assert game.state.phase == "main" and game.state.players[0].dev_count == 0
        button = d.find(play.ids.actions, app.tr("play_card"), startswith=True)
        assert app.tr("why_short_dev_none_to_play") in button.text, button.text
        d.tap(button)
        assert play.selection.get("mode") is None, "a panel opened for a player with no card"
        assert play.message == app.tr("illegal", why=app_describe(game.play_problem(0))), play.message
        # a card bought now cannot be played this turn: the button says so
        d.tap(d.find(play.ids.actions, app.tr("dev_card"), startswith=True))
        assert game.state.players[0].dev_count == 1
        button = d.find(play.ids.actions, app.tr("play_card"), startswith=True)
        assert app.tr("why_short_dev_all_new") in button.text, button.text
        d.tap(button)
        assert play.selection.get("mode") is None
        # before the next roll of Aki's, the knight says why too (the card may be one: benefit of the doubt)
        for event in ROUND:
            app.table.submit(event)
        app.changed()
        d.settle()
        assert game.state.phase == "roll" and game.state.turn_player == 0
        knight = d.find(play.ids.actions, app.tr("knight"), startswith=False)  # usable: no reason under it
        assert knight.text == app.tr("knight")
        d.tap_dice(play, 2)
        button = d.find(play.ids.actions, app.tr("play_card"), startswith=False)
        assert button.text == app.tr("play_card")
        d.tap(button)
        assert play.selection.get("mode") == "play", "a card from an earlier turn: the panel opens"
    finally:
        d.stop_app(app)


def test_the_knight_before_the_roll_says_why(tmp_path):
    game_id = journal_game(tmp_path, [])
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        assert game.state.phase == "roll"
        knight = d.find(play.ids.actions, app.tr("knight"), startswith=True)
        assert app.tr("why_short_dev_none") in knight.text, knight.text
        events = len(app.table.record.events)
        d.tap(knight)
        assert len(app.table.record.events) == events and not play.refused
        assert play.message.startswith(app.tr("illegal", why="")), play.message
    finally:
        d.stop_app(app)
