"""The desk's time line for bench/bench_desk_floor.py --trace (``CATAN_DESK_TRACE``): each kept batch is written
with its table, first event, size, what the desk then held and its path, and the file is closed with the server
(the collector's callback gone). Off, nothing is written and no callback is added."""

from __future__ import annotations

import gc
import json

from companion.desk_link import request
from companion.tournament.server import DeskServer

from test_desk_backlog import branches
from test_desk_server import PASSWORD, make_event, pair


def _serve_two_batches(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD) as server:
        joined = request(server.url, "POST", "/api/join", {"code": pair(server, 2)})
        game, _ = branches(joined["header"])
        body = {"round": 1, "table": 2, "game": 1, "rev": 1, "from": 0, "count": 3, "events": game[:3],
                "header": joined["header"]}
        assert request(server.url, "POST", "/api/events", body, token=joined["token"])["have"] == 3
        body = {"round": 1, "table": 2, "game": 1, "rev": 2, "from": 3, "count": 4, "events": game[3:4]}
        assert request(server.url, "POST", "/api/events", body, token=joined["token"])["have"] == 4
        return server


def test_each_batch_is_written_with_its_time_line(tmp_path, monkeypatch):
    trace = tmp_path / "trace.jsonl"
    monkeypatch.setenv("CATAN_DESK_TRACE", str(trace))
    callbacks = len(gc.callbacks)
    server = _serve_two_batches(tmp_path)
    assert len(gc.callbacks) == callbacks, "the trace's collector callback outlived the server"
    batches = [row for row in map(json.loads, trace.read_text().splitlines()) if row[0] == "batch"]
    assert [(row[1], row[2], row[3], row[4]) for row in batches] == [(2, 0, 3, 3), (2, 3, 1, 4)]
    for row in batches:
        arrived, read, locked, kept, answered = row[5:10]
        assert arrived <= read <= locked <= kept <= answered
        assert row[10] in ("inline", "thread")
    assert server.web.trace is not None


def test_without_the_variable_nothing_is_traced(tmp_path, monkeypatch):
    monkeypatch.delenv("CATAN_DESK_TRACE", raising=False)
    callbacks = len(gc.callbacks)
    server = _serve_two_batches(tmp_path)
    assert server.web.trace is None and len(gc.callbacks) == callbacks
    assert list(tmp_path.glob("*.jsonl")) == []
