"""A journalled game whose record no longer replays is said on the start screen, not a crash: a base game begun
with its robber off the desert (the board editor let that happen before 2474fb5; the start's check refuses it
now) stopped the app on the tap that resumed it.  Real widgets under Xvfb, the journal in SQLite."""

from __future__ import annotations

import pytest

from companion.record import COLORS, Record
from companion.rules import standard_board
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def test_a_game_that_no_longer_replays_is_said_and_nothing_opens(tmp_path):
    data = standard_board(3).to_json()
    data["robber"] = sorted(h["at"] for h in data["hexes"] if h["terrain"] == "forest")[0]
    players = [{"name": n, "color": c} for n, c in zip(("Aki", "Ben", "Chie"), COLORS)]
    game_id = d.journal(tmp_path, Record("base", players, data))
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        for _ in range(2):  # (tapped again: said once)
            d.tap(d.find(start.ids.games, f"#{game_id} ", startswith=True))
        assert app.root.current == "start" and app.table is None
        said = [w.text for w in start.ids.games.children if w.text.startswith(f"Game #{game_id} cannot be resumed")]
        assert len(said) == 1 and "the robber starts on the desert, not on the " in said[0], said  # (no coordinates)
    finally:
        d.stop_app(app)
