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

_SIZE = re.compile(r"\[size=(\d+(?:\.\d+)?)\]")


def _scaled(markup: str, first_line: float, rest: float) -> str:
    """``markup`` with each [size=N] of the first line times ``first_line`` and the others' times ``rest``."""
    head, newline, tail = markup.partition("\n")

    def times(k):
        return lambda m: f"[size={max(1, int(float(m.group(1)) * k))}]"
    return _SIZE.sub(times(first_line), head) + newline + _SIZE.sub(times(rest), tail)


def _height(label, markup: str, font_size: float) -> float:
    core = MarkupLabel(text=markup, font_size=font_size, font_name=label.font_name, halign=label.halign,
                       text_size=(label.text_size[0], None), padding=tuple(label.padding))
    core.refresh()
    return core.texture.size[1] if core.texture is not None else 0


def _steps(markup: str, font_size: float):
    """(first line's scale, the other lines' scale) from the tile as made to its smallest: no letters under
    ``SMALLEST_LINES`` sp (the 1 px spaces of Japanese separators aside)."""
    sizes = [float(s) for s in _SIZE.findall(markup.partition("\n")[2]) if float(s) > 1]
    smallest_lines = min(1.0, sp(SMALLEST_LINES) / min(sizes)) if sizes else 1.0
    k = 1.0
    while k > smallest_lines + 1e-6:  # the hand and awards first
        k = max(smallest_lines, k - 0.08)
        yield 1.0, k
    first = [float(s) for s in _SIZE.findall(markup.partition("\n")[0]) if float(s) > 1] + [font_size]
    smallest_first = max(SMALLEST_SCALE, min(1.0, sp(SMALLEST_LINES) / min(first)))
    scale = 1.0
    while scale > smallest_first + 1e-6:  # then the name line
        scale = max(smallest_first, scale - 0.08)
        yield scale, k


def fit_tile_soon(label) -> None:
    """Fit ``label`` before the next frame (its text_size follows its size in the same layout pass)."""
    trigger = getattr(label, "_fit_trigger", None)
    if trigger is None:
        trigger = label._fit_trigger = Clock.create_trigger(lambda _dt: fit_tile(label), -1)
    trigger()


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
        for first, rest in _steps(full, font_size):
            markup, size = _scaled(full, first, rest), font_size * first
            if _height(label, markup, size) <= room:
                break
    label._fitted_text = markup
    if label.font_size != size:
        label.font_size = size
    if label.text != markup:
        label.text = markup
