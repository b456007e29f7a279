"""The app driven by simulated touches under Xvfb: a game from the start screen to a handled 7,
undo/redo, and a restart that resumes at the same state; dice from the simulator over a pty.

Every input is a touch on a real widget (through Kivy's input dispatch); every expectation is
what the screen shows next to what the rules core says.
"""

from __future__ import annotations

import dataclasses

from pathlib import Path

import pytest

from companion.ui import driver as d
from companion.ui.driver import new_game, place_setup, producing_number, tap_dice

pytestmark = pytest.mark.timeout(180)


def test_game_setup_rolls_seven_undo_and_resume(tmp_path):
    app = d.start_app(tmp_path)
    try:
        new_game(app)
        play = app.root.get_screen("play")
        board = play.ids.board
        game = app.table.game
        assert "Aki" in play.prompt and board.pick == "vertex"

        # An illegal spot is refused with the rules' reason and changes nothing.
        first = sorted(board.legal)[0]
        d.tap_at(*board.vertex_pos(first))
        assert len(app.table.record.events) == 1
        d.tap_at(*board.edge_pos(sorted(board.legal)[0]))
        neighbour = next(v for v in game.board.vertex_neighbours[first] if v in game.board.land_vertices)
        d.tap_at(*board.vertex_pos(neighbour))
        assert len(app.table.record.events) == 2
        assert "distance rule" in play.message and board.flash == neighbour
        d.tap(play.ids.undo)
        d.tap(play.ids.undo)
        assert app.table.record.events == []

        place_setup(app)
        assert play.ids.vpboard.children, "the VP board lists the players"
        assert all("2" in tag.text for tag in play.ids.vpboard.children)  # two settlements each

        # Rolls that pay Aki until somebody holds more than 7 cards.
        n = producing_number(game, 0)
        first_roll = True
        while game.state.players[0].hand.size <= 7:
            tap_dice(play, n)
            outcome = app.table.last_outcome
            assert outcome.kind == "roll" and outcome.number == n
            assert play.roll_text.startswith(f"Rolled {n}")
            for p, cards in outcome.payouts.items():
                line = f"{app.player_name(p)}: " + ", ".join(f"{k} {r}" for r, k in sorted(cards.items()))
                assert line in play.ids.payouts.text
            if first_roll:
                assert set(board.highlight) == set(game.board.hexes_by_number[n])
                first_roll = False
            d.tap(play.ids.end_turn)
            assert game.state.phase == "roll"

        # The 7 helper: who discards how many, the robber by tapping a hex, the steal target.
        tap_dice(play, 7)
        owed = dict(app.table.last_outcome.discards_owed)
        assert 0 in owed and owed[0] == game.state.players[0].hand.size // 2
        while game.state.phase == "discard":
            who = game.waiting_for()
            assert play.prompt.startswith(app.player_name(who))
            need = game.state.discards_owed[who]
            hand = dict(game.state.players[who].hand.known)
            picked = 0
            for r in game.resources:
                for _ in range(min(hand.get(r, 0), need - picked)):
                    d.tap(d.counter(play.ids.actions, r, "cards").plus)
                    picked += 1
            ok = d.find(play.ids.actions, "OK", startswith=True)
            assert not ok.disabled
            size = game.state.players[who].hand.size
            d.tap(ok)
            assert game.state.players[who].hand.size == size - need
        assert game.state.phase == "move_robber" and board.pick == "hex"
        assert board.legal == frozenset(app.table.last_outcome.robber_hexes)
        thief = game.state.turn_player
        target = next(h for h in sorted(board.legal)
                      if game.steal_candidates(h, thief))
        d.tap_at(*board.hex_pos(target))
        assert game.state.robber == target
        assert game.state.phase == "steal"
        victim = game.state.steal_candidates[0]
        sizes = [p.hand.size for p in game.state.players]
        d.tap(d.find(play.ids.actions, f"Rob {app.player_name(victim)}", startswith=True))
        assert game.state.players[victim].hand.size == sizes[victim] - 1
        assert game.state.players[thief].hand.size == sizes[thief] + 1

        # Undo takes the steal back (and redo puts it back), on disk too.
        events = len(app.table.record.events)
        d.tap(play.ids.undo)
        assert game.state.phase == "steal" and [p.hand.size for p in game.state.players] == sizes
        assert len(app.journal.load(app.table.game_id).events) == events - 1
        d.tap(play.ids.redo)
        assert len(app.table.record.events) == events and game.state.phase == "main"
        summary, prompt, game_id = game.summary(), play.prompt, app.table.game_id
    finally:
        d.stop_app(app)

    # A new app over the same journal: the game is listed and resumes at the same state.
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        line = d.find(start.ids.games, f"#{game_id} ", startswith=True)
        d.tap(line)
        assert app.root.current == "play"
        play = app.root.get_screen("play")
        assert app.table.game.summary() == summary
        assert play.prompt == prompt
        assert play.ids.board.buildings == app.table.game.state.buildings
    finally:
        d.stop_app(app)


def set_up_on_the_simulator(app):
    """A 4-player game set up while the simulated box connects; the play screen."""
    new_game(app, players=4)
    play = app.root.get_screen("play")
    assert d.wait_until(lambda: app.source_state == "connected"), app.source_status
    place_setup(app)
    return play


def test_rolls_from_the_simulator_over_a_pty(tmp_path):
    app = d.start_app(tmp_path, source_url="sim://?seed=5&every=0&profile=fast")
    try:
        play = set_up_on_the_simulator(app)
        assert app.source_status.startswith("simulated box: connected")  # the source in Settings' words
        game = app.table.game
        assert app.box_rolls and not play.ids.roll_box.disabled
        for turn in range(3):
            before = len(app.table.record.events)
            d.tap(play.ids.roll_box)
            assert d.wait_until(lambda: len(app.table.record.events) > before, timeout=15), play.message
            event = app.table.record.events[-1]
            assert event["type"] == "roll" and event["source"] == "box"
            assert play.roll_text.startswith(f"Rolled {sum(event['dice'])}")
            outcome = app.table.last_outcome
            for p, cards in outcome.payouts.items():
                assert f"{app.player_name(p)}: " in play.ids.payouts.text
            if game.state.phase != "main":
                break  # a 7: the helper takes over (tested above)
            d.tap(play.ids.end_turn)
    finally:
        d.stop_app(app)
    assert app.source is None  # stopped: no thread left behind


def test_a_crooked_roll_of_the_box_asks_out_loud_to_roll_again(tmp_path):

    app = d.start_app(tmp_path, source_url="sim://?seed=5&every=0&profile=fast&crooked=1")
    try:
        play = set_up_on_the_simulator(app)
        before = len(app.table.record.events)
        d.tap(play.ids.roll_box)
        said = "Please roll again. A die is cocked."  # with why: the box saw its dice settle crooked
        assert d.wait_until(lambda: app.caption == said, timeout=15), (app.caption, app.source_status)
        assert app.source_status == "simulated box: roll again (crooked dice)"
        assert len(app.table.record.events) == before  # no roll was recorded
        d.screenshot(Path(__file__).parent.parent / "docs" / "screens" / "play-roll-again-en.png")

        # In Japanese the cause is said in Japanese too (the box's own detail is English).
        app.apply_settings(dataclasses.replace(app.settings, lang="ja"))  # as Settings' Save does
        app.caption = ""
        d.tap(play.ids.roll_box)
        said = "もう一度振ってください。ダイスが傾いています。"
        assert d.wait_until(lambda: app.caption == said, timeout=15), (app.caption, app.source_status)
        assert app.source_status == "模擬ダイスボックス：振り直し（ダイスが傾いています）"  # no "sim" left in English
        assert len(app.table.record.events) == before
        d.screenshot(Path(__file__).parent.parent / "docs" / "screens" / "play-roll-again-ja.png")
    finally:
        d.stop_app(app)


def test_an_unplugged_box_is_announced_once_and_its_return_too(tmp_path):
    from companion.announce import phrase_for_notice

    app = d.start_app(tmp_path, source_url="sim://?seed=5&every=0&profile=fast&unplug=1&unplug_ms=1500")
    try:
        play = set_up_on_the_simulator(app)  # the announcer starts with the game
        captions = []
        app.announcer.add_caption_listener(lambda a: captions.append(a.caption))
        d.tap(play.ids.roll_box)
        lost, back = (phrase_for_notice(n, "en").caption for n in ("box_disconnected", "box_reconnected"))
        assert d.wait_until(lambda: back in captions, timeout=20), (captions, app.source_status)
        notices = [c for c in captions if c in (lost, back)]
        assert notices[:2] == [lost, back], notices
        assert app.source_state == "connected"
    finally:
        d.stop_app(app)


def test_demo_rolls_by_itself(tmp_path):
    """``--demo``: once set-up is done, the simulated box rolls whenever the table waits for dice."""
    app = d.start_app(tmp_path, demo=True, source_url="sim://?seed=9&every=0&profile=fast")
    try:
        assert "simulator" in app.root.get_screen("start").ids.demo_note.text
        new_game(app)
        place_setup(app)
        assert d.wait_until(lambda: len(app.table.record.events) == 13, timeout=20)
        assert app.table.record.events[-1]["source"] == "box"
    finally:
        d.stop_app(app)
