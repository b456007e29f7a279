"""What the desk and the tablet's link say on the Tournament table screen, in Japanese on a Japanese screen (it was
English whatever the app's language). Each sentence is met for real -- typed addresses and codes, a real desk
server on 127.0.0.1 refusing, a port nobody listens on, a web server that is not a desk -- and must be said in
Japanese with its facts, not as the fallback; then the screen by touch."""

from __future__ import annotations

import http.server
import re
import socket
import threading

import pytest

from companion.desk_link import DeskLinkError, join, request
from companion.tournament.server import DeskServer
from companion.ui.desk_link_text import UNKNOWN_JA, link_text

from test_desk_reseat import reseat
from test_desk_server import NAMES, PASSWORD, _batch, _post, make_event, pair, played

pytestmark = pytest.mark.timeout(120)


def english_words(text: str, keep=()) -> list[str]:
    """English words left in ``text`` outside the facts a sentence quotes (brackets, addresses, names)."""
    for fact in keep:
        text = text.replace(fact, "")
    text = re.sub(r"（[^）]*）|\([^)]*\)|'[^']*'|\S+://\S+|\d+\.\d+\.\d+\.\d+:\d+", "", text)
    return re.findall(r"[A-Za-z]{2,}", text)


def refusal(action) -> str:
    with pytest.raises(DeskLinkError) as refused:
        action()
    return str(refused.value)


@pytest.fixture
def desk(tmp_path):
    make_event(tmp_path / "desk.sqlite3")
    with DeskServer("Kobe Open", tmp_path / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD) as server:
        yield server


class NotADesk(http.server.BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 -- http.server's name
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.end_headers()
        self.wfile.write(b"<html>a router's page</html>")

    def log_message(self, *args):
        pass


def sentences(desk) -> dict[str, str]:
    """Every sentence a tablet can meet, by what met it."""
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    web = http.server.HTTPServer(("127.0.0.1", 0), NotADesk)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    try:
        one = join(desk.url, pair(desk, 1))
        two = join(desk.url, pair(desk, 2))
        events = played(one, seed=2, budget=10)
        post = lambda a, body: request(desk.url, "POST", "/api/events", body, token=a.token)  # noqa: E731
        met = {
            "no address": refusal(lambda: join("  ", "ABC123")),
            "not an address": refusal(lambda: join("ftp://desk.local/x", "ABC123")),
            "bad port": refusal(lambda: join("desk.local:eighty", "ABC123")),
            "no code": refusal(lambda: join(desk.url, " ")),
            "no answer": refusal(lambda: join(f"127.0.0.1:{closed}", "ABC123", timeout=3)),
            "not a desk": refusal(lambda: join(f"127.0.0.1:{web.server_address[1]}", "ABC123")),
            "wrong code": refusal(lambda: join(desk.url, "ZZZZZZ")),
            "code too long": refusal(lambda: join(desk.url, "A" * 17)),
            "another table": refusal(lambda: post(two, _batch(one, 1, 1, 0, events, 10))),
            "unknown token": refusal(lambda: request(desk.url, "GET", "/api/table", token="x" * 43)),
            "no token": refusal(lambda: request(desk.url, "GET", "/api/table")),
            "not the table's game": refusal(lambda: post(one, dict(_batch(one, 1, 1, 0, events, 10),
                                                                   header={**one.header, "players": []}))),
            "new game": refusal(lambda: post(one, _batch(one, 7, 3, 0, events, 10, header=False))),
            "rules": refusal(lambda: post(one, _batch(one, 1, 4, 0, [events[1], *events], 11))),
        }
        assert post(one, _batch(one, 1, 5, 0, events, 10))["have"] == 10
        met["gap"] = refusal(lambda: post(one, _batch(one, 1, 6, 15, events, 25, header=False)))
        reseat(desk, (one.players[0], next(n for n in NAMES if n not in one.players)))
        met["re-seated"] = refusal(lambda: post(one, _batch(one, 1, 7, 0, events, 10, header=False)))
        pair(desk, 2)
        met["paired again"] = refusal(lambda: post(two, _batch(two, 1, 1, 0, [], 0)))
        for _ in range(10):
            _post(desk, "/api/join", {"code": "WRONG1"})
        met["guessing"] = refusal(lambda: join(desk.url, "ZZZZZZ"))
    finally:
        web.shutdown()
        web.server_close()
    return met


def test_every_sentence_the_tablet_meets_is_said_in_japanese(desk):
    met = sentences(desk)
    names = [*NAMES, "Kobe Open"]
    for what, english in met.items():
        japanese = link_text(english, "ja")
        assert not japanese.startswith(UNKNOWN_JA.split("（")[0] + "（"), (what, english)  # one of ours, not the fallback
        assert english_words(japanese, names) == [], (what, english, japanese)
        assert link_text(english, "en") == english
    assert link_text(met["wrong code"], "ja") == ("このペアリングコードは本部で使えません（間違い、使用済み、または新しいコードに"
                                                  "置き換え済み）。本部で卓のコードを確かめてください")
    assert "第1ラウンド2卓" in link_text(met["another table"], "ja")
    assert link_text("a sentence from a newer desk", "ja") == "本部が受け付けませんでした（a sentence from a newer desk）"


def test_a_japanese_screen_says_the_desk_s_refusal_in_japanese(tmp_path, desk):
    import companion.ui  # noqa: F401  (Kivy's environment: no argv parsing)
    from companion.ui.driver import find, start_app, stop_app, tap, wait_until
    from companion.ui.tournament_table import TEXTS
    from test_ui_tournament_table import type_into

    app = start_app(tmp_path / "tablet")
    try:
        app.lang = "ja"
        tap(find(app.root, TEXTS["ja"]["menu"]))
        screen = app.root.get_screen("tournament_table")
        type_into(screen.address, desk.url)
        type_into(screen.code, "wrong1")
        tap(find(screen, TEXTS["ja"]["join"]))
        assert wait_until(lambda: "本部で使えません" in screen.info.text, timeout=30)
        type_into(screen.address, "")
        tap(find(screen, TEXTS["ja"]["join"]))
        assert wait_until(lambda: screen.info.text.startswith("本部のアドレスを入力してください"), timeout=30)
    finally:
        stop_app(app)


def test_the_desk_s_rules_refusal_is_said_in_japanese_reason_and_all(desk):
    """The desk refusing an event by the rules sends the rules' reason by its key: a Japanese screen says the reason
    in Japanese too (it kept the rules' English inside the Japanese sentence)."""
    one = join(desk.url, pair(desk, 1))
    events = played(one, seed=2, budget=10)
    with pytest.raises(DeskLinkError) as refused:
        request(desk.url, "POST", "/api/events", _batch(one, 1, 4, 0, [events[1], *events], 11), token=one.token)
    error = refused.value
    assert error.status == 422 and error.key == "event_refused" and error.values["event"] == 0
    said = link_text(str(error), "ja", error.key, error.values)
    assert said.startswith("本部がイベント0を受け付けませんでした（") and said.endswith("この送信分は保存されていません")
    leftover = said
    for name in [*NAMES, "Kobe Open"]:
        leftover = leftover.replace(name, "")
    assert re.findall(r"[A-Za-z]{2,}", leftover) == [], said  # the reason too, brackets and all
    assert link_text(str(error), "en", error.key, error.values) == str(error)
    # a desk without keys (an older one): the sentence by its pattern, as before
    assert link_text(str(error), "ja").startswith("本部がイベント0を受け付けませんでした（")
