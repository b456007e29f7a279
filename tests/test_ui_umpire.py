"""A real table's corrections by touch: a monopoly while hands hold unseen cards (the app asks how
many each player handed over), and the umpire's tools — record a refused entry anyway (flagged
``forced``, after a confirmation), set a player's hand, take a piece off the board by tapping it, type a note
(Japanese too) that is journalled and listed in the panel, also after a restart.  Writes
docs/screens/play-umpire-notes-{en,ja}.png.

The game is journalled after set-up with a few record events (``set_hand``, a monopoly bought, a 7
whose steal moves a card nobody saw), then resumed from the start screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.record.journal import Journal
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(240)  # as the screenshot run: a loaded 2-core machine is slow


def journal_game(data_dir, *, unseen: bool) -> int:
    """Aki (0) to play, in the main phase, holding a monopoly bought last turn.

    With ``unseen``, Ben robbed Chie of a card nobody saw: Ben and Chie each hold one wool the table
    knows of and one card it does not.
    """
    record, game = d.base_game_after_setup()

    def push(event: dict) -> None:
        game.push(event)
        record.events.append(event)

    assert game.state.turn_player == 0
    push({"type": "roll", "dice": [1, 1]})
    push({"type": "set_hand", "player": 0, "cards": {"ore": 2, "grain": 1, "wool": 1, "lumber": 1, "brick": 1}})
    push({"type": "set_hand", "player": 1, "cards": {"wool": 1}})
    push({"type": "set_hand", "player": 2, "cards": {"wool": 2, "brick": 1}})
    push({"type": "buy_development", "player": 0, "card": "monopoly"})
    push({"type": "end_turn"})
    if unseen:
        push({"type": "roll", "dice": [3, 4]})
        for h in game.robber_hexes():  # a hex where Ben may rob Chie
            game.push({"type": "move_robber", "to": list(h)})
            if game.state.phase == "steal" and 2 in game.state.steal_candidates:
                record.events.append({"type": "move_robber", "to": list(h)})
                break
            game.pop()
        push({"type": "steal", "from": 2, "card": None})
    else:
        push({"type": "roll", "dice": [1, 1]})
    push({"type": "end_turn"})
    push({"type": "roll", "dice": [1, 1]})
    push({"type": "end_turn"})
    push({"type": "roll", "dice": [1, 1]})
    assert game.state.phase == "main" and game.state.turn_player == 0
    return d.journal(data_dir, record)


def taken_row(play, name: str):
    """The monopoly stepper row of player ``name`` (label, −, count, +), found afresh."""
    row = next(c for c in play.ids.actions.children
               if c.children and getattr(c.children[-1], "text", "").startswith(name + " (holds"))
    label, minus, count, plus = row.children[::-1]
    return minus, count, plus


def test_monopoly_asks_how_many_each_player_handed_over(tmp_path):
    game_id = journal_game(tmp_path, unseen=True)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        ben, chie = game.state.players[1].hand, game.state.players[2].hand
        assert (ben.known, ben.unknown, chie.known, chie.unknown) == ({"wool": 1}, 1, {"wool": 1}, 1)

        d.tap(d.find(play.ids.actions, "Play card"))
        d.tap(d.find(play.ids.actions, "Monopoly"))
        d.tap(d.find(play.ids.actions, "wool"))
        # One stepper per other player, starting at the wool the table knows each holds.
        minus, count, plus = taken_row(play, "Ben")
        assert count.text == "1"
        d.tap(plus)  # the card Ben stole was a wool: he hands over 2
        minus, count, plus = taken_row(play, "Ben")
        assert count.text == "2" and plus.disabled  # no more than Ben's 2 cards
        d.tap(plus)
        assert taken_row(play, "Ben")[1].text == "2"

        # Chie at 0: the rules know she holds a wool, so they refuse, say why, and nothing is recorded.
        d.tap(taken_row(play, "Chie")[0])
        minus, count, plus = taken_row(play, "Chie")
        assert count.text == "0" and minus.disabled
        events = len(app.table.record.events)
        d.tap(d.find(play.ids.actions, "OK"))
        assert len(app.table.record.events) == events
        assert "Chie is known to hold 1 wool" in play.message  # named as the app names her
        d.tap(taken_row(play, "Chie")[2])  # the choices survive the refusal: back to 1
        d.tap(d.find(play.ids.actions, "OK"))

        assert app.table.record.events[-1] == {"type": "play_development", "player": 0, "card": "monopoly",
                                               "resource": "wool", "taken": {"1": 2, "2": 1}}
        s = game.state
        assert s.players[0].hand.known["wool"] == 3  # her own went on the card: 2 from Ben, 1 from Chie
        assert (s.players[1].hand.size, s.players[2].hand.size) == (0, 1)
        assert not play.message
    finally:
        d.stop_app(app)


def test_monopoly_with_every_hand_known_is_prefilled(tmp_path):
    game_id = journal_game(tmp_path, unseen=False)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        d.tap(d.find(play.ids.actions, "Play card"))
        d.tap(d.find(play.ids.actions, "Monopoly"))
        d.tap(d.find(play.ids.actions, "wool"))
        assert taken_row(play, "Ben")[1].text == "1" and taken_row(play, "Chie")[1].text == "2"
        d.tap(d.find(play.ids.actions, "OK"))  # the counts as the table knows them, untouched
        assert app.table.record.events[-1]["taken"] == {"1": 1, "2": 2}
        assert game.state.players[0].hand.known["wool"] == 3
    finally:
        d.stop_app(app)


def test_umpire_records_anyway_sets_a_hand_and_removes_a_piece(tmp_path):
    game_id = journal_game(tmp_path, unseen=False)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        board = play.ids.board

        # A road far from Aki's network: refused with the rules' reason, then recorded by the umpire.
        d.tap(d.find(play.ids.actions, "Road"))
        mine = {v for v, (p, _) in game.state.buildings.items() if p == 0}
        far = d.unreachable_road_side(game, board.legal)  # (no building on its corners: none of Aki's)
        events = len(app.table.record.events)
        still = d.StillTargets()  # the refusal, the umpire's offer and its confirmation move no button
        d.tap_at(*board.edge_pos(far))
        assert len(app.table.record.events) == events and play.message.startswith("Not allowed")
        assert board.flash == far and far in board.marked  # the side the words name is ringed
        assert "[" not in play.message  # said as a place, not as coordinates
        moved = still.check("a refusal")
        assert moved == [], "\n".join(moved)

        # The offer asks first (beside the message); Cancel leaves everything as it was.
        d.tap(d.find(play.ids.message_row, "Record anyway (umpire)"))
        assert len(app.table.record.events) == events
        d.find_label(play.ids.message_row, "Record it although the rules say")
        assert still.check("the umpire's confirmation") == []
        d.tap(d.find(play.ids.message_row, "Cancel"))
        assert len(app.table.record.events) == events
        d.settle()
        with pytest.raises(LookupError):
            d.find(play.ids.message_row, "Record anyway (umpire)", timeout=0)
        assert still.check("cancelled") == []

        d.tap_at(*board.edge_pos(far))
        d.tap(d.find(play.ids.message_row, "Record anyway (umpire)"))
        d.tap(d.find(play.ids.message_row, "Yes, record it (umpire)"))
        event = app.table.record.events[-1]
        assert event["forced"] is True and event["type"] == "build" and event["piece"] == "road"
        assert game.state.pieces[far] == (0, "road")
        assert app.table.last_outcome.warnings and play.message.startswith("Recorded by the umpire")
        assert board.flash is None

        # Set Ben's hand: the steppers start from what the table knows; one more ore.
        d.tap(play.ids.umpire)
        assert play.ids.umpire.state == "down"
        d.tap(d.find(play.ids.actions, "Ben"))
        d.tap(d.counter(play.ids.actions, "ore", "hand").plus)
        d.tap(d.find(play.ids.actions, "Set Ben's hand", startswith=True))
        assert app.table.record.events[-1] == {"type": "set_hand", "player": 1, "cards": {"wool": 1, "ore": 1}}
        assert game.state.players[1].hand.known == {"wool": 1, "ore": 1}

        # Take the forced road off again by tapping it: the board offers exactly the pieces on it.
        d.tap(play.ids.umpire)
        d.tap(d.find(play.ids.actions, "Road / ship"))
        assert board.pick == "edge" and board.legal == frozenset(game.state.pieces)
        d.tap_at(*board.edge_pos(far))
        assert app.table.record.events[-1] == {"type": "remove_piece", "at": [list(h) for h in far]}
        assert far not in game.state.pieces

        # A settlement too.
        d.tap(play.ids.umpire)
        d.tap(d.find(play.ids.actions, "Settlement / city"))
        assert board.pick == "vertex" and board.legal == frozenset(game.state.buildings)
        spot = sorted(mine)[0]
        d.tap_at(*board.vertex_pos(spot))
        assert spot not in game.state.buildings

        # Closing the panel gives back the phase's own actions.
        d.tap(play.ids.umpire)
        d.tap(play.ids.umpire)
        assert play.ids.umpire.state == "normal"
        d.find(play.ids.actions, "Road", startswith=True)  # (with why it cannot be used now, when it cannot)
    finally:
        d.stop_app(app)


# --- the umpire's notes ---------------------------------------------------------------------------------

def note_field(play):
    from kivy.uix.textinput import TextInput

    return next(w for w in d.walk(play.ids.actions) if isinstance(w, TextInput))


def type_text(field, text: str, *, enter: bool = False) -> None:
    """Tap the field, then type as the window hands over keyboard input: composed text (an input method's
    Japanese arrives this way, as whole characters), then the Enter key if asked."""
    from kivy.core.window import Window

    d.tap(field)
    assert field.focus, "a tap on the field should give it the keyboard"
    Window.dispatch("on_textinput", text)
    d.pump(1)
    if enter:
        Window.dispatch("on_key_down", 13, 40, "\r", [])
        Window.dispatch("on_key_up", 13, 40)
        d.pump(1)


def shot(name: str) -> None:
    d.screenshot(Path(__file__).resolve().parents[1] / "docs" / "screens" / f"{name}.png")


def test_umpire_types_notes_they_are_journalled_and_shown_after_a_restart(tmp_path):
    game_id = journal_game(tmp_path, unseen=False)
    japanese = "ベンの手札を数え直した（羊毛1枚）"
    english = "Chie's road was knocked off the board; put back"
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        events = len(app.table.record.events)
        d.tap(play.ids.umpire)
        # An empty note is refused, saying so, and records nothing.
        d.tap(d.find(play.ids.actions, "Record note"))
        assert play.message == "Type the note first: an empty note is not recorded"
        assert len(app.table.record.events) == events

        type_text(note_field(play), japanese)
        # The panel is rebuilt (here by choosing whose hand to set): the text being typed stays.
        d.tap(d.find(play.ids.actions, "Ben"))
        assert note_field(play).text == japanese
        d.tap(d.find(play.ids.actions, "Record note"))
        assert app.table.record.events[-1] == {"type": "note", "text": japanese}
        assert play.message == ""
        assert play.ids.umpire.state == "down" and note_field(play).text == ""
        d.find_label(play.ids.actions, f"Notes (newest first):\n• {japanese}")

        # A second note, sent with the Enter key; the newest is listed first.
        type_text(note_field(play), english, enter=True)
        assert app.table.record.events[-2:] == [{"type": "note", "text": japanese},
                                                {"type": "note", "text": english}]
        d.find_label(play.ids.actions, f"Notes (newest first):\n• {english}\n• {japanese}")
        assert app.table.game.state.phase == "main" and app.table.game.state.turn_player == 0  # nothing else moved
        shot("play-umpire-notes-en")
    finally:
        d.stop_app(app)

    # In the journal, as written.
    with Journal(tmp_path / "journal.sqlite3") as journal:
        assert journal.load(game_id).events[-2:] == [{"type": "note", "text": japanese},
                                                     {"type": "note", "text": english}]

    # The app restarted: the game resumes with its notes, shown in the umpire panel, in Japanese too.
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        d.tap(play.ids.umpire)
        d.find_label(play.ids.actions, f"Notes (newest first):\n• {english}\n• {japanese}")
        app.lang = "ja"
        d.settle()
        d.find_label(play.ids.actions, f"メモ（新しい順）：\n• {english}\n• {japanese}")
        assert note_field(play).hint_text == "記録に残すメモ…"
        shot("play-umpire-notes-ja")
        # Undo takes the last note back out of the record, as any entry.
        d.tap(play.ids.undo)
        assert app.table.record.events[-1] == {"type": "note", "text": japanese}
    finally:
        d.stop_app(app)
