"""Seafarers by touch: moving a ship and the pirate's 7.  On the old code the play screen had no way to move a
ship (no button; a tap on one's own ship tried to build a road on it and was refused), and no test moved the
pirate by a tap.  Real widgets under Xvfb, taps through Kivy's input path; the set-up is recorded straight into
the table (its placements by touch are tests/test_ui_first_game.py's and test_ui_ship_drawn.py's matter)."""

from __future__ import annotations

import math

import pytest

from companion.rules import geometry as geo
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def as_json(spot):
    return [list(h) for h in spot]


def open_sea_ship(game, edge) -> bool:
    """A ship's side borders a sea hex the pirate may be moved onto (not the frame, not the pirate's own)."""
    return any(h in game.board.sea and not game.board.tiles[h].frame and h != game.state.pirate for h in edge)


def seafarers_with_ships(app, language: str = "en"):
    """New game -> Seafarers (3 players) by taps; each set-up settlement on a coast with a ship beside it out
    to the open sea; then Aki's turn waits for the roll.  Returns the play screen."""
    if language == "ja":  # as a user switches: Settings → 日本語 → Save
        d.tap(app.root.get_screen("start").ids.settings)
        d.tap(app.root.get_screen("settings").ids.lang_ja)
        d.tap(app.root.get_screen("settings").ids.save)
        assert app.lang == "ja"
    d.new_game(app, 3, "seafarers")
    game = app.table.game
    while game.state.phase in ("setup_settlement", "setup_road"):
        who = game.waiting_for()
        for v in sorted(game.legal_settlement_spots_setup()):
            app.table.submit({"type": "build", "player": who, "piece": "settlement", "at": as_json(v)})
            ships = [e for piece, e in game.legal_setup_links() if piece == "ship" and open_sea_ship(game, e)]
            if ships and len(game.board.vertex_land[v]) >= 2:
                app.table.submit({"type": "build", "player": who, "piece": "ship", "at": as_json(ships[0])})
                break
            app.table.undo()
        else:
            raise AssertionError("no coastal corner with a ship to the open sea")
    app.changed()
    d.settle()
    assert game.state.phase == "roll" and game.waiting_for() == 0
    return app.root.get_screen("play")


def roll_by_taps(app, play, number: int) -> None:
    d.tap_dice(play, number)
    assert d.wait_until(lambda: app.table.game.state.last_dice is not None
                        and sum(app.table.game.state.last_dice) == number)
    d.settle()


def target_width(board, spot, where) -> float:
    """How wide (px) the disk around ``spot``'s drawn middle is in which every tap picks ``spot``."""
    x0, y0 = where(spot)
    for r in range(1, 120):
        for k in range(24):
            a = 2 * math.pi * k / 24
            if board.spot_at((x0 + r * math.cos(a), y0 + r * math.sin(a))) != spot:
                return 2 * (r - 1)
    return 240


def quiet_number(game) -> int:
    """A number (not 7) that pays no gold field (a gold roll asks for the cards first)."""
    gold = {t.number for t in game.board.tiles.values() if t.terrain == "gold"}
    return next(n for n in (6, 8, 5, 9, 4, 10, 3, 11, 2, 12) if n not in gold)


@pytest.mark.parametrize("size,language", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "portrait-ja"])
def test_a_ship_is_moved_by_two_taps(tmp_path, size, language):
    app = d.start_app(tmp_path, size=size)
    try:
        play = seafarers_with_ships(app, language)
        game = app.table.game
        roll_by_taps(app, play, quiet_number(game))
        assert game.state.phase == "main"
        movable = game.movable_ships(0)
        assert movable, "Aki's set-up ship ends an open route"
        board = play.ids.board

        d.tap(d.find(play.ids.actions, app.tr("move_ship")))  # the button, among the builds
        assert play.build_piece == "move_ship"
        assert board.pick == "edge" and set(board.legal) == set(movable)  # the ships that may move, offered
        assert play.prompt == app.tr("p_move_ship_pick", name="Aki")
        ship = movable[0]
        d.tap_at(*board.edge_pos(ship))
        assert play.lifted_ship == ship and board.lifted == ship  # ringed where it lies
        targets = game.ship_move_targets(0, ship)
        assert targets and set(board.legal) == set(targets)
        assert play.prompt == app.tr("p_move_ship_to", name="Aki")
        d.tap_at(*board.edge_pos(ship))  # tapped again: it stays where it was
        assert play.lifted_ship is None and game.state.pieces[ship] == (0, "ship")
        assert len(app.table.record.events) == len(game.events)

        d.tap_at(*board.edge_pos(ship))  # lifted again
        target = targets[-1]
        d.tap_at(*board.edge_pos(target))
        assert game.state.pieces.get(target) == (0, "ship") and ship not in game.state.pieces, play.message
        last = app.table.record.events[-1]
        assert last["type"] == "move_ship" and last["from"] == as_json(ship) and last["to"] == as_json(target)
        assert play.build_piece == "" and play.lifted_ship is None
        assert app.caption == app.tr("moved_ship", name="Aki")  # said under the board, as a trade is
        d.screenshot(tmp_path / "moved.png")
        # once a turn: the button now says so, and a tap on it says the rules' sentence and arms nothing
        button = d.find(play.ids.actions, app.tr("move_ship"), startswith=True)
        assert app.tr("why_short_ship_already_moved") in button.text
        d.tap(button)
        assert play.build_piece == "" and play.message
    finally:
        d.stop_app(app)


def test_a_tap_on_ones_own_ship_lifts_it(tmp_path):
    """With nothing armed, a tap on the player's own movable ship lifts it (it tried to build a road there)."""
    app = d.start_app(tmp_path)
    try:
        play = seafarers_with_ships(app)
        game = app.table.game
        roll_by_taps(app, play, quiet_number(game))
        ship = game.movable_ships(0)[0]
        d.tap_at(*play.ids.board.edge_pos(ship))
        assert play.lifted_ship == ship and play.build_piece == "move_ship", play.message
        assert play.message == ""
        target = game.ship_move_targets(0, ship)[0]
        d.tap_at(*play.ids.board.edge_pos(target))
        assert game.state.pieces.get(target) == (0, "ship"), play.message
    finally:
        d.stop_app(app)


def test_a_seven_moves_the_pirate_by_touch_and_robs_a_ships_owner(tmp_path):
    """A 7: the board offers the sea hexes too, and the prompt names the pirate (fails on the old code: "move
    the robber"); a tap on the sea moves the pirate there, then the button robs the player whose ship borders it."""
    app = d.start_app(tmp_path)
    try:
        play = seafarers_with_ships(app)
        game = app.table.game
        victim_ship = next(e for e, (p, kind) in sorted(game.state.pieces.items()) if p == 1 and kind == "ship")
        sea = next(h for h in victim_ship if h in game.board.sea and not game.board.tiles[h].frame)
        assert game.state.players[1].hand.size > 0
        roll_by_taps(app, play, 7)
        while game.state.phase == "discard":  # (a set-up hand rarely holds 8, but a table may)
            d.submit_discard(app, game.waiting_for(), game.state.discards_owed[game.waiting_for()])
        assert game.state.phase == "move_robber"
        board = play.ids.board
        assert board.pick == "hex" and sea in board.legal  # the pirate's sea hexes offered beside the robber's land
        assert not any(game.board.tiles[h].frame for h in board.legal)  # never the sea frame (seed 004)
        # the prompt says so (it said "move the robber" while the sea was offered too)
        assert play.prompt == app.tr("p_move_robber_or_pirate", name="Aki")
        assert target_width(board, sea, board.hex_pos) >= 40  # the pirate's target is its whole hex (56 px)
        d.tap_at(*board.hex_pos(sea))
        assert game.state.pirate == sea, play.message
        hand_before = game.state.players[1].hand.size
        if game.state.phase == "steal":
            d.tap(d.find(play.ids.actions, app.tr("rob", name="Ben"), startswith=True))
        assert game.state.players[1].hand.size == hand_before - 1
        assert game.state.phase == "main"
        # no ship may now be placed beside the pirate: its sides are not offered
        d.tap(d.find(play.ids.actions, app.tr("ship"), startswith=True))
        assert not set(board.legal) & set(geo.hex_edges(sea))
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size,language", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "portrait-ja"])
def test_a_set_up_ship_goes_on_a_coast_by_touch(tmp_path, size, language):
    """Set-up on a coast (land one side, sea the other): a tap there built a road, and a ship could not be placed
    on a coast at all.  Road / Ship now choose; the sea lanes stay ships, the land's sides roads."""
    app = d.start_app(tmp_path, size=size)
    try:
        if language == "ja":
            d.tap(app.root.get_screen("start").ids.settings)
            d.tap(app.root.get_screen("settings").ids.lang_ja)
            d.tap(app.root.get_screen("settings").ids.save)
        d.new_game(app, 3, "seafarers")
        play = app.root.get_screen("play")
        game = app.table.game
        board = play.ids.board
        coast = None
        for v in sorted(board.legal):
            d.tap_at(*board.vertex_pos(v))
            links = game.legal_setup_links()
            both = sorted({e for p, e in links if p == "road"} & {e for p, e in links if p == "ship"})
            if both:
                coast = both[0]
                break
            d.tap(play.ids.undo)
        assert coast is not None
        assert play.coast_choice
        ship = d.find(play.ids.actions, app.tr("ship"))
        d.tap(ship)
        assert play.build_piece == "ship" and board.pick == "edge"
        assert d.layout_problems(app.root) == []
        d.tap_at(*board.edge_pos(coast))
        assert game.state.pieces.get(coast) == (0, "ship"), play.message
        assert not play.coast_choice and play.build_piece == ""
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_gold_pays_a_resource_chosen_by_touch(tmp_path, size):
    """A roll on a gold field: the roll's lines say who chooses (they said "Nobody receives anything." while Aki
    picked), the + of a resource and OK take it from the bank; OK in sight lying down and upright."""
    app = d.start_app(tmp_path, size=size)
    try:
        play = seafarers_with_ships(app)
        game = app.table.game
        owners = {p for v, (p, _k) in game.state.buildings.items()
                  for h in v if h in game.board.tiles and game.board.tiles[h].terrain == "gold"}
        if not owners:
            pytest.skip("no set-up settlement beside gold on this map")
        gold = next(t.number for h, t in sorted(game.board.tiles.items()) if t.terrain == "gold"
                    and any(h in v for v in game.state.buildings))
        roll_by_taps(app, play, gold)
        assert game.state.phase == "gold"
        who = game.waiting_for()
        assert app.tr("gold_choosing", name=app.player_name(who), n=game.state.gold_owed[who]) in play.payout_text
        assert app.tr("nobody_gets") not in play.payout_text
        # OK in sight without scrolling (it was half under the bottom row at 1280x800)
        ok = d.find(play.ids.actions, app.tr("ok"), startswith=True)
        view = play.ids.actions.parent
        (_, ok_bottom), (_, view_bottom) = ok.to_window(ok.x, ok.y), view.to_window(view.x, view.y)
        assert ok_bottom >= view_bottom, f"OK starts {view_bottom - ok_bottom:.0f} px below the panel's fold"
        ore_before = game.state.players[who].hand.count("ore")
        for _ in range(game.state.gold_owed[who]):
            d.tap(d.counter(play.ids.actions, "ore", "cards").plus)
        d.tap(d.find(play.ids.actions, app.tr("ok"), startswith=True))
        assert game.state.players[who].hand.count("ore") > ore_before
        assert app.table.record.events[-1]["type"] == "gold"
    finally:
        d.stop_app(app)
