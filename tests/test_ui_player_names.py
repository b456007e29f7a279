"""Player names typed on the new-game screen, with real widgets: a name holding a character that does not show is
refused with the seat and the character named (nothing starts, nothing is journalled); names are stored in NFC;
a name that looks like Kivy markup is shown as typed on the VP board, not as markup."""

from __future__ import annotations

import unicodedata

import pytest
from kivy.uix.textinput import TextInput

from companion.record.journal import Journal
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def _type_name(ng, old: str, new: str) -> None:
    field = next(w for w in d.walk(ng) if isinstance(w, TextInput) and w.text == old)
    field.text = new  # as typed: the screen follows the field
    d.settle()


def _to_new_game(app):
    start = app.root.get_screen("start")
    d.tap(start.ids.new_game)
    ng = app.root.get_screen("new_game")
    d.tap(ng.ids.g_base)
    d.tap(ng.ids.n3)
    return ng


@pytest.mark.parametrize("lang, said", [("en", "Player 2's name holds a character that does not show "
                                                "(U+200B ZERO WIDTH SPACE) at position 4"),
                                        ("ja", "プレイヤー2の名前の4文字目に見えない文字（U+200B ZERO WIDTH SPACE）")])
def test_a_name_with_a_zero_width_character_is_refused_and_nothing_starts(tmp_path, lang, said):
    app = d.start_app(tmp_path)
    try:
        app.lang = lang
        ng = _to_new_game(app)
        _type_name(ng, "Ben", "Ben\u200b")
        d.tap(ng.ids.start)
        assert app.root.current == "new_game" and app.table is None
        assert said in ng.message
        assert app.journal.games() == []
    finally:
        d.stop_app(app)


def test_names_are_stored_in_nfc_and_markup_in_a_name_is_shown_as_typed(tmp_path):
    app = d.start_app(tmp_path)
    try:
        ng = _to_new_game(app)
        _type_name(ng, "Aki", "Jose\u0301")  # e + combining accent, as some keyboards send it
        _type_name(ng, "Ben", "[i]Ben[/i]")
        d.tap(ng.ids.start)
        assert app.root.current == "play", ng.message
        names = [p["name"] for p in app.table.record.players]
        assert names[0] == "Jos\u00e9" and unicodedata.is_normalized("NFC", names[0])
        assert names[1] == "[i]Ben[/i]"
        play = app.root.get_screen("play")
        d.settle()
        tags = [w for w in d.walk(play.ids.vpboard) if getattr(w, "markup", False)]
        shown = []
        for tag in tags:
            tag.texture_update()
            shown.append("".join(word.text for line in tag._label._cached_lines for word in line.words))
        assert any("[i]Ben[/i]" in text for text in shown), shown
    finally:
        d.stop_app(app)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        assert [p["name"] for p in journal.games()[0].players][:2] == ["Jos\u00e9", "[i]Ben[/i]"]
