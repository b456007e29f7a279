"""The costs over the build buttons break between items, never inside one: "1 lumber, 1 / wool" was seen by
PLAYTEST's taps (session 9), a piece's cost split over two lines.  Real widgets under Xvfb, both orientations."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("size", [(800, 1280), (1280, 800)], ids=["upright", "landscape"])
def test_the_costs_break_between_items(tmp_path, size):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        play = d.resume(app, game_id)
        d.settle()
        card = next(w for w in d.walk(play.ids.actions) if getattr(w, "text", "").startswith("Costs"))
        lines = ["".join(word.text for word in line.words).strip() for line in card._label._cached_lines]
        assert len(lines) >= 2, lines  # (the premise: the costs take more than one line)
        for line in lines[:-1]:
            assert line.endswith("·"), lines  # each line ends between two items
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
