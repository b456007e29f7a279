"""A player tile's letters stay readable: never under 11 sp, however much the tile holds.

Seen by touch at 800x1280 (High Tide, 3 players, playtest s10): the tile of the player with Longest Road, Largest
Army and the leader was fitted down to ~9 px letters ("1 ore, 4 unseen; dev cards 1; knights 5" / "Longest Road;
Largest Army; Leader"), unreadable at arm's length.  The fit now stops the hand and award lines at
``tile_fit.SMALLEST_LINES`` sp (they wrap) and shrinks the name line no further.  Real widgets under Xvfb, the bundled game resumed."""

from __future__ import annotations

import re

import pytest
from kivy.metrics import sp

from companion.record import load_record
from companion.ui import driver as d
from test_ui_high_tide import EXAMPLE, journal_upto
from test_ui_player_tiles import drawn_text

pytestmark = pytest.mark.timeout(150)


def smallest_letters(tile) -> float:
    """The smallest font size at which the tile's (fitted) markup draws a letter: its own size, or a [size=N]
    span's (a span of spaces alone, the 1 px space of a Japanese separator, draws no letter)."""
    sizes, smallest = [tile.font_size], None
    for tag, words in re.findall(r"(\[[^]]*\])?([^[]*)", tile.text):
        if tag.startswith("[size="):
            sizes.append(float(tag[6:-1]))
        elif tag == "[/size]":
            sizes.pop()
        if words.strip():
            smallest = sizes[-1] if smallest is None else min(smallest, sizes[-1])
    return smallest


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tile_letters_never_under_the_floor_upright(tmp_path, lang):
    events = load_record(EXAMPLE).events
    flood_at = max(i for i, e in enumerate(events) if e["type"] == "flood")
    game_id = journal_upto(tmp_path, flood_at)
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        d.settle()
        tiles = list(play.ids.vpboard.children)
        assert len(tiles) == 3 and play.ids.vpboard.cols == 3
        g = app.table.game
        awarded = [p for p in range(3) if g.state.longest_road == p or g.state.largest_army == p
                   or g.tide.leader == p]
        assert awarded, "the example's late game has awards"
        for tile in tiles:
            size = smallest_letters(tile)
            assert size >= sp(11) - 0.5, (size, tile.text)
        for p in awarded:  # the awards still shown, and every line drawn (none dropped for want of room)
            tile = next(t for t in tiles if app.player_name(p) in t.text)
            drawn = drawn_text(tile)
            assert app.player_name(p) in drawn
            words = re.sub(r"\[[^]]*\]", "", tile.text)
            assert "".join(drawn.split()) == "".join(words.split()), (drawn, words)
        d.screenshot(tmp_path / f"tiles-{lang}.png")
    finally:
        d.stop_app(app)
