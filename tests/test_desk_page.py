"""The desk page (``/desk``, the organiser's page in a browser), as the organiser of a Japanese event meets it:

- in the event's language (the floor setting ``language``): it was English whatever the event's (session 16's trial);
- following the floor by itself (the display's own stream wakes it): a result waiting for the referee, a table's
  game and the round clock appear without a reload (the organiser had to reload), and what the organiser is typing
  meanwhile (the clock's minutes, a correction's reason) stays as typed;
- a round clock that has run out offers Reset with its length, not Pause.

A real desk server on 127.0.0.1 with a clock the test moves; tablets' games posted over HTTP as tablets post them;
the page read as served and, for what the page does by itself, in a real headless Chromium
(tests/headless_chromium.py). Waits are on the page's own state (its ``desk:shown`` event), never sleeps.
"""

from __future__ import annotations

import base64
import html
import json
import re
from html.parser import HTMLParser

import pytest

from companion.desk_link import join, request
from companion.tournament.server import DeskServer
from headless_chromium import Chromium, ChromiumError, find_chromium, wait_for_state

from test_desk_clock import HandClock, send
from test_desk_referee import desk_page, finished_game
from test_desk_server import NAMES, PASSWORD, make_event, pair

LIMIT_S = 15.0  # the page follows within ~2 s (the display stream's recheck); a loaded CI machine must still pass


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
           "pause": ">Pause<", "time_up": "Time!", "reset": ">Reset<", "sep": ", ", "score": "{name} {vp}",
           "joiner": "; ", "corrected": "corrected: "},
    "ja": {"title": "本部：Kobe Open", "heading": "本部：Kobe Open・第1ラウンド",
           "not_started": "第1ラウンド — 時計はまだ動いていません", "start": ">開始<", "pair": ">ペアリング<",
           "new_code": ">新しいコード<", "code": "コード ", "paired": "参加済み（コード ",
           "joins": "「大会の卓」、「本部を探す」", "waiting": "審判の確認を待つ結果", "won_by": "勝者 ",
           "confirm": ">確認<", "none": "確認を待つ結果はありません。", "settings": "運営の設定", "pause": ">一時停止<",
           "time_up": "時間です", "reset": ">リセット<", "sep": "、", "score": "{name} {vp}点", "joiner": "；",
           "corrected": "訂正："},
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
    # the referee enters other numbers with a reason: the page's table line says what the standings count
    loser = next(p for p in tablet.players if p != winner)
    entered = dict(vp, **{loser: vp[loser] + 1})
    admin(server, "/api/admin/correct", {"round": 1, "table": 1, "vp": entered, "winner": winner,
                                         "reason": "VP card shown late"})
    cell = html.unescape(re.search(r"<td class=result id=result-1>(.*?)</td>", call("GET", "/desk")[1]).group(1))
    scores = said["sep"].join(said["score"].format(name=n, vp=entered[n]) for n in tablet.players)
    assert cell == f"{scores}{said['joiner']}{said['won_by']}{winner}{said['joiner']}{said['corrected']}VP card shown late"
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
    forms = re.findall(r"<form[^>]*id=clock-(\w+).*?</form>", call("GET", "/desk")[1])
    assert forms == ["start"], forms  # not run yet: its length and Start (Reset had nothing to reset)
    admin(server, "/api/admin/clock", {"action": "start", "minutes": 20})
    running = call("GET", "/desk")[1]
    assert "id=clock-pause" in running and "id=clock-start" not in running
    hand.advance(20 * 60 + 1)
    page = call("GET", "/desk")[1]
    forms = re.findall(r"<form[^>]*id=clock-(\w+).*?</form>", page)
    assert forms == ["reset"], forms
    reset = re.search(r"<form[^>]*id=clock-reset.*?</form>", page).group(0)
    assert "name=minutes value=20 " in reset and "Time!" in page
    assert "To run the clock again: Reset with a length, then Start." in page  # what it is for, said
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    assert call("POST", "/desk/clock", f"csrf={key}&action=reset&minutes=10".encode())[0] == 303
    page = call("GET", "/desk")[1]  # set again, as a new clock: its length (the one just set) and Start
    assert re.findall(r"<form[^>]*id=clock-(\w+).*?</form>", page) == ["start"] and "10:00" in page
    assert "name=minutes value=10 " in page


# --- in a real browser ------------------------------------------------------------------------------------------
needs_chromium = pytest.mark.skipif(find_chromium() is None,
                                    reason="no Chromium installed (Debian package chromium; ./dev installs it)")

# The page's state as the test reads it.
PAGE_STATE = """(() => {
  const field = sel => { const f = document.querySelector(sel); return f ? f.value : null; };
  return {updates: Number(document.documentElement.dataset.updates || 0), lang: document.documentElement.lang,
          clock: document.getElementById('clock-text')?.textContent ?? '',
          clockForms: [...document.querySelectorAll('#clock-forms form')].map(f => f.id),
          proposals: [...document.querySelectorAll('#proposals > tr')].map(r => r.id),
          games: Object.fromEntries([...document.querySelectorAll('td.game')].map(c => [c.id, c.textContent])),
          pairing: [...document.querySelectorAll('#desk-tables td:nth-child(3)')].map(c => c.textContent),
          minutes: field('#clock-start input[name=minutes]'),
          reason1: field('#proposal-1-1 input[name=reason]'),
          focused: document.activeElement ? document.activeElement.name || document.activeElement.tagName : null,
          focusedIn: document.activeElement?.closest('[id]')?.id ?? null};
})()"""


def wait_page(browser: Chromium, condition: str, what: str, limit: float = LIMIT_S) -> dict:
    """The page's state once the JavaScript ``condition`` (over ``s``, the state) holds (headless_chromium's
    :func:`wait_for_state`, after each of the page's updates)."""
    return wait_for_state(browser, PAGE_STATE, "desk:shown", condition, what, limit)


def type_into(browser: Chromium, selector: str, text: str) -> None:
    """The organiser clicks into a field, selects what is there and types ``text`` (as keyboard input)."""
    browser.evaluate(f"(() => {{ const f = document.querySelector({json.dumps(selector)}); f.focus(); f.select(); }})()")
    browser.send("Input.insertText", {"text": text}, session=browser.session)


def press(browser: Chromium, selector: str) -> None:
    """The organiser presses a button that posts a form: the page the desk answers is loaded."""
    try:  # the click's navigation ends the page's script context: the promise never settles there
        browser.evaluate(f"new Promise(() => document.querySelector({json.dumps(selector)}).click())", timeout=15)
    except ChromiumError:
        pass
    browser.evaluate("new Promise(ok => { const check = () => { if (document.readyState === 'complete') ok(true); };"
                     " document.addEventListener('readystatechange', check); check(); })")


@needs_chromium
def test_the_desk_page_follows_the_floor_and_keeps_what_the_organiser_types(server, hand):
    """Japanese, the referee confirming: the organiser types the round's length, and meanwhile table 1's game ends;
    its result appears on the page with its Confirm, the length stays typed. The organiser types a reason for a
    correction of table 1, and table 2's game ends: its result appears, the reason stays. Start: the clock runs on
    the page; at 0:00 the page says time is up and offers Reset, not Pause, without a reload."""
    admin(server, "/api/admin/settings", {"language": "ja", "confirm": "referee"})
    tablets = {t: join(server.url, pair(server, t)) for t in (1, 2)}
    with Chromium(width=1280, height=900) as browser:
        basic = base64.b64encode(f"desk:{PASSWORD}".encode()).decode()  # what the browser sends once the password
        browser.send("Network.enable", session=browser.session)  # is typed into its prompt
        browser.send("Network.setExtraHTTPHeaders", {"headers": {"Authorization": f"Basic {basic}"}},
                     session=browser.session)
        browser.open(server.url + "/desk?every=1")  # (what the stream does not say: read every second, not 20)
        state = wait_page(browser, "s.updates >= 1", "the page's first look at the stream")
        assert state["lang"] == "ja" and state["clock"] == "第1ラウンド — 時計はまだ動いていません"
        assert state["clockForms"] == ["clock-start"] and state["proposals"] == []
        assert [p[:5] for p in state["pairing"]] == ["参加済み（"] * 2  # both tablets joined

        type_into(browser, "#clock-start input[name=minutes]", "45")
        events, vp, winner = finished_game(tablets[1])
        send(server, tablets[1], 4, events)
        state = wait_page(browser, "s.proposals.includes('proposal-1-1')", "table 1's result waiting, without a reload")
        assert state["minutes"] == "45" and state["focused"] == "minutes"  # still typed, still in the field
        assert winner in state["games"]["game-1"] and "終了" in state["games"]["game-1"]  # the table's line

        type_into(browser, "#proposal-1-1 input[name=reason]", "勝利点カードの見せ忘れ")
        events2, _, _ = finished_game(tablets[2], seed=3)
        send(server, tablets[2], 5, events2)
        state = wait_page(browser, "s.proposals.includes('proposal-1-2')", "table 2's result waiting")
        assert state["proposals"] == ["proposal-1-1", "proposal-1-2"]
        assert state["reason1"] == "勝利点カードの見せ忘れ" and state["focused"] == "reason"
        assert state["minutes"] == "45"

        # a new code for table 2 issued elsewhere (the command line, another desk page): the stream says nothing of
        # it (the display shows no codes); the page's own look brings it
        code = pair(server, 2)
        state = wait_page(browser, f"s.pairing[1] === 'コード {code}'", "table 2's new code, issued elsewhere")
        assert state["reason1"] == "勝利点カードの見せ忘れ" and state["minutes"] == "45"

        press(browser, "#clock-start button")  # Start with the 45 typed: the desk answers the page again
        state = wait_page(browser, "s.clockForms.join() === 'clock-pause,clock-reset' && /^4[45]:/.test(s.clock)",
                          "the clock running on the page")
        told = admin(server, "/api/admin/proposals", method="GET")
        assert [(p["round"], p["table"]) for p in told["proposals"]] == [(1, 1), (1, 2)]
        hand.advance(45 * 60)  # the round's time runs out at the desk: the page follows
        state = wait_page(browser, "s.clockForms.join() === 'clock-reset' && s.clock === '時間です'",
                          "time up on the page, offering Reset alone")
        assert "一時停止" not in browser.evaluate("document.getElementById('clock-forms').textContent")



@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_table_whose_tablet_sent_nothing_has_its_result_typed_in_on_the_desk_page(server, hand, lang):
    """At time a table whose tablet sent nothing is left to the referee, and its result took the command line
    (session 17's trial). The desk page lists it, folded away until time is up, with a form for its result."""
    from urllib.parse import urlencode

    call = desk_page(server)
    admin(server, "/api/admin/settings", {"language": lang})
    admin(server, "/api/admin/clock", {"action": "start", "minutes": 30})
    tablet = join(server.url, pair(server, 1))
    send(server, tablet, 4, finished_game(tablet)[0][:20])  # table 1's tablet is playing; table 2 has none
    page = call("GET", "/desk")[1]
    assert "<details id=desk-enter>" in page  # folded before time; only the table whose tablet sent nothing
    assert re.findall(r"<tr id=enter-(\d+)-(\d+)>", page) == [("1", "2")]
    hand.advance(30 * 60)
    page = call("GET", "/desk")[1]
    assert "<details id=desk-enter open>" in page  # time is up: open (table 1's game is the desk's to end)
    assert re.findall(r"<tr id=enter-(\d+)-(\d+)>", page) == [("1", "2")]
    row = re.search(r"<tr id=enter-1-2>.*?</tr>", page).group(0)
    assert "name=ended_by_time checked" in row
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    players = re.findall(r"name=(vp:\d+)", row)
    form = {"csrf": key, "round": 1, "table": 2, **{p: v for p, v in zip(players, (7, 5, 4, 3))}, "winner": "",
            "ended_by_time": "on"}
    assert call("POST", "/desk/result", urlencode(form).encode())[0] == 303
    with server.desk.reopen() as desk:
        ev = desk.event("Kobe Open")
        result = desk.current_result(ev.id, 1, 2)
        assert [result.vp[int(p[3:])] for p in players] == [7, 5, 4, 3] and result.ended_by_time
        assert result.source == "referee" and result.entered_by == "referee (desk page)"
    page = call("GET", "/desk")[1]
    assert "enter-1-2" not in page and re.search(r"<td class=result id=result-2>[^<]", page)
    status, refused = call("POST", "/desk/result", urlencode(form).encode())  # again (a second desk page): refused
    assert status == 422 and (
        "already has a result" in refused if lang == "en" else "第1ラウンド2卓にはすでに結果があります" in refused)


STALE_RESULT_SAID = {
    "en": "round 1 table 2: its tablet sent its game to the desk (20 events), so its result comes from that game",
    "ja": "第1ラウンド2卓はタブレットがゲームを本部に送っています（20件）。結果はそのゲームから入ります",
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_result_typed_on_a_page_from_before_the_tablet_started_is_refused(server, lang):
    """Session 19's floor trial: the desk page offered table 2's result form while its tablet had sent nothing; the
    page was left open (or came back with the browser's Back) and a slip typed into it -- another table's --
    was stored as table 2's result while its tablet played on; the tablet's win then stayed out of the standings.
    The desk refuses it once the tablet has sent its game, says why, stores nothing; the tablet's result gets in."""
    from urllib.parse import urlencode

    call = desk_page(server)
    admin(server, "/api/admin/settings", {"language": lang})
    page = call("GET", "/desk")[1]  # nothing sent yet: both tables offer a typed-in result
    assert re.findall(r"<tr id=enter-(\d+)-(\d+)>", page) == [("1", "1"), ("1", "2")]
    row = re.search(r"<tr id=enter-1-2>.*?</tr>", page).group(0)
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    players = re.findall(r"name=(vp:\d+)", row)
    form = {"csrf": key, "round": 1, "table": 2, **{p: v for p, v in zip(players, (10, 3, 2, 2))},
            "winner": players[0][3:]}

    tablet = join(server.url, pair(server, 2))
    events, vp, winner = finished_game(tablet)
    assert send(server, tablet, 4, events[:20])["have"] == 20  # table 2's tablet is playing
    status, refused = call("POST", "/desk/result", urlencode(form).encode())  # the old page's form
    assert status == 409 and STALE_RESULT_SAID[lang] in html.unescape(refused)
    assert refused.count("何も" if lang == "ja" else "othing was") == 1  # said once
    with server.desk.reopen() as desk:
        assert desk.current_result(desk.event("Kobe Open").id, 1, 2) is None  # nothing stored
    assert "enter-1-2" not in call("GET", "/desk")[1]  # (the page as it is now offers no such form)

    assert send(server, tablet, 4, events)["finished"]  # the tablet's win is table 2's result
    with server.desk.reopen() as desk:
        result = desk.current_result(desk.event("Kobe Open").id, 1, 2)
        assert result.source == "tablet: game 4" and sorted(result.vp.values()) == sorted(vp.values())


STALE_PAIR_SAID = {
    "en": "table 1 was paired since this page was shown (code {code}): nothing was stored; to replace that code, "
          "press New code on the page as it is now",
    "ja": "1卓はこのページを表示した後にペアリングされました（コード {code}）。何も保存していません。"
          "そのコードを置き換えるには、今のページで「新しいコード」を押してください",
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_pair_pressed_on_a_page_from_before_the_table_was_paired_is_refused(server, lang):
    """Session 19's floor trial: the desk page showed table 1 with no code and its Pair button; the table was
    paired meanwhile (Pair every table, another desk page, the command line) and its tablet joined and played.
    Pair pressed on the old page (left open, or come back with the browser's Back) issued another code and revoked
    the playing tablet mid-game. The form names the round and the code it showed: such a press is refused, saying
    why, and the tablet plays on; New code on the page as it is now replaces the code as before."""
    from urllib.parse import urlencode

    call = desk_page(server)
    admin(server, "/api/admin/settings", {"language": lang})
    page = call("GET", "/desk")[1]
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    row = re.search(r"<tr id=table-1>.*?</tr>", page).group(0)
    old_form = dict(re.findall(r"<input type=hidden name=(\w+) value=([^> ]*)>", row))
    assert old_form == {"csrf": key, "table": "1", "round": "1", "replaces": "-"}  # no code shown for table 1

    code = pair(server, 1)  # paired meanwhile, and its tablet joins and plays
    tablet = join(server.url, code)
    events, _, _ = finished_game(tablet)
    assert send(server, tablet, 4, events[:10])["have"] == 10
    status, refused = call("POST", "/desk/pair", urlencode(old_form).encode())  # the old page's Pair
    assert status == 409 and STALE_PAIR_SAID[lang].format(code=code) in html.unescape(refused)
    assert refused.count("何も" if lang == "ja" else "othing was") == 1  # said once
    assert send(server, tablet, 4, events[:12])["have"] == 12  # the tablet was not cut off: nothing changed

    page = call("GET", "/desk")[1]  # the page as it is now: New code, for the code it shows, replaces it
    row = re.search(r"<tr id=table-1>.*?</tr>", page).group(0)
    form = dict(re.findall(r"<input type=hidden name=(\w+) value=([^> ]*)>", row))
    assert form["replaces"] == code
    assert call("POST", "/desk/pair", urlencode(form).encode())[0] == 303
    with pytest.raises(Exception, match="403|replaced"):  # (now the old tablet is replaced, as asked)
        send(server, tablet, 4, events[:14])


@pytest.mark.parametrize("lang, said", [("en", "the tablet's game differs now"), ("ja", "タブレットのゲームと食い違っています")])
def test_a_win_taken_back_at_the_table_after_its_result_is_marked_beside_the_result(server, lang, said):
    """Session 19's floor trial: table 1 won, its result was entered, then the table tapped Undo: the desk's copy
    followed (the game line "Gen 9 …") while the entered result stayed at 10, and nothing on the desk page told the
    referee the two differ. The result cell says so while they do; the table's Redo brings it back as it was."""
    call = desk_page(server)
    admin(server, "/api/admin/settings", {"language": lang})
    tablet = join(server.url, pair(server, 1))
    events, vp, winner = finished_game(tablet)
    assert send(server, tablet, 4, events)["finished"]  # won: the result is entered from the tablet's game

    def result_cell():
        page = call("GET", "/desk")[1]
        return html.unescape(re.search(r"<td class=result id=result-1>(.*?)</td>", page).group(1))

    assert winner in result_cell() and said not in result_cell()
    moved = {"round": tablet.round, "table": tablet.table, "game": 4, "from": 0}
    undone = request(server.url, "POST", "/api/events", dict(moved, rev=10**6, events=events[:-1],
                                                             count=len(events) - 1), token=tablet.token)
    assert undone["have"] == len(events) - 1  # the desk's copy followed the Undo; the result stays
    assert result_cell().endswith(said)
    request(server.url, "POST", "/api/events", dict(moved, rev=10**6 + 1, events=events, count=len(events)),
            token=tablet.token)  # Redo
    assert winner in result_cell() and said not in result_cell()
    with server.desk.reopen() as desk:  # one result for the table all along
        assert [r.table for r in desk.results(desk.event("Kobe Open").id)] == [1]


SEAT_SAID = {
    "en": {"waits": "Round 2 can be seated once every table of round 1 has its result (2 without).",
           "seat": ">Seat round 2<", "final": ">Seat the final table<", "incomplete": "round 1 still lacks the result",
           "again": "round 2 is already seated: nothing was stored", "stored": "othing was", "heading": "Desk: Kobe Open · round 2",
           "pair_all": ">Pair every table without a code (2)<"},
    "ja": {"waits": "第1ラウンドの全卓の結果が入ると、第2ラウンドの席決めができます（結果のない卓：2）。",
           "seat": ">第2ラウンドの席決め<", "final": ">決勝卓の席決め<", "incomplete": "第1ラウンドの1、2卓の結果がまだ入っていません",
           "again": "第2ラウンドはもう席決めされています。何も保存していません", "stored": "何も", "heading": "本部：Kobe Open・第2ラウンド",
           "pair_all": ">コードのない卓すべてにコードを出す（2卓）<"},
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_next_round_is_seated_and_paired_from_the_desk_page(server, hand, lang):
    """Round 2 took the command line (``tournament seat``) or the app's desk screen, then a Pair press per table.
    The desk page seats it once every table of round 1 has its result -- not before: a Swiss round would be seated
    over missing results and re-seat every table -- and its form names the round, so a second press (a double
    click, a page left open) is refused instead of seating round 3. Then one press pairs every table."""
    from urllib.parse import urlencode

    call = desk_page(server)
    said = SEAT_SAID[lang]
    admin(server, "/api/admin/settings", {"language": lang})
    page = call("GET", "/desk")[1]
    key = re.search(r"name=csrf value=(\w+)", page).group(1)
    assert said["waits"] in page and "action=desk/seat" not in page  # round 1 is being played: nothing to press
    seat = {"csrf": key, "round": 2, "kind": "swiss"}
    status, refused = call("POST", "/desk/seat", urlencode(seat).encode())  # a stale page's form, all the same
    assert status == 422 and said["incomplete"] in html.unescape(refused), refused
    assert server.floor.current_round() == 1

    for table in (1, 2):  # both results typed in at the desk (no tablet sent a game)
        row = re.search(rf"<tr id=enter-1-{table}>.*?</tr>", call("GET", "/desk")[1]).group(0)
        players = re.findall(r"name=(vp:\d+)", row)
        form = {"csrf": key, "round": 1, "table": table, "winner": players[0].split(":")[1],
                **{p: v for p, v in zip(players, (10, 7, 5, 4))}}
        assert call("POST", "/desk/result", urlencode(form).encode())[0] == 303
    page = call("GET", "/desk")[1]
    assert said["seat"] in page and said["final"] in page and said["waits"] not in page
    assert "action=desk/pair-all" not in page  # round 1's tables: nothing new to pair

    assert call("POST", "/desk/seat", urlencode(seat).encode())[0] == 303
    assert server.floor.current_round() == 2
    page = call("GET", "/desk")[1]
    assert said["heading"] in html.unescape(page) and len(re.findall(r"<tr id=table-\d+>", page)) == 2
    status, refused = call("POST", "/desk/seat", urlencode(seat).encode())  # the same press again
    assert status == 409 and said["again"] in html.unescape(refused), refused
    assert html.unescape(refused).count(said["stored"]) == 1, refused  # nothing stored or changed: said once
    assert server.floor.current_round() == 2, "a second press seated another round"

    assert said["pair_all"] in page
    assert call("POST", "/desk/pair-all", urlencode({"csrf": key, "round": 2}).encode())[0] == 303
    codes = [p for p in server.floor.open_codes() if p.round == 2]
    assert sorted(p.table for p in codes) == [1, 2]
    page = call("GET", "/desk")[1]
    assert "action=desk/pair-all" not in page and all(p.code in page for p in codes)
    forged = call("POST", "/desk/seat", urlencode(dict(seat, csrf="x" * len(key), round=3)).encode())
    assert forged[0] == 403 and server.floor.current_round() == 2  # a form from elsewhere: nothing seated
    if lang == "ja":  # nothing in English but the names and the codes
        allowed = set(NAMES) | {"Kobe Open", "English"} | {p.code for p in codes}
        words = [w for w in shown_words(page) if w not in allowed]
        assert not [w for w in words if re.search(r"[A-Za-z]{2,}", re.sub("|".join(map(re.escape, allowed)), "", w))]


@pytest.mark.parametrize("form, status, said", [
    ({"round": 4, "kind": "swiss"}, 409, "第4ラウンドは次に席決めするラウンドではありません（席決め済み：第1ラウンドまで）"),
    ({"round": 2, "kind": "semi"}, 422, "席決めの種類（スイス式か決勝卓）とラウンドの番号が必要です"),
    ({"round": "two", "kind": "swiss"}, 422, "席決めの種類（スイス式か決勝卓）とラウンドの番号が必要です"),
    # digits str.isdigit takes and int() does not (a superscript two; 5000 digits): refused, not a server error
    ({"round": "\u00b2", "kind": "swiss"}, 422, "席決めの種類（スイス式か決勝卓）とラウンドの番号が必要です"),
    ({"round": "2" * 5000, "kind": "swiss"}, 422, "席決めの種類（スイス式か決勝卓）とラウンドの番号が必要です"),
])
def test_a_seat_form_the_desk_refuses_is_said_in_the_event_s_language_and_seats_nothing(server, form, status, said):
    from urllib.parse import urlencode

    call = desk_page(server)
    admin(server, "/api/admin/settings", {"language": "ja"})
    key = re.search(r"name=csrf value=(\w+)", call("GET", "/desk")[1]).group(1)
    answer = call("POST", "/desk/seat", urlencode(dict(form, csrf=key)).encode())
    assert answer[0] == status and said in html.unescape(answer[1]) and "何も変更していません。" in answer[1], answer
    assert server.floor.current_round() == 1


@pytest.mark.parametrize("path, form", [
    ("/desk/pair", {"table": "N"}), ("/desk/pair-all", {"round": "N"}), ("/desk/confirm", {"round": "1", "table": "N"}),
    ("/desk/result", {"round": "N", "table": "2", "vp:1": "7"}), ("/desk/result", {"round": "1", "table": "2", "vp:1": "N"})],
    ids=["pair", "pair-all", "confirm", "result's round", "result's VP"])
@pytest.mark.parametrize("number", ["\u00b2", "\u0661", "1" * 5000], ids=["superscript 2", "arabic-indic 1", "5000 digits"])
def test_a_desk_form_with_a_number_int_cannot_read_is_refused_and_changes_nothing(server, path, form, number):
    """A superscript two, an Arabic-Indic one (both digits to str.isdigit) or 5000 digits where a round, table or
    VP is asked: 422, not a server error, and no code issued, no result stored."""
    from urllib.parse import urlencode

    call = desk_page(server)
    key = re.search(r"name=csrf value=(\w+)", call("GET", "/desk")[1]).group(1)
    before = server.floor.open_codes()
    form = {k: number if v == "N" else v for k, v in form.items()}
    status = call("POST", path, urlencode({"csrf": key, **form}).encode())[0]
    assert status == 422
    assert server.floor.open_codes() == before
    with server.desk.reopen() as desk:
        assert desk.current_result(desk.event("Kobe Open").id, 1, 2) is None


FRESH_SAID = {
    "en": {"heading": "Desk: Kobe Open · no round seated yet", "clock": "the clock is offered once round 1 is seated",
           "seat": ">Seat round 1<", "seated": "Desk: Kobe Open · round 1", "not_started": "Round 1 — clock not started"},
    "ja": {"heading": "本部：Kobe Open・まだ席決めしたラウンドはありません", "clock": "第1ラウンドの席決め（下の「次のラウンド」）のあとで時計を使えます",
           "seat": ">第1ラウンドの席決め<", "seated": "本部：Kobe Open・第1ラウンド",
           "not_started": "第1ラウンド — 時計はまだ動いていません"},
}


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_fresh_event_s_desk_page_says_no_round_is_seated_and_offers_no_clock(tmp_path, hand, lang):
    """Before round 1 is seated the page read "Desk: Floor Night · round 0" and offered the clock's Start (session
    19's floor trial): it says what a fresh event is, and the clock comes once a round is seated, with Seat round 1."""
    from urllib.parse import urlencode

    from companion.tournament.store import Desk

    db = tmp_path / "desk.sqlite3"
    with Desk(db) as desk:
        ev = desk.create_event("Kobe Open", seed=7)
        for name in NAMES[:8]:
            desk.add_player(ev.id, name)
    said = FRESH_SAID[lang]
    with DeskServer("Kobe Open", db=db, host="127.0.0.1", port=0, password=PASSWORD, clock=hand) as server:
        call = desk_page(server)
        admin(server, "/api/admin/settings", {"language": lang})
        page = html.unescape(call("GET", "/desk")[1])
        assert said["heading"] in page and said["clock"] in page and said["seat"] in page
        assert "round 0" not in page and "第0ラウンド" not in page
        assert "action=desk/clock" not in page  # no clock to start before a round is seated
        key = re.search(r"name=csrf value=(\w+)", page).group(1)
        assert call("POST", "/desk/seat", urlencode({"csrf": key, "round": 1, "kind": "swiss"}).encode())[0] == 303
        page = html.unescape(call("GET", "/desk")[1])
        assert said["seated"] in page and said["not_started"] in page and "id=clock-start" in page
        assert said["heading"] not in page
