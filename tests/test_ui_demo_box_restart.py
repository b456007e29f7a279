"""The demo dice box after the app restarts: its rolls still count, and a roll the game already holds is said.

The simulated box (``sim://``, a pseudo-terminal) starts again with the app, with the same seed.  Its boot id
is new at every boot, seeded or not: before, the restarted box named its rolls as the last run had
(``<boot id>-1`` ...), the table dropped every one as already recorded, and the screen said nothing -- the demo
dice were dead.  A roll that really is sent again (the box's ack lost to the restart) is not counted twice,
and the dice panel says so, in English and Japanese.
"""

from __future__ import annotations

import dataclasses
import time

import pytest

from companion.ui import driver as d
from firmware_bridge import codec

pytestmark = pytest.mark.timeout(180)

SIM = "sim://?seed=5&every=0&profile=fast"  # seed 5: rolls 8, 9, 12 -- no 7 to handle on the way


def _resume(app, game_id):
    play = d.resume(app, game_id)
    assert play.phase == "roll"
    assert d.wait_until(lambda: app.source_state == "connected", timeout=15), app.source_status
    return play


def _roll_on_the_box(app, play) -> dict:
    before = len(app.table.record.events)
    d.tap(play.ids.roll_box)
    assert d.wait_until(lambda: len(app.table.record.events) > before, timeout=15), app.source_status
    return app.table.record.events[-1]


def test_the_demo_box_rolls_on_after_a_restart_and_a_roll_sent_again_is_said(tmp_path):
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie", "Dan"))
    game_id = d.journal(tmp_path, record)

    app = d.start_app(tmp_path, source_url=SIM)
    try:
        play = _resume(app, game_id)
        first = _roll_on_the_box(app, play)
        assert first["source"] == "box" and first["dice"] == [5, 3]
        d.tap(play.ids.end_turn)
        assert play.phase == "roll"
    finally:
        d.stop_app(app)

    app = d.start_app(tmp_path, source_url=SIM)  # the same seed: the same dice again, from a new boot
    try:
        play = _resume(app, game_id)
        events = len(app.table.record.events)

        # The box sends the first run's roll again, as after a lost ack: dropped, and said on the dice panel.
        boot, roll = first["roll_id"].split("-")
        app.source._result(codec.RollResult(int(boot, 16), int(roll), (5, 3), (1, 2), 0), time.time())
        said = "the box sent 5 + 3 again: already recorded, not counted twice"
        assert d.wait_until(lambda: said in play.ids.source_status.text), play.ids.source_status.text
        assert play.ids.dice_panel.opacity == 1  # shown where the players look for the dice
        assert len(app.table.record.events) == events

        # A new roll of the restarted box counts, though its faces are those of the first run's first roll.
        again = _roll_on_the_box(app, play)
        assert again["dice"] == [5, 3] and again["roll_id"] != first["roll_id"]
        assert again["roll_id"].split("-")[0] != boot  # a new boot id, seeded or not
        assert play.roll_text.startswith("Rolled 8")

        # In Japanese too.
        d.tap(play.ids.end_turn)
        app.apply_settings(dataclasses.replace(app.settings, lang="ja"))
        assert d.wait_until(lambda: app.source_state == "connected")
        app.source._result(codec.RollResult(int(boot, 16), int(roll), (5, 3), (1, 2), 0), time.time())
        said = "ボックスが5 + 3を再送：記録済みのため二重には数えません"
        assert d.wait_until(lambda: said in play.ids.source_status.text), play.ids.source_status.text
    finally:
        d.stop_app(app)
    assert app.source is None  # stopped: no thread left behind
