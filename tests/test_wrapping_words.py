"""Japanese lines never break inside a compound verb or noun: a button read 取り / 除きますか (Check the board's
question, session 10), and the Redo button やり / 直し.

wrapping.py breaks Japanese between phrases from the kind of each character; a hiragana run ending before a kanji
was a phrase's end, so a verb's joining form (取り, 受け, 組み, 捨て, やり) was cut from the verb or noun that
continues it.  Every Japanese string the app shows (its text tables, the place words, the voice's captions) is
wrapped here at every width from two characters to its whole length, with the app's font (a superset of the
widths its screens give, upright and lying down), and no line may end inside one of the compounds below; then the
real play screen, upright and lying down, in Japanese.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(300)

#: Compounds the app's Japanese strings hold, read by hand from them (a list of its own, not the wrapping's
#: rule: the check must not trust what it checks).  Each must stay on one line.
COMPOUNDS = ("取り除", "受け取", "受け付", "読み取", "読み違", "読み書", "隣り合", "振り直", "撮り直", "録り直",
             "送り直", "作り直", "切り直", "し直", "やり直", "割り切", "割り当", "引き継", "置き換", "組み合",
             "問い合", "行き先", "捨て札")


def japanese_strings() -> set[str]:
    """Every Japanese string of the app: the upper-case tables of every companion.ui module (after they are all
    imported, the texts they add to i18n.TEXT too) and the captions of the Japanese voice clips."""
    import companion.ui as ui
    from companion.announce.vocabulary import CLIPS
    from companion.ui.wrapping import has_cjk

    for module in pkgutil.iter_modules(ui.__path__):
        importlib.import_module(f"companion.ui.{module.name}")
    found: set[str] = set()

    def walk(value) -> None:
        if isinstance(value, str):
            if has_cjk(value):
                found.add(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for item in value:
                walk(item)

    for name, module in list(sys.modules.items()):
        if name.startswith("companion.ui") and module is not None:
            for attr, value in vars(module).items():
                if attr.isupper() and isinstance(value, (dict, list, tuple)):
                    walk(value)
    walk([caption for _spoken, caption in CLIPS["ja"].values()])
    return found


@pytest.fixture(scope="module")
def strings():
    return japanese_strings()


@pytest.fixture(scope="module")
def measure():
    from kivy.core.text import Label as CoreLabel

    from companion.ui.app import register_font

    register_font()  # the app's font (the one with the Japanese letters), as the app's labels use
    core = CoreLabel(font_size=22)
    return lambda s: core.get_extents(s)[0]


def cuts_inside(lines: list[str]) -> list[str]:
    """The compounds a line break falls inside: "取り|除"."""
    text, found, at = "".join(lines), [], 0
    ends = []
    for line in lines[:-1]:
        at += len(line)
        ends.append(at)
    for word in COMPOUNDS:
        start = text.find(word)
        while start >= 0:
            found += [f"{text[start:end]}|{text[end:start + len(word)]}" for end in ends
                      if start < end < start + len(word)]
            start = text.find(word, start + 1)
    return found


def test_the_strings_are_the_apps(strings):
    """The collection holds the app's Japanese (the question of the report among them), and every compound
    listed is in it (a stale list checks nothing)."""
    assert len(strings) > 800
    assert any("取り除きますか" in s for s in strings) and "やり直し" in strings
    missing = [word for word in COMPOUNDS if not any(word in s for s in strings)]
    assert missing == []


def test_no_width_breaks_a_japanese_string_inside_a_compound(strings, measure):
    from companion.ui.wrapping import wrap

    one = measure("字")
    failures = []
    for text in sorted(s for s in strings if any(word in s for word in COMPOUNDS)):
        for line in text.split("\n"):
            for chars in range(2, len(line) + 1):
                lines = wrap(line, one * chars, measure).split("\n")
                assert "".join(lines).replace(" ", "") == line.replace(" ", "")  # (a space at a break is dropped)
                bad = cuts_inside(lines)
                if bad:
                    failures.append(f"{line!r} at {chars} characters: {bad[0]}")
                    break
    assert failures == [], f"{len(failures)} strings broken inside a word, e.g. " + "; ".join(failures[:8])


@pytest.mark.parametrize("text, pieces", [
    ("取り除きますか？", ["取り除きますか？"]),
    ("やり直し", ["やり直し"]),
    ("組み合わせをやり直してください", ["組み合わせを", "やり直してください"]),  # after を, a phrase ends
    ("捨て札を切り直しました", ["捨て札を", "切り直しました"]),
    ("盤面を入力・編集", ["盤面を", "入力・", "編集"]),  # a particle before a kanji still ends a phrase
    ("基準より多い", ["基準より", "多い"]),
    ("置く番です", ["置く", "番です"]),
])
def test_a_compound_is_one_piece_and_a_particle_still_ends_a_phrase(text, pieces):
    from companion.ui.wrapping import segments

    assert segments(text) == pieces


@pytest.mark.parametrize("size", [(1280, 800), (800, 1280)], ids=["lying down", "upright"])
def test_the_japanese_play_screen_breaks_no_word(tmp_path, size):
    """The play screen in Japanese, lying down and upright: no label or button shows a line cut inside a word
    (the Redo button read やり / 直し lying down)."""
    from dataclasses import replace

    from companion.ui.wrapping import broken_words

    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(replace(app.settings, lang="ja"))
        play = d.resume(app, game_id)
        d.settle()
        redo = d.find(play, "やり直し")
        cut = {f"{w.text!r}: {cut}" for w in d.walk(play) if hasattr(w, "_label") and getattr(w, "text", "")
               for cut in broken_words(w)}
        assert cut == set()
        lines = ["".join(word.text for word in line.words) for line in redo._label._cached_lines]
        assert "やり直し" in lines or len(lines) == 1, lines
    finally:
        d.stop_app(app)
