"""Seafarers for 6, the set-up: the board as large as the window allows, and still through every placement.

Lying down (1280x800) the players' tiles stood in two rows over the board (180 px) while the panel beside it held
the prompt and the bottom row: the board had 800x562 px, its hexes 27.5 px, neighbouring offered corners 27.5 px
apart, short of a fingertip.  In the set-up the tiles now stand in the panel, two a row, and the board takes their
rows: 800x742 px, hexes and corners 34.8 px (as upright).  A second settlement on a gold field asks for its card
in the set-up: the board keeps its place through that choice too (upright it shrank from 720 to 532 px between the
settlement and its road, lying down it would have taken the tiles back).  After the set-up the tiles are back over
the board.  Real widgets under Xvfb, every placement tapped on the board, in English and Japanese."""

from __future__ import annotations

import dataclasses
import math

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(300)


def board_box(board) -> tuple[int, ...]:
    d.settle()
    return tuple(round(v) for v in (*board.to_window(*board.pos), *board.size))


def closest_offered_corners(board) -> float:
    points = [board.vertex_pos(v) for v in sorted(board.legal)]
    return min(math.dist(a, b) for i, a in enumerate(points) for b in points[i + 1:])


def inside(widget, outer) -> bool:
    x0, y0 = widget.to_window(*widget.pos)
    ox, oy = outer.to_window(*outer.pos)
    return ox - 1 <= x0 and x0 + widget.width <= ox + outer.width + 1 and oy - 1 <= y0 and y0 + widget.height <= oy + outer.height + 1


@pytest.mark.parametrize("size,lang", [((1280, 800), "en"), ((1280, 800), "ja"), ((800, 1280), "en")],
                         ids=["landscape-en", "landscape-ja", "portrait-en"])
def test_seafarers_for_six_sets_up_on_a_board_a_finger_can_aim_at(tmp_path, size, lang):
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang=lang))
        d.new_game(app, 6, "seafarers")
        play = app.root.get_screen("play")
        game = app.table.game
        board, tiles, panel = play.ids.board, play.ids.vpboard, play.ids.panel
        lying = size[0] > size[1]
        first = board_box(board)
        # the corners a settlement may take, far enough apart for a finger (27.5 px lying down before)
        assert board.fitted_hex_size() >= 34 and closest_offered_corners(board) >= 34, \
            (board.fitted_hex_size(), closest_offered_corners(board))
        if lying:  # the six tiles in the panel, whole, under the prompt
            assert len(tiles.children) == 6 and inside(tiles, panel)
            assert tiles.top <= play.ids.prompt.to_window(*play.ids.prompt.pos)[1] + 1
        assert d.layout_problems(app.root) == []

        gold_asked = False
        for step in range(12):
            offered = sorted(board.legal)
            on_gold = [v for v in offered
                       if any(game.board.tiles[h].terrain == "gold" for h in game.board.vertex_land[v])]
            spot = on_gold[0] if step >= 6 and on_gold and not gold_asked else offered[(7 * step) % len(offered)]
            d.tap_at(*board.vertex_pos(spot))
            assert spot in game.state.buildings, play.message
            if game.state.phase == "gold":  # the second settlement's card from the gold field, in the set-up
                gold_asked = True
                assert board_box(board) == first  # the board where it was, the counters and OK in the panel
                assert d.layout_problems(app.root) == []
                plus = next(w for w in d.walk(play.ids.actions) if getattr(w, "text", "") == "+")
                d.tap(plus)
                d.tap(d.find(play.ids.actions, app.tr("ok"), startswith=True))
                assert game.state.phase == "setup_road", play.message
            assert board_box(board) == first  # nothing moved between the settlement and its link
            if play.coast_choice:
                d.tap(d.find(play.ids.actions, app.tr("road")))
            link = sorted(board.legal)[0]
            d.tap_at(*board.edge_pos(link))
            assert link in game.state.pieces, play.message
            if step < 11:
                assert board_box(board) == first
        assert gold_asked, "no second settlement offered on a gold field"
        assert game.state.phase == "roll"
        d.settle()
        # the set-up done: the tiles back over the board (lying down), the board no smaller than it was before
        assert tiles.parent is board.parent
        assert board.fitted_hex_size() >= (27.5 if lying else 26.1) - 0.1
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("game,players,before", [("seafarers", 4, 32.4), ("base56", 5, 39.3), ("high_tide", 5, 39.3),
                                                 ("base", 4, 50.1)])
def test_other_set_ups_lying_down_get_the_tiles_rows_too(tmp_path, game, players, before):
    """Every board game's set-up lying down: hexes were ``before`` px (the tiles' rows over the board)."""
    app = d.start_app(tmp_path)
    try:
        d.new_game(app, players, game)
        play = app.root.get_screen("play")
        d.settle()
        assert play.ids.board.fitted_hex_size() >= before * 1.15, play.ids.board.fitted_hex_size()
        assert inside(play.ids.vpboard, play.ids.panel)
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
