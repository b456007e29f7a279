"""A trade with a player, upright and lying down, at 4, 5 and 6 players (Base 5-6), in English and Japanese: the
partners, every counter of both sides and OK are in sight at once, each tapped where it is drawn, no drag.

Seen by real taps (session 10, Base 5-6 for 6 upright, Japanese): Trade -> Chie opened Give with four rows in
sight, and Get and OK were a drag each below: 5 taps and 2 drags.  The panel is now a cell per resource holding
both sides' counters (choices.CounterGrid), brought into sight when it opens.  Real widgets under Xvfb, the game
resumed from the start screen and the panel tapped through Kivy's input path."""

from __future__ import annotations

import pytest

from companion.ui import driver as d
from test_ui_panel_opens_in_sight import panel_rows, tap_in_sight, visible, whole
from test_ui_payouts_in_sight import journal_rolled_game

pytestmark = pytest.mark.timeout(240)


@pytest.mark.parametrize("size,players,lang", [((800, 1280), 6, "ja"), ((800, 1280), 6, "en"),
                                               ((800, 1280), 5, "en"), ((800, 1280), 4, "ja"),
                                               ((1280, 800), 6, "ja")])
def test_a_trade_with_the_last_player_needs_no_drag(tmp_path, size, players, lang):
    game_id = journal_rolled_game(tmp_path, players)
    app = d.start_app(tmp_path, size=size)
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        scroller = play.ids.actions.parent
        game = app.table.game
        last = players - 1  # the partner furthest along the row
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        tap_in_sight(d.find(panel_rows(play)[0], app.player_name(last)), scroller)
        d.settle()
        assert play.selection.get("partner") == last
        rows = panel_rows(play)
        assert all(whole(r, scroller) for r in rows), [f"{visible(r, scroller):.0f}/{r.height:.0f}" for r in rows]
        held = [game.state.players[p].hand for p in (0, last)]
        give, get = next((g, t) for g in game.resources for t in game.resources
                         if g != t and held[0].count(g) and held[1].count(t))
        tap_in_sight(d.counter(play.ids.actions, give, "give").plus, scroller)
        tap_in_sight(d.counter(play.ids.actions, get, "get").plus, scroller)
        d.settle()
        tap_in_sight(d.find(play.ids.actions, app.tr("ok")), scroller)
        assert app.table.record.events[-1] == {"type": "trade", "player": 0, "with": last, "give": {give: 1},
                                               "get": {get: 1}}, play.message
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
