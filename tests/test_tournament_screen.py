"""The tournament screen with real Kivy widgets under Xvfb: every input is a touch (through Kivy's input
dispatch) or typed text; every expectation is what the desk's file then holds and what the screen shows."""

from __future__ import annotations

from pathlib import Path

import pytest

import companion.ui  # noqa: F401  (Kivy's environment: no argv parsing)
from kivy.base import EventLoop
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.uix.label import Label
from kivy.uix.screenmanager import NoTransition, ScreenManager

from companion.record import load_record
from companion.record.journal import Journal
from companion.tournament import Desk
from tournament_screens import cards, create_event, enter_result, type_into

pytestmark = pytest.mark.timeout(120)

ROOT = Path(__file__).resolve().parents[1]
KV = ROOT / "companion" / "ui" / "tournament.kv"
EXAMPLE = ROOT / "companion" / "assets" / "games" / "example-base.json"


def pump(frames=2):
    """A screen state reached (layouts and texts done), not a number of frames: the UI tests' driver settles."""
    from companion.ui import driver

    driver.settle()


def tap(widget):
    """A finger's tap, as in every UI test: scrolled into view, released by its ScrollView (driver.tap)."""
    from companion.ui import driver

    driver.tap(widget)
    driver.settle()


def labels(widget):
    out = []
    stack = [widget]
    while stack:
        w = stack.pop()
        if isinstance(w, Label) and not hasattr(w, "trigger_action"):
            out.append(w.text)
        stack.extend(w.children)
    return out


@pytest.fixture
def screen(tmp_path):
    from companion.ui.tournament_screen import TournamentScreen

    if str(KV) not in Builder.files:
        Builder.load_file(str(KV))
    EventLoop.ensure_window()
    Window.size = (1280, 800)
    manager = ScreenManager(transition=NoTransition())
    s = TournamentScreen(desk_path=str(tmp_path / "tournament.sqlite3"))
    manager.add_widget(s)
    Window.add_widget(manager)
    manager.current = "tournament"
    s.refresh()
    pump(3)
    yield s
    Window.remove_widget(manager)
    pump(1)


def test_an_event_seated_and_scored_by_touch(screen, tmp_path):
    create_event(screen, "Kobe Open", ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen"])
    tap(screen.ids.seat)
    tables = cards(screen)
    assert [len(c.players) for c in tables] == [4, 3]
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        ev = desk.event("Kobe Open")
        assert [len(t) for t in desk.round(ev.id, 1).tables] == [4, 3]
    # table 1: VP typed, the first seat's "winner" toggled, saved
    seats = enter_result(tables[0], [10, 7, 7, 3])
    assert screen.message == ""
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        r = desk.current_result(ev.id, 1, 1)
        assert r.vp == dict(zip(seats, [10, 7, 7, 3])) and r.winner == seats[0]
        winner_name = desk.names(ev.id)[seats[0]]
    # the standings on screen put the winner first
    grid = screen.ids.standings
    cells = [w.text for w in reversed(grid.children)]
    assert cells[grid.cols:grid.cols + 2] == ["1", winner_name]
    # table 2 with a VP missing: refused, the message says where, nothing stored
    three = cards(screen)[1]
    pids = enter_result(three, [10, 5])
    missing = dict(three.players)[pids[2]]
    assert f"round 1 table 2: no VP for {missing}" in screen.message
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        assert desk.current_result(ev.id, 1, 2) is None
    # the refused card keeps what was typed; now: ended by time, the winner toggle released again
    three = cards(screen)[1]
    assert three.vp_inputs[pids[0]].text == "10" and three.win_toggles[pids[0]].state == "down"
    for pid, vp in zip(pids, [8, 8, 6]):
        type_into(three.vp_inputs[pid], str(vp))
    tap(three.win_toggles[pids[0]])
    assert three.win_toggles[pids[0]].state == "normal"
    tap(three.ids.time)
    tap(three.ids.save)
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        r = desk.current_result(ev.id, 1, 2)
        assert r.ended_by_time and r.winner is None
        top4 = [s.player for s in desk.standings(ev.id)][:4]
    # the final table: the standings' top four, in rank order, shown as round 2's only table
    tap(screen.ids.final)
    assert screen.message == "", screen.message
    assert screen.round_no == 2 and [pid for pid, _ in cards(screen)[0].players] == top4
    assert len(cards(screen)) == 1


def test_a_second_save_is_a_correction_that_needs_a_reason(screen, tmp_path):
    create_event(screen, "Club night", ["A", "B", "C", "D"])
    tap(screen.ids.seat)
    seats = enter_result(cards(screen)[0], [10, 6, 5, 4])
    card = cards(screen)[0]  # the screen rebuilt the card from the file, values filled in
    assert card.vp_inputs[seats[1]].text == "6" and card.win_toggles[seats[0]].state == "down"
    type_into(card.vp_inputs[seats[1]], "8")
    tap(card.ids.save)
    assert "a correction needs a reason" in screen.message
    type_into(card.ids.reason, "hidden VP card")
    tap(card.ids.save)
    assert "Corrected" in screen.message
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        ev = desk.event("Club night")
        versions = desk.results(ev.id, with_history=True)
        assert [v.vp[seats[1]] for v in versions] == [6, 8]
        assert versions[0].superseded_by == versions[1].id and versions[1].reason == "hidden VP card"


def test_result_filled_from_a_finished_game_in_the_journal(screen, tmp_path):
    with Journal(tmp_path / "journal.sqlite3") as journal:
        gid = journal.create_game(load_record(EXAMPLE))
        journal.set_finished(gid)
    create_event(screen, "Record night", ["Aki", "Ben", "Chie", "Dan"])
    tap(screen.ids.seat)
    card = cards(screen)[0]
    tap(card.ids.from_journal)
    assert screen.message == "", screen.message
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        ev = desk.event("Record night")
        r = desk.current_result(ev.id, 1, 1)
        names = desk.names(ev.id)
        assert {names[p]: v for p, v in r.vp.items()} == {"Aki": 6, "Ben": 4, "Chie": 2, "Dan": 10}
        assert names[r.winner] == "Dan" and r.source == f"journal game {gid}"
    card = cards(screen)[0]
    dan = next(pid for pid, n in card.players if n == "Dan")
    assert card.vp_inputs[dan].text == "10" and card.win_toggles[dan].state == "down"


def test_five_players_one_sits_out_and_the_screen_says_who(screen, tmp_path):
    create_event(screen, "Small", ["A", "B", "C", "D", "E"])
    tap(screen.ids.final)
    assert "a final is seeded by the standings: play a round first" in screen.message
    assert cards(screen) == []
    tap(screen.ids.seat)
    assert screen.message == ""
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        ev = desk.event("Small")
        names = desk.names(ev.id)
        (table,) = desk.round(ev.id, 1).tables
        (out,) = set(names) - set(table)
    assert [len(c.players) for c in cards(screen)] == [4]
    assert f"sitting out: {names[out]}" in screen.ids.round_line.text


def test_japanese_texts(screen):
    create_event(screen, "大会", ["青木", "伊藤", "上田", "江口"])
    tap(screen.ids.seat)
    screen.lang = "ja"
    pump(2)
    assert screen.ids.seat.text == "次のラウンドの席決め"
    card = cards(screen)[0]
    assert card.title == "1卓" and card.ids.save.text == "結果を保存"
    assert sorted(n for _, n in card.players) == sorted(["青木", "伊藤", "上田", "江口"])
