"""After a game's end, the same table plays again: the game-over screen offers "New game, same players", which
opens the new-game form holding the finished game's game, table size, names and colours (a player who typed no
name stays unnamed).  Before, the only way on was Menu -> New game, which opened Base 3-4 for four with the
default names: a table of five that had just finished High Tide chose the game, the size and typed every name
again (playtest s11, by real taps).

The game is the bundled High Tide example, journalled before its last event (the leader's last End turn) with
the table's own names, resumed from the start screen and ended by a tap.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.record import load_record
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)
EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-high-tide.json"
# seat 2 typed no name: the record names that player by colour ("green"), and the form leaves the seat blank again
TABLE = [{"name": "Haruka", "color": "orange"}, {"name": "green", "color": "green"}, {"name": "Mio", "color": "white"}]


def ended_by_a_tap(tmp_path, size, lang):
    record = load_record(EXAMPLE)
    record.events = record.events[:-1]  # the leader's last End turn is the table's tap
    record.players = [dict(p) for p in TABLE]
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    if lang != "en":
        app.apply_settings(replace(app.settings, lang=lang))
        d.settle()
    play = d.resume(app, game_id)
    d.tap(play.ids.end_turn)
    assert app.table.game.state.phase == "game_over"
    return app, play, game_id


def name_fields(ng) -> list[str]:
    from companion.ui.new_game_screen import NameField

    rows = ng.ids.players.children[::-1]
    return [next(w for w in row.children if isinstance(w, NameField)).text for row in rows]


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_the_game_over_screen_starts_the_same_table_again(tmp_path, size, lang):
    app, play, old_id = ended_by_a_tap(tmp_path, size, lang)
    try:
        again = d.find(play.ids.actions, app.tr("play_again"))
        assert again.text == {"en": "New game, same players", "ja": "同じメンバーで新しいゲーム"}[lang]
        # in sight under the ranking, as the game ends (no drag to find it)
        x0, y0 = again.to_window(again.x, again.y)
        x1, y1 = again.to_window(again.right, again.top)
        view = play.ids.actions.parent
        vx0, vy0 = view.to_window(view.x, view.y)
        vx1, vy1 = view.to_window(view.right, view.top)
        assert vx0 <= x0 and x1 <= vx1 and vy0 <= y0 and y1 <= vy1, ((x0, y0, x1, y1), (vx0, vy0, vx1, vy1))

        d.tap(again)
        assert app.root.current == "new_game"
        ng = app.root.get_screen("new_game")
        assert ng.game == "high-tide" and ng.ids.g_high_tide.state == "down"
        assert ng.count == 3 and ng.ids.n3.state == "down" and ng.ids.n4.state == "normal"
        assert name_fields(ng) == ["Haruka", "", "Mio"]
        assert ng.colors[:3] == ["orange", "green", "white"]

        d.tap(ng.ids.start)  # one tap to the next game
        assert app.root.current == "play"
        new = app.table.record
        assert app.table.game_id != old_id and new.game == "high-tide"
        assert [p["color"] for p in new.players] == ["orange", "green", "white"]
        assert [p["name"] for p in new.players] == ["Haruka", app.tr("green"), "Mio"]
        assert app.table.game.state.phase == "setup_settlement" and not new.events
    finally:
        d.stop_app(app)


def test_the_card_games_end_starts_the_same_table_again(tmp_path):
    """The card game ends on its own screen: under the final points the same button, to the form holding the
    card game and its players."""
    from companion.record import load_record

    example = load_record(Path(__file__).resolve().parents[1] / "companion" / "assets" / "games"
                          / "example-card-game.json")
    example.players = [{"name": "Haruka", "color": "blue"}, {"name": "Ken", "color": "red"},
                       {"name": "Mio", "color": "white"}][:len(example.players)]
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.start_game(example)  # the example's record ends with its winning build
        screen = app.root.get_screen("card_game")
        assert app.table.game.state.phase == "game_over"
        d.settle()
        d.tap(d.find(screen.ids.actions, "New game, same players"))
        assert app.root.current == "new_game"
        ng = app.root.get_screen("new_game")
        n = len(example.players)
        assert ng.game == "card-game" and ng.ids.g_card_game.state == "down" and ng.count == n
        assert name_fields(ng) == [p["name"] for p in example.players]
        assert ng.colors[:n] == [p["color"] for p in example.players]
        d.tap(ng.ids.start)
        assert app.root.current == "card_game" and not app.table.record.events
        assert [p["name"] for p in app.table.record.players] == [p["name"] for p in example.players]
    finally:
        d.stop_app(app)
