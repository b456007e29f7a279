"""A tournament table's round clock on the play screen stands beside the prompt, never over its words.

The clock was a line laid over every screen at the window's top right, which on the play screen is where the
prompt ("Gen: tap a side or corner to build, trade, or end the turn") is written: at 1280x800 the clock covered
the prompt's last words. Now the play screen shows the clock in its own place by the prompt, and the line over
the other screens is hidden while the play screen is up. Real Kivy widgets under Xvfb and a real desk server on
127.0.0.1; waits are on the app's state."""

from __future__ import annotations

import pytest

import companion.ui  # noqa: F401  (Kivy's environment: no argv parsing)
from companion.ui.driver import settle, wait_until, walk

from test_ui_tournament_table import paired_tablet

pytestmark = pytest.mark.timeout(180)


def window_rect(widget):
    x, y = widget.to_window(*widget.pos)
    return x, y, x + widget.width, y + widget.height


def overlaps(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clock_lines_in_sight(app, keeper):
    """Every label a player sees whose text is the round clock's line: the play screen's and the window's."""
    from kivy.core.window import Window

    seen = [w for w in walk(app.root.get_screen("play"))
            if getattr(w, "text", "").startswith("Round clock") and w.width > 0 and w.opacity > 0]
    if keeper.badge is not None and keeper.badge.parent is Window and keeper.badge.opacity > 0:
        seen.append(keeper.badge)
    return seen


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "upright"])
def test_the_round_clock_stands_beside_the_prompt_not_over_it(tmp_path, size):
    with paired_tablet(tmp_path, size=size) as (desk, hand, app, screen):
        keeper = app.desk_link
        assert wait_until(lambda: app.root.current == "play" and keeper.badge is not None
                          and keeper.badge.text.startswith("Round clock"), timeout=30)
        settle()
        play = app.root.get_screen("play")
        prompt = play.ids.prompt
        assert prompt.text  # (a player's turn: the prompt says what to do)
        lines = clock_lines_in_sight(app, keeper)
        assert len(lines) == 1, f"the clock is shown {len(lines)} times on the play screen"
        line = lines[0]
        assert not overlaps(window_rect(line), window_rect(prompt)), "the clock covers the prompt"
        assert line.texture_size[0] <= line.width + 1, "the clock's line is cut"
        # another screen (Settings, from the menu) shows the line over it; back in play, the play screen's own
        app.go("settings")
        assert wait_until(lambda: app.root.current == "settings" and keeper.badge.opacity == 1, timeout=10)
        app.go("play")
        assert wait_until(lambda: app.root.current == "play" and keeper.badge.opacity == 0, timeout=10)
