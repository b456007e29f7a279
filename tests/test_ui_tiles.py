"""A player tile shows the whole of what the table knows of a hand, in both languages, landscape and portrait.

A tile is of fixed size (one that grew would move the board under a finger); a hand of five kinds with
development cards did not fit, and Kivy drops the lines that do not fit a label's box without a trace:
"2 brick, 2 grain, 3 lumber, 1 ore," and the wool, the cards, the badges gone; a long name wrapped
and took the hand's line.  Checked here on the real
tiles as drawn: every character of a tile's text is on one of its drawn lines."""

from __future__ import annotations

import dataclasses
import re

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)

NAMES = ("Aki", "Christopher", "Chie", "Dai")


def full_hand_game(data_dir) -> int:
    """Four players; Aki on turn after a roll with all five resources, two kinds in double figures, three
    development cards bought unseen and one of them shown as a VP card; Christopher (a long name) with all five."""
    record, _game = d.base_game_after_setup(NAMES)
    record.events += [{"type": "roll", "dice": [1, 1]},
                      {"type": "set_hand", "player": 0, "cards": {"brick": 2, "grain": 15, "lumber": 3, "ore": 14,
                                                                   "wool": 5}},  # 3 cards bought: 12, 11, 2
                      {"type": "set_hand", "player": 1, "cards": {"brick": 1, "grain": 2, "lumber": 13, "ore": 1,
                                                                   "wool": 2}},
                      *[{"type": "buy_development", "player": 0, "card": None}] * 3,
                      {"type": "reveal_development", "player": 0, "cards": {"victory_point": 1}}]
    return d.journal(data_dir, record)


def plain(markup: str) -> str:
    """A label's markup as the characters it draws, without white space."""
    text = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", markup)
    text = text.replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    return re.sub(r"\s+", "", text)


def drawn(label) -> str:
    """The characters on the lines Kivy drew (a line that does not fit the label's box is not drawn)."""
    label.texture_update()
    return re.sub(r"\s+", "", "".join(word.text for line in label._label._cached_lines for word in line.words))


def cut_tiles(play) -> list[str]:
    d.settle()
    return [f"{plain(tag.text)!r} shows only {drawn(tag)!r}" for tag in play.ids.vpboard.children
            if drawn(tag) != plain(tag.text)]


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_a_tile_shows_the_whole_hand_in_both_languages(tmp_path, size):
    game_id = full_hand_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        aki = next(t for t in play.ids.vpboard.children if "Aki" in t.text)
        assert "11 ore" in aki.text and "2 wool" in aki.text and "dev cards 3" in aki.text and "VP cards 1" in aki.text
        assert cut_tiles(play) == []
        # the awards under it too (as the screen adds them): the tile's letters get smaller, no line is lost
        from kivy.metrics import sp

        size = aki.font_size
        aki.text += f"\n[size={int(sp(14))}][color=ffd54f]Longest Road[/color] · [color=ffd54f]Largest Army[/color][/size]"
        assert cut_tiles(play) == []
        assert aki.font_size <= size
        app.apply_settings(dataclasses.replace(app.settings, lang="ja"))  # as Settings' Save does
        assert d.wait_until(lambda: "羊毛2" in next(t for t in play.ids.vpboard.children if "Aki" in t.text).text)
        assert cut_tiles(play) == []
    finally:
        d.stop_app(app)


def drawn_lines(label) -> list[str]:
    label.texture_update()
    return ["".join(word.text for word in line.words).strip() for line in label._label._cached_lines]


def dangling(play) -> list[str]:
    """Lines of the tiles as drawn that start with a separator or end with a lone dot (a wrap at " · ")."""
    d.settle()
    found = []
    for tag in play.ids.vpboard.children:
        for line in drawn_lines(tag):
            if line[:1] in ("·", "・", ";", "、") or line[-1:] in ("·", "・"):
                found.append(line)
    return found


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["landscape", "portrait"])
def test_no_separator_dangles_at_a_wrapped_line(tmp_path, size):
    """The game-over screen showed "小麦2、羊毛1、不明5・発展1・" (the knights on a line Kivy dropped) and, once the
    tile kept every line, "· knights 3" starting a line: a tile's parts are joined by punctuation that may end a
    wrapped line ("; ", "、 "), so no separator hangs at a line's start or end."""
    game_id = full_hand_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        for lang in ("en", "ja"):
            app.apply_settings(dataclasses.replace(app.settings, lang=lang))
            d.settle()
            assert dangling(play) == [], lang
            assert cut_tiles(play) == []
    finally:
        d.stop_app(app)


def test_japanese_tiles_show_no_space_after_the_comma(tmp_path):
    """"木材1、 羊毛1": a Japanese tile's parts showed a space's gap after each 、 (which carries its own blank
    half); the space that lets Kivy wrap there is now a pixel wide.  Read from the words Kivy lays out."""
    game_id = full_hand_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        play = app.root.get_screen("play")
        app.apply_settings(dataclasses.replace(app.settings, lang="ja"))
        d.settle()
        gaps, commas = [], 0
        for tag in play.ids.vpboard.children:
            tag.texture_update()
            for line in tag._label._cached_lines:
                commas += sum(w.text.count("、") for w in line.words)
                gaps += [w.text for w in line.words if "、 " in w.text]  # a space laid out with the comma
                gaps += [f"{a.text}|{b.text}|{b.lw}px" for a, b in zip(line.words, line.words[1:])
                         if a.text.endswith("、") and b.text and not b.text.strip() and b.lw > 2]
        assert commas and not gaps
        assert dangling(play) == []
    finally:
        d.stop_app(app)
