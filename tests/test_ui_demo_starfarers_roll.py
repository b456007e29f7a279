"""The demo's simulated box rolls for a Starfarers table too.

`--demo` promises that "from the first roll on the simulated box rolls whenever the table waits for dice"
(docs/app.md).  On the hex games' screen it does, 2 s after the table comes to a roll; on the Starfarers screen it
never did: after the set-up the prompt said "Aki: roll the dice" and nothing came until someone found Roll (box)
(session 18's trial, 800x1280).  Real widgets under Xvfb, the simulated box on a real pseudo-terminal; the demo's
2 s are waited out on the wall clock (the timer is the behaviour under test)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from companion.record import Record, load_record
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-starfarers.json"


def test_the_demo_box_rolls_when_a_starfarers_table_waits_for_dice(tmp_path):
    example = load_record(EXAMPLE)
    app = d.start_app(tmp_path, size=(800, 1280), demo=True)
    try:
        # the bundled game just after its set-up: the first player is to roll
        app.start_game(Record(example.game, example.players, example.board, example.options,
                              list(example.events[:30])))
        d.settle()
        assert app.root.current == "starfarers" and app.table.game.state.phase == "roll"
        assert d.wait_until(lambda: app.source_state == "connected", timeout=30), app.source_status
        app.changed()  # the table comes to the roll with the box connected: the demo's 2 s start
        events = len(app.table.record.events)
        # nobody taps: the simulated box rolls by itself, and the roll is recorded (a minute of wall clock for the
        # demo's 2 s and the box's roll on a busy machine; without the demo's roll nothing would come at all)
        until = time.monotonic() + 60
        d.wait_until(lambda: len(app.table.record.events) > events or time.monotonic() > until, timeout=120)
        assert len(app.table.record.events) > events, app.source_status
        assert app.table.record.events[events]["type"] == "roll"
        assert app.table.game.state.phase != "roll"
    finally:
        d.stop_app(app)
