"""People's names as plain text, and text made safe for a terminal.

A name is what players see on a slip, a screen and a standings list, and what the desk matches a typed name
against.  So it is normalised (Unicode NFC: ``Aki`` typed with a combining accent and with a precomposed one
are one name) and may hold no character that does not show: control characters (an ANSI escape can repaint a
terminal), zero-width and other format characters (``Aki`` and ``Aki`` + U+200B would be two players who look the
same), line and paragraph separators.

Whatever the desk prints to a terminal goes through :func:`terminal_safe`: a name stored before these rules, or a
file name typed on the command line, cannot move the cursor or plant a fake line.
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME = 80  # characters: a long name on a slip; a pasted page is refused

#: Unicode categories a name may not hold: control, format (zero-width, bidi overrides), surrogates, line and
#: paragraph separators.
HIDDEN = {"Cc": "a control character", "Cf": "an invisible formatting character", "Cs": "a lone surrogate",
          "Zl": "a line separator", "Zp": "a paragraph separator"}


class NameRefused(ValueError):
    """A name that cannot be used; the message says which character and where.  ``char`` (the character, or
    None for an empty or overlong name), ``position`` (1-based) and ``kind`` (what the character is) let a
    screen say it in the player's language."""

    def __init__(self, message: str, char: str | None = None, position: int = 0, kind: str = ""):
        super().__init__(message)
        self.char, self.position, self.kind = char, position, kind


def clean_name(name: str, what: str = "the name") -> str:
    """``name`` normalised to NFC with the spaces around it removed; raises :class:`NameRefused` (a ValueError)
    naming the first character that does not show, or an empty or overlong name."""
    text = unicodedata.normalize("NFC", name).strip()
    if not text:
        raise NameRefused(f"{what} is empty")
    for i, char in enumerate(text):
        kind = HIDDEN.get(unicodedata.category(char))
        if kind is not None:
            raise NameRefused(f"{what} {_quoted(text)} holds {kind} at position {i + 1} "
                              f"({code_point(char)}); type the name without it", char, i + 1, kind)
    if len(text) > MAX_NAME:
        raise NameRefused(f"{what} {_quoted(text[:20] + '…')} is {len(text)} characters long; at most {MAX_NAME}")
    return text


def code_point(char: str) -> str:
    """``U+200B ZERO WIDTH SPACE``: a character that does not show, named so that it can be found."""
    label = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {label}" if label else "")


def _quoted(text: str) -> str:
    return ascii(text) if any(unicodedata.category(c) in HIDDEN for c in text) else repr(text)


# CSI (ESC [ or the one-byte C1 CSI) ... final byte; OSC (ESC ]) ... BEL or ST; any other ESC + one character.
_ANSI = re.compile(r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def terminal_safe(text: str) -> str:
    """``text`` with ANSI escape sequences removed and any other control character (but newline and tab)
    shown as ``\\xNN``: what a terminal shows is what was written."""
    text = _ANSI.sub("", text)
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}",
                        text)
