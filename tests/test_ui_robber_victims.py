"""At a 7 the board shows, on every ringed hex, whom a robber move there robs: a dot per player in their colour
above the token, read in words under the prompt.  The app said whom only after the tap ("Rob Ben / Rob Chie"),
so a table weighed the hexes by looking for the pieces around each (trial by taps, session 17, 1280x800).

Real widgets under Xvfb, read from the window's pixels; the victims are the rules core's (its own test:
tests/test_robber_victims.py)."""

from __future__ import annotations

import pytest
from kivy.core.image import Image as CoreImage

from companion.ui import driver as d
from companion.ui.board_view import PLAYER_COLORS

pytestmark = pytest.mark.timeout(180)


def near(colour, rgb, tolerance=0.12) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, rgb))


@pytest.mark.parametrize("lang, size, legend", [("en", (1280, 800), "whom a move there robs"),
                                                ("ja", (800, 1280), "奪える相手")])
def test_each_ringed_hex_shows_whom_it_robs(tmp_path, lang, size, legend):
    record, game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    record.events.append({"type": "roll", "dice": [3, 4]})
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        d.settle()
        play = d.resume(app, game_id)
        game, view = app.table.game, play.ids.board
        assert game.state.phase == "move_robber" and view.pick == "hex"
        expected = {h: v for h, v in game.victims_by_hex().items() if v}
        assert expected and dict(view.victims) == expected
        assert [t for t in d.screen_texts(play) if legend in t], d.screen_texts(play)
        assert d.layout_problems(play) == []
        image = CoreImage(str(d.screenshot(tmp_path / f"robber-{lang}.png")), keep_data=True)
        colours = app.table.record.players
        for h, victims in expected.items():
            dots = view.victim_dots(h)
            assert [p for *_xy, p in dots] == list(victims)
            for x, y, _rad, p in dots:
                rgb = PLAYER_COLORS[colours[p]["color"]]
                assert near(d.pixel_at(image, x, y), rgb), (h, p, d.pixel_at(image, x, y), rgb)
        # a hex robbing nobody shows no dot
        quiet = next(h for h in view.legal if h not in expected)
        assert view.victim_dots(quiet) == []
        # the move made, the dots go (the steal asks in words)
        target = next(iter(expected))
        d.tap_at(*view.hex_pos(target))
        d.settle()
        assert game.state.phase == "steal" and dict(view.victims) == {}
    finally:
        d.stop_app(app)
