"""The caption under the board comes with the roll, not a frame after it.

The announcer hands every caption to its listener as it publishes; the app put each on the next frame, so a roll
tapped in showed "Rolled 8" and the payouts on the panel one frame before "Eight. Aki takes one lumber." under
the board -- under load a frame here took 0.4-1 s (bench/bench_caption_lag.py, docs/performance.md).  A caption
published on the app's own thread is now set at once; the board, the panel and the caption are drawn in the same
frame.  Real app, real announcer (no sound device: its null player), the dice tapped as a player taps them.
"""

from __future__ import annotations

import threading

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def test_the_caption_is_set_with_the_roll_before_the_next_frame(tmp_path):
    record, _game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    game_id = d.journal(tmp_path, record, "caption with the roll")
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        assert app.announcer is not None
        game = app.table.game
        number = d.producing_number(game, 0)
        a, b = d.dice_for(number)
        play.tap_die(a)
        play.tap_die(b)  # the manual source hands the roll to the app's next frame
        # frame by frame, looked at after each: the frame that applies the roll has its caption too
        assert d.wait_until(lambda: game.state.phase == "main"), game.state.phase
        assert play.roll_text.startswith(f"Rolled {number}")
        said = app.announcer.captions[-1]
        assert said.event_index == len(app.table.record.events) - 1
        assert app.caption == said.caption and app.caption  # already there: drawn in the roll's frame
    finally:
        d.stop_app(app)


def test_a_caption_published_on_another_thread_waits_for_the_apps_frame(tmp_path):
    """A notice from a device's thread (the box unplugged) is handed to the app's thread, never set from another."""
    record, _game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    game_id = d.journal(tmp_path, record, "a notice")
    app = d.start_app(tmp_path)
    try:
        d.resume(app, game_id)
        before = app.caption
        seen = []
        worker = threading.Thread(target=lambda: seen.append(app.announcer.on_notice("box_disconnected")))
        worker.start()
        worker.join()
        assert app.caption == before  # not set from the worker's thread
        assert d.wait_until(lambda: app.caption == seen[0].caption), (app.caption, seen[0].caption)
    finally:
        d.stop_app(app)
