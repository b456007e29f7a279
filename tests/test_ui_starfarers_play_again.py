"""Starfarers' end offers "New game, same players", as the other games' ends do.

Seen by PLAYTEST2 (s11): a Starfarers game's end offered only Menu -> New game, which opened Base 3-4 for four
with the default names.  Real widgets under Xvfb: the bundled example played to its end, the button tapped, the
new-game form holds Starfarers, its three players and their colours, and Start begins a new Starfarers game."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.record import load_record
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)

EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-starfarers.json"


@pytest.mark.parametrize("size,lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_starfarers_end_starts_the_same_table_again(tmp_path, size, lang):
    example = load_record(EXAMPLE)
    example.players = [{"name": "Haruka", "color": "blue"}, {"name": "Ken", "color": "red"},
                       {"name": "Mio", "color": "white"}]
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        app.start_game(example)  # the example's record ends with the winner's last turn
        screen = app.root.get_screen("starfarers")
        assert app.table.game.state.phase == "game_over"
        d.screenshot(tmp_path / "end.png")
        d.tap(d.find(screen.ids.actions, app.tr("play_again")))
        assert app.root.current == "new_game"
        ng = app.root.get_screen("new_game")
        assert ng.game == "starfarers" and ng.count == 3
        assert ng.colors[:3] == ["blue", "red", "white"]
        d.tap(ng.ids.start)
        assert app.root.current == "starfarers" and not app.table.record.events
        assert [p["name"] for p in app.table.record.players] == ["Haruka", "Ken", "Mio"]
        assert app.table.game.state.phase == "setup_colony"
    finally:
        d.stop_app(app)
