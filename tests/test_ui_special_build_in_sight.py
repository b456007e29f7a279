"""5-6 players' special building phase, upright: every build button in sight without a scroll.

Seen by touch at 800x1280 (Japanese, 5 players): after Dan's turn the panel showed the special builder's name, the
dice (a roll ends the phase) and, squeezed under two empty rows kept for the roll and its payouts, the top half of
Road / Settlement / City — their reasons cut, Buy development card out of sight.  Nothing was rolled this turn
yet, so those rows now give their room to the builds.  Real widgets under Xvfb, the set-up and the turn by taps
where a table taps."""

from __future__ import annotations


import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(150)


def window_box(w) -> tuple[float, float, float, float]:
    x0, y0 = w.to_window(w.x, w.y)
    x1, y1 = w.to_window(w.right, w.top)
    return x0, y0, x1, y1


def reach_special_build(app):
    """New game -> Base 5-6 (5 players) by taps, the set-up placed (seeded), a roll and End turn by taps: the
    others' special building phase.  Returns the play screen."""
    d.new_game(app, 5, "base56")
    d.submit_seeded_setup(app, 5)
    play = app.root.get_screen("play")
    d.tap_dice(play, 8)
    assert d.wait_until(lambda: app.table.game.state.phase == "main")
    d.tap(play.ids.end_turn)
    d.settle()
    assert app.table.game.state.phase == "special_build", app.table.game.state.phase
    return play


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_special_builder_sees_every_build_button(tmp_path, lang):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        if lang == "ja":
            app.lang = "ja"
            d.settle()
        play = reach_special_build(app)
        scroller = play.ids.actions.parent
        scroller.scroll_y = 1
        d.settle()
        _, bottom, _, top = window_box(scroller)
        buttons = [w for w in d.walk(play.ids.actions) if hasattr(w, "trigger_action") and w.opacity > 0]
        # who builds (the four still to come), road, settlement, city, buy a card
        assert len(buttons) >= 8, [getattr(b, "text", b) for b in buttons]
        hidden = [(b.text, [round(c) for c in window_box(b)]) for b in buttons
                  if window_box(b)[1] < bottom - 1 or window_box(b)[3] > top + 1]
        assert not hidden, f"out of sight without a scroll: {hidden} (the list shows y {bottom:.0f}-{top:.0f})"
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)


def test_a_later_player_builds_in_the_special_building_phase(tmp_path):
    """Seen by touch: the board and the builds were always for the first special builder (the next player), and
    nothing on the screen let another player build — the phase's point.  Now 'Builds:' picks among those still to
    come; one picked later ends the turns of those before (the rules' order)."""
    app = d.start_app(tmp_path, size=(1280, 800))
    try:
        play = reach_special_build(app)
        game = app.table.game
        queue = list(game.state.special_queue)
        later = queue[2]
        app.table.submit({"type": "set_hand", "player": later, "cards": {"brick": 1, "lumber": 1}})
        app.changed()
        d.tap(d.find(play.ids.actions, app.player_name(later)))
        assert play.acting(game) == later
        assert play.ids.prompt.text.startswith(f"Special building: {app.player_name(later)} "), play.ids.prompt.text
        board = play.ids.board
        road = next(e for e in sorted(board.legal) if len(e) == 2)  # a side the picked player may build on
        d.tap_at(*board.edge_pos(road))
        d.settle()
        assert app.table.record.events[-1] == {"type": "build", "player": later, "piece": "road",
                                               "at": [list(h) for h in road]}, play.message
        assert list(game.state.special_queue) == queue[2:]
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("lang, says", [("en", "Special building: {builder} (then {roller} rolls)"),
                                        ("ja", "特別建設：{builder}（済んだら{roller}がダイスを振ります）")])
def test_the_prompt_says_who_rolls_when_the_builders_are_done(tmp_path, lang, says):
    """Seen by touch (1280x800): the prompt said only "Special building: Ben" over the dice; nothing told the table
    that the next roll ends the phase, nor whose roll it is.  Now it says so, and that roll, tapped, is the next
    player's and ends the phase."""
    app = d.start_app(tmp_path, size=(1280, 800))
    try:
        app.lang = lang
        play = reach_special_build(app)
        game = app.table.game
        roller = game.state.turn_player
        builder = play.acting(game)
        d.settle()
        assert play.ids.prompt.text == says.format(builder=app.player_name(builder), roller=app.player_name(roller))
        d.tap_dice(play, 6)
        assert d.wait_until(lambda: game.state.phase == "main")
        assert app.table.record.events[-1]["type"] == "roll" and game.state.turn_player == roller
        assert d.layout_problems(play) == []
    finally:
        d.stop_app(app)
