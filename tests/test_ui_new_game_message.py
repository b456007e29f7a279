"""What the new-game screen says (the generator's "Seed 1 gives the same board as before.", Start's board problems)
is in sight at once, at every size: it used to sit at the bottom of the scrolling form, below what a 1280x800
screen shows, so a tap on "Generate board" seemed to do nothing."""

from __future__ import annotations

import pytest
from kivy.uix.scrollview import ScrollView

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def in_sight(widget) -> bool:
    """Whether the whole of ``widget`` is on the window and inside the visible part of every panel scrolling it."""
    from kivy.core.window import Window

    x0, y0 = widget.to_window(widget.x, widget.y)
    x1, y1 = widget.to_window(widget.right, widget.top)
    if x0 < 0 or y0 < 0 or x1 > Window.width or y1 > Window.height:
        return False
    node = widget.parent
    while node is not None and node is not node.parent:
        if isinstance(node, ScrollView):
            sx0, sy0 = node.to_window(node.x, node.y)
            sx1, sy1 = node.to_window(node.right, node.top)
            if y0 < sy0 - 1 or y1 > sy1 + 1:
                return False
        node = node.parent
    return True


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_the_same_seed_message_is_in_sight(tmp_path, size):
    app = d.start_app(tmp_path, size=size)
    try:
        new_game = d.open_new_game(app)
        d.tap(d.find(new_game, app.tr("generate")))
        said = "Seed 1 gives the same board as before."
        assert new_game.message == said
        label = d.find_label(new_game, said)
        assert in_sight(label), (label.to_window(label.x, label.y), label.size)
    finally:
        d.stop_app(app)


def test_the_message_follows_a_language_change(tmp_path):
    """A message on the new-game screen is said again in the new language (it stayed in the old one): the same
    seed's message, then Start's board problems, by taps, with the language switched in Settings."""
    import dataclasses

    app = d.start_app(tmp_path)
    try:
        new_game = d.open_new_game(app)
        d.tap(d.find(new_game, app.tr("generate")))
        assert new_game.message == "Seed 1 gives the same board as before."
        app.apply_settings(dataclasses.replace(app.settings, lang="ja"))  # what Settings' Save does
        d.settle()
        assert new_game.message == "シード1は前と同じ盤面です。"
        app.apply_settings(dataclasses.replace(app.settings, lang="en"))
        d.settle()
        assert new_game.message == "Seed 1 gives the same board as before."
    finally:
        d.stop_app(app)
