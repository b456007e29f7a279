"""A game ended by the round's time limit, in the tablet's own record: the ``time_limit`` event.

When the desk ends a table's game by time, the tablet journals ``{"type": "time_limit", "after": N}`` (N: the
events the desk's result stood on), so that after a restart the tablet's record and the desk's result agree, and
nothing more is played in that game. The rules part is checked on random games; the floor part with a real
journal, a real ``OutboxSender`` and the real desk server, whose clock the test moves (as tests/test_desk_clock.py).
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

import pytest
from hypothesis import given, settings, strategies as st

from companion.desk_link import OutboxSender
from companion.record import COLORS, Record, RecordError, new_game, replay
from companion.record.journal import Journal
from companion.rules import RulesError
from companion.rules.board import standard_board
from companion.rules.errors import IllegalAction, MalformedEvent
from companion.rules.random_play import random_events
from companion.table import Table
from companion.tournament.results import result_from_record

from test_desk_clock import (admin, hand, results, server,  # noqa: F401 -- the desk server with a hand clock
                             tablet_on_a_running_clock)
from test_desk_server import wait_for
from test_time_limit_other_games import assert_replay_prints_ended_by_time, replay_command

NAMES = ("Aki", "Ben", "Chie", "Dan")


@lru_cache(maxsize=None)
def a_game(seed: int) -> tuple[dict, tuple[dict, ...]]:
    """A random whole base game (one somebody wins within 3,000 events): its record header and events."""
    header = Record("base", [{"name": n, "color": COLORS[i]} for i, n in enumerate(NAMES)],
                    standard_board(seed).to_json()).header()
    record = Record(header["game"], header["players"], header["board"], header.get("options", {}), [])
    while True:
        game = new_game(record)
        events = tuple(random_events(game, random.Random(seed), 3000))
        if game.state.winner is not None:
            return header, events
        seed += 1000


def game_of(header: dict, events) -> "object":
    return replay(Record(header["game"], header["players"], header["board"], header.get("options", {}),
                         [dict(e) for e in events]))


def without_end(summary: dict) -> dict:
    s = dict(summary, turn={"number": summary["turn"]["number"]})  # (whose turn it was: no longer anybody's)
    s.pop("ended_by_time", None)
    return s


# --- the rules ----------------------------------------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 6), cut=st.floats(0.05, 0.95), played_on=st.integers(0, 12))
def test_the_game_stands_as_it_stood_after_the_events_the_result_stood_on(seed, cut, played_on):
    """Whatever the table played after time (and before the tablet heard), the record's state is the game as it
    stood after ``after`` events: the VP, hands, awards the desk's result was taken from."""
    header, events = a_game(seed)
    before_win = len(events) - 1  # the last event wins
    after = int(cut * before_win)
    played = min(before_win, after + played_on)
    ended = game_of(header, [*events[:played], {"type": "time_limit", "after": after}])
    stood = game_of(header, events[:after])
    summary = ended.summary()
    assert without_end(summary) == without_end(stood.summary())
    assert summary["turn"]["phase"] == "game_over" and summary["winner"] is None
    assert summary["turn"]["waiting_for"] is None
    assert summary["ended_by_time"] == {"after": after}
    assert ended.events[-1] == {"type": "time_limit", "after": after}  # the events played on stay in the record
    assert len(ended.events) == played + 1


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nothing_is_played_after_it_and_the_refusal_says_why(seed):
    header, events = a_game(seed)
    game = game_of(header, [*events[:200], {"type": "time_limit"}])  # "after" left out: all events before it
    assert game.summary()["ended_by_time"] == {"after": 200}
    with pytest.raises(IllegalAction) as refused:
        game.push(dict(events[200]))
    assert str(refused.value) == "the game was ended by the round's time limit"
    assert len(game.events) == 201
    with pytest.raises(IllegalAction, match="ended by the round's time limit"):
        game.push({"type": "time_limit"})  # ended once
    game.push({"type": "note", "text": "the referee looked"})  # an umpire's note is still kept
    game.pop()
    assert game.pop() == {"type": "time_limit"}  # taken back, the game goes on from where it was
    game.push(dict(events[200]))


def test_a_game_won_before_the_result_stood_is_not_ended_by_time_but_one_won_after_is():
    header, events = a_game(4)
    won = game_of(header, events)
    assert won.state.winner is not None
    with pytest.raises(RecordError, match=f"event {len(events)} \\(time_limit\\): the game is over"):
        game_of(header, [*events, {"type": "time_limit"}])
    # the table played on to a win after time: the desk's result stood before it, and so does the record
    late = game_of(header, [*events, {"type": "time_limit", "after": len(events) - 5}])
    assert late.summary()["winner"] is None and late.summary()["ended_by_time"] == {"after": len(events) - 5}


@pytest.mark.parametrize("event, message", [
    ({"type": "time_limit", "after": -1}, "time_limit.after must be 0..50 (the events before it), got -1"),
    ({"type": "time_limit", "after": 51}, "time_limit.after must be 0..50 (the events before it), got 51"),
    ({"type": "time_limit", "after": "50"}, "time_limit.after must be an integer, got '50'"),
    ({"type": "time_limit", "after": True}, "time_limit.after must be an integer, got True"),
    ({"type": "time_limit", "after": 50.0}, "time_limit.after must be an integer, got 50.0"),
])
def test_a_bad_time_limit_is_refused_naming_the_field_and_changes_nothing(event, message):
    header, events = a_game(1)
    game = game_of(header, events[:50])
    before = game.summary()
    with pytest.raises(MalformedEvent) as refused:
        game.push(event)
    assert str(refused.value) == message
    assert game.summary() == before and len(game.events) == 50


def test_replay_prints_a_record_ended_by_time_and_names_a_bad_one(tmp_path):
    header, events = a_game(2)
    path = tmp_path / "table3.json"
    path.write_text(json.dumps({**header, "events": [*events[:150], {"type": "time_limit", "after": 147}]}))
    assert_replay_prints_ended_by_time(path, 147, [p["vp"] for p in game_of(header, events[:147]).summary()["players"]])
    path.write_text(json.dumps({**header, "events": [*events[:150], {"type": "time_limit"}, events[150]]}))
    out = replay_command(path)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == (f"{path}: event 151 ({events[150]['type']}): the game was ended by the round's "
                                  "time limit")


def test_a_record_ended_by_time_is_a_result_without_saying_so_again():
    """The desk's import of the tablet's record (import-result, "From finished game") reads the end from the record:
    the VP as they stood, no winner, ended by time."""
    header, events = a_game(3)
    record = Record(header["game"], header["players"], header["board"], header.get("options", {}),
                    [*events[:180], {"type": "time_limit", "after": 176}])
    seated = list(enumerate(NAMES, start=11))
    vp, winner, by_time = result_from_record(record, seated)
    stood = game_of(header, events[:176]).summary()["players"]
    assert vp == {11 + i: p["vp"] for i, p in enumerate(stood)} and winner is None and by_time


# --- the tablet and the desk --------------------------------------------------------------------------------------
def test_the_tablet_journals_the_desks_end_by_time_and_agrees_with_the_desk_after_a_restart(server, hand, tmp_path,
                                                                                            monkeypatch):
    journal_path = tmp_path / "journal.sqlite3"
    tablet = tablet_on_a_running_clock(server, journal_path, monkeypatch)
    events = list(random_events(new_game(tablet.record()), random.Random(8), 3000))
    heard: list[dict] = []
    with Journal(journal_path) as journal:
        for e in events[:90]:
            journal.append(tablet.game_id, e)
    sender = OutboxSender(journal_path, tablet, poll=0.05, on_status=heard.append).start()
    try:
        wait_for(lambda: sender.status["state"] == "up to date" and sender.status["have"] == 90, "the game sent")
        sender.stop()  # the venue's Wi-Fi drops: the table plays on past time without the desk hearing
        hand.advance(3600)
        admin(server, "/display.json", method="GET")  # the desk looks at its clock: time is up, game ended at 90
        desk_vp, desk_winner, by_time, _ = results(server)[1]
        assert by_time and desk_winner is None
        with Journal(journal_path) as journal:
            for e in events[90:93]:
                journal.append(tablet.game_id, e)
        sender = OutboxSender(journal_path, tablet, poll=0.05, on_status=heard.append).start()
        wait_for(lambda: sender.status.get("time_limit") == 90, "the tablet to hear where the desk ended the game")
        with Journal(journal_path) as journal:  # what the app's desk link does with it (DeskLinkKeeper)
            table = Table(journal, tablet.game_id)
            outcome = table.end_by_time(sender.status["time_limit"])
            assert outcome is not None and outcome.kind == "time_limit" and outcome.next == "game_over"
            assert table.end_by_time(90) is None  # said again at the next heartbeat: journalled once
        wait_for(lambda: sender.status["state"] == "up to date" and sender.status["have"] == 94,
                 "the end sent to the desk")
    finally:
        sender.stop()

    # the app restarted: the journal alone says the game ended by time, with the desk's numbers
    with Journal(journal_path) as journal:
        table = Table(journal, tablet.game_id)
        record = journal.load(tablet.game_id)
        assert record.events[-1] == {"type": "time_limit", "after": 90} and len(record.events) == 94
        assert [g.finished for g in journal.games() if g.id == tablet.game_id] == [True]
        summary = table.game.summary()
        assert summary["ended_by_time"] == {"after": 90}
        assert {name: summary["players"][i]["vp"] for i, name in enumerate(tablet.players)} == desk_vp
        with pytest.raises(RulesError, match="ended by the round's time limit"):
            table.submit(dict(events[93]))
        assert len(journal.load(tablet.game_id).events) == 94  # refused: nothing journalled
    with server.desk.reopen() as desk:  # the desk's copy is the tablet's record; its result did not move
        ev = desk.event("Kobe Open")
        names = desk.names(ev.id)
        seated = [(p, names[p]) for p in desk.round(ev.id, 1).tables[0]]
        assert result_from_record(record, seated) == (
            {p: desk_vp[n] for p, n in seated}, None, True)
    assert results(server)[1][:3] == (desk_vp, None, True)
    copy = server.floor.game_events(*server.floor._db.execute(
        "SELECT pairing, game FROM floor_games ORDER BY updated DESC LIMIT 1").fetchone())
    assert copy == record.events


def test_a_tablet_restarted_after_the_desk_ended_its_game_journals_the_end_once(server, hand, tmp_path, monkeypatch):
    """The tablet was off when the clock ran out: the desk's word reaches it when its sender starts again."""
    journal_path = tmp_path / "journal.sqlite3"
    tablet = tablet_on_a_running_clock(server, journal_path, monkeypatch, table=2, minutes=30,
                                       desk_settings={"time_rule": "stop", "confirm": "referee"})
    events = list(random_events(new_game(tablet.record()), random.Random(9), 3000))
    with Journal(journal_path) as journal:
        for e in events[:120]:
            journal.append(tablet.game_id, e)
    sender = OutboxSender(journal_path, tablet, poll=0.05).start()
    try:
        wait_for(lambda: sender.status["have"] == 120, "the game sent")
    finally:
        sender.stop()
    hand.advance(1800)
    admin(server, "/display.json", method="GET")
    (proposal,) = admin(server, "/api/admin/proposals", method="GET")["proposals"]
    assert proposal["ended_by_time"]
    admin(server, "/api/admin/confirm", {"round": 1, "table": 2})
    sender = OutboxSender(journal_path, tablet, poll=0.05).start()
    try:
        wait_for(lambda: sender.status.get("time_limit") == 120, "the desk's word after the tablet's restart")
        # the note still says the time limit ended it (the tablet's "The desk ended this game by the time limit."):
        # the Confirm made it "result entered", and the tablet showed the round clock's "Time!" instead
        assert sender.status["note"] == "ended by time limit; result entered"
    finally:
        sender.stop()
    with Journal(journal_path) as journal:
        table = Table(journal, tablet.game_id)
        table.end_by_time(120)
        table.end_by_time(120)
        assert journal.load(tablet.game_id).events[-1] == {"type": "time_limit", "after": 120}
        assert len(journal.load(tablet.game_id).events) == 121
        summary = table.game.summary()
    assert {name: summary["players"][i]["vp"] for i, name in enumerate(tablet.players)} == proposal["vp"]
