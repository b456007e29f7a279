"""The card game's screen driven by simulated touches under Xvfb: chosen in the new-game screen, exchanges
counted from the A-side roads, one build of each kind, a city's robber raid flipping the fate card, the
end-of-turn draw, the tableau's A/B sides and VP, a refused build with the rules' reason, undo, and the
screen in English and Japanese written to docs/screens/.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.rules.board import RESOURCES
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
SHOTS = Path(__file__).resolve().parents[1] / "docs" / "screens"


def shot(name: str) -> None:
    d.screenshot(SHOTS / f"{name}.png")


def press(widget) -> None:
    """A finger on ``widget``, scrolled into view first as a user would (the action panel scrolls)."""
    d.tap(widget)


def button(screen, text: str):
    d.settle()  # a rebuilt panel settles its layout first
    return d.find(screen.ids.actions, text, startswith=True)


def tableau_text(screen, player: int) -> str:
    """The player's row as read left to right: the name and VP, then each card."""
    def texts(widget):
        for child in widget.children[::-1]:
            if getattr(child, "text", ""):
                yield child.text
            yield from texts(child)

    return " | ".join(texts(screen.ids.tableaux.children[::-1][player]))


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
        # the prompt no longer offers an exchange either (it read "Aki: exchange (0 left) or build"; session 18)
        assert screen.prompt == "Aki: build (one of each kind) or end the turn"
        assert "Aki took ore from the market for a card" in screen.info, "one tap recorded it: the screen says so"
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
        assert "Ben exchanged a card with Chie" in screen.info
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        assert "BenはChieと1枚交換した" in screen.info
        app.apply_settings(replace(app.settings, lang="en"))
        d.settle()
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
        assert d.layout_problems(app.root) == [], "the tableaux and the builds fit the landscape screen"
        shot("card-game-en")
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        assert "運命カード" in screen.info and "点" in tableau_text(screen, 1)
        # the caption of the last outcome follows the language too (no English sentence left on a Japanese screen)
        # (the players' typed names are theirs, in any script)
        words = app.caption.replace("Aki", "").replace("Ben", "")
        assert app.caption and not any(c.isascii() and c.isalpha() for c in words), app.caption
        assert d.layout_problems(app.root) == []
        # the builds in Japanese take the full-width colon, no space ("都市：盗賊の襲撃"; was "都市: 盗賊の襲撃")
        labels = [w.text for w in d.walk(screen.ids.actions) if getattr(w, "text", "").startswith("都市")]
        assert "都市：盗賊の襲撃" in labels and "都市拡充：教会" in labels, labels
        assert not any(": " in t or ":" in t for t in labels), labels
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
        ng = d.open_new_game(app, "base")
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


# --- three identical cards for a missing one, and the screen held upright ----------------------------------

PLAYERS = [{"name": "Aki", "color": "red"}, {"name": "Ben", "color": "blue"}]


def seen_hand_record(gets=("wool", "wool", "wool", "lumber")):
    """Aki ends up holding ``gets`` (by default wool 3 and lumber 1), every card seen (each from the market for
    an unseen one given, the end-of-turn draws discarded by a card's text); Ben holds unseen cards."""
    from companion.record import Record

    events = []
    for k, get in enumerate(gets):
        events.append({"type": "exchange", "player": 0, "with": "market", "give": "grain", "get": get})
        if k < len(gets) - 1:
            events += [{"type": "end_turn", "player": 0}, {"type": "discard", "player": 0, "cards": {"ore": 1}},
                       {"type": "end_turn", "player": 1}]
    return Record("card-game", PLAYERS, {"start": {"cards": 1}}, {}, events)


def row_of(screen, label: str):
    """The buttons of the action row whose first widget reads ``label``."""
    d.settle()
    for row in screen.ids.actions.children:
        kids = row.children[::-1]
        if kids and getattr(kids[0], "text", None) == label:
            return {w.text: w for w in kids[1:]}
    raise LookupError(f"no row {label!r}")


def test_three_identical_cards_stand_in_for_a_missing_card_in_portrait(tmp_path):
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.start_game(seen_hand_record())
        screen = app.root.get_screen("card_game")
        game = app.table.game
        assert app.root.current == "card_game" and game.state.players[0].hand.known == {"wool": 3, "lumber": 1}
        assert d.layout_problems(app.root) == []

        # A road costs lumber + brick; Aki has no brick. The cost alone is refused, so the screen offers the
        # payments the rules take: only three wool for the brick (one lumber cannot be three).
        events = len(app.table.record.events)
        press(button(screen, "Road"))
        assert len(app.table.record.events) == events and game.state.players[0].roads == 1
        assert screen.message.startswith("The cards known in hand do not pay for the Road")
        assert {w.text for w in d.walk(screen.ids.actions) if getattr(w, "text", "").startswith("3 ×")} == {"3 × wool"}
        assert set(row_of(screen, "for brick:")) == {"3 × wool"}
        assert d.layout_problems(app.root) == [], "the stand-in choice fits the upright screen"
        shot("card-game-portrait-en")
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        # the refusal said in English goes with the language; the stand-in choice stays, now in Japanese
        assert "足りない1枚" in screen.ids.actions.children[-1].text and screen.message == ""
        assert d.layout_problems(app.root) == [], "the Japanese labels fit too"
        shot("card-game-portrait-ja")
        app.apply_settings(replace(app.settings, lang="en"))
        d.settle()
        press(row_of(screen, "for brick:")["3 × wool"])
        assert app.table.record.events[-1] == {"type": "build", "player": 0, "piece": "road",
                                               "paid": {"lumber": 1, "wool": 3}}, screen.message
        assert game.state.players[0].roads == 2 and game.state.players[0].hand.size == 0
        assert "Road\nB" in tableau_text(screen, 0)

        # Ben's 7 cards are unseen: the table cannot know what is missing, Ben says so with the toggle.
        press(button(screen, "End turn"))
        ben = game.state.players[1].hand
        assert game.state.turn_player == 1 and ben.unknown == ben.size == 7
        press(button(screen, "Pay 3 for 1"))
        press(button(screen, "Knight"))  # grain, wool, ore
        assert screen.selection.get("stand_in", {}).get("piece") == "knight"
        for missing in ("grain", "wool", "ore"):  # any other resource's three cards; never its own
            assert set(row_of(screen, f"for {missing}:")) == {f"3 × {r}" for r in RESOURCES if r != missing}
        assert d.layout_problems(app.root) == []
        # Cancel closes the choice without recording anything; then the same again, paid with three brick.
        events = len(app.table.record.events)
        press(button(screen, "Cancel"))
        assert len(app.table.record.events) == events and screen.selection == {}
        assert button(screen, "Pay 3 for 1").state == "normal"
        press(button(screen, "Pay 3 for 1"))
        press(button(screen, "Knight"))
        press(row_of(screen, "for ore:")["3 × brick"])
        assert app.table.record.events[-1]["paid"] == {"grain": 1, "wool": 1, "brick": 3}
        assert game.state.players[1].knights == 1 and game.state.players[1].hand.size == 2
        assert button(screen, "Pay 3 for 1").state == "normal", "the next build is paid at its cost again"
        # Two cards left cannot make six: nothing is offered, nothing recorded.
        press(button(screen, "Pay 3 for 1"))
        press(button(screen, "Settlement"))
        assert screen.message == "No three identical cards can pay for the Settlement now"
        assert len(app.table.record.events) == events + 1 and "stand_in" not in screen.selection
        assert d.layout_problems(app.root) == []

        # Two cards missing: Aki holds six wool, seen, and nothing else; a road takes them for its lumber and brick.
        app.start_game(seen_hand_record(("wool",) * 6))
        screen, game = app.root.get_screen("card_game"), app.table.game
        assert game.state.players[0].hand.known == {"wool": 6} and game.state.players[0].hand.unknown == 0
        press(button(screen, "Road"))
        assert {w.text for w in d.walk(screen.ids.actions) if getattr(w, "text", "").endswith("× wool")} == {"6 × wool"}
        press(row_of(screen, "for lumber + brick:")["6 × wool"])
        assert app.table.record.events[-1] == {"type": "build", "player": 0, "piece": "road", "paid": {"wool": 6}}
        assert game.state.players[0].roads == 2 and game.state.players[0].hand.size == 0

        # A whole game's tableaux upright: a long row wraps onto a second line of cards inside its player's band,
        # each card drawn where it is (its background inside its own box), nothing past the screen's edge.
        from companion.record import Record, load_record

        example = load_record(Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-card-game.json")
        app.start_game(Record(example.game, example.players, example.board, example.options, example.events))
        screen = app.root.get_screen("card_game")
        assert app.table.game.state.phase == "game_over" and d.layout_problems(app.root) == []
        aki = screen.ids.tableaux.children[-1]
        cards = [w for w in d.walk(aki) if getattr(w, "text", "").startswith(("Road", "Knight", "Settlement", "City"))]
        assert len(cards) > 6 and len({c.y for c in cards}) == 2, "Aki's cards take two lines"
        for card in cards:
            assert aki.y <= card.y and card.top <= aki.top
            (rect,) = [i for i in card.canvas.before.children if type(i).__name__ == "Rectangle"]
            assert card.x <= rect.pos[0] and rect.pos[0] + rect.size[0] <= card.right
            assert card.y <= rect.pos[1] and rect.pos[1] + rect.size[1] <= card.top
    finally:
        d.stop_app(app)


def test_the_end_lists_everyones_points_winner_first(tmp_path):
    """The game's last build wins it: below 'Game over' the panel lists each player's VP, the winner first, in
    either language (it was empty: a table ending the evening saw no score but the tableaux); players level on VP
    share their place."""
    from companion.record import Record, load_record

    example = load_record(Path(__file__).resolve().parents[1] / "companion" / "assets" / "games"
                          / "example-card-game.json")
    app = d.start_app(tmp_path, size=(800, 1280))
    try:
        app.start_game(example)
        screen, game = app.root.get_screen("card_game"), app.table.game
        assert game.state.phase == "game_over"
        winner = game.state.winner
        d.settle()
        final = d.find_label(screen.ids.actions, "Final points:")
        # Aki and Chie level on 6 VP share second place (session 18: they read "2." and "3." by seat)
        assert winner == 1 and [game.victory_points(p) for p in range(3)] == [6, 10, 6]
        assert final.text.splitlines()[1:] == ["1. Ben — 10 VP", "2. Aki — 6 VP", "2. Chie — 6 VP"]
        assert d.layout_problems(app.root) == []
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        final = d.find_label(screen.ids.actions, "最終の勝利点：")
        assert final.text.splitlines()[1:] == ["1. Ben — 10点", "2. Aki — 6点", "2. Chie — 6点"]
    finally:
        d.stop_app(app)
