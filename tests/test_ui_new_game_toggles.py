"""The new-game screen's choices stay shown: the game and the table size chosen, tapped again, stay chosen (a
toggle of a group went grey, and the screen showed no table size while the game was set for four; seen on an
upright tablet in the playtest).  Real widgets under Xvfb, by taps."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def test_the_chosen_game_and_table_size_stay_shown_when_tapped_again(tmp_path):
    """A table taps the 4 already chosen (or Base 3-4 again): it stays chosen on the screen; it went grey, and
    the screen showed no table size while the game was still set for four."""
    app = d.start_app(tmp_path)
    try:
        ng = d.open_new_game(app)
        for toggle, value in ((ng.ids.n4, 4), (ng.ids.n3, 3), (ng.ids.n3, 3), (ng.ids.g_base, "base")):
            d.tap(toggle)
            d.tap(toggle)
            assert toggle.state == "down", toggle.text
        assert ng.count == 3 and ng.game == "base"
        assert [t.text for t in (ng.ids.n2, ng.ids.n3, ng.ids.n4, ng.ids.n5, ng.ids.n6) if t.state == "down"] == ["3"]
    finally:
        d.stop_app(app)
