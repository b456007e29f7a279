"""The prompt says what an armed build does: with Road (or Ship) down it reads "Aki: tap a green side for the
road" (ship), and back to the turn's prompt when the button is released.

Seen by touch (playtest s9 for Road, s10 for Ship at 1280x800): the prompt stayed "Aki: tap a side or corner to
build, trade, or end the turn" while a piece was armed, so the tap that armed it was not confirmed.  Real widgets
under Xvfb, taps through Kivy's input path."""

from __future__ import annotations

import pytest

from companion.ui import driver as d
from test_ui_actions import journal_game
from test_ui_ship_move import quiet_number, roll_by_taps, seafarers_with_ships

pytestmark = pytest.mark.timeout(180)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_road_armed_says_so(tmp_path, lang):
    game_id = journal_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        idle = play.prompt
        assert idle.startswith("Aki"), idle
        road = d.find(play.ids.actions, app.tr("road"))
        d.tap(road)
        assert play.ids.board.pick == "edge"
        expected = {"en": "Aki: tap a green side for the road", "ja": "Aki：道を置く緑の辺をタップ"}[lang]
        assert play.prompt == expected, play.prompt
        d.tap(d.find(play.ids.actions, app.tr("road")))  # released: the turn's prompt again
        assert play.ids.board.pick == "build" and play.prompt == idle, play.prompt
    finally:
        d.stop_app(app)


def test_ship_armed_says_so(tmp_path):
    app = d.start_app(tmp_path, size=(1280, 800))
    try:
        play = seafarers_with_ships(app)
        game = app.table.game
        roll_by_taps(app, play, quiet_number(game))
        app.table.submit({"type": "set_hand", "player": 0, "cards": {"lumber": 2, "wool": 2}})  # a ship's cost
        app.changed()
        d.settle()
        assert game.state.phase == "main"
        d.tap(d.find(play.ids.actions, "Ship"))
        assert play.ids.board.pick == "edge" and play.ids.board.legal == frozenset(game.legal_ship_spots(0))
        assert play.prompt == "Aki: tap a green side for the ship", play.prompt
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang,size", [("en", (1280, 800)), ("ja", (800, 1280))])
def test_dike_armed_says_so(tmp_path, lang, size):
    """High Tide's dike round: with Dike down the board rings the land hexes a dike may go on, and the prompt
    says so (it kept "Aki: tap a side or corner to build, trade, or end the turn", which a tap on a hex is not;
    seen by taps upright in Japanese, session 18)."""
    from test_ui_high_tide import aki_dike_round, first_moment, journal_upto

    game_id = journal_upto(tmp_path, first_moment(aki_dike_round))  # the bundled High Tide game's dike round, Aki to build
    app = d.start_app(tmp_path, size=size)
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        game = app.table.game
        assert game.state.phase == "main" and game.waiting_for() == 0 and game.tide.phase == "dike_round"
        idle = play.prompt
        dike = d.find(play.ids.actions, app.tr("dike"), startswith=True)
        d.tap(dike)
        assert play.ids.board.pick == "hex" and play.ids.board.legal == frozenset(game.legal_dike_spots(0))
        expected = {"en": "Aki: tap a ringed land hex for the dike", "ja": "Aki：堤防を置く丸印の陸地ヘクスをタップ"}[lang]
        assert play.prompt == expected, play.prompt
        d.tap(d.find(play.ids.actions, app.tr("dike"), startswith=True))  # released: the turn's prompt again
        assert play.ids.board.pick == "build" and play.prompt == idle, play.prompt
    finally:
        d.stop_app(app)
