"""Seafarers' Move ship says why it cannot be used in words as large as every other button's.

Seen by touch under Xvfb (playtest s10, Seafarers, 1280x800): five builds stood in one row of the panel (Road,
Settlement, City, Ship, Move ship), 84 px each, and after a ship was moved its button read "Move / ship / moved
/ already" in letters shrunk to fit ("Move ship" at 15 px where the other names were 20).  Lying down the builds
now stand in two rows of three where one row would squeeze a button's words; upright (five of 150 px) they stay
one row.  Real widgets under Xvfb: the set-up recorded, the roll tapped on the dice, the ship moved by taps."""

from __future__ import annotations

import pytest
from kivy.metrics import sp

from companion.ui import driver as d
from test_ui_ship_move import quiet_number, roll_by_taps, seafarers_with_ships

pytestmark = pytest.mark.timeout(180)


def lines_of(button) -> list[str]:
    """The lines a button shows, as laid out (markup spans joined)."""
    button.texture_update()
    return ["".join(w.text for w in line.words) for line in button._label._cached_lines]


def assert_whole_at_its_size(button, name: str, reason: str) -> None:
    """``name`` on one line at the buttons' own 20 sp and ``reason`` on the line under it."""
    assert button.font_size == pytest.approx(sp(20)), (button.text, button.font_size, button.width)
    assert lines_of(button) == [name, reason], (lines_of(button), button.width)
    assert button.texture_size[0] <= button.width + 2 and button.texture_size[1] <= button.height + 2


@pytest.mark.parametrize("size,language", [((1280, 800), "en"), ((1280, 800), "ja"), ((800, 1280), "en")],
                         ids=["landscape-en", "landscape-ja", "portrait-en"])
def test_move_ships_reason_is_a_line_under_its_name(tmp_path, size, language):
    app = d.start_app(tmp_path, size=size)
    try:
        play = seafarers_with_ships(app, language)
        game = app.table.game
        roll_by_taps(app, play, quiet_number(game))
        board = play.ids.board
        d.tap(d.find(play.ids.actions, app.tr("move_ship")))
        ship = game.movable_ships(0)[0]
        d.tap_at(*board.edge_pos(ship))
        d.tap_at(*board.edge_pos(game.ship_move_targets(0, ship)[-1]))
        assert game.events[-1]["type"] == "move_ship", play.message
        d.settle()
        button = d.find(play.ids.actions, app.tr("move_ship"), startswith=True)
        assert_whole_at_its_size(button, app.tr("move_ship"), app.tr("why_short_ship_already_moved"))
        # and every other build beside it: its name at the same size, a reason whole on one line
        for b in (w for w in d.walk(play.ids.actions) if getattr(w, "group", None) == "build"):
            assert b.font_size == pytest.approx(sp(20)), (b.text, b.font_size, b.width)
            assert len(lines_of(b)) <= 2, (lines_of(b), b.width)
        d.screenshot(tmp_path / "moved.png")
        assert d.layout_problems(play) == []
    finally:
        d.stop_app(app)
