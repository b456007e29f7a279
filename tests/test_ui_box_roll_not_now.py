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


@pytest.mark.parametrize("lang, size, said", [("en", (1280, 800), "End turn:\n{dice} for Ben"),
                                              ("ja", (800, 1280), "手番終了：\nBenの出目 {dice}")])
def test_the_next_player_rolling_before_end_turn_is_counted_by_end_turn(tmp_path, lang, size, said):
    """Session 19's trial with a box at the table: the next player throws the dice while Aki is still building (the
    box rolls, refused: the game is at building and trading).  End turn offers to count that roll for Ben, and one
    tap records both, Ben's roll with the box's faces; the roll is forgotten once the game goes on without it."""
    app = d.start_app(tmp_path, size=size, source_url="sim://?seed=5&every=0&profile=fast")
    try:
        app.lang = lang
        d.new_game(app, players=3)
        play = app.root.get_screen("play")
        assert d.wait_until(lambda: app.source_state == "connected"), app.source_status
        d.place_setup(app)
        app.source.request_roll()
        assert d.wait_until(lambda: app.table.game.state.phase != "roll", timeout=30)
        assert app.table.game.state.phase == "main"  # (the simulator's seed 5: no 7 first)
        before = len(app.table.record.events)
        app.source.request_roll()  # Ben throws early
        assert d.wait_until(lambda: bool(play.early_roll_label), timeout=30), play.message
        assert len(app.table.record.events) == before  # not counted yet
        d.settle()
        faces = play._early_roll[0].values
        assert play.ids.end_turn.text == said.format(dice=" + ".join(map(str, sorted(faces))))
        assert d.layout_problems(play) == []
        d.tap(play.ids.end_turn)
        events = app.table.record.events
        assert [e["type"] for e in events[before:]] == ["end_turn", "roll"]
        assert tuple(events[-1]["dice"]) == tuple(faces) and events[-1]["source"] == "box"
        assert app.table.game.state.turn_player == 1
        assert play.ids.end_turn.text != said.format(dice=" + ".join(map(str, sorted(faces))))
    finally:
        d.stop_app(app)


def test_with_five_players_end_turn_does_not_count_an_early_roll(tmp_path):
    """5-6 players: after End turn the others may build first (the special building phase); a roll counted at once
    would end it for them, so End turn stays End turn and the early roll is only said not counted."""
    app = d.start_app(tmp_path, source_url="sim://?seed=5&every=0&profile=fast")
    try:
        d.new_game(app, players=5)
        play = app.root.get_screen("play")
        assert d.wait_until(lambda: app.source_state == "connected"), app.source_status
        d.place_setup(app)
        app.source.request_roll()
        assert d.wait_until(lambda: app.table.game.state.phase != "roll", timeout=30)
        assert app.table.game.state.phase == "main"
        app.source.request_roll()
        assert d.wait_until(lambda: "not counted" in play.message, timeout=30), play.message
        d.settle()
        assert play.early_roll_label == "" and play.ids.end_turn.text == "End turn"
    finally:
        d.stop_app(app)
