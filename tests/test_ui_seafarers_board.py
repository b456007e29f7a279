"""New game -> Seafarers deals a Seafarers map (a main island, islets out at sea, gold on them), not the base game's
19 hexes: on the old code the preview and the started game had one land mass, so ships and the pirate never
mattered.  Real widgets under Xvfb, taps through Kivy's input path; the pictures go to docs/screens."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.rules.seafarers_board import land_masses
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
SHOTS = Path(__file__).parents[1] / "docs" / "screens"


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_new_game_seafarers_starts_on_islands(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        new_game = d.open_new_game(app, "seafarers")
        assert d.wait_until(lambda: new_game.game == "seafarers" and new_game.ids.preview.board is not None)
        shown = new_game.ids.preview.board
        assert len(land_masses(shown)) >= 3 and any(t.terrain == "gold" for t in shown.tiles.values())
        d.screenshot(SHOTS / f"new-game-seafarers-{'portrait' if size[1] > size[0] else 'landscape'}-en.png")
        d.tap(new_game.ids.start)
        assert d.wait_until(lambda: app.table is not None and app.table.record.game == "seafarers")
        board = app.table.game.board
        main, *islets = land_masses(board)
        assert len(islets) >= 2  # sea between the land masses: the islets are reached by ship
        assert board.pirate is not None and not board.is_land(board.pirate)
        assert board.to_json() == shown.to_json()  # the game is played on the board the preview showed
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_new_game_seafarers_four_islands_by_touch(tmp_path, size):
    """The second map family: Map → Four islands deals four islands of one size, and Start plays on it."""
    app = d.start_app(tmp_path, size=size)
    try:
        new_game = d.open_new_game(app, "seafarers")
        d.tap(new_game.ids.map_four_islands)
        assert d.wait_until(lambda: new_game.ids.preview.board is not None
                            and len(land_masses(new_game.ids.preview.board)) == 4)
        shown = new_game.ids.preview.board
        assert len({len(m) for m in land_masses(shown)}) == 1  # of one size
        assert d.layout_problems(app.root) == []
        d.tap(new_game.ids.start)
        assert d.wait_until(lambda: app.table is not None and app.table.record.game == "seafarers")
        assert app.table.game.board.to_json() == shown.to_json()
    finally:
        d.stop_app(app)
