"""A journalled game whose record does not replay is said on the start screen, not a crash: a record whose
options ask for no 6 beside an 8 on a board that has one (written by another program, or edited by hand) stopped
the app on the tap that resumed it.  Real widgets under Xvfb, the journal in SQLite."""

from __future__ import annotations

import pytest

from companion.record import COLORS, Record
from companion.rules import standard_board
from companion.ui import driver as d


def hex_distance(a, b):
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

pytestmark = pytest.mark.timeout(120)


def test_a_game_that_no_longer_replays_is_said_and_nothing_opens(tmp_path):
    data = standard_board(3).to_json()
    sixes = [h for h in data["hexes"] if h.get("number") == 6]
    beside = next(h for h in data["hexes"] if h.get("number") not in (None, 6, 8)
                  and any(hex_distance(h["at"], s["at"]) == 1 for s in sixes))
    beside["number"] = 8  # (a 6 next to an 8: the record's option refuses that board)
    players = [{"name": n, "color": c} for n, c in zip(("Aki", "Ben", "Chie"), COLORS)]
    game_id = d.journal(tmp_path, Record("base", players, data, options={"separate_red_numbers": True}))
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        for _ in range(2):  # (tapped again: said once)
            d.tap(d.find(start.ids.games, f"#{game_id} ", startswith=True))
        assert app.root.current == "start" and app.table is None
        said = [w.text for w in start.ids.games.children if w.text.startswith(f"Game #{game_id} cannot be resumed")]
        assert len(said) == 1 and " next to " in said[0] and "[" not in said[0], said  # (places as players say them)
    finally:
        d.stop_app(app)
