"""Reading a record nobody vouches for: what keeps a hostile file from crashing ``replay`` or the terminal.

A record file may come from anywhere.  Python's own limits end in exceptions, not messages: its JSON parser
recurses (a list nested ~1,000 deep is a RecursionError), and it refuses integers of more than 4,300 digits (a
ValueError).  And what a message quotes from the file reaches a terminal: a newline or an ANSI escape in an
event type could plant a second, fake message line; a 5 MB string would be echoed whole.  The checks here turn
each into a short, one-line reason (docs/record-format.md, "A record that cannot be replayed").
"""

from __future__ import annotations

import reprlib
import sys
from itertools import chain, compress

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any

# A record is a few levels deep (the deepest bundled one: 9); anything far deeper is not a record, and the rules
# must never be handed it (their recursion, and Python's, would end in a RecursionError, not a message).
MAX_DEPTH = 64


def one_line(text: str, limit: int = 400) -> str:
    """``text`` safe for one line of a terminal: control characters (a newline, an escape sequence's ESC, a
    bidi override) written as escapes, and a text longer than ``limit`` cut in the middle, its head (where a
    message names the file and the event) and its tail (where the reason ends) kept."""
    def escaped(part: str) -> str:
        return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in part)

    head, tail = limit * 2 // 3, limit // 3 - 40
    if len(text) <= limit:
        text = escaped(text)  # (escaping twice changes nothing: an escape is printable)
        if len(text) <= limit:
            return text
    # cut before escaping (a 5 MB text is not walked), and again after (an escape is up to 10 characters)
    cut = len(text) - head - tail
    return f"{escaped(text[:head])[:head]} ...({cut:,} characters)... {escaped(text[-tail:])[-tail:]}"


def quote(value: Any, limit: int = 60) -> str:
    """``value`` for a message: its Python repr (control characters escaped), shortened in the middle to about
    ``limit`` characters, and never deeper than a few levels (a 5 MB string or a list nested 900 deep in a
    record must not become a 5 MB or 900-level message)."""
    shortener = reprlib.Repr()
    shortener.maxlevel, shortener.maxstring, shortener.maxother = 4, limit, limit
    shortener.maxlist = shortener.maxtuple = shortener.maxdict = 6
    try:
        text = shortener.repr(value)
    except (ValueError, RecursionError):  # an int too long to print; a structure too deep even so
        return f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[:limit - 20] + "..." + text[-17:]


def where_too_deep(text: str) -> str:
    """`` at line L column C``: where ``text`` first opens its list or object number MAX_DEPTH + 1."""
    depth, in_string, escaped = 0, False, False
    for offset, char in enumerate(text):
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, offset) + 1
                return f" at line {line} column {offset - text.rfind(chr(10), 0, offset)}"
        elif char in "]}":
            depth -= 1
    return ""


class _Overlong:
    """Stands for an integer too long to read, to find which event holds it."""


def overlong_number_event(text: str) -> tuple[int, dict] | None:
    """``(index, event)`` of the event holding an integer of more than Python's 4,300 digits in the record
    ``text``; None when it is not in an event (or the text is broken beyond it)."""
    import json  # (a replay reads records without the json package: see json_text.py)

    limit = sys.get_int_max_str_digits()
    try:
        data = json.loads(text, parse_int=lambda digits: _Overlong() if len(digits.lstrip("-")) > limit else 0)
    except (ValueError, RecursionError):  # broken after the number too: the number is what was met first
        return None
    events = data.get("events") if isinstance(data, dict) else None
    for index, event in enumerate(events if isinstance(events, list) else []):
        if _holds(event, _Overlong):
            return index, event
    return None


def _holds(value: Any, kind: type) -> bool:
    """Whether ``value`` holds an instance of ``kind`` at any depth (without recursing)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, kind):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels deep (without recursing: level by
    level, only the lists and objects of each).

    A level holding only what the JSON parser makes (plain dicts, lists, strings, numbers, true/false/null) is
    sorted by type in C (``map``, ``compress``, ``chain``): a Python step for every value of a 1,000-event record
    cost more than parsing it (10.5 M instructions; now 6.2 M).  A level holding anything else (a dict or list
    subclass, from a caller's own data) is walked value by value with ``isinstance``."""
    level, depth = [value] if isinstance(value, (dict, list)) else [], 1
    kinds = list(map(type, level))  # (the type of each of the level's values)
    while level:
        if depth > limit:
            return True
        if _PLAIN_JSON.issuperset(kinds):
            children = list(chain(chain.from_iterable(map(dict.values, compress(level, map(_IS_DICT, kinds)))),
                                  chain.from_iterable(compress(level, map(_IS_LIST, kinds)))))
            child_kinds = list(map(type, children))
            if _PLAIN_JSON.issuperset(child_kinds):
                inner = list(map(_IS_CONTAINER, child_kinds))
                level, kinds, depth = list(compress(children, inner)), list(compress(child_kinds, inner)), depth + 1
                continue
        inner = []
        for item in level:
            inner.extend(child for child in (item.values() if isinstance(item, dict) else item)
                         if isinstance(child, (dict, list)))
        level, kinds, depth = inner, list(map(type, inner)), depth + 1
    return False


_PLAIN_JSON = frozenset((dict, list, str, int, float, bool, type(None)))  # the exact types the JSON parser makes
_IS_DICT = frozenset((dict,)).__contains__
_IS_LIST = frozenset((list,)).__contains__
_IS_CONTAINER = frozenset((dict, list)).__contains__
