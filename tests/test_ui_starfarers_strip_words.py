"""Starfarers' VP board says what each count is, in words, in English and Japanese.

Seen by touch under Xvfb (playtest s10, 1280x800, 3 players): each tile read "Aki 4 VP · 15 cards · ½×1" over
"B2 C0 F0 · ships 1 · stations 0", and a first evening asked what B, C, F and ½× were.  A tile now reads
"4 VP; 15 cards; 1 half-medal / 2 boosters; 0 cannons; 0 freight rings / 1 ship in space; 0 trade stations"
(「ハーフメダル1枚 / 動力炉2、搭載砲0、船倉0 / 宇宙船1、交易ステーション0」: seed 003's words), every line inside
its tile and no letter under 11 sp.  Real widgets under Xvfb: new games started by taps, and the bundled example
game at its 78th event (boosters, cannons, freight rings and a friendship in play)."""

from __future__ import annotations

import re

import pytest
from kivy.metrics import sp

from companion.ui import driver as d
from test_ui_starfarers import EXAMPLE
from test_ui_starfarers_vp_tiles import assert_every_tile_holds_its_text

pytestmark = pytest.mark.timeout(120)

#: What the tiles said before: letters and signs a first-timer cannot read.
CRYPTIC = re.compile(r"½|\b[BCF]\d|(^|\s)[ブ砲貨]\d", re.M)


def plain(text: str) -> str:
    """A tile's words without markup, its held-together spaces as spaces."""
    return re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", text).replace("\u00a0", " ")


def assert_tiles_say_in_words(app, screen) -> None:
    g = app.table.game
    fleet = g.fleet
    tiles = screen.ids.vpboard.children[::-1]
    assert len(tiles) == len(app.table.record.players)
    for p, tile in enumerate(tiles):
        text = plain(tile.text)
        assert not CRYPTIC.search(text), text
        up = fleet.upgrades[p]
        for key, n in (("sf_n_half_medals", fleet.half_medals[p]), ("sf_n_boosters", up["booster"]),
                       ("sf_n_cannons", up["cannon"]), ("sf_n_freight_rings", up["freight_ring"]),
                       ("sf_n_ships", sum(fleet.ships[p].values())),
                       ("sf_n_stations", sum(dk.count(p) for dk in fleet.docks.values()))):
            assert app.tr(key, n=n) in text, (key, n, text)
        assert tile.font_size >= sp(11)
    assert_every_tile_holds_its_text(screen)


@pytest.mark.parametrize("size,players,lang", [((1280, 800), 3, "en"), ((1280, 800), 4, "ja"),
                                               ((800, 1280), 4, "en"), ((800, 1280), 3, "ja")])
def test_a_new_games_tiles_say_what_they_count(tmp_path, size, players, lang):
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        d.settle()
        d.new_game(app, players, "starfarers")
        screen = app.root.get_screen("starfarers")
        d.settle()
        assert_tiles_say_in_words(app, screen)
        if lang == "en":
            assert "1 half-medal" in plain(screen.ids.vpboard.children[-1].text)
        else:
            assert "ハーフメダル1枚" in plain(screen.ids.vpboard.children[-1].text)
        d.screenshot(tmp_path / "tiles.png")
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size,lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_a_played_games_tiles_say_what_they_count(tmp_path, size, lang):
    from companion.record import Record, load_record

    example = load_record(EXAMPLE)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        app.start_game(Record(example.game, example.players, example.board, example.options,
                              list(example.events[:78])))
        screen = app.root.get_screen("starfarers")
        d.settle()
        fleet = app.table.game.fleet
        assert any(sum(u.values()) > 1 for u in fleet.upgrades), "no upgrades bought: the test's premise is gone"
        assert_tiles_say_in_words(app, screen)
        d.screenshot(tmp_path / "tiles.png")
    finally:
        d.stop_app(app)
