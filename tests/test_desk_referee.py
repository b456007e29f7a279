"""The referee at the desk: a tablet's result waits for a confirm (or is entered, per the event's setting), the
referee confirms with one request or corrects with a reason, and the audit trail keeps both; the live display in
the event's language. Real desk server on 127.0.0.1, requests as tablets and the desk make them; the desk on its
SQLite file and on a real PostgreSQL server (tests/postgres_server.py).
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from companion.desk_link import DeskLinkError, join, request
from companion.record import new_game
from companion.tournament.server import DeskServer
from companion.tournament.store import Desk

from test_desk_clock import a_game, send
from test_desk_server import PASSWORD, make_event, pair


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request, tmp_path):
    db = tmp_path / "desk.sqlite3"
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    make_event(db, dsn=dsn)
    where = {"dsn": dsn} if dsn else {"db": db}
    with DeskServer("Kobe Open", **where, host="127.0.0.1", port=0, password=PASSWORD) as s:
        yield s


def admin(server, path, body=None, method="POST", token=PASSWORD):
    return request(server.url, method, path, body, token=token)


def desk_page(server):
    """``call(method, path, body=None) -> (status, text)``: the organiser's /desk pages as a browser asks for them,
    logged in (HTTP basic) as the desk; a body is a posted form."""
    import base64
    import http.client

    basic = {"Authorization": "Basic " + base64.b64encode(f"desk:{PASSWORD}".encode()).decode()}

    def call(method, path, body=None):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        headers = dict(basic, **({"Content-Type": "application/x-www-form-urlencoded"} if body else {}))
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode()
        connection.close()
        return response.status, text
    return call


def the_desk(server):
    desk = server.desk.reopen()
    ev = desk.event("Kobe Open")
    return desk, ev, desk.names(ev.id)


def finished_game(tablet, seed=3):
    events = a_game(tablet, seed)
    game = new_game(tablet.record())
    for e in events:
        game.push(dict(e))
    summary = game.summary()
    assert summary["winner"] is not None
    return events, {name: summary["players"][i]["vp"] for i, name in enumerate(tablet.players)}, \
        tablet.players[summary["winner"]]


def test_a_tablets_result_waits_for_the_referees_confirm(server):
    admin(server, "/api/admin/settings", {"confirm": "referee"})
    tablet = join(server.url, pair(server, 1))
    events, vp, winner = finished_game(tablet)
    view = send(server, tablet, 5, events)
    assert view["finished"] and "waits for the referee" in view["note"]
    desk, ev, names = the_desk(server)
    with desk:
        assert desk.current_result(ev.id, 1, 1) is None  # not in the standings yet
    waiting = admin(server, "/api/admin/proposals", method="GET")["proposals"]
    assert waiting == [{"id": waiting[0]["id"], "round": 1, "table": 1, "game": 5, "vp": vp, "winner": winner,
                        "ended_by_time": False, "decision": None}]
    entered = admin(server, "/api/admin/confirm", {"round": 1, "table": 1})  # the one tap
    assert (entered["vp"], entered["winner"], entered["source"]) == (vp, winner, "tablet: game 5")
    assert admin(server, "/api/admin/proposals", method="GET")["proposals"] == []
    assert send(server, tablet, 5, events)["note"] == "result entered"  # the tablet hears it
    with pytest.raises(DeskLinkError) as again:  # nothing left to confirm
        admin(server, "/api/admin/confirm", {"round": 1, "table": 1})
    assert again.value.status == 422 and "no result waiting" in str(again.value)
    desk, ev, names = the_desk(server)
    with desk:
        actions = [a["action"] for a in desk.audit(ev.id)]
        assert actions.index("propose result") < actions.index("enter result")
        assert [s for s in desk.standings(ev.id) if names[s.player] == winner][0].wins == 1


def test_the_referee_corrects_a_proposal_and_the_trail_keeps_both(server):
    admin(server, "/api/admin/settings", {"confirm": "referee"})
    tablet = join(server.url, pair(server, 1))
    events, vp, winner = finished_game(tablet, seed=8)
    send(server, tablet, 2, events)
    loser = next(p for p in tablet.players if p != winner)
    fixed = dict(vp, **{loser: vp[loser] + 1})  # a VP card the app never heard of, shown to the referee
    with pytest.raises(DeskLinkError) as no_reason:
        admin(server, "/api/admin/correct", {"round": 1, "table": 1, "vp": fixed, "winner": winner, "reason": " "})
    assert no_reason.value.status == 422
    assert len(admin(server, "/api/admin/proposals", method="GET")["proposals"]) == 1  # nothing changed
    entry = admin(server, "/api/admin/correct", {"round": 1, "table": 1, "vp": fixed, "winner": winner,
                                                 "reason": "a VP card shown at the table"})
    assert entry["vp"] == fixed and entry["source"] == "referee, correcting game 2"
    assert admin(server, "/api/admin/proposals", method="GET")["proposals"] == []
    assert "a VP card shown at the table" in send(server, tablet, 2, events)["note"]
    desk, ev, names = the_desk(server)
    with desk:
        trail = desk.audit(ev.id)
        proposed = next(a for a in trail if a["action"] == "propose result")["details"]
        assert proposed["vp"] == vp  # what the tablet said stays in the trail beside what the referee entered
        assert next(a for a in trail if a["action"] == "enter result")["details"]["vp"] == fixed


def test_by_default_the_result_is_entered_and_the_desk_corrects_it_later(server):
    tablet = join(server.url, pair(server, 1))
    events, vp, winner = finished_game(tablet, seed=3)
    assert send(server, tablet, 9, events)["note"] == "result entered"
    loser = next(p for p in tablet.players if p != winner)
    admin(server, "/api/admin/correct", {"round": 1, "table": 1, "vp": dict(vp, **{loser: 0}), "winner": winner,
                                         "reason": "left the table"})
    desk, ev, names = the_desk(server)
    with desk:
        history = desk.results(ev.id, with_history=True)
        assert [r.superseded_by is not None for r in history] == [True, False]
        assert history[1].reason == "left the table" and history[0].source == "tablet: game 9"


@pytest.mark.parametrize("body, status, words", [
    ({"round": 1}, 422, "missing field(s) table"),
    ({"round": 1, "table": 1, "extra": 1}, 422, "unknown field(s) extra"),
    ({"round": "1", "table": 1}, 422, "round must be a whole number"),
])
def test_referee_requests_are_checked(server, body, status, words):
    with pytest.raises(DeskLinkError) as error:
        admin(server, "/api/admin/confirm", body)
    assert error.value.status == status and words in str(error.value)


def test_referee_requests_need_the_desks_password(server):
    for token, status in ((None, 401), ("wrong", 403)):
        for path, body in (("/api/admin/confirm", {"round": 1, "table": 1}), ("/api/admin/settings", {"confirm": "auto"}),
                           ("/api/admin/correct", {"round": 1, "table": 1, "vp": {}, "reason": "x"})):
            with pytest.raises(DeskLinkError) as error:
                admin(server, path, body, token=token)
            assert error.value.status == status
    tablet = join(server.url, pair(server, 1))  # a tablet's token is not the desk's password
    with pytest.raises(DeskLinkError) as error:
        admin(server, "/api/admin/confirm", {"round": 1, "table": 1}, token=tablet.token)
    assert error.value.status == 403
    with pytest.raises(DeskLinkError) as bad:
        admin(server, "/api/admin/settings", {"time_rule": "never"})
    assert bad.value.status == 422 and "time_rule must be one of finish_round, stop" in str(bad.value)


def test_the_live_display_speaks_the_events_language(server):
    tablet = join(server.url, pair(server, 1))
    send(server, tablet, 1, a_game(tablet)[:80])
    admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})
    english = request(server.url, "GET", "/display.json")
    assert english["lang"] == "en" and english["columns"][1] == "Name"
    admin(server, "/api/admin/settings", {"language": "ja"})
    data = request(server.url, "GET", "/display.json")
    assert data["lang"] == "ja" and data["columns"][:4] == ["#", "名前", "試合数", "勝利数"]
    assert data["clock_text"] == "60:00（一時停止）" and "一巡" in data["clock_note"]
    with urllib.request.urlopen(server.url + "/") as page:
        text = page.read().decode("utf-8")
    assert '<html lang="ja">' in text and "<h2>順位</h2>" in text and "1卓：" in text
    for english_word in ("Standings", "Tables", "Table 1", "paused", "Longest Road"):
        assert english_word not in text.split("<script>")[0]  # the page as drawn, before the script's defaults
    assert json.loads(json.dumps(data["labels"]))["time_up"] == "時間です"


def test_the_desk_page_confirms_with_one_tap_and_sets_the_floor(server):
    import re

    call = desk_page(server)

    status, page = call("GET", "/desk")
    assert status == 200 and "No result is waiting." in page
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    assert call("POST", "/desk/settings", f"csrf={key}&confirm=referee&time_rule=stop&language=ja".encode())[0] == 303
    assert admin(server, "/api/admin/proposals", method="GET")["settings"] == {
        "confirm": "referee", "time_rule": "stop", "language": "ja"}
    tablet = join(server.url, pair(server, 1))
    events, vp, winner = finished_game(tablet)
    send(server, tablet, 4, events)
    page = call("GET", "/desk")[1]  # (in the event's language, set just above: it was English whatever it was)
    assert "審判の確認を待つ結果" in page and f"勝者 {winner}" in __import__("html").unescape(page)
    assert call("POST", "/desk/confirm", b"csrf=forged&round=1&table=1")[0] == 403  # another page's form
    assert call("POST", "/desk/confirm", f"csrf={key}&round=1&table=1".encode())[0] == 303
    desk, ev, names = the_desk(server)
    with desk:
        result = desk.current_result(ev.id, 1, 1)
        assert result is not None and names[result.winner] == winner
    assert "確認を待つ結果はありません。" in call("GET", "/desk")[1]


def test_the_desk_page_says_a_refusal_as_a_page_in_the_event_s_language(server):
    """A refused form on the desk page answers a page saying why in the event's language (it showed the JSON)."""
    import re

    call = desk_page(server)
    key = re.search(r"name=csrf value=(\w+)", call("GET", "/desk")[1]).group(1)
    said = {}
    for lang in ("en", "ja"):
        admin(server, "/api/admin/settings", {"language": lang})
        for what, form in (("nothing to confirm", f"csrf={key}&round=1&table=1"),
                           ("not numbers", f"csrf={key}&round=one&table=1"),
                           ("another page's form", "csrf=forged&round=1&table=1")):
            status, page = call("POST", "/desk/confirm", form.encode())
            assert status in (403, 422) and page.startswith("<!DOCTYPE html>"), (what, page[:80])
            assert f'<html lang="{lang}">' in page and 'href="../desk"' in page
            said[lang, what] = re.search(r'<p id="refusal">(.*?)</p>', page).group(1)
    assert said["en", "nothing to confirm"] == "round 1 table 1 has no result waiting for a confirm"
    assert said["ja", "nothing to confirm"] == "第1ラウンド1卓には確認を待つ結果がありません"
    assert said["ja", "not numbers"] == "ラウンドと卓は番号で指定してください"
    assert said["ja", "another page's form"].startswith("このフォームは本部のページから送られたものではありません")
    assert not [k for k, v in said.items() if k[0] == "ja" and re.search(r"[A-Za-z]{2,}", v)], said
    # the same refusals to a program stay JSON, with the key a tablet says them by
    with pytest.raises(DeskLinkError) as refused:
        admin(server, "/api/admin/confirm", {"round": 1, "table": 1})
    assert refused.value.status == 422 and refused.value.key == "nothing_to_confirm"


def test_the_desk_page_enters_other_numbers_with_a_reason(server):
    import re
    from urllib.parse import urlencode

    call = desk_page(server)

    admin(server, "/api/admin/settings", {"confirm": "referee"})
    tablet = join(server.url, pair(server, 1))
    events, vp, winner = finished_game(tablet, seed=8)
    send(server, tablet, 6, events)
    page = call("GET", "/desk")[1]
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    fields = dict(re.findall(r"name=(vp:\d+) value=(\d+)", page))  # the proposal's numbers, filled in
    assert sorted(map(int, fields.values())) == sorted(vp.values())
    desk, ev, names = the_desk(server)
    desk.close()
    ids = {v: k for k, v in names.items()}
    loser = next(p for p in tablet.players if p != winner)
    fields[f"vp:{ids[loser]}"] = str(vp[loser] + 1)
    form = {"csrf": key, "round": 1, "table": 1, **fields, "winner": ids[winner], "reason": ""}
    assert call("POST", "/desk/correct", urlencode(form).encode())[0] == 422  # a correction needs a reason
    form["reason"] = "a VP card shown late"
    assert call("POST", "/desk/correct", urlencode(form).encode())[0] == 303
    desk, ev, names = the_desk(server)
    with desk:
        result = desk.current_result(ev.id, 1, 1)
        assert {names[p]: v for p, v in result.vp.items()} == dict(vp, **{loser: vp[loser] + 1})
        assert result.source == "referee, correcting game 6" and result.reason == "a VP card shown late"


def test_the_display_names_who_sits_the_round_out(tmp_path):
    db = tmp_path / "desk.sqlite3"
    with Desk(db) as desk:
        ev = desk.create_event("Club night", seed=3)
        for name in ("Aki", "Ben", "Chie", "Dan", "Emi"):
            desk.add_player(ev.id, name)
        rnd = desk.seat_round(ev.id)
        names = desk.names(ev.id)
        (bye,) = rnd.cost["byes"]
    with DeskServer("Club night", db, host="127.0.0.1", port=0, password=PASSWORD) as server:
        assert request(server.url, "GET", "/display.json")["byes"] == f"Bye: {names[bye]}"
        with urllib.request.urlopen(server.url + "/") as page:
            assert f'<p id="byes">Bye: {names[bye]}</p>' in page.read().decode("utf-8")
        admin(server, "/api/admin/settings", {"language": "ja"})
        assert request(server.url, "GET", "/display.json")["byes"] == f"不戦: {names[bye]}"
