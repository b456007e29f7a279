"""A player tile's text made to fit its tile: smaller letters, never lost lines.

A tile (``PlayerTag`` on the play screen) is of fixed size -- one that grew with its text would move the board
under a finger -- and Kivy silently drops the lines of a label that do not fit its box: a long name wrapped, and
the hand ("1 brick, 2 grain, 13 lumber, 1 ore, 2 wool"), its development cards and the awards were gone.  So a
tile whose text does not fit is drawn smaller: first the lines under the name (down to ``SMALLEST_LINES``),
then the name line, step by step, down to ``SMALLEST_SCALE`` of its size but never under ``SMALLEST_LINES``.
No letters are drawn under ``SMALLEST_LINES`` sp (letters of ~9 px, as a crowded tile upright was fitted to, are
unreadable at arm's length; playtest s10): the lines wrap at that size, and a tile still too full even so
loses its last line rather than being drawn smaller.  The kv rule calls
:func:`fit_tile_soon` whenever the tile's size or text changes (fitted once its layout is done, before the frame).
"""

from __future__ import annotations

import re

from kivy.clock import Clock
from kivy.core.text.markup import MarkupLabel
from kivy.metrics import sp

#: The smallest letters a tile draws (sp): the hand and award lines, then the name line, no smaller.
SMALLEST_LINES = 11
#: The smallest the name line is drawn, as a share of its size (and never under ``SMALLEST_LINES``).
SMALLEST_SCALE = 0.6

#: A compact tile's height (dp): one row of them, a tile a player -- the name; points and cards; knights and
#: awards -- where two rows of full tiles (90 dp each) would leave the board's sides under a fingertip.
COMPACT_TILE = 84
#: A whole tile's height (dp) where a tap on a compact tile shows them all, over the screen (room for a long hand).
TILE_DETAILS = 110

_SIZE = re.compile(r"\[size=(\d+(?:\.\d+)?)\]")


def _head(markup: str, lines: int = 1) -> tuple[str, str, str]:
    """``markup`` split after its first ``lines`` lines: (those lines, the newline after them or "", the rest)."""
    parts = markup.split("\n")
    if len(parts) <= lines:
        return markup, "", ""
    return "\n".join(parts[:lines]), "\n", "\n".join(parts[lines:])


def _scaled(markup: str, first_line: float, rest: float, lines: int = 1) -> str:
    """``markup`` with each [size=N] of the first ``lines`` lines (the name's) times ``first_line`` and the
    others' times ``rest``."""
    head, newline, tail = _head(markup, lines)

    def times(k):
        return lambda m: f"[size={max(1, int(float(m.group(1)) * k))}]"
    return _SIZE.sub(times(first_line), head) + newline + _SIZE.sub(times(rest), tail)


def _height(label, markup: str, font_size: float) -> float:
    core = MarkupLabel(text=markup, font_size=font_size, font_name=label.font_name, halign=label.halign,
                       text_size=(label.text_size[0], None), padding=tuple(label.padding),
                       line_height=label.line_height)  # (a compact tile's lines are drawn closer)
    core.refresh()
    return core.texture.size[1] if core.texture is not None else 0


def _steps(markup: str, font_size: float, lines: int = 1):
    """(first line's scale, the other lines' scale) from the tile as made to its smallest: no letters under
    ``SMALLEST_LINES`` sp (the 1 px spaces of Japanese separators aside).  The first ``lines`` lines are the
    name's (a compact tile's points and cards are on its second: they shrink with the name, last)."""
    head, _newline, tail = _head(markup, lines)
    sizes = [float(s) for s in _SIZE.findall(tail) if float(s) > 1]
    smallest_lines = min(1.0, sp(SMALLEST_LINES) / min(sizes)) if sizes else 1.0
    k = 1.0
    while k > smallest_lines + 1e-6:  # the hand and awards first
        k = max(smallest_lines, k - 0.08)
        yield 1.0, k
    first = [float(s) for s in _SIZE.findall(head) if float(s) > 1] + [font_size]
    smallest_first = max(SMALLEST_SCALE, min(1.0, sp(SMALLEST_LINES) / min(first)))
    scale = 1.0
    while scale > smallest_first + 1e-6:  # then the name line
        scale = max(smallest_first, scale - 0.08)
        yield scale, k


def fit_tile_soon(label) -> None:
    """Fit ``label`` before the next frame (its text_size follows its size in the same layout pass)."""
    trigger = getattr(label, "_fit_trigger", None)
    if trigger is None:
        trigger = label._fit_trigger = Clock.create_trigger(lambda _dt: _fit_if_kept(label), -1)
    trigger()


def _fit_if_kept(label) -> None:
    """Fit ``label`` (a kv rule's weak reference) unless it was dropped first: the screen makes its tiles anew
    at each refresh, and two in one frame (the tiles' form changing with the game) left a fit for a tile gone."""
    try:
        fit_tile(label)
    except ReferenceError:
        pass


def fit_tile(label) -> None:
    """Draw ``label``'s text (markup, its first line the name) small enough that every line shows."""
    if label.text != getattr(label, "_fitted_text", None):
        label._full_text = label.text  # a new text from the screen, fitted from the tile's own font size
        if not hasattr(label, "_full_font_size"):
            label._full_font_size = label.font_size
        label._fitted_for = None
    full, font_size = getattr(label, "_full_text", ""), getattr(label, "_full_font_size", label.font_size)
    if not full or label.width <= 1 or label.text_size[1] is None:
        return
    if label._fitted_for == tuple(label.text_size):
        return  # fitted already (this call came from the fit's own change of text)
    label._fitted_for = tuple(label.text_size)
    room = label.text_size[1]
    markup, size = full, font_size
    if _height(label, full, font_size) > room:
        lines = getattr(label, "head_lines", 1)
        for first, rest in _steps(full, font_size, lines):
            markup, size = _scaled(full, first, rest, lines), font_size * first
            if _height(label, markup, size) <= room:
                break
    label._fitted_text = markup
    if label.font_size != size:
        label.font_size = size
    if label.text != markup:
        label.text = markup
