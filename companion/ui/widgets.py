"""What the app's screens share: the running app, finger-sized buttons, a spot's interchange name, and the
loading of a screen's kv rules after the shared ones (``companion.kv``).  Imports no screen.

Each screen is a module of its own (``start_screen``, ``new_game_screen``, ``board_editor_screen``,
``play_screen``, ``statistics_screen``, ``settings_screen``) with its layout in a kv file beside it, loaded by
the module through :func:`load_rules`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.button import Button
from kivy.uix.togglebutton import ToggleButton

from .wrapping import PhraseWrap

HERE = Path(__file__).resolve().parent
#: The rules every screen uses (the default label size, BigButton, BigToggle, headings, the screens' background).
SHARED_KV = HERE / "companion.kv"


def app() -> Any:
    return App.get_running_app()


def as_json(spot) -> list:
    """An interchange name (vertex, edge or hex) as JSON lists."""
    if isinstance(spot[0], tuple):
        return [list(h) for h in spot]
    return list(spot)


def load_rules(kv_name: str | None = None) -> None:
    """Load the shared kv rules, then ``kv_name`` (a file beside this module), each once per process.

    Once: a second app in the same process (a restart, the tests) would otherwise get every rule twice and draw
    each widget twice.  Shared first: of two class rules for one widget the one loaded later wins, so a
    screen's own rule (a smaller PlayerTag font) must come after the shared ``<Label>`` rule."""
    for path in (SHARED_KV, HERE / kv_name) if kv_name else (SHARED_KV,):
        if str(path) not in Builder.files:
            Builder.load_file(str(path))


class BigButton(PhraseWrap, Button):
    """A button sized for a finger across the table (its look is in companion.kv); a long word gets smaller
    letters rather than being cut, Japanese breaks between phrases (wrapping.py)."""


class BigToggle(PhraseWrap, ToggleButton):
    """A toggle sized for a finger across the table (its look is in companion.kv), its words kept whole."""
