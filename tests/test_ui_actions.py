"""The main phase by touches: build a road on an offered side, trade with the bank at the player's
ratio and with another player, buy a development card, and see a refused play explained.

The game is journalled just after set-up and a roll, with the hands set by an umpire's ``set_hand``
(a record event), then resumed from the start screen.
"""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def journal_game(data_dir) -> int:
    record, _game = d.base_game_after_setup()
    record.events += [{"type": "roll", "dice": [1, 1]},
                      {"type": "set_hand", "player": 0,
                       "cards": {"lumber": 5, "brick": 2, "grain": 2, "wool": 1, "ore": 1}},
                      {"type": "set_hand", "player": 1, "cards": {"wool": 2}}]
    return d.journal(data_dir, record)


def test_build_trade_buy_by_touch(tmp_path):
    game_id = journal_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        game = app.table.game
        board = play.ids.board
        def hand():  # the state is copied at each event: read it afresh
            return game.state.players[0].hand

        assert game.state.phase == "main" and game.state.turn_player == 0

        # Road: the board offers exactly the rules' legal sides; a tap builds and pays.
        d.tap(d.find(play.ids.actions, "Road"))
        assert board.pick == "edge" and board.legal == frozenset(game.legal_road_spots(0))
        edge = sorted(board.legal)[0]
        d.tap_at(*board.edge_pos(edge))
        assert game.state.pieces[edge] == (0, "road")
        assert hand().known["lumber"] == 4 and hand().known.get("brick") == 1

        # Bank trade at the player's ratio for lumber.
        ratio = game.harbor_ratios(0)["lumber"]
        d.tap(d.find(play.ids.actions, "Trade"))
        d.tap(d.find(play.ids.actions, "Bank"))
        d.tap(d.find(play.ids.actions, "lumber\n", startswith=True))
        get_row = play.ids.actions.children[-6]  # the "Get" row (rows are added top to bottom, under the cost card)
        d.tap(d.find(get_row, "ore"))
        d.tap(d.find(play.ids.actions, "OK"))
        assert hand().known.get("lumber", 0) == 4 - ratio and hand().known["ore"] == 2

        # Trade with Ben: one grain for one wool.
        d.tap(d.find(play.ids.actions, "Trade"))
        d.tap(d.find(play.ids.actions, "Ben"))
        d.tap(d.counter(play.ids.actions, "grain", "give").plus)
        d.tap(d.counter(play.ids.actions, "wool", "get").plus)
        d.tap(d.find(play.ids.actions, "OK"))
        assert not play.message
        assert hand().known["grain"] == 1 and hand().known["wool"] == 2
        assert game.state.players[1].hand.known == {"wool": 1, "grain": 1}

        # Buy a development card (recorded unseen), then try to play it: Play card says why not (bought this
        # turn), and a tap on it records nothing and says the rules' sentence.
        d.tap(d.find(play.ids.actions, "Buy dev card"))
        assert game.state.players[0].dev_count == 1
        assert app.table.record.events[-1] == {"type": "buy_development", "player": 0, "card": None}
        events = len(app.table.record.events)
        d.tap(d.find(play.ids.actions, "Play card", startswith=True))
        assert len(app.table.record.events) == events
        assert play.message == "Not allowed: Aki cannot play a development card: all were bought this turn"
    finally:
        d.stop_app(app)
