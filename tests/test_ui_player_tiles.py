"""A player tile shows its whole hand: a hand of five kinds wraps to a second line, and that line is drawn (it was
dropped: the tile's text box counted its padding twice), upright and lying, with three players (upright in three
columns, one row for the board to take)."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def drawn_text(label) -> str:
    """The words the label's texture holds (a line that does not fit its box is left out of it)."""
    label.texture_update()
    return " ".join(word.text for line in label._label._cached_lines for word in line.words)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_a_hand_of_five_kinds_is_drawn_whole(tmp_path, size):
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    record.events += [{"type": "set_hand", "player": 0,
                       "cards": {"lumber": 2, "brick": 2, "ore": 3, "grain": 3, "wool": 1}},
                      {"type": "roll", "dice": [1, 1]}]
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        assert play.ids.vpboard.cols == 3 and play.ids.vpboard.height == 90  # one row of three tiles
        d.settle()
        aki = next(t for t in play.ids.vpboard.children if "Aki" in t.text)
        drawn = drawn_text(aki)
        for part in ("2 brick", "3 grain", "2 lumber", "3 ore", "1 wool"):
            assert part in drawn, drawn
    finally:
        d.stop_app(app)
