"""A dice box that rolls when the game is not at the roll: named, said not counted, nothing recorded.

Seen by touch upright in Japanese (a first evening with the box plugged in): the box rolled while Aki was
choosing the first settlement, and the prompt gave way to a red "できません：今はできません：現在は初期配置（開拓地）
の段階です（ダイスの段階で行います）" -- "can't: can't now", for a roll nobody on the screen had asked for, and
nothing said that it was the box's. The line now names the box and its dice and says they do not count; the
"not allowed" is said once. The box is the firmware simulator on a real pseudo-terminal; its roll button is
pressed as a player would press it during set-up."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(150)

EXPECTED = {
    "en": ("The dice box rolled ", ": not counted, the game is at set-up (settlements); this comes at the roll"),
    "ja": ("ダイスボックスの", "は数えません：現在は初期配置（開拓地）の段階です（ダイスの段階で行います）"),
}


@pytest.mark.parametrize("lang, size", [("en", (1280, 800)), ("ja", (800, 1280))])
def test_a_box_roll_at_set_up_is_named_and_not_counted(tmp_path, lang, size):
    app = d.start_app(tmp_path, size=size, source_url="sim://?seed=5&every=0&profile=fast")
    try:
        app.lang = lang
        d.new_game(app, players=3)
        play = app.root.get_screen("play")
        assert d.wait_until(lambda: app.source_state == "connected"), app.source_status
        events = list(app.table.record.events)
        assert app.table.game.state.phase == "setup_settlement"
        app.source.request_roll()  # the box's own button, pressed while Aki chooses a corner
        assert d.wait_until(lambda: bool(play.message), timeout=30), "the box's roll went unsaid"
        start, end = EXPECTED[lang]
        assert play.message.startswith(start) and play.message.endswith(end), play.message
        assert "今はできません" not in play.message and "not allowed now" not in play.message.lower()
        assert list(app.table.record.events) == events  # nothing recorded
        assert app.table.game.state.phase == "setup_settlement"
        d.place_setup(app)  # the set-up goes on as before
        assert app.table.game.state.phase == "roll"
    finally:
        d.stop_app(app)
