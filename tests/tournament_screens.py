"""The app's tournament screen alone on the window, over a fresh desk file: the fixture the tournament screen's UI
tests share (``from tournament_screens import make_screen, type_into``), and typing into one of its fields."""

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
