"""Japanese lines are broken between phrases (wrapping.py), and a number stays whole and with the counter word after
it: "（標準セットでは2\\n枚）" (Scan the board's set note, lying down in Japanese, session 10) read as a "2" left
at a line's end and a "枚" alone on the next.  Each text below is wrapped at every width from a few characters to
its whole length, with the app's own font (Kivy's text measure, as the labels do), and no line may end inside a
number or between a number and its counter.  Then a real label on the window, and the layout check naming such
a cut when Kivy makes one."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)

#: (text, the numbers with their counters that must each stay on one line)
TEXTS = [
    ("6が3か所にあります（標準セットでは2枚）。読み違いか、標準でない", ["3か所", "2枚"]),
    ("駒を54個読みました。違い：12件。最後の11件は不確か：盤面で確かめてください。", ["54個", "12件", "11件"]),
    ("公平性：36回以上の出目が必要（現在12回）", ["36回", "12回"]),
    ("Chieは4枚捨てる", ["4枚"]),
    ("10点で勝利", ["10点"]),
    ("Chieの道2つ", ["2つ"]),
    ("3人で遊びます：5〜6人は拡張", ["3人", "6人"]),
    ("手番終了（1,000枚引く）", ["1,000枚"]),
    ("道を2本、開拓地を1軒", ["2本", "1軒"]),
    ("ダイスの出目7で盗賊が動く：8回目", ["7で", "8回目"]),
    ("勝利点カードを２枚公開", ["２枚"]),  # full-width digits
]


@pytest.fixture(scope="module")
def measure():
    from kivy.core.text import Label as CoreLabel

    from companion.ui.app import register_font

    register_font()  # the app's font (the one with the Japanese letters), as the app's labels use
    core = CoreLabel(font_size=22)
    return lambda s: core.get_extents(s)[0]


@pytest.mark.parametrize("text, whole", TEXTS, ids=[t for t, _ in TEXTS])
def test_no_width_cuts_a_number_or_parts_it_from_its_counter(measure, text, whole):
    from companion.ui.wrapping import split_number, wrap

    one_char = measure("枚")
    widths = [one_char * n for n in range(3, len(text) + 1)]
    for width in widths:
        lines = wrap(text, width, measure).split("\n")
        assert "".join(lines) == text
        cuts = [f"{a}|{b}" for a, b in zip(lines, lines[1:]) if split_number(a, b)]
        assert cuts == [], f"at {width:.0f} px: {lines}"
        for words in whole:
            assert any(words in line for line in lines), f"{words!r} split at {width:.0f} px: {lines}"


@pytest.mark.parametrize("left, right, cut", [
    ("では2", "枚）", True), ("現在1", "2回", True), ("1,", "000枚", True), ("2.", "5倍", True),
    ("駒を", "54個", False), ("。", "2枚", False), ("12枚", "です", False), ("Chie", "2", False),
    ("2", "ポイント", True), ("道2", "つ", True), ("2、", "3人", False),
])
def test_the_check_knows_a_number_cut_from_its_counter(left, right, cut):
    from companion.ui.wrapping import split_number

    assert split_number(left, right) is cut


def test_a_label_keeps_the_number_with_its_counter_and_the_layout_check_sees_a_cut():
    """The scan's set note in a real Label, at widths where the old breaking put "2" and "枚" on two lines (any
    label is phrase-wrapped): whole.  A number wider than its label, cut by Kivy itself, is named by the check."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    from kivy.core.text import Label as CoreLabel

    from companion.ui.app import register_font
    from companion.ui.wrapping import broken_words, segments

    register_font()
    text = "6が3か所にあります（標準セットでは2枚）。読み違いか、標準でない"
    # from the width of its widest phrase (a plain label does not shrink its letters: narrower, Kivy cuts that
    # phrase itself) to the whole sentence on one line
    core = CoreLabel(font_size=20)
    least = max(core.get_extents(piece)[0] for piece in segments(text))
    labels, narrow = [], None
    try:
        for width in range(int(least) + 2, int(least) + 420, 10):
            label = Label(text=text, font_size=20, size_hint=(None, None), size=(width, 400))
            label.text_size = (width, None)
            Window.add_widget(label)
            labels.append(label)
        narrow = Label(text="出目1234567890回", font_size=20, size_hint=(None, None), size=(60, 400))
        narrow.text_size = (60, None)
        Window.add_widget(narrow)
        d.settle()
        for label in labels:
            lines = ["".join(w.text for w in line.words) for line in label._label._cached_lines]
            assert not any(line.startswith(("枚", "か所")) for line in lines[1:]), (label.width, lines)
            assert broken_words(label) == [] and d.layout_problems(label) == [], (label.width, lines)
        assert any("|" in cut and cut.split("|")[0][-1].isdigit() for cut in broken_words(narrow)), \
            broken_words(narrow)
    finally:
        for label in labels + ([narrow] if narrow else []):
            Window.remove_widget(label)
