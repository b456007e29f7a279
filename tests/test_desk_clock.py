"""The round clock: time left, the 10/5/1-minute warnings, what happens at time -- on the tablets' heartbeat and
the display, and the games a run-out clock ends by the event's rule.

The desk server is real (uvicorn on 127.0.0.1, the SQLite desk file, ``http.client`` requests as the tablets
make them); only the time is the test's own: the server takes a clock, and the test moves it (no sleeps).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from companion.desk_link import DeskLinkError, join, request
from companion.record import new_game
from companion.rules.random_play import random_events
from companion.tournament import clock as clock_mod
from companion.tournament.server import DeskServer

from test_desk_server import PASSWORD, make_event, pair


class HandClock:
    """The time as the test sets it."""

    def __init__(self, t: float = 1_000_000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def hand():
    return HandClock()


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request, tmp_path, hand):
    """The desk server on its SQLite file, and on a real PostgreSQL server (tests/postgres_server.py)."""
    db = tmp_path / "desk.sqlite3"
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    make_event(db, dsn=dsn)
    where = {"dsn": dsn} if dsn else {"db": db}
    with DeskServer("Kobe Open", **where, host="127.0.0.1", port=0, password=PASSWORD, clock=hand) as s:
        yield s


def admin(server, path, body=None, method="POST"):
    return request(server.url, method, path, body, token=PASSWORD)


# --- the clock itself (pure) ----------------------------------------------------------------------------------
@pytest.mark.parametrize("elapsed, left, warning, time_up, shown", [
    (0, 3600, None, False, "60:00"),
    (2999.5, 600.5, None, False, "10:01"),
    (3000, 600, 600, False, "10:00"),
    (3300, 300, 300, False, "05:00"),
    (3540.2, 59.8, 60, False, "01:00"),
    (3599.5, 0.5, 60, False, "00:01"),
    (3600, 0, 60, True, "Time!"),
    (5000, 0, 60, True, "Time!"),
])
def test_the_clock_says_time_left_the_last_warning_and_time_up(elapsed, left, warning, time_up, shown):
    view = clock_mod.view((1, 3600.0, 100.0, 0.0), 100.0 + elapsed)
    assert (view.left, view.warning, view.time_up, view.running) == (pytest.approx(left), warning, time_up, True)
    assert clock_mod.clock_text(view) == shown


def test_a_paused_clock_stands_still_and_says_so():
    paused = clock_mod.view((2, 1800.0, None, 1200.0), 10**9)
    assert (paused.left, paused.running, paused.warning) == (600.0, False, 600)
    assert clock_mod.clock_text(paused) == "10:00 (paused)"
    assert clock_mod.clock_text(paused, "ja") == "10:00（一時停止）"
    # a round shorter than a warning never gives that warning (a 4-minute round warns at 1 minute only)
    short = clock_mod.view((1, 240.0, 0.0, 0.0), 30.0)
    assert short.warning is None and clock_mod.view((1, 240.0, 0.0, 0.0), 181.0).warning == 60


@settings(max_examples=200, deadline=None)
@given(duration=st.integers(60, 7200), steps=st.lists(st.floats(0, 2000, allow_nan=False), max_size=40),
       pauses=st.lists(st.booleans(), max_size=40))
def test_every_warning_is_announced_once_and_time_left_never_grows(duration, steps, pauses):
    """However a tablet happens to look (often, rarely, across pauses), each warning comes once, in order, and
    every warning the clock has passed has come by the time it is up."""
    started, elapsed, now = 0.0, 0.0, 0.0
    before, said = None, []
    for i, step in enumerate(steps):
        now += step
        if i < len(pauses) and pauses[i] and started is not None:  # the desk pauses
            elapsed += now - started
            started = None
        elif i < len(pauses) and pauses[i]:
            started = now
        view = clock_mod.view((1, float(duration), started, elapsed), now)
        said += clock_mod.new_warnings(before, view)
        if before is not None:
            assert view.left <= before.left + 1e-9
        before = view
    assert said == sorted(said, reverse=True) and len(said) == len(set(said))
    if before is not None:
        assert set(said) == {w for w in clock_mod.WARNINGS if w < duration and before.left <= w}


def test_the_rule_at_time_is_said_in_both_languages():
    up = clock_mod.view((1, 600.0, 0.0, 0.0), 700.0)
    assert "finish this round" in clock_mod.warning_text(up, "finish_round")
    assert "ends now" in clock_mod.warning_text(up, "stop")
    assert "一巡" in clock_mod.warning_text(up, "finish_round", "ja")
    warned = clock_mod.view((1, 3600.0, 0.0, 0.0), 3300.0)
    assert clock_mod.warning_text(warned, "stop").startswith("5 min left.")
    assert clock_mod.warning_text(warned, "stop", "ja").startswith("残り5分")


# --- over the desk server -----------------------------------------------------------------------------------------
def test_tablets_and_the_display_see_time_left_warnings_and_time_up(server, hand):
    admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})
    admin(server, "/api/admin/clock", {"action": "start"})
    tablet = join(server.url, pair(server, 1))

    def tablet_clock():
        return request(server.url, "GET", "/api/table", token=tablet.token)["clock"]

    def display():
        return request(server.url, "GET", "/display.json")

    assert tablet_clock()["left"] == 3600 and display()["clock_text"] == "60:00"
    hand.advance(50 * 60)
    assert (tablet_clock()["left"], tablet_clock()["warning"]) == (600, 600)
    shown = display()
    assert shown["clock_text"] == "10:00" and shown["clock_note"].startswith("10 min left.")
    admin(server, "/api/admin/clock", {"action": "pause"})
    hand.advance(15 * 60)  # paused for a dispute: no time runs
    assert tablet_clock()["left"] == 600 and display()["clock_text"] == "10:00 (paused)"
    admin(server, "/api/admin/clock", {"action": "start"})
    hand.advance(9 * 60 + 1)
    assert tablet_clock()["warning"] == 60
    hand.advance(60)
    up = tablet_clock()
    assert up["time_up"] and up["left"] == 0
    assert display()["clock_text"] == "Time!"
    assert "finish this round" in display()["clock_note"]


def round_end_after(record, events, at_least: int) -> int:
    """The number of events, ``at_least`` or more, after which the first player is to roll again (a round of
    turns finished)."""
    game = new_game(record)
    for i, event in enumerate(events):
        game.push(dict(event))
        if i + 1 >= at_least and clock_mod.round_finished_after_time(game.summary()["turn"]):
            return i + 1
    raise AssertionError("no finished round in the game")


def send(server, tablet, game_id, events, start=0, with_header=True):
    body = {"round": tablet.round, "table": tablet.table, "game": game_id, "rev": len(events) + 10 * start,
            "from": start, "events": events[start:], "count": len(events)}
    if with_header and start == 0:
        body["header"] = tablet.header
    return request(server.url, "POST", "/api/events", body, token=tablet.token)


def a_game(tablet, seed=11):
    return list(random_events(new_game(tablet.record()), random.Random(seed), 3000))


def results(server):
    with server.desk.reopen() as desk:
        ev = desk.event("Kobe Open")
        names = desk.names(ev.id)
        return {r.table: ({names[p]: v for p, v in r.vp.items()}, r.winner, r.ended_by_time, r.source)
                for r in desk.results(ev.id)}


def test_time_up_under_stop_ends_each_game_where_it_stands(server, hand):
    admin(server, "/api/admin/settings", {"time_rule": "stop"})
    admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})
    admin(server, "/api/admin/clock", {"action": "start"})
    tablet = join(server.url, pair(server, 1))
    events = a_game(tablet)[:120]  # well into the game, nobody near 10
    send(server, tablet, 7, events)
    hand.advance(59 * 60)
    request(server.url, "GET", "/display.json")
    assert results(server) == {}  # a minute left: nothing ends
    hand.advance(60)
    request(server.url, "GET", "/display.json")  # the desk looks at its clock: time is up
    vp, winner, by_time, source = results(server)[1]
    summary = new_game(tablet.record())
    for e in events:
        summary.push(dict(e))
    assert vp == {name: summary.summary()["players"][i]["vp"] for i, name in enumerate(tablet.players)}
    assert by_time and source == "tablet: game 7"
    assert 2 not in results(server)  # a table whose tablet sent nothing is the referee's to enter
    view = send(server, tablet, 7, events)  # the tablet hears it on its next call
    assert view["note"].startswith("ended by time limit; result entered")


def test_time_up_under_finish_round_waits_for_the_round_of_turns_to_end(server, hand):
    admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})  # finish_round: the default rule
    admin(server, "/api/admin/clock", {"action": "start"})
    tablet = join(server.url, pair(server, 1))
    events = a_game(tablet, seed=4)
    end = round_end_after(tablet.record(), events, 60)
    mid = end - 3  # the last player's turn is under way
    assert round_end_after(tablet.record(), events, mid) == end
    send(server, tablet, 3, events[:mid])
    hand.advance(3600)
    request(server.url, "GET", "/display.json")
    assert results(server) == {}  # time is up but the round of turns is not over
    send(server, tablet, 3, events[:end], start=mid)
    request(server.url, "GET", "/display.json")
    vp, winner, by_time, _ = results(server)[1]
    assert by_time
    game = new_game(tablet.record())
    for e in events[:end]:
        game.push(dict(e))
    assert vp == {name: game.summary()["players"][i]["vp"] for i, name in enumerate(tablet.players)}


def test_a_game_played_on_after_time_keeps_the_result_that_stood_at_time(server, hand):
    admin(server, "/api/admin/settings", {"time_rule": "stop", "confirm": "referee"})
    admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})
    admin(server, "/api/admin/clock", {"action": "start"})
    tablet = join(server.url, pair(server, 1))
    events = a_game(tablet, seed=3)
    send(server, tablet, 7, events[:100])
    hand.advance(3600)
    request(server.url, "GET", "/display.json")  # time is up: the game as it stands is proposed
    (at_time,) = admin(server, "/api/admin/proposals", method="GET")["proposals"]
    assert at_time["ended_by_time"] and at_time["winner"] is None
    view = send(server, tablet, 7, events, start=100)  # the table played on to a win
    assert view["finished"]
    assert admin(server, "/api/admin/proposals", method="GET")["proposals"] == [at_time]


def tablet_on_a_running_clock(server, journal_path, monkeypatch, *, table=1, minutes=60,
                              desk_settings=(("time_rule", "stop"),)):
    """A tablet with a game in its journal at ``table`` of a desk with ``desk_settings`` whose clock of ``minutes``
    runs, asking the desk for its table often."""
    import companion.desk_link as desk_link
    from test_desk_server import start_journal_game

    monkeypatch.setattr(desk_link, "HEARTBEAT", 0.05)  # (10 s in play)
    admin(server, "/api/admin/settings", dict(desk_settings))
    admin(server, "/api/admin/clock", {"action": "reset", "minutes": minutes})
    admin(server, "/api/admin/clock", {"action": "start"})
    return start_journal_game(journal_path, join(server.url, pair(server, table)))


def test_the_tablet_hears_its_game_was_ended_by_time_without_sending_anything(server, hand, tmp_path, monkeypatch):
    from companion.desk_link import OutboxSender
    from companion.record.journal import Journal
    from test_desk_server import wait_for

    journal_path = tmp_path / "journal.sqlite3"
    tablet = tablet_on_a_running_clock(server, journal_path, monkeypatch)
    with Journal(journal_path) as journal:
        for e in a_game(tablet)[:90]:
            journal.append(tablet.game_id, e)
    sender = OutboxSender(journal_path, tablet, poll=0.05).start()
    try:
        wait_for(lambda: sender.status["state"] == "up to date" and sender.status["have"] == 90, "the game sent")
        hand.advance(3600)  # the table stops playing at time; the desk ends its game
        request(server.url, "GET", "/display.json")
        wait_for(lambda: sender.status.get("note", "").startswith("ended by time limit"), "the tablet to hear it")
        assert sender.status["clock"]["time_up"]
    finally:
        sender.stop()


# --- a new round's clock, and its length set where it is started (session 16) --------------------------------------
def test_a_new_round_s_clock_is_not_started_and_its_length_is_set_where_the_round_is_started(server, hand):
    """The desk keeps one clock row per event. Round 2 seated after round 1's time ran out: its tablets and the
    display were told round 1's clock (0:00, "Time!") until the organiser pressed Reset (session 15's trial). Now the
    new round's clock is "not started" until the desk starts it. And the desk page's minutes box was only beside
    Reset: Start ran the last length. Now the length is typed beside Start while the round's clock has not run."""
    import re

    from test_desk_referee import desk_page

    call = desk_page(server)
    page = call("GET", "/desk")[1]
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    start_form = re.search(r"<form[^>]*id=clock-start.*?</form>", page).group(0)
    assert "name=minutes" in start_form and "Round 1 — clock not started" in page
    assert page.count("name=minutes") == 1  # one box for the length, beside Start (not Reset's as well)
    assert call("POST", "/desk/clock", f"csrf={key}&action=start&minutes=45".encode())[0] == 303
    tablet = join(server.url, pair(server, 1))
    told = request(server.url, "GET", "/api/table", token=tablet.token)["clock"]
    assert (told["round"], told["duration"], told["running"]) == (1, 45 * 60, True)
    page = call("GET", "/desk")[1]
    assert "id=clock-start" not in page and "id=clock-pause" in page  # running: Pause (and Reset with its minutes)
    assert re.search(r"<form[^>]*id=clock-reset.*?</form>", page).group(0).count("name=minutes") == 1
    # a length typed at a clock that has run is refused, saying why; the clock is as it was
    hand.advance(10 * 60)
    status, said = call("POST", "/desk/clock", f"csrf={key}&action=start&minutes=30".encode())
    assert status == 409 and "has already run (10 min): Reset it to change its length" in said
    with pytest.raises(DeskLinkError, match="already run"):  # the JSON route the same
        admin(server, "/api/admin/clock", {"action": "start", "minutes": 30})
    assert request(server.url, "GET", "/display.json")["clock"]["duration"] == 45 * 60
    hand.advance(35 * 60)
    assert request(server.url, "GET", "/display.json")["clock_text"] == "Time!"
    # round 2 seated (round 1's tables typed in at the desk): its clock is not started, for everyone
    with server.desk.reopen() as desk:
        ev = desk.event("Kobe Open")
        names = desk.names(ev.id)
        for t, seated in enumerate(desk.round(ev.id, 1).tables, start=1):
            if desk.current_result(ev.id, 1, t) is None:
                desk.enter_result(ev.id, 1, t, {names[p]: v for p, v in zip(seated, (10, 7, 5, 3))},
                                  winner=names[seated[0]])
        # every table of round 1 has its result: the display says each is finished (table 1's tablet sent no game
        # that ended, table 2 had none; both were shown as still playing)
        assert [t["finished"] for t in request(server.url, "GET", "/display.json")["tables"]] == [True, True]
        desk.seat_round(ev.id)
    shown = request(server.url, "GET", "/display.json")
    assert shown["round"] == 2 and shown["clock"] is None and shown["clock_note"] == ""
    assert shown["labels"]["clock_none"] == "Round 2 — clock not started"
    second = join(server.url, pair(server, 1))
    assert second.round == 2 and request(server.url, "GET", "/api/table", token=second.token)["clock"] is None
    page = call("GET", "/desk")[1]
    start_form = re.search(r"<form[^>]*id=clock-start.*?</form>", page).group(0)
    assert "Round 2 — clock not started" in page and "name=minutes value=45 " in start_form  # the last length
    assert call("POST", "/desk/clock", f"csrf={key}&action=start&minutes=50".encode())[0] == 303
    told = request(server.url, "GET", "/api/table", token=second.token)["clock"]
    assert (told["round"], told["duration"], told["left"], told["warning"], told["time_up"]) == \
        (2, 50 * 60, 50 * 60, None, False)
