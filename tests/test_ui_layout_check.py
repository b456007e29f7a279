"""The layout check the portrait and landscape UI tests assert with (``driver.layout_problems``) names each kind
of fault in a real widget tree on the window (a word cut at a line's end included), and finds none in a sound one."""

from __future__ import annotations

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(60)


def test_the_layout_check_names_small_off_screen_overlapping_and_overflowing_widgets():
    from kivy.core.window import Window
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    def placed(widget, x, y, w, h):
        widget.size_hint, widget.pos, widget.size = (None, None), (x, y), (w, h)
        return widget

    width, height = Window.size
    root = FloatLayout()
    Window.add_widget(root)
    try:
        sound = [placed(Button(text="ok"), 10, 10, 120, 60), placed(Label(text="fits"), 10, 80, 120, 40)]
        scroller = placed(ScrollView(do_scroll_x=False), 200, 10, 200, 150)
        column = BoxLayout(orientation="vertical", size_hint_y=None, height=600)
        for k in range(10):  # taller than the view: reached by scrolling, not a fault
            column.add_widget(Button(text=f"row {k}"))
        scroller.add_widget(column)
        for w in (*sound, scroller):
            root.add_widget(w)
        assert d.layout_problems(root) == []

        faults = [placed(Button(text="tiny"), 10, 200, 120, 30),
                  placed(Button(text="off"), width - 40, 300, 100, 60),
                  placed(Button(text="first"), 450, 10, 100, 60), placed(Button(text="second"), 480, 40, 100, 60),
                  placed(Label(text="a sentence far too long for its box"), 10, 400, 60, 30)]
        cut = placed(Label(text="Settlement", font_size=20), 200, 400, 60, 120)
        cut.text_size = (60, None)  # wrapped: Kivy cuts the word it cannot fit ("Settl|ement")
        faults.append(cut)
        for w in faults:
            root.add_widget(w)
        problems = d.layout_problems(root)
        assert any("'tiny' is 120x30 px, under the 48 px touch target" in p for p in problems), problems
        assert any("'off'" in p and "runs off the" in p for p in problems), problems
        assert any("'first'" in p and "'second'" in p and "overlap" in p for p in problems) \
            or any("'second'" in p and "'first'" in p and "overlap" in p for p in problems), problems
        assert any("'a sentence far too long" in p and "runs past its 60x30 box" in p for p in problems), problems
        assert any("'Settlement'" in p and "breaks inside a word" in p for p in problems), problems
        assert len(problems) == 5, problems
    finally:
        Window.remove_widget(root)


@pytest.mark.parametrize("text, cuts", [
    ("盤面を入力・編集", ["盤面を", "入力・", "編集"]),
    ("6と8は隣に置きません", ["6と", "8は", "隣に", "置きません"]),  # after a particle: a phrase ends
    ("too close to Ben's settlement", ["too ", "close ", "to ", "Ben's ", "settlement"]),
])
def test_japanese_breaks_between_phrases_and_english_between_words(text, cuts):
    from companion.ui.wrapping import segments

    assert segments(text) == cuts


def test_a_wrapping_button_keeps_its_words_whole():
    """A narrow button says "Settlement" in smaller letters, and breaks Japanese between phrases, never inside."""
    from kivy.core.window import Window

    from companion.ui.choices import BigButton
    from companion.ui.wrapping import broken_words

    root = []
    try:
        for text in ("Settlement", "盤面を入力・編集"):
            b = BigButton(text=text, font_size=30, size_hint=(None, None), size=(90, 120))
            b.text_size = (90, None)
            Window.add_widget(b)
            root.append(b)
        d.settle()
        for b in root:
            assert broken_words(b) == [] and b.texture_size[0] <= b.width + 2, (b.text, b.font_size)
        assert root[0].font_size < 30  # shrank rather than cut
    finally:
        for b in root:
            Window.remove_widget(b)


def test_every_label_breaks_japanese_between_phrases():
    """Not only the app's own widgets: a plain Kivy Label (a kv rule's, a panel's) wraps Japanese at phrases."""
    from kivy.core.window import Window
    from kivy.uix.label import Label

    import companion.ui.wrapping  # noqa: F401  (installed with the app's widgets)
    from companion.ui.wrapping import broken_words

    label = Label(text="ルール違反（距離ルール）ですが記録しますか？盤面を入力・編集", font_size=22,
                  size_hint=(None, None), size=(200, 400))  # each phrase fits; the sentence does not
    label.text_size = (200, None)
    Window.add_widget(label)
    try:
        d.settle()
        assert "\n" in label._label.text and broken_words(label) == []
    finally:
        Window.remove_widget(label)


def test_the_layout_check_names_a_text_laid_over_a_picture():
    """A panel laid over the board or the scanned photo hides what the player is to look at (session 15: a trial
    layout's panel over the scan's photo passed the check).  A text over a picture is named; one that is part
    of the picture (its child: a label the picture draws on itself) and one beside it are not."""
    from kivy.core.window import Window
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    from companion.ui.board_view import BoardView

    def placed(widget, x, y, w, h):
        widget.size_hint, widget.pos, widget.size = (None, None), (x, y), (w, h)
        return widget

    root = FloatLayout()
    Window.add_widget(root)
    try:
        board = placed(BoardView(), 10, 10, 400, 400)
        board.add_widget(placed(Label(text="its own"), 20, 20, 100, 40))
        root.add_widget(board)
        root.add_widget(placed(Label(text="beside"), 420, 10, 100, 40))
        assert d.layout_problems(root) == []

        root.add_widget(placed(Label(text="a panel over it"), 300, 300, 200, 60))
        problems = d.layout_problems(root)
        assert problems == ["Label 'a panel over it' lies over the picture BoardView (110x60 px)"], problems
    finally:
        Window.remove_widget(root)


def test_the_layout_check_names_a_text_meant_for_one_line_that_wraps():
    """A resource's name and its count ("lumber (16)", ``one_line``) on two lines is named; the same text
    wrapping in a label not meant for one line is not."""
    from kivy.core.window import Window
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    root = FloatLayout()
    Window.add_widget(root)
    try:
        meant, free = Label(text="lumber (16)", font_size=20), Label(text="lumber (16)", font_size=20)
        for i, w in enumerate((meant, free)):
            w.size_hint, w.pos, w.size, w.text_size = (None, None), (10 + 200 * i, 10), (80, 60), (80, None)
            root.add_widget(w)
        meant.one_line = True
        problems = d.layout_problems(root)
        assert problems == ["Label 'lumber (16)': meant for one line, it wraps onto 2"], problems
    finally:
        Window.remove_widget(root)

