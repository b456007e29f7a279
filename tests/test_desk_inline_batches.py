"""A tablet's short batch is kept on the desk server's event loop when the desk's lock is free (issue 31: the
worker-thread hop cost as much CPU as the batch); when another call holds the lock it goes through a worker thread
and waits there, so the server keeps answering everything that does not need the desk file meanwhile."""

from __future__ import annotations

import threading
import urllib.request

from companion.desk_link import request
from companion.tournament.server import DeskServer

from test_desk_backlog import branches
from test_desk_server import PASSWORD, desk_events, make_event, pair


def test_a_batch_waits_for_a_held_lock_off_the_event_loop_and_is_kept_after(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD) as server:
        joined = request(server.url, "POST", "/api/join", {"code": pair(server, 1)})
        game, _ = branches(joined["header"])
        body = {"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0, "count": 3, "events": game[:3],
                "header": joined["header"]}
        assert request(server.url, "POST", "/api/events", body, token=joined["token"])["have"] == 3  # lock free
        answers = []
        with server.web._lock:  # another call at the desk file (a display's whole data, the command line's turn)
            sender = threading.Thread(target=lambda: answers.append(request(
                server.url, "POST", "/api/events", dict(body, rev=2, **{"from": 3}, count=6, events=game[3:6]),
                token=joined["token"])))
            sender.start()
            sender.join(0.5)
            assert sender.is_alive() and not answers, "the batch did not wait for the desk's lock"
            # the event loop is not the one waiting: a page that needs no desk file is served meanwhile
            with urllib.request.urlopen(f"{server.url}/display/font.otf", timeout=10) as font:
                assert font.status == 200
        sender.join(30)
        assert answers and answers[0]["have"] == 6
        assert desk_events(server, 1) == game[:6]
