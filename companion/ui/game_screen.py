"""What every own-screen game (Starfarers, the card game) shares: the app's table, texts, input, undo,
and the Umpire toggle that opens the umpire's note row (umpire_notes.py) in the action panel.

A game with its own live screen subclasses :class:`GameScreen` and names its record game in
``game_name``.  The screen sends record events to the app's :class:`~companion.table.Table`; a
refusal shows the rules' reason and leaves the choices being made as they were, so nothing the
player entered is lost.
"""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import DictProperty, StringProperty
from kivy.uix.screenmanager import Screen

from ..rules import RulesError
from .refusals_text import app_describe
from .umpire_notes import add_note_rows


def app() -> Any:
    return App.get_running_app()


class GameScreen(Screen):
    """Base of a game's own live screen; subclasses set ``game_name`` and implement ``refresh``."""

    game_name = ""
    prompt = StringProperty("")
    message = StringProperty("")
    phase = StringProperty("")
    selection = DictProperty({})     # the choices being made (counts, cards, targets, ...)

    def __init__(self, **kw):
        super().__init__(**kw)
        Clock.schedule_once(self._bind)

    def _bind(self, _dt) -> None:
        a = app()
        if a is not None and a.property("revision", quiet=True) is not None:
            a.bind(revision=lambda *_: self.refresh(), lang=lambda *_: self.refresh())

    # --- the game, through the app's table ------------------------------------------------------------------
    @property
    def table(self):
        a = app()
        t = a.table if a is not None else None
        return t if t is not None and t.record.game == self.game_name else None

    @property
    def game(self):
        return self.table.game if self.table is not None else None

    def tr(self, key, **values) -> str:
        return app().tr(key, app().lang, **values)

    def name_of(self, p) -> str:
        return app().player_name(p)

    # --- input ----------------------------------------------------------------------------------------------
    def _choices(self) -> Any:
        """The choices in progress, kept so that a refused input can give them back."""
        return dict(self.selection)

    def _clear_choices(self) -> None:
        self.selection = {}

    def _restore_choices(self, kept: Any) -> None:
        self.selection = kept

    def submit(self, event: dict) -> bool:
        """One input to the table; a refusal is shown with the rules' reason and changes nothing."""
        kept = self._choices()
        self._clear_choices()
        self.message = ""
        try:
            self.table.submit(event)
        except RulesError as error:
            self._restore_choices(kept)
            self.message = self.tr("illegal", why=app_describe(error))
            self.refresh()
            return False
        return True

    def reset_for_new_game(self) -> None:
        """A game starts or resumes: nothing shown of the game before stays."""
        self._clear_choices()
        self.message = ""
        self.note_draft = ""

    def reset_for_new_language(self) -> None:
        """The language changed: a sentence said in the old one goes; choices being made (a trade half filled
        in, a stand-in payment) stay, since they belong to this game and redraw in the new language."""
        self.message = ""

    def undo(self) -> None:
        if self.table is not None and self.table.undo() is not None:
            self.message = ""
            self._clear_choices()
            app().changed()

    def redo(self) -> None:
        if self.table is None:
            return
        try:
            self.table.redo()
        except RulesError as error:
            self.message = self.tr("illegal", why=app_describe(error))
        app().changed()

    # --- the umpire's notes ----------------------------------------------------------------------------------
    def toggle_umpire(self, down: bool) -> None:
        """The Umpire button (id ``umpire`` in the bar): open, or close, the note row in any phase.

        Opening it puts the phase's choices aside (the panel takes the action area), as the base game's does."""
        self._clear_choices()
        self.message = ""
        if down:
            self.selection = {"mode": "umpire"}
        self.refresh()

    def umpire_panel(self, box) -> bool:
        """Keep the Umpire toggle in step with the state; when it is open, fill ``box`` with the note row
        and the notes so far and return True (the phase's inputs wait until it is closed)."""
        open_ = self.selection.get("mode") == "umpire"
        if "umpire" in self.ids:
            self.ids.umpire.state = "down" if open_ else "normal"
        if open_:
            add_note_rows(self, box)  # record_note keeps the panel open after a note
        return open_

    def menu(self) -> None:
        app().go("start")

    def on_pre_enter(self, *args):
        self.refresh()

    def refresh(self) -> None:  # pragma: no cover - every subclass draws its own state
        raise NotImplementedError
