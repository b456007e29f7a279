"""An opened panel comes into sight.  Upright, the play screen's actions scroll under the board; Trade (or a
card, or Show VP cards) tapped there opened its rows below the fold, and the table saw a sliver of buttons
(seen by hand at 800x1280 in Japanese).  Now the panel is scrolled into view: its rows lie inside the actions'
visible box.  Real widgets under Xvfb, taps through Kivy's input path."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def inside(widget, box) -> bool:
    """Whether ``widget`` lies wholly inside ``box`` (a ScrollView), both in window coordinates."""
    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    bx0, by0 = box.to_window(box.x, box.y)
    bx1, by1 = box.to_window(box.right, box.top)
    return bx0 - 1 <= x0 and x1 <= bx1 + 1 and by0 - 1 <= y0 and y1 <= by1 + 1


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_trade_opened_upright_shows_its_rows(tmp_path, lang):
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    record.events.append({"type": "set_hand", "player": 0, "cards": {"wool": 4, "grain": 1}})
    record.events.append({"type": "set_hand", "player": 1, "cards": {"ore": 2}})
    record.events.append({"type": "roll", "dice": [1, 1]})
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        if lang == "ja":
            app.lang = "ja"  # the play screen follows the app's language
            d.settle()
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        assert app.root.current == "play" and app.table.game.state.phase == "main"
        scroller = play.ids.actions.parent
        d.tap(d.find(play.ids.actions, app.tr("trade")))
        d.settle()
        assert play.selection.get("mode") == "trade"
        rows = play.ids.actions.children[::-1][play.panel_start:]
        assert rows, "the trade panel has rows"
        first = rows[0]  # "with": the bank and each player
        assert inside(first, scroller), "the trade panel's first row is out of sight"
        partners = [w for w in d.walk(first) if hasattr(w, "trigger_action")]
        assert partners and all(inside(w, scroller) for w in partners)
        # choosing a partner opens the counters: the rows stay where the finger is, the panel still in sight
        d.tap(d.find(first, app.player_name(1), startswith=False))
        assert play.selection.get("partner") == 1
    finally:
        d.stop_app(app)
