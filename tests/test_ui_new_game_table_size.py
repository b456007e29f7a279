"""The table's size on the new-game screen, as a group new to the app taps it (playtest s10, upright, Japanese).

Five friends at the default Base 3-4 tap 5: that is the 5-6 game, chosen with it.  Before, the tap was refused
with "base: 3-4" (English, the game's record name, on a Japanese screen) and 5 stayed shown as chosen while the
seats and the board were still the 3-4 game's; 3 tapped at Base 5-6 did the same ("base56: 5-6").  A size a game
is never played by (5 or 6 for Starfarers or the card game) cannot be tapped, as 2 could not for the board games.
Real widgets under Xvfb, by taps."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def shown_counts(ng) -> list[str]:
    return [t.text for t in (ng.ids.n2, ng.ids.n3, ng.ids.n4, ng.ids.n5, ng.ids.n6) if t.state == "down"]


def test_the_table_size_chooses_the_base_games_box(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        d.tap(app.root.get_screen("start").ids.settings)
        d.tap(app.root.get_screen("settings").ids.lang_ja)
        d.tap(app.root.get_screen("settings").ids.save)
        ng = d.open_new_game(app)
        assert ng.game == "base" and ng.count == 4
        d.tap(ng.ids.n5)  # five at the table
        d.settle()
        assert (ng.game, ng.count) == ("base56", 5), ng.message
        assert ng.ids.g_base56.state == "down" and ng.ids.g_base.state == "normal"
        assert shown_counts(ng) == ["5"] and len(ng.ids.players.children) == 5
        assert len(ng.ids.preview.board.land) == 30  # the 5-6 board, not the 19 hexes
        assert ng.message == ""
        d.tap(ng.ids.n6)
        d.tap(ng.ids.n3)  # one went home: three play the 3-4 game
        d.settle()
        assert (ng.game, ng.count) == ("base", 3), ng.message
        assert ng.ids.g_base.state == "down" and shown_counts(ng) == ["3"]
        assert len(ng.ids.preview.board.land) == 19
        assert ng.message == ""
        d.tap(ng.ids.n6)
        d.tap(ng.ids.start)
        assert app.root.current == "play" and app.table.game.n_players == 6
        assert app.table.record.game == "base56"
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("game, sizes", [("starfarers", (3, 4)), ("card-game", (2, 3, 4)),
                                         ("seafarers", (3, 4, 5, 6)), ("high-tide", (3, 4, 5, 6))])
def test_a_size_the_game_is_not_played_by_cannot_be_chosen(tmp_path, game, sizes):
    app = d.start_app(tmp_path)
    try:
        ng = d.open_new_game(app, game)
        for n in range(2, 7):
            toggle = ng.ids[f"n{n}"]
            assert toggle.disabled == (n not in sizes), (game, n)
        ng.set_count(6 if 6 not in sizes else 2)  # reached some other way than a tap: said in words, shown
        d.settle()
        assert ng.message and ":" not in ng.message and game not in ng.message, ng.message
        assert len(shown_counts(ng)) == 1 and int(shown_counts(ng)[0]) == ng.count
    finally:
        d.stop_app(app)
