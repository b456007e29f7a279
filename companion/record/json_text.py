"""JSON read and written on ``replay``'s path without importing the ``json`` package (issue 27).

``import json`` imports ``re`` and ``enum`` and compiles the package's regular expressions: ~20 M instructions,
a tenth of a ``python -m companion replay`` process.  The work itself needs none of it:

- :func:`loads` parses with the C scanner the package itself uses (``_json.make_scanner``, given the options a
  default ``json.JSONDecoder`` gives it), so a record reads exactly as ``json.loads`` reads it.  Whatever it
  does not take at once -- a byte order mark, a syntax error, a number too long, nesting too deep, text after
  the value -- is handed to ``json.loads`` itself, so every error is the package's own, word for word.
- :func:`dumps_indented` writes ``json.dumps(value, indent=2, ensure_ascii=False)`` for the values a replay
  prints (dicts, lists, tuples, strings, ints, floats, booleans, None; strings escaped by the package's own C
  escaper); anything else is handed to ``json.dumps``.

tests/test_json_text.py holds both to the ``json`` package on generated values and broken texts.
"""

from __future__ import annotations

import _json

TYPE_CHECKING = False  # (typing is not imported at run time: see companion/rules/values.py)
if TYPE_CHECKING:
    from typing import Any

_WHITESPACE = " \t\n\r"  # (JSON's four)
_quote = _json.encode_basestring  # json.dumps's escaper with ensure_ascii=False


class _DefaultDecoder:
    """What ``_json.make_scanner`` reads from a ``json.JSONDecoder()`` made with no arguments."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_scan = _json.make_scanner(_DefaultDecoder())


def loads(text: str) -> Any:
    """``json.loads(text)`` for a ``str``: the same value, or the same error."""
    start, stop = 0, len(text)
    while start < stop and text[start] in _WHITESPACE:
        start += 1
    while stop > start and text[stop - 1] in _WHITESPACE:
        stop -= 1
    try:
        value, end = _scan(text, start)
    except Exception:  # noqa: BLE001 -- (StopIteration: no value there) whatever it is, json.loads says it
        end = -1
    if end != stop:
        import json

        return json.loads(text)
    return value


class _Unusual(Exception):
    """A value :func:`dumps_indented` leaves to ``json.dumps``."""


def dumps_indented(value: Any) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``."""
    out: list[str] = []
    try:
        _write(value, out, "\n")
    except (_Unusual, RecursionError):  # (a type of its own, a cycle: the package's answer or error)
        import json

        return json.dumps(value, indent=2, ensure_ascii=False)
    return "".join(out)


def _number(value: float) -> str:
    if value != value:
        return "NaN"
    if value == float("inf"):
        return "Infinity"
    if value == -float("inf"):
        return "-Infinity"
    return float.__repr__(value)


_NAMED = {True: "true", False: "false", None: "null"}


def _write(value: Any, out: list[str], newline: str) -> None:
    kind = type(value)
    if kind is str:
        out.append(_quote(value))
    elif kind is int:
        out.append(int.__repr__(value))
    elif value is None or kind is bool:
        out.append(_NAMED[value])
    elif kind is float:
        out.append(_number(value))
    elif kind is list or kind is tuple:
        if not value:
            out.append("[]")
            return
        inner = newline + "  "
        separator = "[" + inner
        for item in value:
            out.append(separator)
            _write(item, out, inner)
            separator = "," + inner
        out.append(newline + "]")
    elif kind is dict:
        if not value:
            out.append("{}")
            return
        inner = newline + "  "
        separator = "{" + inner
        for key, item in value.items():
            named = type(key)
            if named is str:
                text = key
            elif named is int:
                text = int.__repr__(key)
            elif key is None or named is bool:
                text = _NAMED[key]
            elif named is float:
                text = _number(key)
            else:
                raise _Unusual
            out.append(separator + _quote(text) + ": ")
            _write(item, out, inner)
            separator = "," + inner
        out.append(newline + "}")
    else:
        raise _Unusual
