"""The tournament screen in the app's own style (issue 25, point 11), by touch under Xvfb: each scoring preset
explained in one line, standings in order even before anyone has played, table cards that stay aligned and
buttons that stay put when a result is saved or refused, in English and Japanese, landscape and portrait."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import companion.ui  # noqa: F401  (Kivy's environment: no argv parsing)
from companion.tournament import PRESETS, Desk
from companion.ui import driver as d
from tournament_screens import (cards, choose, create_event, enter_result, make_screen,  # noqa: F401  (a fixture)
                                type_into)

pytestmark = pytest.mark.timeout(180)

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "docs" / "screens"
NAMES = ["Dan", "Aki", "Chie", "Ben", "Emi", "Fumi", "Gen"]


def in_view(screen, widget):
    """Scroll the tables to ``widget`` as a finger would before tapping it; the touch targets then."""
    scroller = screen.ids.tables.parent
    if not scroller.collide_point(*scroller.to_parent(*scroller.to_widget(*widget.to_window(*widget.center)))):
        scroller.scroll_to(widget, padding=0, animate=False)  # out of sight: as driver.tap scrolls it
        d.settle()
    return d.touch_targets(screen)


def standings_table(screen) -> list[list[str]]:
    grid = screen.ids.standings
    cells = [w.text for w in reversed(grid.children)]
    return [cells[i:i + grid.cols] for i in range(0, len(cells), grid.cols)]


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("key", sorted(PRESETS))
def test_each_preset_is_explained_in_one_line_made_from_the_preset(key, lang):
    from companion.ui.tournament_screen import CRITERION_WORDS, preset_line

    preset = PRESETS[key]
    line = preset_line(preset, lang)
    assert "\n" not in line and len(line) < 160
    # every ranking criterion, in the preset's order
    at = 0
    for criterion in preset.order:
        word = CRITERION_WORDS[lang][criterion].split("(")[0].split("（")[0]
        found = line.find(word, at)
        assert found >= at, f"{key}/{lang}: {criterion!r} ({word!r}) not after position {at} in {line!r}"
        at = found + len(word)
    if preset.points4:
        assert "-".join(str(int(p)) for p in preset.points4) in line
    assert ("up to the win target" if preset.cap_vp else "all of them") in preset_line(preset, "en")


def test_choosing_a_preset_by_touch_explains_it_and_the_event_gets_it(make_screen, tmp_path):
    from companion.ui.tournament_screen import preset_line

    screen = make_screen()
    assert screen.ids.preset_line.text == preset_line(PRESETS["catan-studio"], "en")
    choose(screen.ids.preset, "German championship")
    assert screen.preset_key == "german"
    assert screen.ids.preset_line.text.startswith("Ranked by points for places (5-3-2-1; 5-3-1 at 3 players)")
    create_event(screen, "Bonn", ["A", "B", "C", "D"])
    with Desk(tmp_path / "tournament.sqlite3") as desk:
        assert desk.event("Bonn").preset.key == "german"
    assert "German championship" in screen.ids.round_line.text


@pytest.mark.parametrize("preset", ["catan-studio", "japanese"])
def test_standings_are_in_order_before_anyone_has_played_and_after(make_screen, tmp_path, preset):
    screen = make_screen()
    create_event(screen, "Club", NAMES[:5], preset=preset)
    table = standings_table(screen)
    # Nobody has played: no rank earned (not the lot's, not the order they registered in), names in order.
    assert [row[1] for row in table[1:]] == sorted(NAMES[:5])
    assert {row[0] for row in table[1:]} == {"–"}
    # After one table's result: by rank, players sharing a rank by name.
    type_into(screen.ids.player_input, "Fumi")
    d.tap(screen.ids.add_player)
    type_into(screen.ids.player_input, "Gen")
    d.tap(screen.ids.add_player)
    d.tap(screen.ids.seat)
    first = cards(screen)[0]
    seats = enter_result(first, [10, 7, 7, 3])
    assert screen.message == "", screen.message
    table = standings_table(screen)[1:]
    ranks = [int(row[0]) for row in table]
    assert ranks == sorted(ranks)
    for a, b in zip(table, table[1:]):
        if a[0] == b[0]:
            assert a[1].casefold() <= b[1].casefold()
    assert table[0][1] == dict(first.players)[seats[0]]


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)])
def test_cards_stay_aligned_and_buttons_stay_put_when_results_are_saved_or_refused(make_screen, size):
    screen = make_screen(size=size)
    create_event(screen, "Kobe Open", NAMES)
    d.tap(screen.ids.seat)
    four, three = cards(screen)
    assert (len(four.players), len(three.players)) == (4, 3)

    def aligned():
        a, b = cards(screen)
        assert a.height == b.height, "a 3-seat card beside a 4-seat one must keep its height"
        if a.y == b.y or a.x == b.x:  # side by side (landscape) or one above the other (portrait)
            for name in ("save", "from_journal", "time", "reason"):
                wa, wb = a.ids[name], b.ids[name]
                assert a.top - wa.top == b.top - wb.top, f"{name} sits at another height in the two cards"

    aligned()
    # a refusal on table 2 (a VP missing): the message has its own place
    enter_result(three, [10], winner=None, save=False)
    before = in_view(screen, three.ids.save)
    d.tap(three.ids.save)
    assert "no VP for" in screen.message and "no VP for" in three.status
    assert d.moved_targets(before, d.touch_targets(screen)) == []
    aligned()
    # a result saved on table 1: its status line says so, nothing moves
    enter_result(four, [10, 8, 6, 4], save=False)
    before = in_view(screen, four.ids.save)
    d.tap(four.ids.save)
    assert screen.message == ""
    four = cards(screen)[0]
    assert four.status == "Saved" and four.status_ok
    assert d.moved_targets(before, d.touch_targets(screen)) == []
    aligned()
    assert d.layout_problems(screen) == []
    d.screenshot(SHOTS / f"tournament-round{'-portrait' if size[0] < size[1] else ''}-en.png")


def test_the_screen_is_the_apps_own_style():
    """The same buttons and toggles as every other screen (their look is the app's shared kv rules)."""
    from kivy.lang import Builder

    from companion.ui.tournament_screen import TableCard, TournamentScreen
    from companion.ui.widgets import SHARED_KV, BigButton, BigToggle

    assert str(SHARED_KV) in Builder.files
    screen = TournamentScreen(desk_path="unused.sqlite3")
    card = TableCard()
    buttons = [w for w in [*d.walk(screen), *d.walk(card)] if hasattr(w, "trigger_action")]
    from kivy.uix.spinner import Spinner
    plain = [w for w in buttons if not isinstance(w, (BigButton, BigToggle, Spinner))]
    assert plain == [], [getattr(w, "text", w) for w in plain]


def test_japanese_screen_has_no_english_but_names(make_screen):
    screen = make_screen(lang="ja")
    choose(screen.ids.preset, "ドイツ選手権")
    create_event(screen, "神戸オープン", ["青木", "伊藤", "上田", "江口", "小川", "加藤", "木村"])
    d.tap(screen.ids.seat)
    enter_result(cards(screen)[0], [10, 8, 6, 4])
    # a result with a VP missing is refused in Japanese too (the screen's own check, before the desk's)
    other = cards(screen)[1]
    d.tap(other.ids.save)
    assert screen.message.startswith("第1ラウンド2卓：") and screen.message.endswith("の勝利点が入っていません")
    english = [t for t in d.screen_texts(screen) if re.search(r"[A-Za-z]{2,}", t)]
    assert english == [], english
    assert standing_table_heading(screen)[:2] == ["順位", "名前"]
    d.screenshot(SHOTS / "tournament-round-ja.png")


def standing_table_heading(screen) -> list[str]:
    return standings_table(screen)[0]


@pytest.mark.parametrize("size, density", [((2048, 1536), 2.0), ((1920, 1200), 1.5)], ids=["ipad", "android10"])
def test_a_round_fits_the_larger_tablets_in_both_languages(make_screen, size, density):
    """As tests/test_ui_sizes.py checks the app's other screens: an iPad-class 2048x1536 at 2 px per dp and a 10"
    Android tablet's 1920x1200 at 1.5 (1280x800 and 800x1280 at 1 are checked above)."""
    from kivy.metrics import Metrics

    old_density = Metrics.density
    Metrics.density = density
    try:
        screen = make_screen(size=size)
        create_event(screen, "Kobe Open", NAMES)
        d.tap(screen.ids.seat)
        enter_result(cards(screen)[0], [10, 8, 6, 4], winner=None)
        d.tap(cards(screen)[1].ids.save)  # refused: a VP missing
        found = {}
        for lang in ("en", "ja"):
            screen.lang = lang
            d.settle()
            found[lang] = d.layout_problems(screen)
        assert found == {"en": [], "ja": []}
    finally:
        Metrics.density = old_density
