"""A tap on the board under an open card or trade panel builds nothing: it closes the panel.  In the main phase a
tap on the board was always a build, so a player with Trade open who touched the board (to point at a harbour)
built a road, and a tap where nothing may go offered the umpire's "Record anyway" for a build nobody meant.  With
the panel closed the next tap builds as before.  Real widgets under Xvfb, taps through Kivy's input path."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)

ROAD = {"lumber": 1, "brick": 1}


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_a_board_tap_under_a_panel_closes_it_and_builds_nothing(tmp_path, size, lang):
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    # Aki buys a card on the first turn (so Play card has one to play), then holds a road's cards on the next
    record.events += [{"type": "set_hand", "player": 0, "cards": {"ore": 1, "grain": 1, "wool": 1}},
                      {"type": "roll", "dice": [1, 1]}, {"type": "buy_development", "player": 0, "card": None},
                      {"type": "end_turn"}, {"type": "roll", "dice": [1, 1]}, {"type": "end_turn"},
                      {"type": "roll", "dice": [1, 1]}, {"type": "end_turn"},
                      {"type": "set_hand", "player": 0, "cards": dict(ROAD, wool=4)}, {"type": "roll", "dice": [1, 1]}]
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        game, board = app.table.game, play.ids.board
        assert game.state.phase == "main" and game.waiting_for() == 0
        road = sorted(game.legal_road_spots(0))[0]
        # a corner too close to a building: a tap there builds nothing, whatever is open
        taken = next(iter(game.state.buildings))
        for panel, key in (("trade", "trade"), ("play", "play_card"), ("reveal", "reveal_vp")):
            d.tap(d.find(play.ids.actions, app.tr(key)))
            assert play.selection.get("mode") == panel
            assert board.pick == "" and not board.legal, "the board offers builds under an open panel"
            events = len(app.table.record.events)
            d.tap_at(*board.edge_pos(road))
            assert len(app.table.record.events) == events, f"a tap under {panel} recorded {app.table.record.events[-1]}"
            assert game.state.pieces.get(road) is None
            assert play.selection.get("mode") is None, f"the {panel} panel stayed open"
            assert play.message == "" and not play.refused
            # open again, a tap where nothing may go: no refusal, no "Record anyway"
            d.tap(d.find(play.ids.actions, app.tr(key)))
            d.tap_at(*board.vertex_pos(taken))
            assert len(app.table.record.events) == events
            assert play.message == "" and not play.refused and play.selection.get("mode") is None
        # a refusal with its umpire offer, then a panel opened: the refusal and "Record anyway" go with it
        d.tap_at(*board.vertex_pos(taken))
        assert play.refused and play.message
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        assert play.message == "" and not play.refused and not board.marked
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        # nothing open: a tap on a side builds the road, as a table expects
        assert board.pick == "build" and road in board.legal
        d.tap_at(*board.edge_pos(road))
        assert game.state.pieces.get(road) == (0, "road"), play.message
    finally:
        d.stop_app(app)
