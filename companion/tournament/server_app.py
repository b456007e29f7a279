"""The desk server's HTTP interface (Starlette): what tablets, the display and the organiser ask of the desk.

Read-only, for anyone on the venue's network: ``/`` (the live display), ``/display.json``, ``/display/stream``
(the display's data pushed as server-sent events, :mod:`.server_push`), ``/display/boards.json`` (the round's
boards, from which the display draws each table's mini-board), ``/health``.
Tablets: ``POST /api/join`` (a pairing code; answered with the table's token and its game), ``GET /api/table``,
``GET /api/table/stream`` (pushed) and ``POST /api/events`` (with ``Authorization: Bearer TOKEN``). The organiser: ``/desk`` (a page), and
``POST /api/admin/pair``, ``POST /api/admin/clock``, with the desk's password (HTTP Basic or Bearer).
Anything that changes something needs a credential: none or an unknown one is 401, one that is not allowed
this change (a revoked token, another table's result, a wrong password) is 403.

Network input is checked as strictly as a record: a body over :data:`MAX_BODY` bytes is refused unread (413),
a body that is not the documented JSON object -- an unknown key, a wrong type, a number out of range, an event
nested too deep or too large -- is refused with a message naming the field (422), and nothing is changed.
Every call into the desk file runs under one lock on the desk's own thread, in turn (and a long batch's rules check
on one other): SQLite serialises writes anyway, and the server's event loop does not wait on a disk. One exception, for its CPU: a tablet's short batch on a SQLite desk
is kept on the event loop when the lock is free (:meth:`DeskApp.events`): its commit does not sync (WAL,
``synchronous=NORMAL``), but SQLite's automatic checkpoint (every ~4 MB of log) and another process holding the
file's write lock (the command line) make it wait there, rarely and briefly.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Route

from .server_display import desk_page, display_data, display_json, display_page, display_recheck, standings_text
from .server_push import Push, refused_data, table_data
from .server_store import MAX_EVENTS_PER_GAME, CheckOutside, Floor, FloorError, canonical
from .referee_routes import routes as referee_routes
from .server_trace import from_environment
from .store import TournamentError

MAX_BODY = 1 << 20  # 1 MiB: a whole long game's events fit in a few hundred KB
MAX_BATCH = 2000  # events per request: a whole long game (some 1,300 events, ~130 KB); a longer one in several
MAX_EVENT_BYTES = 4096  # one event as JSON; the largest real ones are a few hundred bytes
TABLET_SEEN_S = 30.0  # a tablet heard from within this long counts as connected
JOIN_FAILURES = 10  # wrong pairing codes per client per minute before it must wait (codes cannot be guessed)


MAX_DEPTH = 64  # as a record's (docs/record-format.md): far deeper is not a record's event


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists and objects more than ``limit`` levels deep (walked without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False


def _parse(body: bytes) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise Refused(422, "the request body is not JSON (UTF-8)") from None


class Refused(Exception):
    """A request refused before it reaches the desk (its shape, its credentials). ``key`` and ``values`` say it for
    the desk page's refusal in the event's language (:func:`.server_display.refusal_page`), as
    :class:`~.store.TournamentError`'s."""

    def __init__(self, status: int, message: str, key: str = "", **values):
        super().__init__(message)
        self.status = status
        self.key, self.values = key, values


def _int(data: dict, key: str, low: int, high: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(422, f"{key} must be a whole number from {low} to {high}, got {json.dumps(value)[:40]}")
    return value


def _form_number(text: str | None) -> int | None:
    """A desk-page form's round or table number, or None: ASCII digits only, at most 9 (``str.isdigit`` also takes
    "²" and other digits ``int`` refuses, and ``int`` refuses more than 4300 digits: both were a server error)."""
    if text and len(text) <= 9 and text.isascii() and text.isdigit():
        return int(text)
    return None


def _only(data: Any, allowed: set[str], required: set[str], what: str) -> dict:
    if not isinstance(data, dict):
        raise Refused(422, f"{what} must be a JSON object")
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise Refused(422, f"{what}: unknown field(s) {', '.join(k[:40] for k in unknown[:5])}")
    missing = sorted(required - set(data))
    if missing:
        raise Refused(422, f"{what}: missing field(s) {', '.join(missing)}")
    return data


def check_events_body(data: Any, texts: list[str] | None = None) -> dict:
    """The ``POST /api/events`` body, checked: round, table (as the tablet was told), game (its journal's game
    id), rev (when it read its journal, ns), from, events, count (its journal's event count), header (the first
    batch of a game). ``texts``: filled with the events' :func:`canonical` texts (worked out for their size here,
    and what the desk stores: :meth:`Floor.receive` takes them rather than working them out again)."""
    data = _only(data, {"round", "table", "game", "rev", "from", "events", "count", "header"},
                 {"round", "table", "game", "rev", "from", "events", "count"}, "the events request")
    for key, high in (("round", 1000), ("table", 1000), ("game", 2**31), ("rev", 2**63),
                      ("from", MAX_EVENTS_PER_GAME), ("count", MAX_EVENTS_PER_GAME)):
        _int(data, key, 0 if key in ("rev", "from", "count") else 1, high)
    events = data["events"]
    if not isinstance(events, list) or len(events) > MAX_BATCH:
        raise Refused(422, f"events must be a list of at most {MAX_BATCH} events")
    for i, event in enumerate(events):
        where = f"events[{i}] (event {data['from'] + i})"
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise Refused(422, f"{where} must be an object with a \"type\"")
        if _deeper_than(event, MAX_DEPTH - 2):
            raise Refused(422, f"{where} is nested more than {MAX_DEPTH} levels deep")
        text = canonical(event)
        if len(text.encode("utf-8")) > MAX_EVENT_BYTES:
            raise Refused(422, f"{where} is larger than {MAX_EVENT_BYTES} bytes")
        if texts is not None:
            texts.append(text)
    header = data.get("header")
    if header is not None and (not isinstance(header, dict) or _deeper_than(header, MAX_DEPTH)):
        raise Refused(422, "header must be the record header the desk issued")
    if data["from"] + len(events) > data["count"]:
        raise Refused(422, f"count {data['count']} is below the batch's end {data['from'] + len(events)}")
    return data


class DeskApp:
    """The Starlette app over one event's :class:`Floor`; ``password``: the organiser's."""

    def __init__(self, floor: Floor, password: str):
        self.floor = floor
        self.password = password
        self.csrf = hashlib.sha256(f"csrf:{password}".encode()).hexdigest()[:32]
        self._lock = threading.Lock()
        # Every call into the desk file runs on one thread of its own, in turn, and every long batch's rules check
        # on one other: with a pool (anyio's, up to 40 threads) each waiting call was a thread, and under load
        # dozens of them took turns at the lock and the GIL, each hand-over up to the GIL's 5 ms switch interval,
        # while the join storm's checks ran side by side and starved the event loop (docs/performance.md).
        self._desk_thread = ThreadPoolExecutor(1, thread_name_prefix="desk-file")
        self._check_thread = ThreadPoolExecutor(1, thread_name_prefix="desk-backlog-check")
        # called after a long batch is kept or a game ended (the desk's heap grew by a game): the served desk settles
        # its heap there (:func:`.server.settle_heap`); nothing by default
        self.after_backlog: Callable[[], None] | None = None
        self.seen: dict[int, float] = {}  # pairing id -> when its tablet was last heard (monotonic)
        self._join_failures: dict[str, list[float]] = {}
        self.stopping = False  # set by the server when it stops: open streams end
        # a short batch kept on the event loop when the lock is free (SQLite only: :meth:`events`)
        self.inline_batches = type(floor.desk._db).__module__.startswith("sqlite3")
        self.push = Push(self._display_text, lambda: self.stopping, self._display_recheck)
        self.trace = from_environment()  # a bench's time line of every batch (CATAN_DESK_TRACE), else None
        if self.trace is not None:  # a table's ready line sent by the display streams: when they looked at it
            self.push.on_lines = lambda tables: self.trace.write("look", time.time(), tables, [])
        self._loop_watched = False
        self.app = Starlette(routes=[
            # first: Starlette tries the routes in turn, and tablets' events are nearly every request (each path is
            # exact, so the order changes nothing else)
            Route("/api/events", self.events, methods=["POST"]),
            Route("/", self.display, methods=["GET"]),
            Route("/display.json", self.display_json, methods=["GET"]),
            Route("/display/stream", self.display_stream, methods=["GET"]),
            Route("/display/boards.json", self.display_boards, methods=["GET"]),
            Route("/display/font.otf", self.display_font, methods=["GET"]),
            Route("/api/table/stream", self.table_stream, methods=["GET"]),
            Route("/health", self.health, methods=["GET"]),
            Route("/api/join", self.join, methods=["POST"]),
            Route("/api/table", self.table, methods=["GET"]),
            Route("/api/admin/pair", self.admin_pair, methods=["POST"]),
            Route("/api/admin/clock", self.admin_clock, methods=["POST"]),
            Route("/desk", self.desk, methods=["GET"]),
            Route("/desk/pair", self.desk_pair, methods=["POST"]),
            Route("/desk/clock", self.desk_clock, methods=["POST"]),
            Route("/desk/seat", self.desk_seat, methods=["POST"]),
            Route("/desk/pair-all", self.desk_pair_all, methods=["POST"]),
            *referee_routes(self),  # the referee's confirm and corrections, the floor settings
        ], exception_handlers={Refused: self._refused, FloorError: self._floor_error,
                               TournamentError: self._floor_error})

    # --- plumbing ----------------------------------------------------------------------------------------------
    async def _call(self, fn: Callable, *args, **kwargs):
        def locked():
            with self._lock:
                return fn(*args, **kwargs)
        return await self._on(self._desk_thread, locked)

    @staticmethod
    async def _on(thread: ThreadPoolExecutor, fn: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(thread, fn, *args)

    def close(self) -> None:
        """The desk's two threads stopped (the server has stopped serving)."""
        self._desk_thread.shutdown(wait=True)
        self._check_thread.shutdown(wait=True)
        if self.trace is not None:
            self.trace.close()

    async def _refused(self, request: Request, error: Refused) -> Response:
        headers = {"WWW-Authenticate": 'Basic realm="desk"'} if error.status == 401 and \
            request.url.path.startswith("/desk") else None
        return await self._refusal(request, error, error.status, headers)

    async def _floor_error(self, request: Request, error: TournamentError) -> Response:
        return await self._refusal(request, error, getattr(error, "status", 422))

    async def _refusal(self, request: Request, error: Exception, status: int, headers=None) -> Response:
        """A refusal: to the desk page's forms, a page in the event's language saying it (a browser showed the
        JSON); to everyone else JSON, with the refusal's ``key`` and ``values`` where it has them (a tablet says
        the desk's reason in its own language: companion/ui/desk_link_text.py)."""
        if request.method == "POST" and request.url.path.startswith("/desk/") and status != 401:
            from . import referee
            from .server_display import refusal_page
            try:
                lang = (await self._call(referee.settings, self.floor)).language
            except Exception:  # noqa: BLE001 -- the desk file itself failing: say it in English
                lang = "en"
            return HTMLResponse(refusal_page(error, lang), status_code=status, headers=headers)
        body: dict[str, Any] = {"error": str(error)}
        if getattr(error, "key", ""):
            body.update(key=error.key, values=error.values)
        return JSONResponse(body, status_code=status, headers=headers)

    @staticmethod
    async def _body(request: Request) -> bytes:
        declared = request.headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
            raise Refused(413, f"the request body is larger than {MAX_BODY} bytes")
        body = bytearray()
        try:
            async for chunk in request.stream():
                body += chunk
                if len(body) > MAX_BODY:
                    raise Refused(413, f"the request body is larger than {MAX_BODY} bytes")
        except ClientDisconnect:  # the tablet gave up waiting (it sends again): nothing to do, nothing to say
            raise Refused(400, "the client hung up before its request was read") from None
        return bytes(body)

    async def _json(self, request: Request) -> Any:
        return _parse(await self._body(request))

    @staticmethod
    def _bearer(request: Request) -> str | None:
        auth = request.headers.get("authorization", "")
        scheme, _, value = auth.partition(" ")
        return value.strip() if scheme.lower() == "bearer" and value.strip() else None

    def _check_admin(self, request: Request) -> None:
        auth = request.headers.get("authorization", "")
        scheme, _, value = auth.partition(" ")
        given = None
        if scheme.lower() == "bearer":
            given = value.strip()
        elif scheme.lower() == "basic":
            try:
                given = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")[2]
            except (ValueError, UnicodeDecodeError):
                given = ""
        if not given:
            raise Refused(401, "the desk's password is needed")
        if not hmac.compare_digest(given.encode(), self.password.encode()):
            raise Refused(403, "wrong desk password")

    # --- read-only -----------------------------------------------------------------------------------------------
    async def display(self, request: Request) -> Response:
        return HTMLResponse(display_page(await self._call(display_data, self.floor)))

    async def display_json(self, request: Request) -> Response:
        text = display_json(await self._call(display_data, self.floor))
        return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def display_boards(self, request: Request) -> Response:
        """The current round's boards by table: the display draws the hexes from these once a round."""
        text = json.dumps(await self._call(self.floor.table_boards), ensure_ascii=False)
        return Response(text, media_type="application/json", headers={"Cache-Control": "no-store"})

    async def display_font(self, request: Request) -> Response:
        """The app's own font (Latin and Japanese), so a projector's browser without Japanese fonts shows the
        Japanese display; nothing on the venue's LAN needs the internet."""
        from starlette.responses import FileResponse
        from .. import assets
        return FileResponse(assets.path("fonts", "NotoSansCJKjp-Regular-subset.otf"), media_type="font/otf",
                            headers={"Cache-Control": "public, max-age=86400"})

    async def _display_text(self) -> str:
        """The display stream's whole display: a run-out clock is settled by the recheck, not here; the JSON is
        written on the desk's thread, without its lock (~5 ms for 60 tables: the event loop sends meanwhile)."""
        data, seen = await self._call(lambda: (display_data(self.floor, settle=False),
                                               (self.push.number(), display_recheck(self.floor))))
        self.push.saw(seen)
        return await self._on(self._desk_thread, display_json, data)

    async def _display_recheck(self):
        return await self._call(lambda: (self.push.number(), display_recheck(self.floor)))

    @staticmethod
    def _stream(events) -> Response:
        return StreamingResponse(events, media_type="text/event-stream",
                                 headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def _display_tables(self, tables: list[int]) -> list[tuple[int, str]]:
        """Changed tables' lines as the display's data has them (``tables`` entries, with their ``text``)."""
        from . import referee
        from .server_display import _table_lines

        lang = referee.settings(self.floor).language
        out = []
        for t in tables:
            entry = self.floor.live_table(t)
            if entry is not None:
                out.append((t, json.dumps(dict(entry, text=_table_lines(entry, lang)), ensure_ascii=False)))
        return out

    def _display_line_after(self, pairing) -> list[tuple[int, str]]:
        """The table's line as :meth:`_display_tables` gives it, right after its tablet's batch was kept: worked
        out from what the batch left (:meth:`Floor.live_table_after`), not read back."""
        from . import referee
        from .server_display import _table_lines

        entry, lang = self.floor.live_table_after(pairing)
        if entry is None:
            return []
        lang = lang or referee.Settings().language
        return [(pairing.table, json.dumps(dict(entry, text=_table_lines(entry, lang)), ensure_ascii=False))]

    async def display_stream(self, request: Request) -> Response:
        async def look(everything: bool, tables: set[int]):
            if everything:
                return [("everything", None, await self.push.display_text())]
            ready = self.push.ready_lines(tables)  # worked out with the change that made them (events)
            missing = sorted(tables - set(ready))
            if missing:
                ready.update(await self._call(self._display_tables, missing))
            if self.trace is not None:
                self.trace.write("look", time.time(), sorted(ready), missing)
            return [(f"table {t}", "table", ready[t]) for t in sorted(ready)]
        return self._stream(self.push.stream(None, look))

    async def table_stream(self, request: Request) -> Response:
        pairing = await self._tablet(request)  # refused (401/403) before any stream starts
        token = self._bearer(request)

        def now() -> tuple[str | None, str]:
            try:
                current = self.floor.authenticate(token)
            except FloorError as error:  # paired again meanwhile: the stream says so and ends
                return "refused", refused_data(str(error))
            self.seen[current.id] = time.monotonic()  # a tablet listening is a tablet connected
            return None, table_data({"round": current.round, "table": current.table,  # players: a re-seat is heard
                                     "players": self.floor.seated_names(current.round, current.table)},
                                    self.floor.clock(round_no=current.round), self.floor.latest_view(current))

        async def look(everything: bool, tables: set[int]):
            event, data = await self._call(now)
            return [("table", event, data)]
        return self._stream(self.push.stream(pairing.table, look))

    def connected(self) -> int:
        now = time.monotonic()
        return sum(1 for at in self.seen.values() if now - at <= TABLET_SEEN_S)

    async def health(self, request: Request) -> Response:
        round_no = await self._call(self.floor.current_round)
        return JSONResponse({"event": self.floor.event.name, "round": round_no, "tablets_connected": self.connected()})

    # --- tablets --------------------------------------------------------------------------------------------
    async def join(self, request: Request) -> Response:
        client = request.client.host if request.client else "?"
        now = time.monotonic()
        recent = [t for t in self._join_failures.get(client, []) if now - t < 60]
        self._join_failures[client] = recent
        if len(recent) >= JOIN_FAILURES:
            raise Refused(429, "too many wrong pairing codes from this address: wait a minute")
        data = _only(await self._json(request), {"code"}, {"code"}, "the join request")
        code = data["code"]
        if not isinstance(code, str) or not 1 <= len(code) <= 16:
            raise Refused(422, "code must be the table's pairing code (a few letters and digits)")
        try:
            token, assignment = await self._call(self.floor.join, code)
        except FloorError:
            recent.append(now)
            raise
        pairing = await self._call(self.floor.authenticate, token)
        self.seen[pairing.id] = now
        self.push.changed(pairing.table)
        return JSONResponse({"token": token, **assignment})

    async def _tablet(self, request: Request):
        pairing = await self._call(self.floor.authenticate, self._bearer(request))
        self.seen[pairing.id] = time.monotonic()
        return pairing

    async def table(self, request: Request) -> Response:
        token = self._bearer(request)

        def look():  # one turn at the desk's lock (it took four: every tablet asks this every 10 s)
            pairing = self.floor.authenticate(token)
            return pairing, {**self.floor.assignment(pairing), "clock": self.floor.clock(round_no=pairing.round),
                             "game": self.floor.latest_view(pairing)}  # its result's note
        pairing, answer = await self._call(look)
        self.seen[pairing.id] = time.monotonic()
        return JSONResponse(answer)

    async def events(self, request: Request) -> Response:
        trace, marks = self.trace, {}
        if trace is not None:
            marks["arrived"] = time.time()
            if not self._loop_watched:
                self._loop_watched = True
                asyncio.get_running_loop().create_task(trace.watch_loop(self.push.should_stop))
        token = self._bearer(request)
        if token is None:
            self.floor.authenticate(token)  # refused (401) before anything is read
        body = await self._body(request)

        async def receive(data, problem, checked=None):
            """One trip to the desk's thread and one turn at its lock for the whole request (it took three:
            the token, the batch, then the display's line; under load each turn queued behind every tablet's):
            the body parsed and checked before the lock (by the caller), the token checked first under it (an
            unknown token is 401 whatever its body), the batch kept, and the table's new display line worked out
            while its game is at hand. A long batch (a backlog) takes two turns: its rules check runs between them
            on the backlog thread, without the lock and off the desk's thread, so other tablets' requests are not
            held behind a tablet back from an hour offline (nor behind 60 tablets joining at once)."""
            if checked is not None:
                long_batches.append(checked)
                await self._on(self._check_thread, checked.run)
            while True:
                try:
                    return await self._on(self._desk_thread, turn, data, problem, checked)
                except CheckOutside as long_batch:  # (nothing changed) many new events: the rules check them
                    checked = long_batch.check  # there, while other tablets' requests take the lock, then one
                    long_batches.append(checked)
                    await self._on(self._check_thread, checked.run)  # more turn keeps them, if the game is
                    # still as it was (else they are checked under the lock)

        def parsed():
            texts: list[str] = []
            try:
                return dict(check_events_body(_parse(body), texts), texts=texts), None
            except Refused as error:
                return None, error

        def turn(data, problem, checked, checkpoint=True):
            with self._lock:
                if trace is not None:
                    marks["locked"], marks["path"] = time.time(), "thread" if checked is None else "backlog"
                return turn_locked(data, problem, checked, checkpoint)

        def turn_locked(data, problem, checked, checkpoint=True):
            pairing = self.floor.authenticate(token)
            if problem is not None:
                raise problem
            if (data["round"], data["table"]) != (pairing.round, pairing.table):
                raise Refused(403, f"this tablet is paired with round {pairing.round} table {pairing.table}, "
                                   f"not round {data['round']} table {data['table']}")
            view = self.floor.receive(pairing, data["game"], data["rev"], data["from"], data["events"],
                                      data["count"], data.get("header"), defer_long=checked is None,
                                      checked=checked, checkpoint=checkpoint, texts=data["texts"])
            if trace is not None:
                marks["kept"] = time.time()
            line = standings = None
            ended = self.floor.game_ended
            if self.push.displays and not view.get("stale"):
                line = self.push.numbered(self._display_line_after(pairing))
                if view.get("finished"):  # a result may have gone in: the standings, from the stored results
                    standings = (self.push.number(), standings_text(self.floor))
            return pairing, view, line, standings, ended

        outcome = None
        long_batches: list = []  # the long batch's check, if this was one
        data, problem = parsed()  # (before any lock is taken)
        if trace is not None:
            marks["read"] = time.time()
        if self.inline_batches and self._lock.acquire(blocking=False):
            if trace is not None:
                marks["locked"], marks["path"] = time.time(), "inline"
            # The desk's lock is free: the batch is kept here, on the event loop, without the worker thread's hop
            # (anyio's hand-over and wake-ups cost about a fifth of the desk's CPU per event; the batch's own work
            # holds the GIL either way, so the loop was no freer meanwhile). Only on SQLite (PostgreSQL is a
            # network round trip per statement), never waiting for the lock here, and a result's checkpoint (a
            # disk wait) is run in a worker thread before the tablet hears of it.
            try:
                outcome = turn_locked(data, problem, None, checkpoint=False)
                checkpoint_due = self.floor.checkpoint_due
            except CheckOutside as long_batch:  # a backlog: its check runs on the backlog thread, as below
                outcome, checked, checkpoint_due = None, long_batch.check, False
            finally:
                self._lock.release()
            if checkpoint_due:
                await self._call(self.floor.checkpoint)
            if outcome is None:  # a backlog: checked on the backlog thread, kept on the desk's
                outcome = await receive(data, problem, checked)
        else:
            outcome = await receive(data, problem)
        pairing, view, line, standings, ended = outcome
        self.seen[pairing.id] = time.monotonic()
        if not view.get("stale"):  # the tablet reads the desk's view here; a game's end: its line and the standings
            self.push.changed(pairing.table, tablet=False, lines=line, standings=standings)
        if (long_batches or ended) and self.after_backlog is not None:
            # (a finished game's objects stay too: its result, its replayed game) after the displays' streams, woken
            # above, have sent what changed
            asyncio.get_running_loop().call_soon(self.after_backlog)
        if trace is not None and data is not None:
            trace.write("batch", pairing.table, data["from"], len(data["events"]), view.get("have"),
                        marks["arrived"], marks["read"], marks.get("locked"), marks.get("kept"), time.time(),
                        marks.get("path"))
        return JSONResponse(view)

    # --- the organiser ---------------------------------------------------------------------------------------
    async def admin_pair(self, request: Request) -> Response:
        self._check_admin(request)
        data = _only(await self._json(request), {"table", "round"}, {"table"}, "the pair request")
        table = _int(data, "table", 1, 1000)
        round_no = _int(data, "round", 1, 1000) if "round" in data else None
        p = await self._call(self.floor.issue_code, table, round_no, who="desk server")
        self.push.changed(table)  # the table's old tablet, listening, hears it was replaced
        return JSONResponse({"round": p.round, "table": p.table, "code": p.code})

    async def admin_clock(self, request: Request) -> Response:
        self._check_admin(request)
        data = _only(await self._json(request), {"action", "minutes"}, {"action"}, "the clock request")
        minutes = data.get("minutes")
        if minutes is not None and (isinstance(minutes, bool) or not isinstance(minutes, (int, float))
                                    or not 1 <= minutes <= 600):
            raise Refused(422, "minutes must be a number from 1 to 600")
        if data["action"] not in ("start", "pause", "reset"):
            raise Refused(422, "action must be start, pause or reset")
        clock = await self._call(self.floor.set_clock, data["action"], minutes, who="desk server")
        self.push.changed()
        return JSONResponse(clock)

    async def desk(self, request: Request) -> Response:
        self._check_admin(request)
        return HTMLResponse(await self._call(desk_page, self.floor, self.csrf))

    async def _form(self, request: Request) -> dict[str, str]:
        self._check_admin(request)
        body = await self._body(request)
        from urllib.parse import parse_qs
        try:
            form = {k: v[0] for k, v in parse_qs(body.decode("utf-8"), strict_parsing=False).items()}
        except UnicodeDecodeError:
            raise Refused(422, "the form is not UTF-8", "form_not_utf8") from None
        # A browser sends the password with any page's form to this address: the page's own key proves it is ours.
        if not hmac.compare_digest(form.get("csrf", "").encode(), self.csrf.encode()):
            raise Refused(403, "this form did not come from the desk page", "form_not_ours")
        return form

    async def desk_pair(self, request: Request) -> Response:
        form = await self._form(request)
        table = _form_number(form.get("table"))
        if table is None:
            raise Refused(422, "table must be a table number", "table_number")
        round_no = _form_number(form.get("round")) if form.get("round") is not None else None
        if form.get("round") is not None and round_no is None:
            raise Refused(422, "round must be the round's number", "round_table_numbers")
        # (the round and the code the page showed: a page from before is refused, not a tablet revoked mid-game)
        await self._call(self.floor.pair_from_page, table, round_no, form.get("replaces"), who="desk page")
        self.push.changed(table)
        return RedirectResponse("../desk", status_code=303)

    async def desk_seat(self, request: Request) -> Response:
        """The next round seated from the desk page (it took the command line or the app's desk screen): the form
        names the round it seats (a second press is refused, not a round more) and the kind (Swiss or the final)."""
        form = await self._form(request)
        round_no = _form_number(form.get("round"))
        if form.get("kind") not in ("swiss", "final") or round_no is None:
            raise Refused(422, "kind must be swiss or final, and round the round's number", "seat_form")
        await self._call(self.floor.seat_next, round_no, form["kind"], who="desk page")
        self.push.changed()
        return RedirectResponse("../desk", status_code=303)

    async def desk_pair_all(self, request: Request) -> Response:
        form = await self._form(request)
        round_no = _form_number(form.get("round"))
        if round_no is None:
            raise Refused(422, "round must be the round's number", "round_table_numbers")
        pairings = await self._call(self.floor.pair_every_table, round_no, who="desk page")
        for p in pairings:
            self.push.changed(p.table)
        return RedirectResponse("../desk", status_code=303)

    async def desk_clock(self, request: Request) -> Response:
        form = await self._form(request)
        try:
            minutes = float(form["minutes"]) if form.get("minutes") else None
        except ValueError:
            raise Refused(422, "minutes must be a number", "minutes_number") from None
        if form.get("action") not in ("start", "pause", "reset") or (minutes is not None and not 1 <= minutes <= 600):
            raise Refused(422, "action must be start, pause or reset; minutes from 1 to 600", "clock_form")
        await self._call(self.floor.set_clock, form["action"], minutes, who="desk page")
        self.push.changed()
        return RedirectResponse("../desk", status_code=303)
