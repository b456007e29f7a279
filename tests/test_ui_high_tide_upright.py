"""High Tide upright: the builds in sight beside what the tide says.

Seen by touch at 800x1280 (Japanese, the bundled High Tide game after a 7): under the prompt, the roll, an empty
payouts row and the tide's four lines, the list of builds showed only the top edge of Road / Settlement / City /
Ship / Dike / Move ship.  Now an empty payouts row gives its room, and the tide's words take three lines upright
(smaller letters for more, as every fitted label).  Real widgets under Xvfb, the game resumed by taps."""

from __future__ import annotations

import pytest

from companion.record import load_record
from companion.ui import driver as d
from test_ui_high_tide import EXAMPLE, journal_upto

pytestmark = pytest.mark.timeout(150)


def window_box(w) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = w.to_window(w.right, w.top)
    return x0, y0, x1, y1


def after_a_seven_in_main(events) -> int:
    """How many events of the example lead to a main phase right after a 7 and its robber (nothing paid)."""
    for i, event in enumerate(events):
        if event["type"] == "roll" and sum(event["dice"]) == 7:
            j = i + 1
            while events[j]["type"] in ("discard", "move_robber", "steal"):
                j += 1
            return j
    raise AssertionError("the example has no 7")


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_builds_in_sight_upright(tmp_path, lang):
    events = load_record(EXAMPLE).events
    game_id = journal_upto(tmp_path, after_a_seven_in_main(events))
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = d.resume(app, game_id)
        assert app.table.game.state.phase == "main" and play.tide_text
        scroller = play.ids.actions.parent
        scroller.scroll_y = 1
        d.settle()
        _, bottom, _, top = window_box(scroller)
        builds = [w for w in d.walk(play.ids.actions) if hasattr(w, "trigger_action") and w.opacity > 0]
        assert len(builds) >= 10  # road, settlement, city, ship, dike, move ship; buy, play, trade, show VP
        hidden = [(b.text.split("\n")[0], [round(c) for c in window_box(b)]) for b in builds
                  if window_box(b)[1] < bottom - 1 or window_box(b)[3] > top + 1]
        assert not hidden, f"out of sight without a scroll: {hidden} (the list shows y {bottom:.0f}-{top:.0f})"
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
