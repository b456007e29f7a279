"""The new-game screen's board preview shows the robber where the game will start it (on the desert), drawn as
the play board draws it, and follows the board: another seed's desert, a Seafarers map's pirate.  A table sets
its board up from this preview; it showed no robber at all.  Real widgets under Xvfb, the pixels of the window."""

from __future__ import annotations

import pytest
from kivy.core.image import Image

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)

FIGURE = (0.15, 0.15, 0.15)  # the robber's disc (board_view): dark grey, whatever the terrain under it


def _dark(image, x: float, y: float) -> bool:
    return all(c < 0.3 for c in d.pixel_at(image, x, y))


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "upright"])
def test_the_preview_shows_the_robber_on_the_desert(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        ng = d.open_new_game(app)
        preview = ng.ids.preview
        seen = []
        for seed in ("1", "7"):  # the board dealt first, then another seed's: the robber goes with the desert
            ng.ids.seed.text = seed
            d.tap(d.find(ng, app.tr("generate")))
            d.settle()
            board = preview.board
            desert = next(h for h, t in board.tiles.items() if t.terrain == "desert")
            assert preview.robber == desert == board.robber
            x, y = preview.figure_pos(desert)
            x -= 0.6 * preview.figure_radius(desert)  # on the disc, beside its white letter
            shot = Image(str(d.screenshot(tmp_path / f"preview-{seed}.png")), keep_data=True)
            assert _dark(shot, x, y), f"no robber drawn on the desert at {x:.0f},{y:.0f}: {d.pixel_at(shot, x, y)}"
            if seen:  # where it stood on the first board: nothing dark there now (that hex is no desert)
                assert seen[0][0] != desert and not _dark(shot, *seen[0][1])
            seen.append((desert, (x, y)))
        d.tap(ng.ids.g_seafarers)  # a Seafarers map: its pirate shown too, where the map starts it
        d.settle()
        assert preview.pirate == preview.board.pirate is not None
        assert preview.robber == preview.board.robber
    finally:
        d.stop_app(app)
