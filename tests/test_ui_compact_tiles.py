"""The board between turns at 5-6 players (and Seafarers for 4): one row of compact tiles, the hand a tap away.

Lying down (1280x800) two rows of full tiles (180 px) stood over the board between turns: Seafarers for 6 drew
its hexes 27.5 px (34.8 in the set-up, so the board shrank as the set-up ended), Base 5-6 and High Tide for 5
39.3 px, Seafarers for 4 32.4; upright 26.1 / 37.2 / 31.8 / 33.6.  Where two rows of full tiles leave the hexes
under a fingertip's size, the tiles are now one row of compact ones (name; points and cards; knights and awards)
and a tap on one shows every player's whole tile (the hand as the table knows it) over the screen until the next
tap.  Real widgets under Xvfb; the game journalled and resumed as a player would, the tiles tapped."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from kivy.metrics import dp, sp

from companion.ui import driver as d
from test_ui_tile_letters import smallest_letters
from test_ui_tiles import drawn, plain

pytestmark = pytest.mark.timeout(300)

NAMES = ("Christopher", "Ben", "Chie", "Dan", "Emi", "Fumi")


def seafarers_six_late(data_dir) -> int:
    """Seafarers for 6 by random legal play (seed 4) to a roll where Christopher holds Longest Trade Route and
    Largest Army (3 knights, 6 VP), then a hand of 13 cards of all five kinds: the fullest compact tile."""
    from companion.record import COLORS, Record, new_game
    from companion.rules.random_play import random_events
    from companion.rules.seafarers_board import deal_map

    record = Record("seafarers", [{"name": n, "color": COLORS[i]} for i, n in enumerate(NAMES)],
                    deal_map("new_world", 4, 6).to_json())
    game = new_game(record)
    for event in random_events(game, random.Random(4), 3000):
        record.events.append(event)
        s = game.state
        if s.phase == "roll" and s.largest_army == 0 and s.longest_road == 0:
            break
    record.events.append({"type": "set_hand", "player": 0,
                          "cards": {"brick": 2, "grain": 3, "lumber": 1, "ore": 4, "wool": 3}})
    return d.journal(data_dir, record)


def tile_of(play, name: str):
    return next(t for t in play.ids.vpboard.children if name in plain(t.text))


@pytest.mark.parametrize("size,lang", [((1280, 800), "en"), ((1280, 800), "ja"), ((800, 1280), "en")],
                         ids=["landscape-en", "landscape-ja", "portrait-en"])
def test_seafarers_for_six_between_turns_one_row_of_tiles_and_the_hand_a_tap_away(tmp_path, size, lang):
    game_id = seafarers_six_late(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang=lang))
        play = d.resume(app, game_id)
        d.settle()
        tiles, board = play.ids.vpboard, play.ids.board
        # the board larger than under two rows of tiles (27.5 px lying down, 26.1 upright)
        assert board.fitted_hex_size() >= (32 if size[0] > size[1] else 30), board.fitted_hex_size()
        # one row of six tiles, each with the name, the points and the cards in hand, whole and >= 11 sp
        assert play.compact_tiles and tiles.cols == 6 and tiles.height <= dp(90)
        assert len({round(t.y) for t in tiles.children}) == 1
        for tile in tiles.children:
            assert drawn(tile) == plain(tile.text), (drawn(tile), tile.text)
            assert smallest_letters(tile) >= sp(11) - 0.5, tile.text
        chris = tile_of(play, "Christopher")
        vp, cards = ("6点", "13枚") if lang == "ja" else ("6VP", "13cards")
        assert vp in plain(chris.text) and cards in plain(chris.text)
        awards = ("交易路", "騎士力") if lang == "ja" else ("Road", "Army")  # (the whole names on a tap)
        assert all(word in plain(chris.text) for word in awards), chris.text
        racing = [p for p, st in enumerate(app.table.game.state.players) if st.knights and p != 0]
        assert racing and all(("騎士" if lang == "ja" else "knights") + str(app.table.game.state.players[p].knights)
                              in plain(tile_of(play, NAMES[p]).text) for p in racing)
        assert d.layout_problems(app.root) == []
        d.screenshot(tmp_path / "tiles.png")

        # a tap on a tile: every player's whole tile over the screen, the hand as the table knows it
        d.tap(chris)
        view = play._tiles_view
        assert view is not None and len(view.ids.tiles_box.children) == 6
        whole = next(t for t in view.ids.tiles_box.children if "Christopher" in plain(t.text))
        hand = ("鉄4", "羊毛3", "騎士3", "最長交易路", "最大騎士力") if lang == "ja" else \
            ("4ore", "3wool", "knights3", "LongestRoad", "LargestArmy")
        assert all(word in plain(whole.text) for word in hand) and drawn(whole) == plain(whole.text), whole.text
        assert all(drawn(t) == plain(t.text) for t in view.ids.tiles_box.children)
        d.screenshot(tmp_path / "whole-tiles.png")
        # the game goes on under it (a roll from the dice box): the view shows the hands as they are now
        before = len(app.table.record.events)
        app.manual_roll(*d.dice_for(d.producing_number(app.table.game, 1)))
        assert d.wait_until(lambda: len(app.table.record.events) > before)
        d.settle()
        sizes = [p.hand.size for p in app.table.game.state.players]
        shown = [re.search(r"(\d+)\s*(cards|card|枚)", plain(t.text).replace("VP", " ")) for t in
                 reversed(view.ids.tiles_box.children)]
        assert [int(m.group(1)) for m in shown] == sizes
        d.tap_at(board.center_x, board.center_y)  # any tap closes it, and builds nothing
        assert play._tiles_view is None and len(app.table.record.events) == before + 1
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("game,players,size,before", [
    ("seafarers", 4, (1280, 800), 32.4), ("base56", 5, (1280, 800), 39.3), ("high_tide", 5, (1280, 800), 39.3),
    ("seafarers", 4, (800, 1280), 33.6), ("base56", 6, (800, 1280), 37.2), ("high_tide", 5, (800, 1280), 31.8)])
def test_other_crowded_boards_between_turns_are_larger(tmp_path, game, players, size, before):
    """Hexes were ``before`` px between turns under two rows of full tiles."""
    app = d.start_app(tmp_path, size=size)
    try:
        d.new_game(app, players, game)
        d.submit_seeded_setup(app, 3)
        play = app.root.get_screen("play")
        d.tap_dice(play, d.producing_number(app.table.game, app.table.game.state.turn_player))
        d.settle()
        assert play.ids.board.fitted_hex_size() >= before * 1.12, play.ids.board.fitted_hex_size()
        assert play.compact_tiles and play.ids.vpboard.cols == players
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_base_for_four_keeps_its_whole_tiles(tmp_path, size):
    """A guard (it passes on the old layout too): Base 3-4 for 4 draws hexes 50 px lying down, 52 upright under
    the full tiles -- sides a fingertip's size already -- so its tiles keep the hand in sight, no tap needed."""
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        play = d.resume(app, game_id)
        d.settle()
        assert play.ids.vpboard.height >= 180 and play.ids.board.fitted_hex_size() >= 50
        assert "lumber" in plain(next(t for t in play.ids.vpboard.children if "Aki" in t.text).text)
    finally:
        d.stop_app(app)
