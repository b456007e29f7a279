"""The umpire's notes: a remark typed at the table and kept in the record (``{"type": "note", "text": ...}``,
docs/record-format.md), e.g. why a correction was made or what the table agreed.

A row for the umpire panel of any live screen (a text field, "Record note") and the notes recorded so far,
newest first, so the table sees what it wrote.  The panel is rebuilt on every refresh (a roll arriving from
the dice source, a language switch), so the text being typed is kept on the screen (``note_draft``) and put
back into the new field.  The note goes through the screen's ``submit`` like any entry: journalled first,
then shown; the rules core checks it.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.textinput import TextInput

from .widgets import BigButton

#: How many of the latest notes the panel lists.
SHOWN = 5


def recorded_notes(events) -> list[str]:
    """The text of every note in a record's events, oldest first."""
    return [e.get("text", "") for e in events if e.get("type") == "note"]


def add_note_rows(screen: Any, box) -> TextInput:
    """Add the note field, its button and the recorded notes to ``box``; returns the field.

    ``screen`` has ``submit(event) -> bool``, ``message``, ``selection`` and ``refresh()`` (the live screens).
    """
    a = App.get_running_app()
    row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
    field = TextInput(text=getattr(screen, "note_draft", ""), hint_text=a.tr("note_hint"), multiline=False,
                      font_size=sp(18), write_tab=False, padding=(dp(8), dp(14)))
    field.bind(text=lambda _f, text: setattr(screen, "note_draft", text))
    field.bind(on_text_validate=lambda _f: record_note(screen))
    button = BigButton(text=a.tr("note_record"), size_hint_x=None, width=dp(150), height=dp(56), font_size=sp(17))
    button.bind(on_release=lambda _b: record_note(screen))
    row.add_widget(field)
    row.add_widget(button)
    box.add_widget(row)
    notes = recorded_notes(a.table.record.events) if a.table is not None else []
    if notes:
        lines = [f"• {text}" for text in reversed(notes[-SHOWN:])]
        more = len(notes) - SHOWN
        if more > 0:
            lines.append(a.tr("notes_more", n=more))
        label = Label(text=a.tr("notes_title") + "\n" + "\n".join(lines), font_size=sp(16), halign="left",
                      valign="top", size_hint_y=None)
        label.bind(width=lambda w, width: setattr(w, "text_size", (width - dp(8), None)),
                   texture_size=lambda w, size: setattr(w, "height", size[1] + dp(6)))
        box.add_widget(label)
    return field


def record_note(screen: Any) -> bool:
    """Record the typed note (an empty one is refused, saying so, and records nothing); the panel stays open."""
    a = App.get_running_app()
    text = getattr(screen, "note_draft", "").strip()
    if not text:
        screen.message = a.tr("note_empty")
        return False
    if not screen.submit({"type": "note", "text": text}):
        return False
    screen.note_draft = ""
    # submit closed the panels; the umpire's stays open, showing the new note at the top of its list.
    screen.selection = {"mode": "umpire"}
    screen.refresh()
    return True
