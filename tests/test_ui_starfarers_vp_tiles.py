"""Every line of Starfarers' VP board shows inside its tile: the player's name first of all.

Seen by touch under Xvfb (800x1280, a new 4-player game): Chie's tile read "½×1 / B0 C0 F0 · ships 0 /
stations 0" -- "Chie  0 VP · 15 cards ·" was gone.  Her name is a little wider than Ben's, so the medals wrapped onto
a line of their own, and the fourth line was drawn above the tile (82 dp high for three lines), out of sight; a
friendship (a fourth line too) did the same to everyone.  Real widgets under Xvfb; each tile's text measured at
the tile's width."""

from __future__ import annotations

import pytest
from kivy.uix.label import Label

from companion.ui import driver as d
from test_ui_starfarers import EXAMPLE

pytestmark = pytest.mark.timeout(120)


def lines_fit(tile) -> float:
    """How much room the tile's text needs, wrapped at the tile's width as it is drawn, minus the tile's height."""
    probe = Label(text=tile.text, markup=True, font_size=tile.font_size, padding=tile.padding,
                  text_size=(tile.width, None), halign="left")
    probe.texture_update()
    return probe.texture_size[1] - tile.height


def assert_every_tile_holds_its_text(screen) -> None:
    tiles = screen.ids.vpboard.children[::-1]
    assert tiles
    for tile in tiles:
        over = lines_fit(tile)
        assert over <= 0, f"{tile.text!r}: {over:.0f} px more than its tile ({tile.height:.0f} px)"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_new_games_tiles_hold_every_name_upright(tmp_path, lang):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.lang = lang
        d.settle()
        ng = d.open_new_game(app, "starfarers")
        d.tap(ng.ids.n4)
        d.tap(ng.ids.start)
        assert app.root.current == "starfarers", ng.message
        d.settle()
        assert_every_tile_holds_its_text(app.root.get_screen("starfarers"))
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_a_friendships_line_stays_in_the_tile(tmp_path, size):
    from companion.record import Record, load_record

    example = load_record(EXAMPLE)
    app = d.start_app(tmp_path, size=size)
    try:
        app.start_game(Record(example.game, example.players, example.board, example.options,
                              list(example.events[:78])))
        screen = app.root.get_screen("starfarers")
        d.settle()
        assert "friend of Green Folk, Merchants" in screen.ids.vpboard.children[::-1][2].text
        assert_every_tile_holds_its_text(screen)
    finally:
        d.stop_app(app)
