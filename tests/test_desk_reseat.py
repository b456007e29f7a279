"""A round seated again after the tablets were paired (a late entry, a mistake at the desk): the tablets keep their
pairing, learn their table's new players and start its new game -- no new code needed. Real desk server, real
journal, the tablet's sender on its own thread; waits on the sender's state."""

from __future__ import annotations

from companion.desk_link import Assignment, OutboxSender, join
from companion.record.journal import Journal
from companion.tournament.store import Desk

from test_desk_clock import a_game
from test_desk_server import desk_events, pair, server, start_journal_game, wait_for  # noqa: F401 -- fixture


def reseat(server, swap: tuple[str, str]) -> list[str]:
    """The organiser takes the round back and seats it by hand with two players swapped; table 1's new players."""
    with (Desk(dsn=server.desk.dsn) if server.desk.dsn else Desk(server.desk.path)) as desk:  # the same store
        ev = desk.event("Kobe Open")
        names = desk.names(ev.id)
        tables = [[names[p] for p in t] for t in desk.round(ev.id, 1).tables]
        desk.unseat_last_round(ev.id)
        a, b = swap
        tables = [[b if n == a else a if n == b else n for n in t] for t in tables]
        desk.seat_round(ev.id, tables=tables)
        return tables[0]


def sender_for(path, assignment, statuses):
    return OutboxSender(path, assignment, on_status=statuses.append, poll=0.05).start()


def test_a_tablet_mid_game_is_told_its_tables_new_game_and_sends_it_without_a_new_code(server, tmp_path):
    journal_path = tmp_path / "journal.sqlite3"
    first = start_journal_game(journal_path, join(server.url, pair(server, 1)))
    events = a_game(first, seed=2)
    statuses: list[dict] = []
    sender = sender_for(journal_path, first, statuses)
    try:
        with Journal(journal_path) as journal:
            for e in events[:30]:
                journal.append(first.game_id, e)
        sender.wake()
        wait_for(lambda: sender.status["state"] == "up to date" and sender.status["have"] == 30, "the first events")
        other_table = join(server.url, pair(server, 2)).players
        new_players = reseat(server, (first.players[0], other_table[0]))
        assert new_players != list(first.players)
        with Journal(journal_path) as journal:
            journal.append(first.game_id, events[30])  # the table plays on: the desk says it was re-seated
        sender.wake()
        wait_for(lambda: sender.status["state"] == "reseated", "the sender to hear of the new seating")
    finally:
        sender.stop()
    new = Assignment.from_json(sender.status["assignment"])
    assert list(new.players) == new_players and new.token == first.token and new.table == 1
    assert new.header["board"] == first.header["board"]  # the table's board is the table's, whoever sits there
    second = start_journal_game(journal_path, new)
    again = a_game(second, seed=5)[:20]
    sender = sender_for(journal_path, second, [])
    try:
        with Journal(journal_path) as journal:
            for e in again:
                journal.append(second.game_id, e)
        sender.wake()
        wait_for(lambda: sender.status["state"] == "up to date" and sender.status["have"] == 20,
                 "the new game at the desk")
    finally:
        sender.stop()
    assert desk_events(server, 1) == again


def test_a_tablet_joined_before_the_reseat_learns_it_when_its_game_starts(server, tmp_path):
    journal_path = tmp_path / "journal.sqlite3"
    stale = join(server.url, pair(server, 1))
    reseat(server, (stale.players[0], join(server.url, pair(server, 2)).players[0]))
    started = start_journal_game(journal_path, stale)  # the players start the game they were told of
    with Journal(journal_path) as journal:
        journal.append(started.game_id, a_game(started, seed=1)[0])
    sender = sender_for(journal_path, started, [])
    try:
        wait_for(lambda: sender.status["state"] == "reseated", "the sender to hear of the new seating")
    finally:
        sender.stop()
    assert Assignment.from_json(sender.status["assignment"]).players != stale.players
