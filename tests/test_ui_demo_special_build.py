"""The demo's simulated roll leaves the 5-6 special building phase to the players.

The demo rolls the simulated box 2 s after the table comes to a roll.  A table that tapped its dice in and ended
the turn within those 2 s met that roll in the special building phase, which a roll ends: the others never got
to build (seen in the demo at 1280x800, 5 players).  Now the demo rolls only when the phase is the roll, and a
roll due for a phase that has gone is not made.  Real widgets under Xvfb, the simulated box on a real
pseudo-terminal; the demo's 2 s are waited out on the wall clock (the timer is the behaviour under test)."""

from __future__ import annotations

import random
import time

import pytest

from companion.record import COLORS, Record, new_game as record_game
from companion.rules.board import EXTENSION_SPEC, standard_board
from companion.rules.random_play import random_events
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def test_the_demo_does_not_roll_in_the_special_building_phase(tmp_path):
    names = ("Aki", "Ben", "Chie", "Dan", "Emi")
    record = Record("base56", [{"name": n, "color": COLORS[i]} for i, n in enumerate(names)],
                    standard_board(3, spec=EXTENSION_SPEC).to_json())
    game = record_game(record)
    for event in random_events(game, random.Random(5)):
        record.events.append(event)
        if game.state.phase == "roll":
            break
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, demo=True)
    try:
        play = d.resume(app, game_id)
        assert d.wait_until(lambda: app.source_state == "connected", timeout=30), app.source_status
        # The table comes to the roll (the demo's 2 s start), rolls its own dice and ends the turn at once: in one
        # frame, as a quick table does on a slow tablet (the two taps take the same paths as App.manual_roll and
        # End turn)
        app.changed()
        app.manual_roll(4, 4)
        assert app.table.game.state.phase == "main", app.table.game.state.phase
        play.end_turn()
        assert app.table.game.state.phase == "special_build"
        events = len(app.table.record.events)
        until = time.monotonic() + 8  # the demo's 2 s, and the box's time to roll
        d.wait_until(lambda: time.monotonic() > until or len(app.table.record.events) > events, timeout=60)
        assert len(app.table.record.events) == events, app.table.record.events[events:]
        assert app.table.game.state.phase == "special_build"
    finally:
        d.stop_app(app)
