"""The tide's offer with one hex to take says so, not "one of".

Seen by taps (session 18, High Tide for 4 upright in Japanese): an 8 was rolled with the 8 fields already gone, and
the offer read 「潮が来ます：Benが浸水させるヘクスを選びます（8の森林のどれか。丸印）。」 ("one of the 8 forest") over
a board with one ringed hex.  Now one hex is said as one: 「…浸水させるヘクスをタップします（8の森林。丸印）。」 /
"The tide comes: Ben taps the hex it floods, the 8 forest (ringed)."; two or more still "one of".  The bundled
High Tide game resumed at its floods, real widgets under Xvfb."""

from __future__ import annotations

import pytest

from companion.ui import driver as d
from test_ui_high_tide import journal_upto

pytestmark = pytest.mark.timeout(180)

# events into the bundled game: the flood's choices, who chooses
ONE, TWO = 868, 834   # Ben with 1 hex to take; Ben with 2 (the example as regenerated in session 19)


@pytest.mark.parametrize("lang,size", [("en", (1280, 800)), ("ja", (800, 1280))])
def test_the_tides_offer_says_one_hex_as_one(tmp_path, lang, size):
    ids = {n: journal_upto(tmp_path, n) for n in (ONE, TWO)}
    app = d.start_app(tmp_path, size=size)
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        said = {}
        for n, game_id in ids.items():
            play = d.resume(app, game_id)
            tide = app.table.game.tide
            assert app.table.game.state.phase == "flood" and len(tide.flood_choices) == (1 if n == ONE else 2)
            assert play.ids.board.legal == frozenset(tuple(h) for h in tide.flood_choices)  # ringed, tappable
            said[n] = play.tide_text.splitlines()[0]
            d.tap(play.ids.menu)
        if lang == "en":
            assert said[ONE].startswith("The tide comes: Ben taps the hex it floods, the ") and "one of" not in said[ONE], said
            assert said[TWO].startswith("The tide comes: Ben picks the hex it floods, one of the "), said
        else:
            assert said[ONE].startswith("潮が来ます：Benが浸水させるヘクスをタップします（") and "のどれか" not in said[ONE], said
            assert "のどれか。丸印" in said[TWO], said
    finally:
        d.stop_app(app)
