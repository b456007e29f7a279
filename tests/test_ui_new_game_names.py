"""A table types its names over the suggested ones: the first tap on a seat's name selects it, so "Mika" typed
makes "Mika" (by real taps at 1280x800 the cursor landed after "Aki" and the game started with "AkiMika").  Real
widgets under Xvfb; the keys arrive as the window's text input, as a keyboard's do."""

from __future__ import annotations

import pytest
from kivy.core.window import Window

from companion.ui import driver as d
from companion.ui.new_game_screen import NameField

pytestmark = pytest.mark.timeout(120)


def _type(text: str) -> None:
    Window.dispatch("on_textinput", text)
    d.pump(1)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "upright"])
def test_names_typed_replace_the_suggested_ones(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        ng = d.open_new_game(app)
        d.tap(ng.ids.n3)
        fields = sorted((w for w in d.walk(ng.ids.players) if isinstance(w, NameField)), key=lambda w: -w.y)
        assert [f.text for f in fields] == ["Aki", "Ben", "Chie"]
        for field, name in zip(fields, ("Mika", "Sho", "Yui")):
            d.tap(field)
            d.settle()
            _type(name)
            assert field.text == name
        # a second tap in the field being typed in places the cursor: a letter added keeps the name
        d.tap(fields[2])
        d.settle()
        _type("ko")
        assert fields[2].text in ("Yuiko", "koYui", "Ykoui", "Yukoi"), fields[2].text
        fields[2].text = "Yui"
        d.tap(ng.ids.start)
        assert app.root.current == "play", ng.message
        assert [p["name"] for p in app.table.record.players] == ["Mika", "Sho", "Yui"]
    finally:
        d.stop_app(app)


def test_two_players_of_one_name_are_told_apart_before_the_game(tmp_path):
    """Two seats called Ken: "Ken: place a settlement", "Rob Ken" and the voice's "Ken takes ..." said either.
    Start says so and starts nothing; a name changed, it starts."""
    app = d.start_app(tmp_path)
    try:
        ng = d.open_new_game(app)
        d.tap(ng.ids.n3)
        fields = sorted((w for w in d.walk(ng.ids.players) if isinstance(w, NameField)), key=lambda w: -w.y)
        for field, name in zip(fields, ("Ken", "Yui", "ken ")):
            d.tap(field)
            d.settle()
            _type(name)
        d.tap(ng.ids.start)
        assert app.root.current == "new_game" and app.table is None
        assert ng.message == "Players 1 and 3 are both called ken: give one of them another name"
        d.tap(fields[2])
        d.settle()
        _type("Kenta")
        d.tap(ng.ids.start)
        assert app.root.current == "play", ng.message
        assert [p["name"] for p in app.table.record.players] == ["Ken", "Yui", "Kenta"]
    finally:
        d.stop_app(app)
