"""The start screen after Menu: the game just left is one tap away at a fixed place ("Resume #1 Base 3–4, turn 1 —
Aki 2, Ben 2, Chie 2", at the top), and the list of unfinished games holds still.  The list was ordered by the last
move, so the game just left jumped to the top, and a tap where another game's line had stood opened the same
game again (session 18).  Now the list goes by game number (the newest first) and no line moves when its game
is played.  Three games journalled in SQLite, the oldest resumed by its line, a roll tapped, Menu, then the
button at the top; real widgets under Xvfb, lying down in English and upright in Japanese."""

from __future__ import annotations

import dataclasses

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)


def lines(start) -> dict[int, tuple]:
    """Each unfinished game's line on the list: its window box, by game number."""
    d.settle()
    return {int(w.text[1:].split(" ")[0]): tuple(round(c) for c in d._window_box(w))
            for w in start.ids.games.children[::-1] if getattr(w, "text", "").startswith("#")}  # (top first)


@pytest.mark.parametrize("size,lang", [((1280, 800), "en"), ((800, 1280), "ja")], ids=["landscape-en", "portrait-ja"])
def test_the_game_just_left_is_one_tap_away_and_the_list_holds_still(tmp_path, size, lang):
    ids = []
    for seed in (5, 6, 7):
        record, _game = d.base_game_after_setup(setup_seed=seed)
        ids.append(d.journal(tmp_path, record))
    first = ids[0]
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang=lang))
        d.settle()
        start = app.root.get_screen("start")
        app.go("start")
        before = lines(start)
        assert list(before) == sorted(ids, reverse=True)  # the newest game first
        assert sorted(before.values(), key=lambda box: -box[1]) == [before[i] for i in sorted(ids, reverse=True)]
        assert not start.ids.last_game.disabled and start.ids.resume_head.height > 0
        assert d.layout_problems(app.root) == []

        play = d.resume(app, first)
        events = len(app.table.record.events)
        d.tap_dice(play, 8)
        assert len(app.table.record.events) == events + 1, play.message
        d.tap(play.ids.menu)
        assert app.root.current == "start"
        assert lines(start) == before, "a line of the list moved"
        last = start.ids.last_game
        want = f"Resume #{first} Base 3–4, turn 1 — Aki" if lang == "en" else f"再開：#{first} 基本 3–4人、1手番目 — Aki"
        assert last.text.startswith(want), last.text
        assert d.layout_problems(app.root) == []

        d.tap(last)  # back into the game just left, as it stood
        assert app.root.current == "play" and app.table.game_id == first
        assert len(app.table.record.events) == events + 1
    finally:
        d.stop_app(app)


def test_with_no_unfinished_game_the_place_says_so_and_takes_no_tap(tmp_path):
    app = d.start_app(tmp_path)
    try:
        start = app.root.get_screen("start")
        app.go("start")
        d.settle()
        last = start.ids.last_game
        assert last.disabled and last.text == app.tr("no_unfinished")
        assert not [w for w in start.ids.games.children if getattr(w, "text", "") == app.tr("no_unfinished")], \
            "said twice"
        assert start.ids.resume_head.height == 0, "'Resume a game' over an empty list"
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
