"""「元に戻す」 (Undo) on one line: at 1280x800 in Japanese the play screen's bottom row gives each of its six buttons
74 px, and Undo's 20 sp letters broke it between its phrases, 「元に / 戻す」, two lines of two characters (session
16's trial), while やり直し, 盤面確認 and メニュー beside it fitted on one line at 16 sp.  A button's short Japanese
command (four characters or fewer: wrapping.short_command) now takes smaller letters to stay whole, and the layout
check names one broken onto two lines."""

from __future__ import annotations

import pytest
from kivy.metrics import sp

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "upright"])
def test_undo_stays_on_one_line_in_japanese(tmp_path, size):
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = "ja"
        d.settle()
        play = d.resume(app, game_id)
        d.settle()
        row = list(reversed(play.ids.undo.parent.children))
        assert [b.text for b in row] == ["元に戻す", "やり直し", "審判", "統計", "盤面確認", "メニュー"]
        for button in row:  # each on one line, inside its button, in letters of 16 sp or more
            assert len(button._label._cached_lines) == 1, (button.text, button._label._cached_lines)
            assert button.font_size >= sp(16) - 0.01, (button.text, button.font_size)
            assert button.texture_size[0] <= button.width + 1 and button.texture_size[1] <= button.height + 1
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
