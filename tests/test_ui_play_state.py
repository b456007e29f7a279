"""The play screen as a first table meets it, by touches on the real widgets under Xvfb: a player wins by
showing victory-point cards; nothing of one game (a refusal, its umpire offer, an open panel) follows into
the next, a resumed one or another language; the tiles show what the table knows of each hand; a build
button says why it cannot be used; the last player's roll goes when the turn passes; buying a card and a
trade are confirmed under the board."""

from __future__ import annotations

import re

import pytest

from companion.rules.values import replace
from companion.ui import driver as d
from companion.ui import i18n, i18n_play

pytestmark = pytest.mark.timeout(180)


def journal_game(data_dir, options=None, extra=()) -> int:
    """Aki on turn after a roll, holding two development cards bought unseen and a few resources."""
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    if options:
        record = replace(record, options=options)
    record.events += [{"type": "roll", "dice": [1, 1]},
                      {"type": "set_hand", "player": 0, "cards": {"grain": 4, "wool": 3, "ore": 4, "lumber": 4, "brick": 1}},
                      {"type": "buy_development", "player": 0, "card": None},
                      {"type": "buy_development", "player": 0, "card": None},
                      *extra]
    return d.journal(data_dir, record)


def test_showing_vp_cards_wins_at_once_and_the_ranking_counts_them(tmp_path):
    game_id = journal_game(tmp_path, options={"vp_target": 4})  # two settlements + two VP cards
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        assert game.victory_points(0) == 2
        aki = next(t for t in play.ids.vpboard.children if "Aki" in t.text)
        assert "dev cards 2" in aki.text and "1 brick, 2 grain, 4 lumber, 2 ore, 1 wool" in aki.text  # the tile shows the hand as known

        d.tap(d.find(play.ids.actions, "Show VP cards"))
        d.find_label(play.ids.actions, "Aki: how many victory-point cards to show? (up to 2)")
        d.tap(d.find(play.ids.actions, "2"))
        d.tap(d.find(play.ids.actions, "Show 2 VP cards"))
        assert app.table.record.events[-1] == {"type": "reveal_development", "player": 0,
                                               "cards": {"victory_point": 2}}
        assert game.state.phase == "game_over" and game.state.winner == 0
        assert "Aki" in play.prompt
        ranking = d.find_label(play.ids.actions, "Ranking")
        assert "1. Aki — 4 VP" in ranking.text
        assert "VP cards 2" in next(t for t in play.ids.vpboard.children if "Aki" in t.text).text
        assert d.wait_until(lambda: "wins the game" in app.caption), app.caption  # said aloud too
    finally:
        d.stop_app(app)
    # journalled: the game is finished, so the start screen no longer offers it to resume, only among the
    # finished games (test_ui_finished_games)
    app = d.start_app(tmp_path)
    try:
        rows = [w for w in d.walk(app.root.get_screen("start").ids.games)
                if getattr(w, "text", "").startswith(f"#{game_id} ")]
        assert rows and all(getattr(w, "finished_game", None) == game_id for w in rows)
    finally:
        d.stop_app(app)


def test_nothing_of_one_game_follows_into_the_next(tmp_path):
    game_id = journal_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        board = play.ids.board
        game = app.table.game
        # A refusal and its umpire offer, and the trade panel open.
        d.tap(d.find(play.ids.actions, "Trade"))
        d.tap(d.find(play.ids.actions, "Road"))
        far = d.unreachable_road_side(game, board.legal)
        d.tap_at(*board.edge_pos(far))  # refused: the umpire's "record anyway" is offered
        assert play.refused and play.message and board.flash == far and board.marked, "the refused spot is ringed"
        d.find(play, "Record anyway (umpire)")  # (beside the message, or in the action panel)

        # Menu → New game → Start: a clean screen.
        d.tap(play.ids.menu)
        d.new_game(app, players=3)
        assert play.message == "" and not play.refused and play.selection == {} and play.build_piece == ""
        assert not [w for w in d.walk(play) if getattr(w, "text", "") == "Record anyway (umpire)" and d._shown(w)
                    and not w.disabled]
        assert board.flash is None and board.marked == [], "the old game's refused spot is not ringed on the new board"

        # Resuming the first game: clean again, its own state shown.
        d.tap(play.ids.menu)
        play = d.resume(app, game_id)
        assert play.message == "" and play.selection == {}
        d.tap(d.find(play.ids.actions, "Trade"))
        assert play.selection == {"mode": "trade"}

        # A language switch (Settings → 日本語 → Save) clears the sentence said in English; the trade being
        # chosen stays (it is this game's, and redraws in Japanese).
        play.message = "an English sentence"
        d.tap(play.ids.menu)
        d.tap(app.root.get_screen("start").ids.settings)
        settings = app.root.get_screen("settings")
        d.tap(settings.ids.lang_ja)
        d.tap(settings.ids.save)
        assert app.lang == "ja"
        assert play.message == "" and play.selection == {"mode": "trade"}
    finally:
        d.stop_app(app)


def test_build_buttons_say_why_and_the_roll_goes_when_the_turn_passes(tmp_path):
    game_id = journal_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        # The cost card, and the reasons on the buttons, from the rules core.
        d.find_label(play.ids.actions, "Costs: ")
        city = d.find(play.ids.actions, "City", startswith=True)
        assert "can't pay" in city.text  # 2 ore, 2 grain: a city needs 3 ore
        d.tap(city)
        # nothing armed: the board offers only what a tap may build now (no corner for a city)
        assert "cannot pay 2 grain, 3 ore for a city" in play.message and play.build_piece == ""
        assert play.ids.board.pick == "build" and not set(game.legal_city_spots(0)) & play.ids.board.legal
        assert "can't pay" not in d.find(play.ids.actions, "Buy dev card", startswith=True).text

        # Buying a card is confirmed under the board.
        d.tap(d.find(play.ids.actions, "Buy dev card", startswith=True))
        assert app.table.record.events[-1]["type"] == "buy_development"
        # and said: the caption is the announcement's (tests/test_announce_bought_and_traded.py hears it)
        assert d.wait_until(lambda: app.caption == "Aki buys a development card."), app.caption
        assert "dev cards 3" in next(t for t in play.ids.vpboard.children if "Aki" in t.text).text

        # A bank trade is confirmed too (4 lumber in hand: enough at any ratio).
        ratio = game.harbor_ratios(0)["lumber"]
        d.tap(d.find(play.ids.actions, "Trade"))
        d.tap(d.find(play.ids.actions, "Bank"))
        d.tap(d.find(play.ids.actions, "lumber\n", startswith=True))
        get_row = next(r for r in play.ids.actions.children if r.children and getattr(r.children[-1], "text", "") == "Get")
        d.tap(d.find(get_row, "ore"))
        d.tap(d.find(play.ids.actions, "OK"))
        said = {2: "two", 3: "three", 4: "four"}[ratio]
        assert d.wait_until(lambda: app.caption == f"Aki trades {said} lumber to the bank for one ore."), app.caption
        assert play.roll_text.startswith("Rolled 2")
        d.tap(play.ids.end_turn)
        assert game.state.turn_player == 1 and play.roll_text == "" and play.payout_text == ""
        d.tap_dice(play, 5)
        assert play.roll_text.startswith("Rolled 5")
    finally:
        d.stop_app(app)


def test_play_texts_are_in_both_languages_with_the_same_fields():
    from tests.test_ui_texts import problems

    texts = {key: (entry.get("en"), entry.get("ja")) for key, entry in i18n_play.TEXT.items()}
    assert problems(texts) == []
    # (names a Japanese reader reads as written: the USB cable, Linux and its dialout group -- the box's problems)
    names = r"\{\w+\}|USB|Linux|dialout"
    assert all(not re.search(r"[A-Za-z]{2,}", re.sub(names, "", entry["ja"])) for entry in i18n_play.TEXT.values())
    i18n_play.install()
    assert i18n.TEXT["reveal_vp"] is i18n_play.TEXT["reveal_vp"]


def test_small_things_a_table_notices(tmp_path):
    """The robber stands inside its hex; the resume list says turn, points and date; Settings returns where it
    was opened from and shows the demo's box; the generator says when a seed gives the same board; Statistics
    after a restart counts the rolls of the resumed game."""
    import math

    from companion.rules import geometry as geo

    game_id = journal_game(tmp_path)
    app = d.start_app(tmp_path, demo=True, source_url="sim://?seed=3&every=0&profile=fast")
    try:
        start = app.root.get_screen("start")
        line = d.find(start.ids.games, f"#{game_id} ", startswith=True)
        assert re.fullmatch(rf"#{game_id} Base 3–4 — turn 1 — Aki 2, Ben 2, Chie 2 — \d\d \w\w\w \d\d:\d\d", line.text), \
            line.text

        # Settings, opened from the start screen, shows the demo's dice and returns to the start screen.
        d.tap(start.ids.settings)
        settings = app.root.get_screen("settings")
        assert settings.ids.source.text == app.tr("source_sim")
        d.tap(settings.ids.save)
        assert app.root.current == "start"
        assert app.settings.source_kind != "sim"  # the demo's box is not saved as the table's

        # New game: the same seed twice says so.
        d.tap(start.ids.new_game)
        new_game = app.root.get_screen("new_game")
        d.tap(d.find(new_game, app.tr("generate")))
        assert new_game.message == "Seed 1 gives the same board as before."
        d.tap(d.find(new_game, app.tr("back")))
        assert app.root.current == "start"

        play = d.resume(app, game_id)
        game = app.table.game
        board = play.ids.board
        robber = game.state.robber
        size = math.dist(board.hex_pos((0, 0)), board.hex_pos((1, 0))) / math.sqrt(3)  # a hex's size on screen
        x, y = board.figure_pos(robber)
        cx, cy = board.hex_pos(robber)
        assert math.dist((x, y), (cx, cy)) < 0.7 * size  # inside: the flat sides are 0.87 away
        corners = [board.vertex_pos(v) for v in geo.hex_vertices(robber)]
        assert min(math.dist((x, y), c) for c in corners) > 0.5 * size  # clear of where settlements stand

        # Statistics after a restart: the resumed game's roll is counted.
        d.tap(play.ids.stats)
        assert app.root.get_screen("statistics").summary.startswith("Rolls so far: 1")
    finally:
        d.stop_app(app)
