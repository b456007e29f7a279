"""The app's tournament screen alone on the window, over a fresh desk file: the fixture the tournament screen's UI
tests share (``from tournament_screens import make_screen, type_into``), and what an organiser does on it by
touch -- typing into a field, choosing from a list, creating an event, entering a table's result."""

from __future__ import annotations

import pytest

import companion.ui  # noqa: F401  (Kivy's environment: no argv parsing)
from companion.ui import driver as d


@pytest.fixture
def make_screen(tmp_path):
    """``make(size=(1280, 800), lang="en")``: a tournament screen over a fresh desk file (tmp_path's
    tournament.sqlite3), on the window at ``size``; each one made is taken off the window after the test."""
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.uix.screenmanager import NoTransition, ScreenManager

    from companion.ui.app import register_font
    from companion.ui.tournament_screen import TournamentScreen

    register_font()  # the app's font (Japanese glyphs), as the app sets it when it starts
    managers = []

    def make(size=(1280, 800), lang="en"):
        EventLoop.ensure_window()
        Window.size = size
        manager = ScreenManager(transition=NoTransition())
        screen = TournamentScreen(desk_path=str(tmp_path / "tournament.sqlite3"), lang=lang)
        manager.add_widget(screen)
        Window.add_widget(manager)
        managers.append(manager)
        d.wait_until(lambda: tuple(manager.size) == tuple(Window.size))
        screen.refresh()
        d.settle()
        return screen

    yield make
    for manager in managers:
        Window.remove_widget(manager)
    d.pump(1)


def type_into(field, text):
    """Type ``text`` into ``field`` as the on-screen keyboard does (focused, then let go)."""
    field.text = ""
    field.focus = True
    field.insert_text(text)
    field.focus = False
    d.settle()


def choose(spinner, text):
    """Open the spinner by a tap and tap the choice in its list."""
    d.tap(spinner)
    d.wait_until(lambda: spinner._dropdown.attach_to is not None)
    d.tap(next(b for b in d.walk(spinner._dropdown)
               if getattr(b, "text", None) == text and hasattr(b, "trigger_action")))
    d.settle()


def create_event(screen, name, players, preset=None):
    """Create the event ``name`` (under ``preset``'s scoring, when given) and register ``players``, each step
    taken without a message."""
    if preset is not None:
        choose(screen.ids.preset, screen.preset_name(preset))
    type_into(screen.ids.event_input, name)
    d.tap(screen.ids.create_event)
    assert screen.message == "" and screen.event_name == name, screen.message
    for p in players:
        type_into(screen.ids.player_input, p)
        d.tap(screen.ids.add_player)
        assert screen.message == "", screen.message


def cards(screen):
    """The round's table cards, table 1 first."""
    return sorted(screen.ids.tables.children, key=lambda c: c.table_no)


def enter_result(card, vps, winner=0, *, save=True):
    """On a table's card: type ``vps`` in seat order (fewer values than seats leave the last empty), toggle the
    seat ``winner`` (an index; None: nobody) as the winner and, with ``save``, tap Save.  The seats' player ids."""
    seats = [pid for pid, _ in card.players]
    for pid, vp in zip(seats, vps):
        type_into(card.vp_inputs[pid], str(vp))
    if winner is not None:
        d.tap(card.win_toggles[seats[winner]])
    if save:
        d.tap(card.ids.save)
    return seats
