"""The live display as a venue's TV shows it: one 16:9 screen (1920x1080 and 1280x720), no scrolling, the clock
and the standings beside the tables' mini-boards; more tables than one screen holds are paged through by
themselves; the preset's name in the display's language. In a real headless Chromium (:mod:`headless_chromium`)
against a real desk server. Waits are on the page's own events (``display:shown``, ``display:paged``).

Screenshots go to ``$DISPLAY_SHOTS`` (default: the system's temp folder), to be looked at, never compared.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import pytest

from companion.desk_link import request
from companion.tournament.server import DeskServer
from companion.tournament.store import Desk
from headless_chromium import Chromium, find_chromium

pytestmark = pytest.mark.skipif(find_chromium() is None,
                                reason="no Chromium installed (Debian package chromium; ./dev installs it)")

PASSWORD = "desk-pw"
SHOTS = Path(os.environ.get("DISPLAY_SHOTS", tempfile.gettempdir()))
SCREENS = [(1920, 1080), (1280, 720)]

# Where everything that must be seen is on the screen: the clock, each table shown (not paged away) with its
# mini-board's and its card's box, and whether the page scrolls.
GEOMETRY = """(() => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = [...document.querySelectorAll('#tables > li')].filter(li => !li.hidden);
  return {width: innerWidth, height: innerHeight,
          scroll: [document.documentElement.scrollWidth, document.documentElement.scrollHeight],
          clock: box(document.getElementById('clock')),
          clockFont: parseFloat(getComputedStyle(document.getElementById('clock')).fontSize),
          largestOtherFont: Math.max(...[...document.querySelectorAll('body *:not(#clock):not(#clock *)')]
                                     .map(e => parseFloat(getComputedStyle(e).fontSize) || 0)),
          tables: shown.map(li => ({table: Number(li.dataset.table), card: box(li),
                                    board: li.querySelector('svg.board') ? box(li.querySelector('svg.board')) : null})),
          page: document.body.dataset.tablesPage, note: document.getElementById('tables-page')?.textContent ?? '',
          standingsNote: document.getElementById('standings-page')?.textContent ?? '',
          standingsShown: [...document.querySelectorAll('#standings tr')].filter(tr => !tr.hidden)
                          .map(tr => tr.children[1].textContent),
          standingsCut: [...document.querySelectorAll('#standings tr')].filter(tr => !tr.hidden &&
                          tr.getBoundingClientRect().bottom > (document.getElementById('standings-box') || document.body).getBoundingClientRect().bottom + 0.5).length,
          standingsFit: document.querySelector('#standings').closest('table').scrollWidth
                        <= document.querySelector('#standings').closest('table').parentElement.clientWidth,
          preset: document.getElementById('preset')?.textContent ?? document.querySelector('p').textContent};
})()"""


def desk_server(tmp_path: Path, tables: int, preset: str = "catan-studio", clock=None):
    db = tmp_path / "desk.sqlite3"
    with Desk(db) as desk:
        ev = desk.create_event("Kobe Open", preset, seed=7)
        for n in range(tables * 4):
            desk.add_player(ev.id, f"Player {n + 1:02d}")
        desk.seat_round(ev.id)
    return DeskServer("Kobe Open", db, host="127.0.0.1", port=0, password=PASSWORD, clock=clock)


def admin(server, path: str, body: dict) -> dict:
    return request(server.url, "POST", path, body, token=PASSWORD)


def at_size(browser: Chromium, width: int, height: int) -> None:
    browser.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                        "mobile": False}, session=browser.session)


def drawn(browser: Chromium, tables: int, more: str = "true") -> dict:
    """The page's geometry once every table's mini-board is drawn and ``more`` holds (checked on each update)."""
    ready = (f"document.querySelectorAll('#tables > li svg.board').length === {tables} && {more}")
    browser.evaluate("new Promise((ok, fail) => { const look = () => { if (" + ready + ") { ok(true); } };"
                     " document.addEventListener('display:shown', look); look();"
                     f" setTimeout(() => fail(new Error('the boards were not drawn in 20 s')), 20000); }})", timeout=25)
    browser.evaluate("new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok)))")  # laid out
    return browser.evaluate(GEOMETRY)


def inside(box: list[float], geometry: dict) -> bool:
    left, top, right, bottom = box
    return left >= 0 and top >= 0 and right <= geometry["width"] + 0.5 and bottom <= geometry["height"] + 0.5


@pytest.fixture(scope="module")
def browser():
    SHOTS.mkdir(parents=True, exist_ok=True)
    with Chromium() as b:
        yield b


@pytest.mark.parametrize("width,height", SCREENS)
def test_six_tables_and_the_clock_fill_one_screen_without_scrolling(tmp_path, browser, width, height):
    with desk_server(tmp_path, 6) as server:
        admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})
        at_size(browser, width, height)
        browser.open(server.url + "/")
        g = drawn(browser, 6)
        browser.screenshot(str(SHOTS / f"display-{width}x{height}-en.png"))
    assert g["scroll"] == [width, height]  # nothing below the fold, nothing beside it
    assert inside(g["clock"], g)
    assert sorted(t["table"] for t in g["tables"]) == [1, 2, 3, 4, 5, 6] and g["note"] == ""
    for t in g["tables"]:
        assert inside(t["card"], g) and inside(t["board"], g), t
        board_height = t["board"][3] - t["board"][1]
        assert board_height > height * 0.2, f"table {t['table']}'s board is only {board_height:.0f} px high"
    assert g["clockFont"] > g["largestOtherFont"] and g["clockFont"] >= height * 0.1  # the clock is largest
    assert g["standingsCut"] == 0 and g["standingsFit"] and g["standingsShown"] and g["standingsNote"].endswith(" of 24")


def test_before_the_clock_is_set_the_screen_says_so_in_words_that_fit(tmp_path, browser):
    """Before the desk sets the round's clock the clock's place says so, in the display's language, on one line that
    fits (it showed "--:--" at the digits' size, which a venue's screen drew as big bars)."""
    with desk_server(tmp_path, 6) as server:
        at_size(browser, 1280, 720)
        browser.open(server.url + "/")
        said = "document.getElementById('clock').textContent"
        uncut = "(c => c.scrollWidth <= c.clientWidth)(document.getElementById('clock'))"  # all of it shown
        g = drawn(browser, 6, f"{said} === 'Round 1 — clock not started'")
        browser.screenshot(str(SHOTS / "display-clock-not-started-en.png"))
        assert inside(g["clock"], g) and g["scroll"] == [1280, 720] and browser.evaluate(uncut)
        assert g["clock"][3] - g["clock"][1] < 720 * 0.2  # a line or two of words, not the digits' height
        admin(server, "/api/admin/settings", {"language": "ja"})  # switched while the page is open
        g = drawn(browser, 6, f"{said} === '第1ラウンド — 時計はまだ動いていません'")
        browser.evaluate("document.fonts.ready.then(() => true)")  # (the Japanese font, for the picture)
        browser.screenshot(str(SHOTS / "display-clock-not-started-ja.png"))
        assert inside(g["clock"], g) and g["scroll"] == [1280, 720] and browser.evaluate(uncut)
        admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})  # set: the digits, large
        g = drawn(browser, 6, f"{said}.startsWith('60:00')")
        assert g["clockFont"] >= 720 * 0.1


def test_twenty_tables_are_paged_through_by_themselves_each_on_some_page(tmp_path, browser):
    with desk_server(tmp_path, 20) as server:
        at_size(browser, 1280, 720)
        browser.open(server.url + "/?every=1")
        first = drawn(browser, 20)
        pages = [first]
        while len(pages) < 5:  # two or three pages of tables: a whole cycle
            browser.evaluate("new Promise((ok, fail) => { document.addEventListener('display:paged', () => ok(true),"
                             " {once: true}); setTimeout(() => fail(new Error('no page turned in 10 s')), 10000); })",
                             timeout=15)
            pages.append(browser.evaluate(GEOMETRY))
            if len(pages) == 2:
                browser.screenshot(str(SHOTS / "display-20-tables-page-2.png"))
    notes = [p["note"] for p in pages]
    assert all(a != b for a, b in zip(notes, notes[1:])), notes  # each second another page
    seen = set()
    for p in pages:
        shown = sorted(t["table"] for t in p["tables"])
        assert 6 <= len(shown) <= 12 and shown == list(range(shown[0], shown[-1] + 1))
        assert p["note"] == f"Tables {shown[0]}–{shown[-1]} of 20"  # what the screen says it shows
        assert p["scroll"] == [1280, 720] and p["standingsCut"] == 0 and p["standingsFit"]
        assert all(inside(t["card"], p) and inside(t["board"], p) for t in p["tables"])
        assert all(t["board"][3] - t["board"][1] >= 720 * 0.18 for t in p["tables"])  # readable from the back
        seen |= set(shown)
    assert seen == set(range(1, 21)) and len(set(notes)) >= 2
    # 80 players do not fit one screen's standings either: they are paged too, and each is on some page
    assert all(p["standingsNote"].startswith("Places ") and p["standingsNote"].endswith(" of 80") for p in pages)
    assert pages[1]["standingsNote"] != pages[0]["standingsNote"]
    assert not set(pages[0]["standingsShown"]) & set(pages[1]["standingsShown"])


@pytest.mark.parametrize("width,height", SCREENS)
def test_the_japanese_page_names_the_preset_in_japanese(tmp_path, browser, width, height):
    with desk_server(tmp_path, 6, preset="japanese") as server:
        admin(server, "/api/admin/settings", {"language": "ja"})
        admin(server, "/api/admin/clock", {"action": "reset", "minutes": 60})
        page = request(server.url, "GET", "/display.json")
        assert page["preset"] == "Japanese championship"  # the pushed data is as it was: the page translates
        at_size(browser, width, height)
        browser.open(server.url + "/")
        g = drawn(browser, 6, "document.querySelector('#tables h3').textContent === '1卓'")
        browser.screenshot(str(SHOTS / f"display-{width}x{height}-ja.png"))
        assert g["preset"] == "日本選手権" and g["standingsCut"] == 0
        # the paused clock in Japanese brackets (it was 「60:00 (一時停止)」)
        assert browser.evaluate("document.getElementById('clock').textContent") == "60:00（一時停止）"
        assert g["scroll"] == [width, height] and all(inside(t["board"], g) for t in g["tables"])
        admin(server, "/api/admin/settings", {"language": "en"})  # switched back while the page is open
        g = drawn(browser, 6, "document.querySelector('#tables h3').textContent === 'Table 1'")
        assert g["preset"] == "Japanese championship"
        assert browser.evaluate("document.getElementById('clock').textContent") == "60:00 (paused)"


@pytest.mark.parametrize("width,height", SCREENS + [(1024, 768), (1280, 843)])
def test_time_up_in_japanese_is_shown_whole_on_wide_and_4_3_screens(tmp_path, browser, width, height):
    """「時間です」 at the digits' size was wider than the clock's column on a screen less wide than 16:9 (session
    16's trial, a 1280x843 window: 「時間で」 and half of 「す」); a venue's 4:3 projector (1024x768) is the same. The
    clock's size now also follows the screen's width; at 16:9 it is as it was (13% of the height)."""
    from test_desk_clock import HandClock

    hand = HandClock()
    with desk_server(tmp_path, 6, preset="japanese", clock=hand) as server:
        admin(server, "/api/admin/settings", {"language": "ja"})
        admin(server, "/api/admin/clock", {"action": "reset", "minutes": 1})
        admin(server, "/api/admin/clock", {"action": "start"})
        hand.advance(61)
        at_size(browser, width, height)
        browser.open(server.url + "/")
        g = drawn(browser, 6, "document.getElementById('clock').textContent === '時間です'")
        browser.evaluate("document.fonts.ready.then(() => true)")
        browser.evaluate("new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        browser.screenshot(str(SHOTS / f"display-time-up-{width}x{height}-ja.png"))
        clock = browser.evaluate("(c => { const r = document.createRange(); r.selectNodeContents(c);"
                                 " const words = r.getBoundingClientRect(), side = c.parentElement.getBoundingClientRect();"
                                 " return [words.right, side.right, c.scrollWidth, c.clientWidth]; })"
                                 "(document.getElementById('clock'))")
        assert clock[0] <= clock[1] + 0.5 and clock[2] <= clock[3], f"「時間です」 cut at {width}x{height}: {clock}"
        assert g["scroll"] == [width, height] and inside(g["clock"], g)
        if width * 9 == height * 16:
            assert g["clockFont"] == pytest.approx(height * 0.13, abs=0.6)  # 16:9: as it was


# Where each standings heading's text goes onto a new line inside a word: "Game|s", 「勝利ポイ|ント」. A heading may
# go onto a second line only after a space or before an opening bracket ("VP share % | (sum)", 「占有率 % |（合計）」).
BROKEN_HEADINGS = """[...document.querySelectorAll('#columns th')].flatMap(th => {
  const t = th.firstChild, text = t ? t.textContent : '', bad = [];
  let top = null;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === ' ') continue;
    const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
    const y = r.getBoundingClientRect().top;
    if (top !== null && y > top + 1 && text[i - 1] !== ' ' && !'(（'.includes(text[i]))
      bad.push(text.slice(0, i) + '|' + text.slice(i));
    top = y;
  }
  return bad;
})"""


@pytest.mark.parametrize("width,height", SCREENS)
def test_standings_headings_break_only_between_words_in_english_and_japanese(tmp_path, browser, width, height):
    """CATAN Studio's nine columns beside the names at 1280x720: the headings broke inside words, "Game|s", "Win|s",
    "2n|d", "Lo|t", 「試合|数」, 「勝利ポイ|ント」 (session 19's floor trial). Whole words, and the type made smaller
    until every column fits, in both languages and at both sizes."""
    with desk_server(tmp_path, 2) as server:  # 8 players, as at the trial
        at_size(browser, width, height)
        browser.open(server.url + "/")
        g = drawn(browser, 2)
        browser.screenshot(str(SHOTS / f"display-headings-{width}x{height}-en.png"))
        assert browser.evaluate(BROKEN_HEADINGS) == [] and g["standingsFit"] and g["scroll"] == [width, height]
        admin(server, "/api/admin/settings", {"language": "ja"})  # switched while the page is open
        g = drawn(browser, 2, "document.querySelector('#columns th:nth-child(3)').textContent === '試合数'")
        browser.evaluate("document.fonts.ready.then(() => true)")  # the Japanese font, whose glyphs are wider
        browser.evaluate("new Promise(ok => requestAnimationFrame(() => requestAnimationFrame(ok)))")
        browser.screenshot(str(SHOTS / f"display-headings-{width}x{height}-ja.png"))
        assert browser.evaluate(BROKEN_HEADINGS) == [] and browser.evaluate(GEOMETRY)["standingsFit"]
        assert g["scroll"] == [width, height]
