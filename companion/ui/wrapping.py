"""Lines broken between words, never inside one: English at spaces, Japanese between phrases.

Kivy wraps a label at spaces only; a word wider than the label, and every Japanese sentence (which has no
spaces), it cuts wherever the width runs out: "Settlem/ent", 盤面を入力・編/集.  Two remedies here:

- :class:`PhraseWrap`, a mixin for a label or button: Japanese text is broken into lines at phrase boundaries
  (after a particle or punctuation, where the script changes) before Kivy lays it out, and the font gets smaller
  until the longest word or phrase fits the width (a button's "Settlement" shrinks rather than breaks);
- :func:`broken_words`, for the layout check: the places where a shown label's lines were cut inside a word.

Phrase boundaries come from the kind of each character (a small rule set, no dictionary): a break may follow
punctuation, the particle を, or a hiragana run ending before a kanji, katakana or Latin letter, and may precede an opening
bracket; never between two kanji, two katakana, a kanji and its kana ending, or two letters or digits; never
between a number and the Japanese word after it (its counter or unit: 2枚, 3人, 10点, 2ポイント, 2つ) nor inside a
number (1,000, 2.5); never inside a compound verb or noun whose first verb ends in one kana before the next kanji
(取り除く, 受け取る, 組み合わせ, 捨て札; a button read 取り / 除きますか) or is written in two kana (やり直し).
"""

from __future__ import annotations

import re

from kivy.core.text import Label as CoreLabel
from kivy.metrics import sp
from kivy.utils import get_hex_from_color

CLOSING = set("、。・：；！？）」』】〉，．,.!?:;)]」…")
OPENING = set("（「『【〈([")


def kind(ch: str) -> str:
    """H hiragana, K katakana, C kanji, P closing punctuation, O opening, A Latin letter or digit, S space."""
    o = ord(ch)
    if ch.isspace():
        return "S"
    if ch in CLOSING:
        return "P"
    if ch in OPENING:
        return "O"
    if 0x3041 <= o <= 0x309F:
        return "H"
    if 0x30A0 <= o <= 0x30FF or ch == "ー":
        return "K"
    if 0x4E00 <= o <= 0x9FFF or ch == "々" or 0x3400 <= o <= 0x4DBF:
        return "C"
    if ch.isascii() and ch.isalnum():
        return "A"
    return "X"


#: Digits, half and full width: a number is kept whole, and with the counter word after it.
DIGITS = set("0123456789０１２３４５６７８９")
#: What may stand inside a number between its digits ("1,000", "2.5").
IN_NUMBER = set(",.，．")
#: The kana a verb's joining form ends in (取り, 受け, 組み, 引き, 問い, 捨て, 落ち, 見せ, 攻め, 呼び, 急ぎ,
#: 入れ, 比べ, 話し): followed by a kanji, it is most often the first half of a compound (取り除く, 受け取る,
#: 組み合わせ, 捨て札), not a phrase's end.  The particles (を, が, は, に, で, と, の, も, か, や, へ) are not among them.
JOINING_KANA = set("りきしいちみびぎけえせめれべて")


def compound_stem(before: str) -> bool:
    """Whether the hiragana ending ``before`` (the text up to a kanji) is the joining form of a verb that the
    kanji continues: one kana after a kanji or katakana (取り|除く, 受け|取る, 捨て|札, ペアリングし|直す), or two
    kana alone or after を
    (やり|直し, をやり|直し) -- not a particle or a phrase's ending (盤面を|入力, 基準より|多い)."""
    if not before or before[-1] not in JOINING_KANA:
        return False
    n = len(before)
    while n and kind(before[n - 1]) == "H" and before[n - 1] != "を":
        n -= 1
    tail, lead = before[n:], before[n - 1:n]  # the kana run (after any を) and what stands before it
    if len(tail) == 1:
        return lead != "" and kind(lead) in ("C", "K")  # (a katakana noun's する: ペアリングし|直す)
    return len(tail) == 2 and (lead in ("", "を") or kind(lead) in ("P", "O", "S"))


def may_break(a: str, b: str, before: str = "") -> bool:
    """Whether a line may end after character ``a`` when ``b`` follows it (``before``: the text before ``a``,
    when there is any; its last few characters are read: "1," before "000" is inside a number, "取" before
    "り" and "除" inside a compound verb)."""
    last = before[-1:]
    if a in DIGITS and (b in DIGITS or kind(b) in ("C", "K", "H")):
        return False  # inside a number, or a number and its counter ("2枚", "3人", "2ポイント")
    if a in IN_NUMBER and last in DIGITS and b in DIGITS:
        return False  # "1,|000", "2.|5"
    if a in "かカヶケヵ" and last in DIGITS:
        return False  # "3か所", "2ヶ月": a counter written with a small ka
    if kind(b) == "C" and kind(a) == "H" and compound_stem(before + a):
        return False  # "取り|除く", "やり|直し": inside a compound verb
    ka, kb = kind(a), kind(b)
    if "S" in (ka, kb):
        return True
    if kb == "P":
        return False  # punctuation stays with what it closes
    if ka == "P" or kb == "O":
        return True
    if ka == "O":
        return False
    if ka == "H":
        # after を, always a particle, a phrase ends even when kana follow ("組み合わせを|やり直す")
        return kb in ("C", "K", "A", "X") or a == "を" and kb == "H"
    if ka in ("C", "K") and kb == "A" or ka == "A" and kb in ("C", "K"):
        return True
    return False  # inside a word: two kanji, katakana, letters or digits; a kanji and its kana; a particle


def has_cjk(text: str) -> bool:
    return any(kind(ch) in "HKC" for ch in text)


def segments(line: str) -> list[str]:
    """``line`` cut at every place it may break (spaces kept at the end of the piece before them)."""
    if not line:
        return [""]
    out, start = [], 0
    for i in range(1, len(line)):
        if may_break(line[i - 1], line[i], line[max(0, i - 9):i - 1]) and not line[i].isspace():
            out.append(line[start:i])
            start = i
    out.append(line[start:])
    return out


def wrap(text: str, width: float, measure) -> str:
    """``text`` with line breaks where its phrases no longer fit ``width`` (``measure(s)``: the width of ``s``)."""
    lines = []
    for hard in text.split("\n"):
        line = ""
        for piece in segments(hard):
            if line and measure((line + piece).rstrip()) > width:
                lines.append(line.rstrip())
                line = piece.lstrip()
            else:
                line += piece
        lines.append(line)
    return "\n".join(lines)


def letters_wrap(line: str, width: float, measure) -> list[str]:
    """``line`` as it is when it fits ``width``, else cut between its letters where the width runs out (the last
    resort for one phrase wider than the room at the least size: cut, but never clipped)."""
    if measure(line) <= width or len(line) < 2:
        return [line]
    parts, part = [], ""
    for ch in line:
        if part and measure(part + ch) > width:
            parts.append(part)
            part = ch
        else:
            part += ch
    return parts + [part]


def longest_piece(text: str) -> str:
    """The widest thing that may not be broken: the longest word or phrase."""
    pieces = [p.strip() for line in text.split("\n") for seg in segments(line) for p in seg.split(" ")]
    return max(pieces, key=len, default="")


#: How far under a label's least font a reason in smaller letters (a build button's "カードなし") may go
#: before it is broken between its letters.
REASON_LEAST = 0.8

_SMALLER = re.compile(r"\[size=[^\]]*\].*?\[/size\]", re.S)
_TAG = re.compile(r"\[/?[a-z]+(?:=[^\]]*)?\]")
_SMALL_LINE = re.compile(r"\[size=(\d+)\]\[color=([^\]]+)\]([^\[]*)\[/color\]\[/size\]")


def shown_text(text: str, markup: bool) -> str:
    """The words a label shows (markup tags taken out)."""
    return _TAG.sub("", text) if markup else text


def own_size_words(text: str, markup: bool) -> str:
    """The words shown at the label's own font size: in markup, what a ``[size=...]`` part sets in other letters
    (a build button's reason under its name) is left out; that part wraps at its spaces on its own."""
    return _TAG.sub("", _SMALLER.sub(" ", text)) if markup else text


#: A button's Japanese word of this many characters or fewer is one command (元に戻す, 盤面確認, やり直し): it
#: takes smaller letters to stay on one line, never two lines of two characters (「元に / 戻す」 at 1280x800, where
#: its neighbours fitted on one line at 16 sp).
SHORT_COMMAND = 4
#: ... when it fits one line in letters this large (sp) or larger (the iPad's bottom row: 12 sp, as やり直し beside
#: it); a button narrower than that breaks it as before.
SHORT_COMMAND_LEAST = 12


def short_command(widget, text: str, markup: bool = False) -> bool:
    """Whether ``widget`` is a button whose text is one short Japanese command (:data:`SHORT_COMMAND`)."""
    return (hasattr(widget, "trigger_action") and not markup and "\n" not in text
            and 1 < len(text.strip()) <= SHORT_COMMAND and has_cjk(text))


def short_command_fits(widget, text: str) -> bool:
    """Whether ``text`` fits one line of ``widget``'s text width in :data:`SHORT_COMMAND_LEAST` letters."""
    width = widget.text_size[0] if widget.text_size and widget.text_size[0] else widget.width
    pad = widget.padding[0] + widget.padding[2] if len(widget.padding) == 4 else 2 * widget.padding[0]
    core = CoreLabel(font_size=sp(SHORT_COMMAND_LEAST), font_name=widget.font_name, bold=widget.bold)
    return core.get_extents(text.strip())[0] <= max(1.0, width - pad)


class PhraseWrap:
    """Mixin for a Label (or a Button) that wraps (``text_size`` has a width): Japanese is broken between
    phrases, and the font shrinks (down to ``min_font``) until the longest word or phrase fits the width."""

    min_font = sp(10)
    shrink_to_fit_words = True  # False: the label sizes its own font (FittedLabel)
    #: True: the text is meant for one line (a resource's name and its count, "lumber (19)"): the letters shrink
    #: until the whole of it fits the width, not only its longest word; ``driver.layout_problems`` names one that
    #: still wraps (session 18: "lumber / (16)" on two lines beside its neighbours' one, Seafarers' gold lying down)
    one_line = False
    _natural_font = None
    _fitting = False  # True while the font size set is this mixin's own (shrunk to fit), not the label's rule's

    def padding_x_total(self) -> float:
        return self.padding[0] + self.padding[2] if len(self.padding) == 4 else 2 * self.padding[0]

    def _measure(self, font_size: float):
        core = CoreLabel(font_size=font_size, font_name=self.font_name, bold=self.bold)
        return lambda s: core.get_extents(s)[0]

    def texture_update(self, *largs):
        if self._natural_font is None:
            self._natural_font = self.font_size  # the size its rule gives it: the most it ever shows
            self.bind(size=self._refit, text=self._refit, font_size=self._rule_font)
        width = self.text_size[0] if self.text_size else None
        text = self.text
        markup = getattr(self, "markup", False)
        if width and text:
            room = max(1.0, width - self.padding_x_total())
            if self.shrink_to_fit_words:
                # (markup too: a build button's name over its reason, "Settlement / can't pay", was cut
                # "Settlemen|t" in a narrow button)
                longest = longest_piece(own_size_words(text, markup))
                if short_command(self, text, markup) and short_command_fits(self, text):
                    longest = text  # 「元に戻す」 whole, in smaller letters, not 「元に / 戻す」
                elif self.one_line and "\n" not in text:
                    longest = own_size_words(text, markup)  # the whole line
                size = self.font_size
                while size > self.min_font and self._measure(size)(longest) > room:
                    size = max(self.min_font, size - sp(1))
                if abs(size - self.font_size) > 0.1:
                    self._fit_font(size)  # lays out again at this size
            if has_cjk(text) and not markup:  # (Kivy lays markup out from ``text`` itself: no breaks put in)
                self._label.text = wrap(text, room, self._measure(self.font_size))
        super().texture_update(*largs)
        if width and text and markup and has_cjk(text):
            self._wrap_markup_between_phrases(text, max(1.0, width - self.padding_x_total()))
        if (self.shrink_to_fit_words and hasattr(self, "trigger_action") and self.size_hint_y is None
                and self.height > 0 and self.opacity > 0
                and self.texture_size[1] > self.height + 1 and self.font_size > self.min_font):
            # a button's lines (two of a long name, a reason in markup under it) taller than the button: smaller
            # letters, a point at a time (each change lays the text out again)
            self._fit_font(max(self.min_font, self.font_size - sp(1)))

    def _wrap_markup_between_phrases(self, text: str, room: float) -> None:
        """Markup Japanese ("カードを使う" over its reason in smaller letters): Kivy lays markup out from ``text``
        and cut it anywhere ("カードを使|う"); its lines without tags are broken between phrases here and the
        text laid out again as Kivy's Label does (in the label's colour)."""
        measure = self._measure(self.font_size)

        def wrapped_line(line: str) -> str:
            if not _TAG.search(line):
                return wrap(line, room, measure)
            small = _SMALL_LINE.fullmatch(line)  # a reason in smaller letters ("置ける所なし"): at its own size
            if small is None:
                return line
            size, color, words = small.groups()
            # a phrase wider than the button ("カードなし" under "カードを使う" 60 px wide was cut "カードな|し"):
            # smaller letters, down to a little under the label's least size (a reason is read at a glance),
            # then broken between its letters
            size = int(size)
            longest = longest_piece(words)
            while size > REASON_LEAST * self.min_font and self._measure(size)(longest) > room:
                size -= 1
            parts = [part for line in wrap(words, room, self._measure(size)).split("\n")
                     for part in letters_wrap(line, room, self._measure(size))]
            return "\n".join(f"[size={size}][color={color}]{part}[/color][/size]" for part in parts)

        wrapped = "\n".join(wrapped_line(line) for line in text.split("\n"))
        if wrapped == text:
            return
        color = get_hex_from_color(self.disabled_color if self.disabled else self.color)
        self._label.text = f"[color={color}]{wrapped}[/color]"
        self._label.refresh()
        if self._label.texture is not None:
            self.texture = self._label.texture
            self.texture_size = list(self.texture.size)

    def _fit_font(self, size: float) -> None:
        """Set the font size to fit (not the label's rule: its natural size stays what the rule said)."""
        self._fitting = True
        try:
            self.font_size = size
        finally:
            self._fitting = False

    def _rule_font(self, _label, size: float) -> None:
        """A font size set by the label's rule (kv): its natural letters from now on.  A rule that follows the
        width (the board editor's terrain buttons) first gave a size from a width of 0, below 0; kept as the
        natural size, every new size went back to it, and on an iPad-class screen in Japanese the terrain
        buttons showed no letters."""
        if not self._fitting:
            self._natural_font = size

    def _refit(self, *_):
        """A new size: start again from the natural letters (the fit above shrinks them as far as needed)."""
        if self.shrink_to_fit_words and self._natural_font and self.width > 0 and self.height > 0:
            if abs(self.font_size - self._natural_font) > 0.1:
                self._fit_font(self._natural_font)


#: Japanese counter and unit words, as they follow a number ("2枚", "3人", "10点", "2つ", "3回目", "5ポイント"): a
#: line the layout check finds beginning with one after a line ending in a digit has its number cut from its
#: counter.  (A list of its own, not ``may_break``'s rule: the check must not trust what it checks.)
COUNTERS = ("枚", "個", "人", "本", "つ", "回", "点", "目", "件", "か所", "箇所", "ヶ所", "番", "台", "匹", "隻", "歳",
            "度", "倍", "年", "月", "日", "時", "分", "秒", "位", "戦", "手", "名", "組", "軒", "種", "色", "面", "辺",
            "段", "歩", "マス", "ポイント", "ターン", "ラウンド", "%", "％")


def split_number(left: str, right: str) -> bool:
    """Whether a line ending in ``left`` and the next beginning with ``right`` cut a number ("1|0", "1,|000")
    or a number from its counter word ("2|枚", "3|人")."""
    if not left or not right:
        return False
    if left[-1] in DIGITS:
        return right[0] in DIGITS or right.startswith(COUNTERS)
    return left[-1] in IN_NUMBER and left[-2:-1] in DIGITS and right[0] in DIGITS


def broken_words(label, *, japanese_in_markup: bool = False) -> list[str]:
    """Where a shown label's lines were cut inside a word, a number or a Japanese phrase, or a number cut from
    its counter word: ``"Settlem|ent"``, ``"では2|枚）"`` for each.  The cuts looked at are Kivy's (a line too
    long for the width) and, in a plain label, the breaks the phrase wrapping put in (a line the text itself
    starts with "\n" is no cut).  In a markup label only cuts between Latin letters or digits count unless
    ``japanese_in_markup``: a markup line with tags in it is still Kivy's to break."""
    core = getattr(label, "_label", None)
    if core is None:
        return []
    lines = getattr(core, "_cached_lines", None) or []
    markup = getattr(label, "markup", False)
    laid_out = shown_text(str(core.text), markup)
    own = shown_text(str(label.text), markup)  # the text as given, before the phrase wrapping's breaks
    found = []
    for before, line in zip(lines, lines[1:]):
        left = "".join(w.text for w in before.words)
        right = "".join(w.text for w in line.words)
        if not left or not right or left[-1].isspace() or right[0].isspace():
            continue
        joined = left[-6:] + right[:6]
        if getattr(line, "line_wrap", False):  # Kivy cut the line
            if joined not in laid_out:
                continue  # a space was there: Kivy broke the line at it
        elif markup or joined not in own:
            continue  # a line the text itself starts ("\n"), not a cut
        if markup and not japanese_in_markup and not (left[-1].isascii() and right[0].isascii()):
            continue  # (Kivy lays markup out itself: Japanese in markup is not yet broken between phrases)
        if not may_break(left[-1], right[0], left[-9:-1]) or split_number(left, right):
            found.append(f"{left[-8:]}|{right[:8]}")
    return found


def _wrap_japanese_lines(label) -> None:
    """Every wrapping label of the app (not only PhraseWrap's): Japanese broken between phrases."""
    width = label.text_size[0] if label.text_size else None
    text = label.text
    if width and text and not label.markup and has_cjk(text):
        pad = label.padding[0] + label.padding[2] if len(label.padding) == 4 else 2 * label.padding[0]
        core = CoreLabel(font_size=label.font_size, font_name=label.font_name, bold=label.bold)
        label._label.text = wrap(text, max(1.0, width - pad), lambda s: core.get_extents(s)[0])


def install() -> None:
    """Give Kivy's Label (and so every button) phrase wrapping for Japanese: a label the app or a kv rule makes
    anywhere breaks Japanese lines between phrases.  Done once, when this module is imported by the app's widgets."""
    from kivy.uix.label import Label

    if getattr(Label, "_phrase_wrapping", False):
        return
    original = Label.texture_update

    def texture_update(self, *largs):
        if not isinstance(self, PhraseWrap):  # (PhraseWrap wraps, and sizes its font, itself)
            _wrap_japanese_lines(self)
        return original(self, *largs)

    Label.texture_update = texture_update
    Label._phrase_wrapping = True


install()
