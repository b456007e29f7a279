"""The JSON interchange format of a game record, ``catan-record/1`` (docs/record-format.md).

A record is the header (game, options, players, board) and the list of events; the state is
derived from it by replaying the events through the rules (:func:`replay`).  Records written
elsewhere are accepted verbatim; unknown top-level keys are kept and written back unchanged.
"""

from __future__ import annotations

import gc
import marshal
import os
import sys

from ..rules import Board, Game, RulesError, board_from_json, board_problems, game_class
from ..rules.errors import BoardError
from ..rules.values import Fresh, Value
from .json_text import loads
from .untrusted import MAX_DEPTH, deeper_than, one_line, overlong_number_event, quote, where_too_deep

TYPE_CHECKING = False  # (typing and pathlib are not imported at run time: see companion/rules/values.py)
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

FORMAT = "catan-record/1"
COLORS = ("red", "blue", "white", "orange", "green", "brown")


class RecordError(ValueError):
    """A record that cannot be replayed.  ``index`` is the event's index (None for the header)."""

    def __init__(self, reason: str, index: int | None = None, event: Any = None):
        self.reason = reason
        self.index = index
        self.event = event
        kind = event.get("type") if isinstance(event, dict) else None
        # the type as the file spells it, quoted only when it is not a plain name (a newline or an escape
        # sequence in it must not start a second, planted line on the terminal)
        named = kind if isinstance(kind, str) and kind.isidentifier() and len(kind) <= 40 else quote(kind)
        where = f"event {index}" + (f" ({named})" if kind else "") if index is not None else "record"
        super().__init__(f"{where}: {reason}")


class Record(Value):
    game: str
    players: list[dict[str, Any]]
    board: dict[str, Any]
    options: dict[str, Any] = Fresh(dict)
    events: list[dict[str, Any]] = Fresh(list)
    extra: dict[str, Any] = Fresh(dict)
    # the number the app dealt the board from (New game's Seed), so that the same table's next game is dealt
    # from the one after it; None (and absent from the header) for records without one, as before
    seed: int | None = None

    def header(self) -> dict[str, Any]:
        """Everything but the events."""
        out = {"format": FORMAT, "game": self.game, "options": self.options, "players": self.players,
               "board": self.board}
        if self.seed is not None:
            out["seed"] = self.seed
        out.update(self.extra)
        return out

    def to_json(self) -> dict[str, Any]:
        return {**self.header(), "events": self.events}

    def dumps(self) -> str:
        """The record as text: one event per line, so diffs of two records read well."""
        import json  # (not at the top: a replay process never writes a record, see json_text.py)

        head = json.dumps(self.header(), ensure_ascii=False)[:-1]
        if not self.events:
            return head + ', "events": []}\n'
        lines = ",\n  ".join(json.dumps(e, ensure_ascii=False) for e in self.events)
        return f'{head}, "events": [\n  {lines}\n]}}\n'


def parse_record(data: Any) -> Record:
    """Check a record's header and shape (not yet its events against the rules)."""
    if not isinstance(data, dict):
        raise RecordError(f"a record is a JSON object, got {type(data).__name__}")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, got {quote(fmt)}")
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError(f"game must be a name like \"base\", got {quote(game)}")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(f"options must be an object, got {quote(options)}")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise RecordError("players must be a non-empty list of {\"name\": ..., \"color\": ...}")
    seen_colors = set()
    for i, p in enumerate(players):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            raise RecordError(f"players[{i}] must be an object with a \"name\" string")
        color = p.get("color")
        if color not in COLORS:
            raise RecordError(f"players[{i}].color must be one of {', '.join(COLORS)}, got {quote(color)}")
        if color in seen_colors:
            raise RecordError(f"players[{i}].color {color} is already taken by another player")
        seen_colors.add(color)
    board = data.get("board")
    if not isinstance(board, dict):
        raise RecordError("board must be an object with \"hexes\"")
    events = data.get("events", [])
    if not isinstance(events, list):
        raise RecordError("events must be a list")
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            raise RecordError(f"an event must be an object, got {type(e).__name__}", i)
    if deeper_than(data, MAX_DEPTH):  # (one walk of the whole record; the event is looked for only then)
        too_deep = next((i for i, e in enumerate(events) if deeper_than(e, MAX_DEPTH - 2)), None)
        raise RecordError(f"nested more than {MAX_DEPTH} levels deep", too_deep,
                          None if too_deep is None else events[too_deep])
    # A "seed" that is not the companion's (a whole number) is some other recorder's field of that name: kept as it
    # came with the other unknown fields and written back unchanged, as before the companion wrote one.
    seed = data.get("seed")
    ours = type(seed) is int and abs(seed) < 2 ** 63
    extra = {k: v for k, v in data.items()
             if k not in ("format", "game", "options", "players", "board", "events") and not (k == "seed" and ours)}
    return Record(game, players, board, options, list(events), extra, seed if ours else None)


def load_record(path: str | Path) -> Record:
    """Read a record file; errors name the file and, for bad JSON, the line and column."""
    try:
        # a byte order mark, as some Windows editors write, is skipped
        with open(os.fspath(path) or ".", encoding="utf-8-sig") as file:
            text = file.read()
    except OSError as error:
        raise RecordError(f"cannot read {_shown(path)}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise RecordError(f"{_shown(path)} is not UTF-8 text (byte {error.start})") from None
    try:
        data = loads(text)  # (json.loads's value or error, without importing json: see json_text.py)
    except RecursionError:  # the parser's own recursion, some 1,000 levels down
        raise RecordError(f"{_shown(path)} is not a record: nested more than {MAX_DEPTH} levels deep"
                          f"{where_too_deep(text)}") from None
    except ValueError as error:
        from json import JSONDecodeError  # (loads raised one: json is imported by now)

        if isinstance(error, JSONDecodeError):
            raise RecordError(f"{_shown(path)} is not valid JSON: {error.msg} at line {error.lineno} "
                              f"column {error.colno}") from None
        # Python refuses to read an integer of more than 4,300 digits (sys.get_int_max_str_digits)
        raise RecordError(f"a number of more than {sys.get_int_max_str_digits()} digits",
                          *(overlong_number_event(text) or ())) from None
    return parse_record(data)


def _shown(path: str | Path) -> str:
    """The file's name in a message, as the user's path reads (``./a//b.json`` as ``a/b.json``)."""
    from pathlib import Path  # (only when there is something to say: pathlib costs a process start ~3 ms)

    return str(Path(path))


def new_game(record: Record) -> Game:
    """The game a record starts from: its board, players and options, before any event."""
    try:
        cls = game_class(record.game)
    except RulesError as error:
        raise RecordError(str(error)) from None
    try:
        # a game without hexes (Starfarers systems, the card game's decks) reads its own "board"
        reader = getattr(cls, "read_board", None)
        board = reader(record.board) if reader is not None else _board_read(record.board)
    except BoardError as error:
        raise RecordError(f"board: {error}") from None
    try:
        options = cls.options_class.from_json(record.options)
    except RulesError as error:
        raise RecordError(str(error)) from None
    # the start's check that the record's own options ask for: no 6 or 8 side by side when the table agreed so.
    # (Not the robber's start on the desert: the record format lets a board place it on any land hex -- games
    # recorded elsewhere, and the app's own before 2474fb5, replay as written. The app's new-game screen, board
    # editor and scan hold a game it starts to the desert: board_problems(robber_on_desert=...).)
    if getattr(options, "separate_red_numbers", False):
        reds = board_problems(board, separate_red_numbers=True)
        if reds:
            raise RecordError(f"board: {BoardError(reds)}")
    try:
        return cls(board, len(record.players), options)
    except RulesError as error:
        raise RecordError(str(error)) from None


_BOARDS: dict[bytes, Board] = {}  # a record's board, marshalled -> the board read from it (at most _BOARDS_KEPT)
_BOARDS_KEPT = 8
_BOARD_TEXT_LIMIT = 100_000  # (a board marshals to some 3,000 bytes; a hostile record's is not kept)


def _board_read(data: Any) -> Board:
    """``board_from_json(data)``, the same board object again for a board read before in this process.

    A replay reads its board anew from the record, and the board's tables (land, numbers, corners on land,
    harbours) were a twentieth of a 1,000-event replay; the app replays the same record again and again (undo
    without a snapshot, resume, a time limit).  Keyed by the data marshalled (``marshal.dumps``, format 0: no
    back-references, every string written out), which writes every value with its type (``true`` and ``1``,
    ``1`` and ``1.0``, a list and a tuple differ) and reads back equal: equal keys, equal boards (it was the
    data's ``repr``, which says the same at four times the cost: 1.1 M instructions a replay).  Data marshal
    does not take (a caller's dict subclass, nesting too deep) is read and not kept.  A board is immutable, so
    sharing it cannot go stale; a board that fails its checks is not kept (it raises every time)."""
    try:
        key = marshal.dumps(data, 0)
    except (ValueError, RecursionError):  # (a caller's own types, or nested too deep to marshal: read, not kept)
        return board_from_json(data)
    board = _BOARDS.get(key)
    if board is None:
        board = board_from_json(data)
        if len(key) <= _BOARD_TEXT_LIMIT:
            if len(_BOARDS) >= _BOARDS_KEPT:
                _BOARDS.pop(next(iter(_BOARDS), None), None)  # the oldest (another thread may have taken it)
            _BOARDS[key] = board
    return board


def replay(record: Record, *, upto: int | None = None) -> Game:
    """Replay a record's events (the first ``upto`` of them); the first bad one raises RecordError."""
    game = new_game(record)
    events = record.events if upto is None else record.events[:upto]
    # The cyclic garbage collector paused while the events are pushed: every event makes a few dicts and an
    # outcome, all kept, so its passes (one every 700 of them) found nothing to free and were 2-4 % of a
    # replay's instructions (docs/performance.md).  Put back as it was, whatever happens; a collection owed
    # runs at the next allocation after.
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        try:
            game.push_all(events)  # an error ends the replay, so no snapshots needed
        except RulesError as error:
            i = len(game.outcomes)  # (the events before the refused one were pushed whole)
            raise RecordError(str(error), i, events[i]) from None
        except Exception as error:  # noqa: BLE001 -- a rules check that missed this input: still a message, not a crash
            # (kept as the cause: the fuzz tests look for these, to give each its own clear reason)
            i = len(game.outcomes)
            raise RecordError(f"not understood ({type(error).__name__}: {one_line(str(error), 100)})", i,
                              events[i]) from error
    finally:
        if collecting:
            gc.enable()
    return game
