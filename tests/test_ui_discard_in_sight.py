"""A 7's discard, the first thing a table meets after a big hand: every + and the OK in sight without a scroll.

At 1280x800 the OK stood half under the bottom row (the panel repeated the prompt above it as its own title), and
upright the OK was below the fold: a player counting cards had to find out that the panel scrolls.
"""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def hand_of_nine(journal_dir) -> int:
    """A 3-player base game after set-up, the first player holding 9 cards of all five resources."""
    record, _game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    record.events.append({"type": "set_hand", "player": 0,
                          "cards": {"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 1}})
    return d.journal(journal_dir, record, "a hand of nine")


def in_view(widget, view) -> bool:
    """Whether the whole of ``widget`` lies inside the scrolling ``view``'s window rectangle."""
    x, y = widget.to_window(widget.x, widget.y)
    top = widget.to_window(widget.right, widget.top)[1]
    vx, vy = view.to_window(view.x, view.y)
    vtop = view.to_window(view.right, view.top)[1]
    return y >= vy - 1 and top <= vtop + 1


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja"), ((800, 1280), "en")])
def test_the_discard_panel_shows_every_button_and_ok_without_a_scroll(tmp_path, size, lang):
    game_id = hand_of_nine(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        start = app.root.get_screen("start")
        d.tap(d.find(start.ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        game = app.table.game
        d.tap_dice(play, 7)
        assert game.state.phase == "discard"
        view = play.ids.actions.parent
        counters = [d.counter(play.ids.actions, r, "cards") for r in game.resources]  # -, count, +
        ok = d.find(play.ids.actions, app.tr("ok"), startswith=True)
        hidden = [c.resource for c in counters if not in_view(c, view)]
        hidden += ["OK"] if not in_view(ok, view) else []
        assert hidden == [], f"below the fold at {size} ({lang}): {hidden}"
        assert d.layout_problems(app.root) == []
        d.submit_discard(app, 0, game.state.discards_owed[0])
        assert game.state.phase == "move_robber"
    finally:
        d.stop_app(app)
