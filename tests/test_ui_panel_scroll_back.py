"""A trade's OK takes the action list back to its top: the costs and the builds in sight, no blank above them.

Seen by touch at 800x1280 (playtest s10, 5-6 players, Japanese): the trade panel with a player is taller than
the action list's view, so OK was a drag away; after OK the panel closed but the list stayed scrolled, ~130 px
of empty panel above the costs line and the builds pushed to the bottom.  Real widgets under Xvfb, taps
through Kivy's input path (the OK scrolled into sight as a finger would)."""

from __future__ import annotations

import random

import pytest

from companion.record import COLORS, Record, new_game as record_game
from companion.rules.board import EXTENSION_SPEC, standard_board
from companion.rules.random_play import random_events
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def journal_game(data_dir) -> int:
    """Base 5-6 (6 players: two rows of tiles upright) after its set-up and a roll; Aki holds grain, Chie wool."""
    names = ("Aki", "Ben", "Chie", "Dan", "Emi", "Fumi")
    record = Record("base56", [{"name": n, "color": COLORS[i]} for i, n in enumerate(names)],
                    standard_board(3, spec=EXTENSION_SPEC).to_json())
    game = record_game(record)
    for event in random_events(game, random.Random(5)):
        record.events.append(event)
        if game.state.phase == "roll":
            break
    record.events += [{"type": "roll", "dice": [1, 1]},
                      {"type": "set_hand", "player": 0, "cards": {"grain": 2}},
                      {"type": "set_hand", "player": 2, "cards": {"wool": 2}}]
    return d.journal(data_dir, record)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_trade_ok_scrolls_the_actions_back_to_the_top(tmp_path, lang):
    game_id = journal_game(tmp_path)
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        game = app.table.game
        assert game.state.phase == "main" and game.state.turn_player == 0
        box = play.ids.actions
        scroller = box.parent
        d.tap(d.find(box, app.tr("trade")))
        d.tap(d.find(box, "Chie"))
        d.tap(d.counter(box, "grain", "give").plus)
        x, y = scroller.to_window(scroller.center_x, scroller.y + scroller.height * 0.2)
        d.slow_drag(x, y)  # a finger drags the list up to Get and OK, as at the table
        d.tap(d.counter(box, "wool", "get").plus)
        d.slow_drag(x, y)
        d.settle()
        assert box.height > scroller.height, "the panel with a player outgrows the view (the case seen)"
        d.tap(d.find(box, app.tr("ok")))
        assert game.state.players[2].hand.known == {"wool": 1, "grain": 1}, "the trade was made"
        d.settle()
        # the list at its top: its first row (the costs) at the top of the view, the builds under it in sight
        first = box.children[-1]
        view_top = scroller.to_window(scroller.x, scroller.top)[1]
        assert abs(first.to_window(first.x, first.top)[1] - view_top) <= 1, (scroller.scroll_y, box.height)
        road = d.find(box, app.tr("road"), startswith=True)
        assert road.to_window(road.x, road.y)[1] >= scroller.to_window(scroller.x, scroller.y)[1]
    finally:
        d.stop_app(app)
