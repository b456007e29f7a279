"""A long batch (a tablet back from offline, or joining mid-game) is checked through the rules outside the desk's
lock, and kept only if the game is still as the check saw it: the desk ends with exactly the tablet's journal."""

from __future__ import annotations

import random

import pytest

from companion.desk_link import DeskLinkError, request
from companion.record import new_game, parse_record, replay
from companion.rules.random_play import random_events
from companion.tournament.server import DeskServer
from companion.tournament.server_store import LONG_BATCH, CheckOutside, Floor
from companion.tournament.store import Desk

from test_desk_server import PASSWORD, desk_events, make_event, pair


@pytest.fixture
def floor_and_table(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    with Desk(tmp_path / "desk.sqlite3") as desk:
        floor = Floor(desk, "Kobe Open")
        token, _ = floor.join(floor.issue_code(1).code)
        pairing = floor.authenticate(token)
        header = floor.table_header(1, 1)
        yield floor, pairing, header


def branches(header):
    start = new_game(parse_record({**header, "events": []}))
    common = list(random_events(start, random.Random(1), 2 * LONG_BATCH))
    a = common + list(random_events(start.copy(), random.Random(2), 3 * LONG_BATCH))
    b = common + list(random_events(start.copy(), random.Random(3), 3 * LONG_BATCH))
    return a, b


def deferred(floor, pairing, rev, start, events, header=None):
    with pytest.raises(CheckOutside) as raised:
        floor.receive(pairing, 1, rev, start, events, start + len(events), header, defer_long=True)
    return raised.value.check


def test_a_long_batch_is_checked_outside_and_kept_whole(floor_and_table):
    floor, pairing, header = floor_and_table
    a, _ = branches(header)
    n = 2 * LONG_BATCH
    check = deferred(floor, pairing, 1, 0, a[:n], header)
    assert floor.game_events(pairing.id, 1) == []  # nothing written before the check
    check.run()  # (no lock needed: the check holds its own game)
    view = floor.receive(pairing, 1, 1, 0, a[:n], n, header, checked=check)
    assert view["have"] == n and floor.game_events(pairing.id, 1) == a[:n]
    # a short batch is kept at once, in one turn
    floor.receive(pairing, 1, 2, n, a[n:n + 1], n + 1, None, defer_long=True)
    # the next long batch goes on from the desk's own game (no replay of what it holds)
    rest = a[n + 1:]
    assert len(rest) >= LONG_BATCH
    check = deferred(floor, pairing, 3, n + 1, rest)
    assert check.base is not None and check.stored == []
    check.run()
    floor.receive(pairing, 1, 3, n + 1, rest, len(a), None, checked=check)
    assert floor.game_events(pairing.id, 1) == a


def test_a_check_of_a_game_that_changed_meanwhile_is_not_used(floor_and_table):
    floor, pairing, header = floor_and_table
    a, b = branches(header)
    assert a[:2 * LONG_BATCH] == b[:2 * LONG_BATCH] and a != b
    floor.receive(pairing, 1, 1, 0, b[:10], 10, header)
    check = deferred(floor, pairing, 3, 0, a, header)  # the tablet's newer read: branch a from 0
    check.run()
    floor.receive(pairing, 1, 2, 10, b[10:], len(b), None)  # meanwhile an older request (rev 2) lands
    floor.receive(pairing, 1, 3, 0, a, len(a), header, checked=check)  # checked again, under the lock
    assert floor.game_events(pairing.id, 1) == a
    # and the desk's own game (what the display and the result are worked out from) is a's
    count, game = floor._games[(pairing.id, 1)]
    assert count == len(a)
    assert game.summary() == replay(parse_record({**header, "events": a})).summary()


def test_a_refused_event_deep_in_a_backlog_keeps_nothing_over_http(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD) as server:
        code = pair(server, 1)
        joined = request(server.url, "POST", "/api/join", {"code": code})
        a, _ = branches(joined["header"])
        bad = [dict(e) for e in a]
        at = 2 * LONG_BATCH - 5
        bad[at] = {"type": "build", "piece": "city", "at": [[9, 9], [9, 8], [8, 9]]}  # nowhere on the board
        body = {"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "count": len(a), "header": joined["header"]}
        with pytest.raises(DeskLinkError) as refused:
            request(server.url, "POST", "/api/events", dict(body, events=bad), token=joined["token"])
        assert refused.value.status == 422 and f"event {at}" in str(refused.value)
        assert desk_events(server, 1) == []
        view = request(server.url, "POST", "/api/events", dict(body, rev=2, events=a), token=joined["token"])
        assert view["have"] == len(a) and desk_events(server, 1) == a
