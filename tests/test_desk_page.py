"""The desk page (``/desk``, the organiser's page in a browser), as the organiser of a Japanese event meets it:

- in the event's language (the floor setting ``language``): it was English whatever the event's (session 16's trial);
- a round clock that has run out offers Reset with its length, not Pause.

A real desk server on 127.0.0.1 with a clock the test moves; tablets' games posted over HTTP as tablets post them;
the page read as served.
"""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from companion.desk_link import join, request
from companion.tournament.server import DeskServer

from test_desk_clock import HandClock, send
from test_desk_referee import desk_page, finished_game
from test_desk_server import NAMES, PASSWORD, make_event, pair

@pytest.fixture
def hand():
    return HandClock()


@pytest.fixture
def server(tmp_path, hand):
    db = tmp_path / "desk.sqlite3"
    make_event(db)
    with DeskServer("Kobe Open", db=db, host="127.0.0.1", port=0, password=PASSWORD, clock=hand) as s:
        yield s


def admin(server, path, body=None, method="POST"):
    return request(server.url, method, path, body, token=PASSWORD)


class Shown(HTMLParser):
    """The words a person sees on a page: its text and its buttons' and fields' labels, not its script, style or
    the HTTP interface's names (``<code>``)."""

    def __init__(self):
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "code"):
            self._hidden += 1
        label = dict(attrs).get("aria-label")
        if label:
            self.words.append(label)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "code"):
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.words.append(data.strip())


def shown_words(page: str) -> list[str]:
    parser = Shown()
    parser.feed(page)
    return parser.words


# What the page says, by language, in each state the test brings it to (a part of each is enough to find it).
SAID = {
    "en": {"title": "Desk: Kobe Open", "heading": "Desk: Kobe Open · round 1", "not_started": "Round 1 — clock not started",
           "start": ">Start<", "pair": ">Pair<", "new_code": ">New code<", "code": "code ", "paired": "paired (code ",
           "joins": "Tournament table, Find the desk", "waiting": "Results waiting for the referee",
           "won_by": "won by ", "confirm": ">Confirm<", "none": "No result is waiting.", "settings": "Floor settings",
           "pause": ">Pause<", "time_up": "Time!", "reset": ">Reset<", "sep": ", "},
    "ja": {"title": "本部：Kobe Open", "heading": "本部：Kobe Open・第1ラウンド",
           "not_started": "第1ラウンド — 時計はまだ動いていません", "start": ">開始<", "pair": ">ペアリング<",
           "new_code": ">新しいコード<", "code": "コード ", "paired": "参加済み（コード ",
           "joins": "「大会の卓」、「本部を探す」", "waiting": "審判の確認を待つ結果", "won_by": "勝者 ",
           "confirm": ">確認<", "none": "確認を待つ結果はありません。", "settings": "運営の設定", "pause": ">一時停止<",
           "time_up": "時間です", "reset": ">リセット<", "sep": "、"},
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_desk_page_speaks_the_event_s_language(server, hand, lang):
    call = desk_page(server)
    said = SAID[lang]
    admin(server, "/api/admin/settings", {"language": lang, "confirm": "referee"})
    pages = {"fresh": call("GET", "/desk")[1]}
    code = pair(server, 2)  # table 2 has a code; table 1's tablet joined and its game waits for the referee
    tablet = join(server.url, pair(server, 1))
    events, vp, winner = finished_game(tablet)
    send(server, tablet, 4, events)
    admin(server, "/api/admin/clock", {"action": "start", "minutes": 30})
    pages["playing"] = call("GET", "/desk")[1]
    hand.advance(30 * 60)
    pages["time_up"] = call("GET", "/desk")[1]
    for name, page in pages.items():
        assert f'<html lang="{lang}">' in page and f"<title>{html.escape(said['title'])}</title>" in page, name
        assert said["heading"] in html.unescape(page) and said["joins"] in page and said["settings"] in page, name
    fresh, playing, time_up = pages["fresh"], pages["playing"], pages["time_up"]
    assert said["not_started"] in fresh and said["start"] in fresh and said["pair"] in fresh and said["none"] in fresh
    assert said["new_code"] in playing and f"{said['code']}{code}" in playing and said["paired"] in playing
    assert said["waiting"] in playing and said["won_by"] + winner in html.unescape(playing) and said["confirm"] in playing
    assert said["sep"].join(tablet.players) in html.unescape(playing)  # the table's players, listed as the language does
    assert said["pause"] in playing and said["time_up"] in time_up
    if lang == "ja":  # nothing left in English: only the names, the event's, the codes, the HTTP interface's and
        # the language choice's "English" (each language in its own name, as the app's Settings)
        allowed = set(NAMES) | {"Kobe Open", "English"} | set(re.findall(r"コード (\w+)", playing))
        for name, page in pages.items():
            words = [w for w in shown_words(page) if w not in allowed]
            english = [w for w in words if re.search(r"[A-Za-z]{2,}", re.sub("|".join(map(re.escape, allowed)), "", w))]
            assert not english, (name, english)


def test_a_run_out_clock_offers_reset_with_its_length_not_pause(server, hand):
    """At 0:00 the desk page offered Pause (session 16's trial): a clock that has run out can only be set again."""
    call = desk_page(server)
    admin(server, "/api/admin/clock", {"action": "start", "minutes": 20})
    running = call("GET", "/desk")[1]
    assert "id=clock-pause" in running and "id=clock-start" not in running
    hand.advance(20 * 60 + 1)
    page = call("GET", "/desk")[1]
    forms = re.findall(r"<form[^>]*id=clock-(\w+).*?</form>", page)
    assert forms == ["reset"], forms
    reset = re.search(r"<form[^>]*id=clock-reset.*?</form>", page).group(0)
    assert "name=minutes value=20 " in reset and "Time!" in page
    assert "Reset sets a new length" in page  # what to do now, said
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    assert call("POST", "/desk/clock", f"csrf={key}&action=reset&minutes=10".encode())[0] == 303
    page = call("GET", "/desk")[1]  # set again: Resume (from its new length) and Reset
    assert re.findall(r"<form[^>]*id=clock-(\w+).*?</form>", page) == ["start", "reset"] and "10:00" in page
