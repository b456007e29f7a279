"""The card game's screen driven by simulated touches under Xvfb: chosen in the new-game screen, exchanges
counted from the A-side roads, one build of each kind, a city's robber raid flipping the fate card, the
end-of-turn draw, the tableau's A/B sides and VP, a refused build with the rules' reason, undo, and the
screen in English and Japanese written to docs/screens/.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screens"


def shot(name: str) -> None:
    from kivy.core.window import Window

    d.settle()
    Window.dispatch("on_draw")
    written = Path(Window.screenshot(str(SHOTS / f"tmp-{name}.png")))
    written.replace(SHOTS / f"{name}.png")
    assert (SHOTS / f"{name}.png").stat().st_size > 8_000


def press(widget) -> None:
    """A finger on ``widget``, scrolled into view first as a user would (the action panel scrolls)."""
    d.tap(widget)


def button(screen, text: str):
    d.settle()  # a rebuilt panel settles its layout first
    return d.find(screen.ids.actions, text, startswith=True)


def tableau_text(screen, player: int) -> str:
    row = screen.ids.tableaux.children[::-1][player]
    return " | ".join(w.text for w in row.children[::-1] if w.text)


def test_card_game_turns_builds_fate_and_undo(tmp_path):
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        d.tap(start.ids.new_game)
        ng = app.root.get_screen("new_game")
        d.tap(ng.ids.g_card_game)
        d.tap(ng.ids.n3)
        d.tap(ng.ids.start)
        assert app.root.current == "card_game", ng.message
        screen = app.root.get_screen("card_game")
        game = app.table.game
        assert screen.prompt == "Aki: exchange (1 left) or build"  # one A-side road: one exchange
        assert "Fate card: white (← left)" in screen.info

        # The one exchange, with the market; then no exchange is offered any more.
        press(button(screen, "ore"))
        assert game.state.players[0].hand.count("ore") == 1, (screen.message, app.table.record.events)
        assert screen.prompt == "Aki: exchange (0 left) or build"
        assert not any(getattr(w, "text", "") == "Draw pile" for w in d.walk(screen.ids.actions))

        # A knight (grain, wool, ore: the hand's 2 unseen cards and the ore pay for it) laid A side.
        press(button(screen, "Knight"))
        assert game.state.players[0].knights == 1, screen.message
        assert "Knight\nA" in tableau_text(screen, 0)
        # A second knight in the same turn: one build of each kind.
        press(button(screen, "Knight"))
        assert game.state.players[0].knights == 1 and "already built a knight" in screen.message

        # End of turn: 2 cards plus 1 for the A-side knight.
        end = button(screen, "End turn")
        assert end.text == "End turn (draw 3)"
        before = game.state.players[0].hand.size
        d.tap(end)
        assert game.state.players[0].hand.size == before + 3 and game.state.turn_player == 1
        assert "Aki draws 3" in screen.info
        assert screen.prompt.startswith("Ben: exchange")

        # Ben: exchange with Chie (hand sizes kept), then a city showing the robber raid: the fate card flips.
        chie = game.state.players[2].hand.size
        press(button(screen, "With Chie"))
        assert game.state.players[2].hand.size == chie
        press(button(screen, "End turn"))
        press(button(screen, "End turn"))  # Chie
        press(button(screen, "End turn"))  # Aki
        assert game.state.turn_player == 1
        press(button(screen, "City: robber raid"))
        assert screen.prompt == "Ben: build (one of each kind) or end the turn"
        assert game.state.players[1].cities == [["robber_raid", None]], screen.message
        assert game.state.fate == "black" and "Fate card: black (right →)" in screen.info
        assert game.victory_points(1) == 2  # the settlement became a city: 2 instead of 1
        assert tableau_text(screen, 1).startswith("[b]Ben[/b]\n2 VP")
        assert "City\nrobber raid" in tableau_text(screen, 1)
        # A card's text lets Ben draw 4; an expansion on the city: 3 VP replacing the city's 2.
        for _ in range(4):
            press(button(screen, "Draw 1"))
        press(button(screen, "Expansion: church"))
        assert game.state.players[1].cities == [["robber_raid", "church"]], screen.message
        assert game.victory_points(1) == 3 and tableau_text(screen, 1).startswith("[b]Ben[/b]\n3 VP")
        assert "City+church" in tableau_text(screen, 1)
        shot("card-game-en")
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        assert "運命カード" in screen.info and "点" in tableau_text(screen, 1)
        shot("card-game-ja")
        app.apply_settings(replace(app.settings, lang="en"))
        d.settle()

        # Undo back to before the city: the fate card and the tableau return, the journal agrees.
        while game.state.players[1].cities:
            d.tap(screen.ids.undo)
        assert game.state.fate == "white" and game.state.players[1].settlements == 1 and game.victory_points(1) == 1
        assert "City" not in tableau_text(screen, 1)
        assert app.journal.load(app.table.game_id).events == app.table.record.events
        game_id, summary = app.table.game_id, game.summary()
    finally:
        d.stop_app(app)

    # A new app over the same journal: the game is listed under its name and resumes on its own screen.
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        line = d.find(start.ids.games, f"#{game_id} ", startswith=True)
        assert "Card game" in line.text
        d.tap(line)
        assert app.root.current == "card_game"
        assert app.table.game.summary() == summary
        assert app.root.get_screen("card_game").prompt.startswith("Ben: exchange")
    finally:
        d.stop_app(app)


def test_the_card_game_is_offered_for_two_players_and_the_board_games_are_not(tmp_path):
    app = d.start_app(tmp_path)
    try:
        d.tap(app.root.get_screen("start").ids.new_game)
        ng = app.root.get_screen("new_game")
        d.tap(ng.ids.g_base)
        d.settle()
        assert ng.ids.n2.disabled, "the base game starts at three players"
        d.tap(ng.ids.g_card_game)
        d.settle()
        assert not ng.ids.n2.disabled
        d.tap(ng.ids.n2)
        d.tap(ng.ids.start)
        assert app.root.current == "card_game", ng.message
        assert [p["name"] for p in app.table.record.players] == ["Aki", "Ben"]
        assert app.table.game.state.turn_player == 0
    finally:
        d.stop_app(app)
