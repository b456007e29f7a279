"""A tap that came down while the screen was still the old one goes nowhere on the new one.

Seen by touch under Xvfb on a loaded machine (1280x800): Resume on the start screen sits in a scrolling list, which
hands a tap's release to the button 0.2 s later (it first waits to see whether the finger scrolls).  A player who
saw nothing happen tapped again; the second tap was read in the frame in which the first one's release switched to
the play screen, and landed on the board under the finger: "Not allowed: no land beside a sea lane" (or a road built
where nobody meant one).  Kivy did not mark it as a double tap's second (more than 0.25 s apart), so
widgets.TapSafeScreens let it through.  Real widgets, the taps through the window's input queue."""

from __future__ import annotations

import pytest
from kivy.base import EventLoop
from kivy.tests.common import UnitTestTouch

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


def point_over_a_spot(board, button) -> tuple[float, float]:
    """A point on ``button`` (window coordinates) under which the play screen's board has a side or corner."""
    x0, y0 = button.to_window(button.x, button.y)
    x1, y1 = button.to_window(button.right, button.top)
    for i in range(1, 24):
        for j in range(1, 6):
            x, y = x0 + (x1 - x0) * i / 24, y0 + (y1 - y0) * j / 6
            local = board.parent.to_widget(x, y)
            if board.collide_point(*local) and board.spot_at(local) is not None:
                return x, y
    raise AssertionError("no board spot under Resume: the test's premise (the board under the button) is gone")


def queue_tap(x: float, y: float) -> UnitTestTouch:
    """A finger's down and up, queued as the window queues them: read in the next frame."""
    touch = UnitTestTouch(x, y)
    EventLoop._dispatch_input("begin", touch)
    EventLoop._dispatch_input("end", touch)
    return touch


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_second_tap_on_resume_does_not_reach_the_board(tmp_path, size):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        start, play = app.root.get_screen("start"), app.root.get_screen("play")
        resume = d.find(start.ids.games, f"#{game_id} ", startswith=True)
        d.tap(resume)  # once, to learn where the board lies under the button
        assert app.root.current == "play"
        d.settle()
        x, y = point_over_a_spot(play.ids.board, resume)
        d.tap(play.ids.menu)
        d.settle()
        events = len(app.table.record.events)
        resume = d.find(start.ids.games, f"#{game_id} ", startswith=True)

        # The frame that opens the game is slow (a loaded tablet: 2 s here); the player, seeing nothing happen,
        # taps again meanwhile.  The window reads that touch after the frame, under the new screen.
        queue_tap(x, y)
        assert d.wait_until(lambda: app.root.current == "play")  # the frame that switched, and no more
        queue_tap(x, y)
        d.pump(1)
        d.settle()
        assert app.root.current == "play"
        assert len(app.table.record.events) == events, app.table.record.events[events:]
        assert not play.ids.message.text, play.ids.message.text
    finally:
        d.stop_app(app)
