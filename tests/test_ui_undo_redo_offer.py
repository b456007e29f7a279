"""Undo and Redo in the board games are offered only when there is something to take back or put back, as the
Starfarers and card-game screens offer them: they looked live at a game's start and after the last redo, and a tap
did nothing and said nothing.  Real widgets under Xvfb, taps through Kivy's input path."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def test_undo_and_redo_are_offered_only_when_they_can_do_something(tmp_path):
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        undo, redo = play.ids.undo, play.ids.redo
        events = len(app.table.game.events)
        assert not undo.disabled and redo.disabled, "after the set-up: something to undo, nothing to redo"
        d.tap(undo)
        assert len(app.table.game.events) == events - 1
        assert not redo.disabled, "the event taken back can be put back"
        d.tap(redo)
        assert len(app.table.game.events) == events
        assert redo.disabled, "nothing left to redo"
        while app.table.undo() is not None:  # back to the game's first moment
            pass
        app.changed()
        d.settle()
        assert not app.table.game.events
        assert undo.disabled and not redo.disabled
    finally:
        d.stop_app(app)
