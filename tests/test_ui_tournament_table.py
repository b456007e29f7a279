"""Menu → Tournament table with real Kivy widgets under Xvfb and a real desk server on 127.0.0.1: the players type
the desk's address and their table's code, join, start the desk's game, play; the desk gets every event.
Waits are on the app's or the desk's state."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

import companion.ui  # noqa: F401  (Kivy's environment: no argv parsing)
from companion.desk_link import request
from companion.tournament.server import DeskServer
from companion.ui.driver import find, settle, start_app, stop_app, tap, wait_until

from test_desk_server import NAMES, PASSWORD, desk_events, make_event
from tournament_screens import type_into

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def desk(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD) as server:
        yield server


def test_join_start_and_play_reach_the_desk(tmp_path, desk):
    code = request(desk.url, "POST", "/api/admin/pair", {"table": 2}, token=PASSWORD)["code"]
    app = start_app(tmp_path / "tablet")
    try:
        tap(find(app.root, "Tournament table"))
        screen = app.root.get_screen("tournament_table")
        assert app.root.current == "tournament_table"
        type_into(screen.address, desk.url.removeprefix("http://"))
        type_into(screen.code, "wrong1")
        tap(find(screen, "Join"))
        assert wait_until(lambda: "not open at this desk" in screen.info.text)
        assert screen.start_button.disabled
        type_into(screen.code, code)
        tap(find(screen, "Join"))
        assert wait_until(lambda: screen.assignment is not None)
        players = list(screen.assignment.players)
        assert screen.info.text == f"Kobe Open, round 1, table 2: {', '.join(players)}"
        # a code works once: its field is empty for the next round's code, typed as keys (the used code stayed, and
        # the next round's was typed after it: "V7YNG7SAS39Y" refused, session 17's trial)
        assert screen.code.text == ""
        tap(find(screen, "Start the game"))
        assert wait_until(lambda: app.table is not None and app.root.current == "play")
        record = app.table.record
        assert [p["name"] for p in record.players] == players
        assert record.board == screen.assignment.header["board"]
        # play the set-up through the table, as the board's taps do
        from companion.rules.random_play import random_events
        import random
        from companion.record import new_game
        for event in random_events(new_game(record), random.Random(1), 30):
            app.table.submit(event)
        assert wait_until(lambda: len(desk_events(desk, 2)) == 30, timeout=30)
        assert desk_events(desk, 2) == app.table.record.events
        assert wait_until(lambda: screen.status_label.text == "Desk: up to date (30 events)", timeout=30)
    finally:
        stop_app(app)
    assert app.desk_link.sender is None  # stopped with the app
    assert app.announcer is None and app.journal is None  # and the app's own shutdown ran too (its announcer,
    # journal): a handler of on_stop returning a true value had kept it from running


def test_a_restarted_app_sends_on(tmp_path, desk):
    with joined_tablet(desk, tmp_path / "tablet") as (app, screen):
        screen.start_game()
        game_id = app.table.game_id
    # events journalled while the link was down (the app closed), then the app comes back
    from companion.record.journal import Journal
    from companion.record import new_game
    from companion.rules.random_play import random_events
    import random
    with Journal(tmp_path / "tablet" / "journal.sqlite3") as journal:
        record = journal.load(game_id)
        for event in random_events(new_game(record), random.Random(2), 12):
            journal.append(game_id, event)
        expected = list(journal.iter_events(game_id))
    app = start_app(tmp_path / "tablet")
    try:
        assert wait_until(lambda: desk_events(desk, 1) == expected, timeout=30)
        screen = app.root.get_screen("tournament_table")
        assert screen.address.text == desk.url.removeprefix("http://")
    finally:
        stop_app(app)


def test_the_round_clock_and_its_warnings_show_on_the_tablet_and_a_reseat_starts_the_new_game(tmp_path):
    import random

    from companion.record import new_game
    from companion.rules.random_play import random_events
    from test_desk_clock import HandClock
    from test_desk_reseat import reseat

    hand = HandClock()
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD,
                    clock=hand) as desk:
        for body in ({"action": "reset", "minutes": 60}, {"action": "start"}):
            request(desk.url, "POST", "/api/admin/clock", body, token=PASSWORD)
        hand.advance(50 * 60)  # ten minutes left
        code = request(desk.url, "POST", "/api/admin/pair", {"table": 1}, token=PASSWORD)["code"]
        app = start_app(tmp_path / "tablet")
        try:
            tap(find(app.root, "Tournament table"))
            screen = app.root.get_screen("tournament_table")
            type_into(screen.address, desk.url)
            type_into(screen.code, code)
            tap(find(screen, "Join"))
            assert wait_until(lambda: screen.assignment is not None)
            first = screen.assignment
            tap(find(screen, "Start the game"))
            assert wait_until(lambda: app.root.current == "play")
            keeper = app.desk_link
            assert wait_until(lambda: keeper.badge is not None and keeper.badge.text.startswith("Round clock "))
            assert keeper.badge.text in ("Round clock 10:00", "Round clock 09:59", "Round clock 09:58")
            assert wait_until(lambda: screen.warning_label.text == "10 min left")
            assert keeper.warnings_said == ["10 min left"]  # said once, not once a second
            said = [a.caption for a in app.announcer.captions if a.source.startswith("clock")]
            assert said == ["Ten minutes left in the round."]  # and said aloud by the game's announcer
            swap = (first.players[0], next(n for n in NAMES[:8] if n not in first.players))
            new_players = reseat(desk, swap)
            app.table.submit(next(random_events(new_game(app.table.record), random.Random(1), 1)))
            assert wait_until(lambda: screen.assignment is not first, timeout=30)
            assert list(screen.assignment.players) == new_players
            assert "seated the round again" in screen.status_label.text and not screen.start_button.disabled
            assert keeper.sender is None  # the old game's link is stopped (the table is still listened to)
            app.go("tournament_table")
            settle()
            tap(find(screen, "Start the game"))
            assert wait_until(lambda: [p["name"] for p in app.table.record.players] == new_players)
        finally:
            stop_app(app)


@contextmanager
def paired_tablet(tmp_path, size=(1280, 800)):
    """A desk server on a clock the test moves (time rule "stop", the round's 60 minutes running) and the app
    (a window of ``size``) joined to its table 1 and started: ``(desk, hand, app, screen)``; the app is stopped
    after."""
    from test_desk_clock import HandClock

    hand = HandClock()
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD,
                    clock=hand) as desk:
        for path, body in (("/api/admin/settings", {"time_rule": "stop"}),
                           ("/api/admin/clock", {"action": "reset", "minutes": 60}),
                           ("/api/admin/clock", {"action": "start"})):
            request(desk.url, "POST", path, body, token=PASSWORD)
        with joined_tablet(desk, tmp_path / "tablet", size=size) as (app, screen):
            screen.start_game()
            yield desk, hand, app, screen


def desk_ends_the_game_by_time_at_30(desk, hand, app):
    """Table 1 plays 30 of 40 random events and the desk hears them; the round's time runs out and the desk looks
    at its clock: it ends the game at 30 (the tablet has not heard yet).  The 40 events, for the test to go on."""
    import random

    from companion.record import new_game
    from companion.rules.random_play import random_events

    events = list(random_events(new_game(app.table.record), random.Random(5), 40))
    for event in events[:30]:
        app.table.submit(event)
    assert wait_until(lambda: len(desk_events(desk, 1)) == 30, timeout=30)
    hand.advance(3600)
    request(desk.url, "GET", "/display.json")  # the desk looks at its clock: the game ends at 30
    return events


@contextmanager
def joined_tablet(desk, tablet_dir, table=1, address=None, size=(1280, 800)):
    """The app started on ``tablet_dir`` and joined to the desk's ``table`` as its players do: the desk pairs the
    table, the desk's address (``address``: another way to it, such as a proxy) and the code are typed, Join, and
    the desk's seating shown: ``(app, screen)``, the Tournament table screen; the app is stopped after."""
    code = request(desk.url, "POST", "/api/admin/pair", {"table": table}, token=PASSWORD)["code"]
    app = start_app(tablet_dir, size=size)
    try:
        screen = app.root.get_screen("tournament_table")
        type_into(screen.address, address or desk.url)
        type_into(screen.code, code)
        screen.join()
        assert wait_until(lambda: screen.assignment is not None, timeout=30)
        yield app, screen
    finally:
        stop_app(app)


def test_the_desk_ending_the_game_by_time_ends_it_on_the_tablet_where_the_result_stood(tmp_path):
    """The clock runs out, the desk ends table 1's game at the 30 events it heard; the table plays one more event
    before it hears: the open game records the end after 30 (the play screen says so), refuses play, and the
    desk's copy is the tablet's record."""
    from companion.rules import RulesError

    with paired_tablet(tmp_path) as (desk, hand, app, screen):
        assert wait_until(lambda: app.root.current == "play")
        events = desk_ends_the_game_by_time_at_30(desk, hand, app)
        app.table.submit(events[30])  # played after time; its answer brings the desk's word
        assert wait_until(lambda: app.table.game.ended_by_time == 30, timeout=30)
        assert app.table.record.events[-1] == {"type": "time_limit", "after": 30}
        play = app.root.get_screen("play")
        assert wait_until(lambda: play.prompt == "Game over — ended by the round's time limit")
        with pytest.raises(RulesError, match="ended by the round's time limit"):
            app.table.submit(events[31])
        # the desk's end is not the table's to take back (Undo took it back and the desk's word put it again at
        # once: a tap that did nothing, session 17's trial)
        assert play.ids.undo.disabled
        assert wait_until(lambda: desk_events(desk, 1) == app.table.record.events, timeout=30)
        assert len(app.table.record.events) == 32
        # the way on is the tournament's, not a new game outside it ("New game, same players" was offered:
        # session 16's trial)
        from companion.ui.tournament_table import text as desk_text

        way_on = find(play.ids.actions, desk_text("menu"))
        settle()
        with pytest.raises(LookupError):
            find(play.ids.actions, app.tr("play_again"), timeout=0)
        tap(way_on)
        assert app.root.current == "tournament_table"


@pytest.mark.parametrize("lang, left, running, shown", [
    ("en", 600.0, True, "Round clock 10:00"),
    ("en", 60.0, False, "Round clock 01:00 (paused)"),
    ("en", 0.0, True, "Round clock: time is up"),
    ("ja", 600.0, True, "ラウンド残り 10:00"),
    ("ja", 60.0, False, "ラウンド残り 01:00（一時停止）"),
    ("ja", 0.0, True, "ラウンド終了の時間です"),  # it said 「ラウンド残り 時間です」 ("time left: Time!"): session 17's trial
])
def test_the_clock_line_says_time_left_or_that_the_round_s_time_is_up(tmp_path, lang, left, running, shown):
    from companion.tournament import clock as clock_mod
    from companion.ui.tournament_table import clock_line

    app = start_app(tmp_path / "tablet")
    try:
        app.lang = lang
        view = clock_mod.from_told({"round": 1, "duration": 3600.0, "running": running, "left": left}, 0.0)
        assert clock_line(view, lang) == shown
    finally:
        stop_app(app)
