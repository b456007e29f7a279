"""Building by a tap on the board, as a table expects: in the main phase, with no build button armed, a tap on a
side where the player on turn may build a road builds it, a free corner takes a settlement and the player's own
settlement a city; the board hints faintly where a tap builds (the rules core's legal spots); Undo takes it back;
a tap where nothing may go says why and builds nothing.  A normal turn with the dice box is then three taps:
roll, the side, End turn.  Real widgets under Xvfb, the dice-box simulator over a pseudo-terminal."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)

ROAD = {"lumber": 1, "brick": 1}
CITY = {"ore": 3, "grain": 2}


def journal_game(data_dir, hand: dict, *, rolled: bool = True, next_hand: dict | None = None) -> int:
    """Aki (seat 0) on turn after the set-up holding ``hand`` (and, ``rolled``, after a tapped 2); Ben holding
    ``next_hand``."""
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    record.events.append({"type": "set_hand", "player": 0, "cards": dict(hand)})
    if next_hand:
        record.events.append({"type": "set_hand", "player": 1, "cards": dict(next_hand)})
    if rolled:
        record.events.append({"type": "roll", "dice": [1, 1]})
    return d.journal(data_dir, record)


def test_a_box_turn_is_three_taps_the_roll_a_side_and_end_turn(tmp_path):
    """Roll (box), the side, End turn: 3 taps; with the dice tapped instead, 4 (two dice, the side, End turn)."""
    game_id = journal_game(tmp_path, ROAD, rolled=False, next_hand=ROAD)
    app = d.start_app(tmp_path, source_url="sim://?seed=5&every=0&profile=fast")
    tap_at = d.tap_at
    taps = []
    try:
        play = d.resume(app, game_id)
        game, board = app.table.game, play.ids.board
        assert d.wait_until(lambda: app.source_state == "connected"), app.source_status

        def counted(x, y):  # every finger on the glass
            taps.append((x, y))
            return tap_at(x, y)

        d.tap_at = counted
        before = len(app.table.record.events)
        d.tap(play.ids.roll_box)
        assert d.wait_until(lambda: len(app.table.record.events) > before, timeout=20), play.message
        assert app.table.record.events[before]["source"] == "box"
        assert game.state.phase == "main", f"the seeded box rolled {game.state.last_dice}: pick another seed"
        # nothing armed: the board offers, faintly, every side a road may take (the rules core's answer)
        assert play.build_piece == "" and board.pick == "build"
        roads = game.legal_road_spots(0)
        assert roads and set(roads) <= board.legal
        edge = roads[0]
        d.tap_at(*board.edge_pos(edge))
        assert game.state.pieces.get(edge) == (0, "road"), play.message
        assert play.message == ""
        d.tap(play.ids.end_turn)
        assert game.state.turn_player == 1
        box_turn = len(taps)

        d.tap_dice(play, 6)  # Ben's dice tapped: 1 + 5
        assert game.state.phase == "main" and game.state.last_dice == (1, 5), play.message
        edge = game.legal_road_spots(1)[0]
        d.tap_at(*board.edge_pos(edge))
        assert game.state.pieces.get(edge) == (1, "road"), play.message
        d.tap(play.ids.end_turn)
        assert game.state.turn_player == 2
    finally:
        d.tap_at = tap_at
        d.stop_app(app)
    assert (box_turn, len(taps) - box_turn) == (3, 4)
    assert app.source is None


def test_a_tap_builds_where_the_rules_allow_undo_takes_it_back_and_elsewhere_says_why(tmp_path):
    game_id = journal_game(tmp_path, {**ROAD, **CITY})
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game, board = app.table.game, play.ids.board
        assert game.state.phase == "main" and board.pick == "build"
        own = sorted(v for v, (p, kind) in game.state.buildings.items() if p == 0 and kind == "settlement")
        # the hints are exactly what the rules offer: the road sides and the player's settlements (a city each);
        # no corner for a settlement (the hand holds no wool)
        assert board.legal == frozenset(game.legal_road_spots(0)) | frozenset(own)

        # a side no road of Aki's may reach: the rules' reason is said, the side ringed, nothing recorded
        far = next(e for e in sorted(game.board.edges) if e not in board.legal and e not in game.state.pieces
                   and game.board.is_land(e[0]) and game.board.is_land(e[1]))
        events = len(app.table.record.events)
        d.tap_at(*board.edge_pos(far))
        assert len(app.table.record.events) == events and far not in game.state.pieces
        assert play.message.startswith("Not allowed") and "road" in play.message, play.message
        assert board.flash == far

        # Aki's own settlement: a tap makes it a city
        d.tap_at(*board.vertex_pos(own[0]))
        assert game.state.buildings[own[0]] == (0, "city"), play.message
        assert app.table.record.events[-1] == {"type": "build", "player": 0, "piece": "city",
                                               "at": [list(h) for h in own[0]]}
        # a road by a tap, and Undo right there takes it back
        edge = game.legal_road_spots(0)[0]
        d.tap_at(*board.edge_pos(edge))
        assert game.state.pieces.get(edge) == (0, "road"), play.message
        d.tap(play.ids.undo)
        assert edge not in game.state.pieces
        # nothing more Aki can pay for: no hints, and a tap on a free corner says what a settlement costs
        assert game.build_problem(0, "settlement") is not None
        d.tap(play.ids.redo)
        assert board.legal == frozenset()
        corner = next(v for v in game.legal_settlement_spots(0)) if game.legal_settlement_spots(0) else None
        if corner is not None:
            events = len(app.table.record.events)
            d.tap_at(*board.vertex_pos(corner))
            assert len(app.table.record.events) == events and corner not in game.state.buildings
            assert "settlement" in play.message, play.message
    finally:
        d.stop_app(app)
