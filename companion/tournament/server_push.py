"""Live pushes from the desk server: server-sent events (``text/event-stream``) to the display and the tablets.

Why server-sent events rather than WebSockets: the pushes go one way (desk -> screen), a browser's
``EventSource`` reconnects by itself after a desk restart, and a tablet reads the stream with the standard
library's ``http.client`` (no WebSocket library on the tablet, none in uvicorn's pure-Python install).

- ``GET /display/stream``: the display's data (as ``/display.json``) when it connects and when something beyond a
  table's game and the standings changes (the clock, the seating, a round, the language); when one table's game
  changes, only that table's line (``event: table``, an entry of the data's ``tables``): the whole display costs
  the desk ~10 ms for 60 tables, one table ~0.1 ms, and 60 tablets change a table 60 times a second; when a game
  ends, its table's line and the standings' rows alone (``event: standings``, ``{"standings": [...]}``, as the
  data's ``standings``). Anyone may read it, as the display page.
- ``GET /api/table/stream`` (``Authorization: Bearer TOKEN``): the tablet's table (round, table, the round
  clock, the desk's view of its latest game) each time it changes; an ``event: refused`` and the end of the
  stream when the token stops working (the table was paired again).

A change is announced by the request handler that made it (:meth:`Push.changed`, on the server's event loop), so a
stream wakes at once; changes made elsewhere (another desk process on the same file, the command line) are seen by
a small re-read every :data:`RECHECK_S` (:func:`.server_display.display_recheck`), which works the whole display
out again only when what it shows beyond the tables' games changed. A table's line is worked out once, with the
change that made it, and handed as it is to every open display; the display's whole data is worked out once per
change for all its readers; a burst of changes while a look is being worked out gives one more look, not one per
change.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from typing import Any, AsyncIterator, Awaitable, Callable

#: What a stream's look returns: messages as (what it is -- sent again only when its data changes --, the event's
#: name or None, data).
Messages = list[tuple[str, "str | None", str]]

WAKE_S = 0.5  # a stream looks this often whether the server is stopping
RECHECK_S = 2.0  # a change made outside this server (the command line, another desk) is shown within this long
TABLET_RECHECK_S = 10.0  # ... on a tablet (as its heartbeat did): 60 tablets looking every 2 s would cost the desk
HEARTBEAT_S = 15.0  # a comment line this often: proxies and the reader's timeout see a live connection
RETRY_MS = 1000  # asks a browser to reconnect one second after the desk went away


def sse_message(data: str, *, event: str | None = None, id: int | None = None) -> str:
    """One server-sent event; ``data`` is a single line (JSON without newlines)."""
    head = (f"event: {event}\n" if event else "") + (f"id: {id}\n" if id is not None else "")
    return f"{head}data: {data}\n\n"


class Listener:
    """One open stream: its wake-up, and (for a display) the changed tables' lines ready to send, the changed tables
    whose line it must work out, or everything."""

    __slots__ = ("wake", "tables", "lines", "everything", "standings")

    def __init__(self):
        self.wake = asyncio.Event()
        self.tables: set[int] = set()
        self.lines: dict[int, str] = {}
        self.everything = True
        self.standings: str | None = None  # the standings' message ready to send (a game ended)

    def take(self) -> tuple[bool, set[int], dict[int, str], str | None]:
        everything, tables, lines, standings = self.everything, self.tables, self.lines, self.standings
        self.everything, self.tables, self.lines, self.standings = False, set(), {}, None
        return everything, tables, lines, standings


class Push:
    """Who is listening and what changed. Used only on the server's event loop.

    ``recheck`` (optional): what :func:`.server_display.display_recheck` gives, from the desk's thread, with its
    number (:meth:`number`, taken in the same turn at the desk's lock). While a display listens, one task compares
    it every :data:`RECHECK_S`: when what the display shows beyond the tables' games and the standings changed,
    every display gets everything; when the standings changed (a result entered elsewhere), the standings; when a
    table's game changed and no request here changed it, that table's line. The whole display is not worked out again on a timer (it was, every 2 s: ~3 ms on the desk's
    thread and ~5 ms of JSON on the event loop for 60 tables, and table lines waited behind it)."""

    def __init__(self, display_text: Callable[[], Awaitable[str]], should_stop: Callable[[], bool],
                 recheck: Callable[[], Awaitable[tuple[int, tuple[str, dict[int, tuple], str]]]] | None = None):
        self._display_text = display_text
        self.should_stop = should_stop
        self._recheck = recheck
        self._rechecking: asyncio.Task | None = None
        self._seen: tuple[str, dict[int, tuple]] | None = None  # what the last recheck saw
        # tables whose line a change here handed over since the last recheck: their game's new rev is ours (a table's
        # tablet talks to one desk; were a second desk keeping the same table's game in the same 2 s, its change
        # would show with the table's next one)
        self._touched: set[int] = set()
        self.on_lines: Callable[[list[int]], None] | None = None  # told which tables' ready lines went out (trace)
        self.version = 0
        self._listeners: dict[int | None, set[Listener]] = {}  # table (None: the display) -> its streams
        self._display: tuple[int, str] | None = None  # (version, text) last worked out
        self._display_lock: asyncio.Lock | None = None
        # table -> (number, its display line) worked out by the request that changed it, under the desk's lock
        # (numbered there, so a line that reaches the event loop late never replaces a newer one)
        self._lines: dict[int, tuple[int, str]] = {}
        self._line_number = 0
        self._numbering = threading.Lock()
        # (number, the standings' message) newest worked out: by a game's end (under the desk's lock, numbered as
        # the lines), a whole display, or a recheck; an older one reaching the event loop late replaces nothing
        self._standings: tuple[int, str] | None = None

    @property
    def displays(self) -> bool:
        """Whether any display is listening (else nobody needs a table's line worked out)."""
        return bool(self._listeners.get(None))

    def number(self) -> int:
        """The next number of what is worked out under the desk's lock (lines, standings, a recheck's reading):
        their order there."""
        with self._numbering:
            self._line_number += 1
            return self._line_number

    def numbered(self, lines: list[tuple[int, str]]) -> list[tuple[int, int, str]]:
        """Tables' lines as ``(table, number, line)``, numbered in the order they were worked out (call it where
        they are: under the desk's lock)."""
        number = self.number()
        return [(t, number, text) for t, text in lines]

    def ready_lines(self, tables: set[int]) -> dict[int, str]:
        return {t: self._lines[t][1] for t in tables if t in self._lines}

    @property
    def listening(self) -> int:
        return sum(len(s) for s in self._listeners.values())

    def changed(self, table: int | None = None, *, tablet: bool = True,
                lines: list[tuple[int, int, str]] | None = None, standings: tuple[int, str] | None = None) -> None:
        """Something changed: at one table (its tablet's stream and the display wake) or, ``None``, for everyone
        (the clock, a pairing, a round). ``tablet=False``: the table's tablet knows already (its own events, told
        in the answer to its request), only the display wakes. ``lines``: the table's display line as the change
        left it (:meth:`numbered`): handed to every display's stream as it is (one text for all of them), which
        sends it as soon as it runs, without a trip to the desk's thread; without, a display works it out.
        ``standings``: ``(number, the standings' message)`` a game's end left (:meth:`number`): sent to every
        display as it is, beside the table's line -- not the whole display (60 tables' lines and the standings
        through the desk's thread, with every table's line waiting behind it: the slow tail of a floor where games
        end, docs/performance.md)."""
        if standings is not None:
            self.standings_changed(*standings)
        self.version += 1
        if table is None:
            self._lines.clear()
        else:
            if lines:
                self._touched.add(table)  # its line as the change left it is on its way to the displays
                for t, number, text in lines:
                    if t not in self._lines or self._lines[t][0] < number:
                        self._lines[t] = (number, text)
            else:
                self._lines.pop(table, None)
        for key, listeners in self._listeners.items():
            if key is None:  # displays: that table's line, or everything
                ready = None if table is None else self._lines.get(table)
                for listener in listeners:
                    if table is None:
                        listener.everything = True
                    elif ready is not None:
                        listener.lines[table] = ready[1]
                        listener.tables.discard(table)
                    else:
                        listener.tables.add(table)
                        listener.lines.pop(table, None)
                    listener.wake.set()
            elif table is None or (key == table and tablet):
                for listener in listeners:
                    listener.wake.set()

    async def display_text(self) -> str:
        """The display's data as JSON, worked out at most once per change."""
        if self._display_lock is None:
            self._display_lock = asyncio.Lock()
        async with self._display_lock:
            if self._display is None or self._display[0] != self.version:
                version = self.version  # changes while it is worked out: the next look works it out again
                self._display = (version, await self._display_text())
            return self._display[1]

    def standings_changed(self, number: int, text: str) -> None:
        """The standings as worked out under the desk's lock as ``number``: sent to the displays when newer than
        the last worked out and different."""
        if self._standings is not None and self._standings[0] >= number:
            return
        before, self._standings = self._standings, (number, text)
        if before is None or before[1] == text:
            return  # (none worked out yet: a display's first look sends everything)
        for listener in self._listeners.get(None, ()):
            listener.standings = text
            listener.wake.set()

    def saw(self, seen: tuple[int, tuple[str, dict[int, tuple], str]]) -> None:
        """What the recheck would have seen when the whole display was worked out (in the same turn at the desk's
        lock, with its number): the next recheck compares with it, so a change made outside meanwhile is not
        missed."""
        number, (beyond, games, standings) = seen
        self._seen = (beyond, games)
        if self._standings is None or self._standings[0] < number:
            self._standings = (number, standings)

    async def _recheck_while_displays_listen(self) -> None:
        """Every :data:`RECHECK_S` while a display listens: changes made outside this server (see the class)."""
        try:
            while self.displays and not self.should_stop():
                waited = 0.0
                while waited < RECHECK_S and self.displays and not self.should_stop():
                    await asyncio.sleep(WAKE_S)
                    waited += WAKE_S
                if not self.displays or self.should_stop():
                    return
                touched, self._touched = self._touched, set()
                number, (beyond, games, standings) = await self._recheck()
                seen, self._seen = self._seen, (beyond, games)
                if seen is None:
                    continue
                if beyond != seen[0]:
                    self.changed()
                    continue
                self.standings_changed(number, standings)  # (a result entered elsewhere: the command line)
                for t in sorted(set(games) | set(seen[1])):
                    if games.get(t) != seen[1].get(t) and t not in touched and t not in self._touched:
                        self.changed(t)  # (its tablet's stream wakes too: the game was kept elsewhere)
        finally:
            if self._rechecking is asyncio.current_task():
                self._rechecking = None

    async def stream(self, key: int | None, look: Callable[[bool, set[int]], Awaitable[Messages]]
                     ) -> AsyncIterator[str]:
        """Server-sent events for one reader: ``look(everything, tables)`` gives the messages now (everything, or
        only what the changed tables need that no change handed over ready); each is sent when its data differs
        from what was sent last for the same thing. An event named ``refused`` ends the stream. A tablet's stream
        also looks every :data:`TABLET_RECHECK_S`; the displays' recheck is one task for all of them."""
        listener = Listener()
        display = key is None
        self._listeners.setdefault(key, set()).add(listener)
        if display and self._recheck is not None and self._rechecking is None:
            self._rechecking = asyncio.get_running_loop().create_task(self._recheck_while_displays_listen())
        try:
            yield f"retry: {RETRY_MS}\n\n"
            sent: dict[str, str] = {}
            last_look = last_line = time.monotonic()
            listener.wake.set()
            while not self.should_stop():
                try:
                    await asyncio.wait_for(listener.wake.wait(), WAKE_S)
                except asyncio.TimeoutError:
                    pass
                now = time.monotonic()
                due = not display and now - last_look >= TABLET_RECHECK_S
                if listener.wake.is_set() or due:
                    listener.wake.clear()  # cleared before looking: a change while looking wakes the next round
                    everything, tables, lines, standings = listener.take()
                    last_look = now
                    messages: Messages = []
                    if not display or everything:
                        messages = await look(True, set())
                    else:
                        if standings is not None:  # worked out with the game's end: as they are
                            messages.append(("standings", "standings", standings))
                        if lines:  # worked out with the change that made them: no wait for the desk's thread
                            messages += [(f"table {t}", "table", lines[t]) for t in sorted(lines)]
                            if self.on_lines is not None:
                                self.on_lines(sorted(lines))
                        if tables - set(lines):
                            messages += await look(False, tables - set(lines))
                    for what, event, data in messages:
                        if sent.get(what) == data:
                            continue
                        if what == "everything":  # it holds every table: their lines are new again
                            sent = {}
                        sent[what] = data
                        last_line = now
                        yield sse_message(data, event=event, id=self.version)
                        if event == "refused":
                            return
                if now - last_line >= HEARTBEAT_S:
                    last_line = now
                    yield ": still here\n\n"
        finally:
            listeners = self._listeners.get(key)
            if listeners is not None:
                listeners.discard(listener)
                if not listeners:
                    del self._listeners[key]
            if display and not self.displays and self._rechecking is not None:
                self._rechecking.cancel()  # (it ends by itself within WAKE_S too; the server may be stopping)
                self._rechecking = None


def refused_data(message: str) -> str:
    return json.dumps({"error": message}, ensure_ascii=False)


def table_data(assignment: dict[str, Any], clock: dict[str, Any] | None, game: dict[str, Any] | None) -> str:
    """What a tablet's stream says: its round and table (and the players seated there now, when known), the round
    clock and the desk's view of its latest game."""
    players = {"players": assignment["players"]} if assignment.get("players") is not None else {}
    return json.dumps({"round": assignment["round"], "table": assignment["table"], **players, "clock": clock,
                       "game": game}, ensure_ascii=False, sort_keys=True)
