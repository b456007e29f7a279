"""The umpire's note row on the games with their own live screen (Starfarers, the card game), driven by
touches under Xvfb on the upright tablet (800x1280): the Umpire button in the bar opens the row in the action
panel, a typed note is journalled and listed newest first, the panel stays open and fits the screen, and a
second tap closes it, giving the phase's inputs back.
"""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def type_into(field, text: str) -> None:
    """Tap the field, then type as the window hands over composed text (an input method's Japanese too)."""
    from kivy.core.window import Window

    d.tap(field)
    assert field.focus, "a tap on the field should give it the keyboard"
    Window.dispatch("on_textinput", text)
    d.pump(1)


def note_field(screen):
    from kivy.uix.textinput import TextInput

    return next(w for w in d.walk(screen.ids.actions) if isinstance(w, TextInput))


def open_game(app, game: str):
    """A new three-player game of ``game`` from the start screen, as a player starts one."""
    app.go("start")
    d.settle()
    ng = d.open_new_game(app, game)
    d.tap(ng.ids.n3)
    d.tap(ng.ids.start)
    assert app.root.current == game, ng.message
    return app.root.get_screen(game)


@pytest.mark.parametrize("game, phase_button", [("starfarers", None), ("card_game", "Knight")])
def test_umpire_notes_on_the_own_screen_games(tmp_path, game, phase_button):
    first, second = "ベンの手札を数え直した", "Chie's knight was laid B side by mistake; turned"
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        screen = open_game(app, game)
        events = list(app.table.record.events)
        if phase_button:
            d.find(screen.ids.actions, phase_button)  # the phase's inputs before the panel opens

        d.tap(screen.ids.umpire)
        assert screen.ids.umpire.state == "down"
        if phase_button:
            d.settle()
            with pytest.raises(LookupError):
                d.find(screen.ids.actions, phase_button, timeout=0)  # the panel takes the action area
        # An empty note is refused, saying so, and records nothing.
        d.tap(d.find(screen.ids.actions, "Record note"))
        assert screen.message == "Type the note first: an empty note is not recorded"
        assert app.table.record.events == events

        for text in (first, second):
            type_into(note_field(screen), text)
            d.tap(d.find(screen.ids.actions, "Record note"))
            assert app.table.record.events[-1] == {"type": "note", "text": text}, screen.message
        notes = [{"type": "note", "text": first}, {"type": "note", "text": second}]
        assert app.table.record.events == events + notes
        # journalled: the SQLite journal holds them as written
        assert app.table.journal.load(app.table.game_id).events == events + notes
        # listed newest first; the panel stays open with an empty field for the next one
        d.find_label(screen.ids.actions, f"Notes (newest first):\n• {second}\n• {first}")
        assert screen.ids.umpire.state == "down" and note_field(screen).text == ""
        assert d.layout_problems(app.root) == [], "the note panel fits the upright screen"

        # A second tap closes it: the phase's inputs are back, the notes stay in the record.
        d.tap(screen.ids.umpire)
        assert screen.ids.umpire.state == "normal"
        assert not any(w.__class__.__name__ == "TextInput" for w in d.walk(screen.ids.actions))
        if phase_button:
            d.find(screen.ids.actions, phase_button)
        assert app.table.record.events[-2:] == notes
    finally:
        d.stop_app(app)
