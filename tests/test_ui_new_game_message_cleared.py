"""A refusal on the new-game form, put right and started, does not wait on the form the next time it opens.

Tried by touch (1280x800): two players named Aki were refused ("Players 1 and 2 are both called Aki: give one of
them another name"); one was renamed and the game started. Menu -> New game then showed the same red line over
names that were all different."""

from __future__ import annotations

import pytest

from companion.ui import driver as d
from companion.ui.new_game_screen import NameField

pytestmark = pytest.mark.timeout(120)


def name_fields(ng) -> list[NameField]:
    rows = ng.ids.players.children[::-1]
    return [next(w for w in row.children if isinstance(w, NameField)) for row in rows]


def test_a_refusal_put_right_is_gone_when_the_form_opens_again(tmp_path):
    app = d.start_app(tmp_path)
    try:
        ng = d.open_new_game(app)
        fields = name_fields(ng)
        fields[1].text = fields[0].text  # two players with one name
        d.tap(ng.ids.start)
        assert app.root.current == "new_game" and ng.message, "two players with one name are refused"
        fields[1].text = "Bo"
        d.tap(ng.ids.start)
        assert app.root.current == "play"
        d.tap(d.find(app.root.get_screen("play"), app.tr("menu")))
        ng = d.open_new_game(app)
        assert ng.message == "", ng.message
        assert all(not w.text.startswith(("Players 1 and 2", "Not allowed")) for w in d.walk(ng)
                   if hasattr(w, "text") and isinstance(w.text, str))
    finally:
        d.stop_app(app)
