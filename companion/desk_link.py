"""The tablet's link to the tournament desk: join a table with a pairing code, then send the game to the desk.

The journal is the outbox: :class:`OutboxSender` reads the game's events from the journal file (a connection
of its own, on a thread of its own) and sends the desk whatever it does not have yet, so play never waits on
the network and a tablet that was offline for an hour catches up when the desk answers again. The desk keeps
events by (game id, event index): a batch sent twice, or a request that arrives after a newer one, changes
nothing there (docs/tournament.md, "The floor"). Only the standard library is used (``http.client``), so the
link runs wherever the app does, Android included.

Nothing here touches Kivy: the sender reports through ``on_status`` on its own thread; the app hands that to
its main thread (``Clock.schedule_once``).
"""

from __future__ import annotations

import http.client
import json
import logging
import socket
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlsplit

from .record import Record, parse_record

log = logging.getLogger(__name__)

DEFAULT_PORT = 8731
LINK_FILE = "tournament_table.json"
BATCH = 2000  # events per request, the most the desk takes: a whole game is one request (a resend from 0 too)
BATCH_BYTES = 512 * 1024  # and at most this much JSON (the desk refuses bodies over 1 MiB)
TIMEOUT = 10.0  # seconds for one request; a venue's Wi-Fi that stalls longer is "offline" and retried (a desk
# that is merely busy gets the time: giving up and sending again from 0 would only add to its work)
HEARTBEAT = 10.0  # seconds between "still here" calls while nothing is to be sent (a sender on its own; the app
# listens to the desk's stream and asks this way only slowly, as a fallback: companion.ui.tournament_table)
MAX_BACKOFF = 30.0


class DeskLinkError(Exception):
    """The desk could not be reached or refused; ``status`` is the HTTP status (0: no answer). ``key`` and
    ``values``: the desk's refusal by its key and facts, where it gave them (a screen says it in its language:
    companion/ui/desk_link_text.py)."""

    def __init__(self, message: str, status: int = 0, key: str = "", values: dict[str, Any] | None = None):
        super().__init__(message)
        self.status = status
        self.key, self.values = key, dict(values or {})


def desk_url(address: str) -> str:
    """``http://host:port`` from what a person types: ``192.168.1.5``, ``desk.local:8731``, ``http://...``."""
    text = address.strip()
    if not text:
        raise DeskLinkError("type the desk's address (shown where the desk server was started)")
    if "://" not in text:
        text = "http://" + text
    parts = urlsplit(text)
    if parts.scheme != "http" or not parts.hostname or parts.path not in ("", "/") or parts.query:
        raise DeskLinkError(f"{address!r} is not a desk address: write it as host or host:port")
    try:
        port = parts.port or DEFAULT_PORT
    except ValueError:
        raise DeskLinkError(f"{address!r}: the port must be a number") from None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"http://{host}:{port}"


def _answer(base: str, status: int, payload: bytes) -> dict[str, Any]:
    try:
        answer = json.loads(payload.decode("utf-8"))
    except ValueError:
        raise DeskLinkError(f"the desk at {base} answered something that is not JSON (HTTP {status})", status) from None
    if status != 200:
        message = answer.get("error") if isinstance(answer, dict) else None
        key = answer.get("key") if isinstance(answer, dict) else None
        values = answer.get("values") if isinstance(answer, dict) else None
        raise DeskLinkError(str(message or f"HTTP {status}"), status, key if isinstance(key, str) else "",
                            values if isinstance(values, dict) else None)
    if not isinstance(answer, dict):
        raise DeskLinkError(f"the desk at {base} answered an unexpected shape", status)
    return answer


def _request_parts(body: Any, token: str | None, keep: bool) -> tuple[bytes | None, dict[str, str]]:
    headers = {"Accept": "application/json"}
    if not keep:
        headers["Connection"] = "close"  # one request per connection
    data = None
    if body is not None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        headers["Content-Type"] = "application/json"
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return data, headers


def _open(base: str, timeout: float) -> http.client.HTTPConnection:
    """A connection to the desk with Nagle's algorithm off: ``http.client`` sends a request's headers and body in
    two writes, and on a kept connection the body waited for the desk's delayed ACK (40 ms a request)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    connection.connect()
    connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return connection


def _exchange(connection: http.client.HTTPConnection, method: str, path: str, data: bytes | None,
              headers: dict[str, str]) -> tuple[int, bytes]:
    connection.request(method, path, body=data, headers=headers)
    response = connection.getresponse()
    payload = response.read(1 << 22)
    if not response.isclosed():  # more than 4 MiB (no desk answer is): this connection cannot be used again
        connection.close()
    return response.status, payload


def request(base: str, method: str, path: str, body: Any = None, token: str | None = None,
            timeout: float = TIMEOUT) -> dict[str, Any]:
    """One JSON request to the desk on a connection of its own; raises :class:`DeskLinkError` (status 0 when the
    desk did not answer). A sender keeps its connection open instead: :class:`DeskConnection`."""
    data, headers = _request_parts(body, token, keep=False)
    connection = None
    try:
        connection = _open(base, timeout)
        status, payload = _exchange(connection, method, path, data, headers)
    except (OSError, http.client.HTTPException) as error:
        raise DeskLinkError(f"the desk at {base} does not answer ({error})") from None
    finally:
        if connection is not None:
            connection.close()
    return _answer(base, status, payload)


#: What a kept connection the desk has meanwhile closed (idle too long, the desk restarted) fails with before any
#: answer: the request is sent once more on a new connection (every desk request may be sent twice: an events
#: batch is idempotent by its game, index and ``rev``).
_STALE_CONNECTION = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError, ConnectionAbortedError)


class DeskConnection:
    """One HTTP connection to the desk kept open between requests (keep-alive), for one thread's requests.

    A new connection per request cost the desk a connection's set-up and teardown for every event each tablet
    sends (docs/performance.md, "Keep-alive"). The connection is opened on the first request, reopened after any
    failure (the next request starts afresh) and after :data:`KEEP_IDLE` seconds unused (the desk closes idle ones
    after 30 s). Nothing rides on the connection itself: the journal is the outbox, and a request whose answer
    was lost is sent again as the sender decides (:class:`OutboxSender`)."""

    KEEP_IDLE = 20.0

    def __init__(self, base: str, timeout: float = TIMEOUT):
        self.base = base
        self.timeout = timeout
        self._connection: http.client.HTTPConnection | None = None
        self._used = 0.0  # when it last answered (monotonic)
        self.opened = 0  # connections opened so far (tests and the bench read it)

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> dict[str, Any]:
        data, headers = _request_parts(body, token, keep=True)
        if self._connection is not None and time.monotonic() - self._used > self.KEEP_IDLE:
            self.close()
        for attempt in (0, 1):
            reused = self._connection is not None
            try:
                if self._connection is None:
                    self.opened += 1
                    self._connection = _open(self.base, self.timeout)
                status, payload = _exchange(self._connection, method, path, data, headers)
            except _STALE_CONNECTION as error:
                self.close()
                if reused and attempt == 0:
                    continue  # the desk closed it meanwhile: once more on a new connection
                raise DeskLinkError(f"the desk at {self.base} does not answer ({error})") from None
            except (OSError, http.client.HTTPException) as error:
                self.close()
                raise DeskLinkError(f"the desk at {self.base} does not answer ({error})") from None
            self._used = time.monotonic()
            if self._connection.sock is None:  # the desk said it closes this one (or the answer was too long)
                self.close()
            return _answer(self.base, status, payload)
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


@dataclass(frozen=True)
class Assignment:
    """What the desk told a tablet when it joined: where the desk is, the token, the table and its game."""

    desk: str
    token: str
    event: str
    round: int
    table: int
    players: tuple[str, ...]
    header: dict[str, Any]
    game_id: int | None = None  # the journal's game once it is started

    def record(self) -> Record:
        """The game to start: the desk's header (players in seat order, the table's board), no events yet."""
        return parse_record({**self.header, "events": []})

    def with_game(self, game_id: int) -> "Assignment":
        return Assignment(self.desk, self.token, self.event, self.round, self.table, self.players, self.header,
                          game_id)

    def to_json(self) -> dict[str, Any]:
        return {"desk": self.desk, "token": self.token, "event": self.event, "round": self.round,
                "table": self.table, "players": list(self.players), "header": self.header, "game_id": self.game_id}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Assignment":
        return cls(str(data["desk"]), str(data["token"]), str(data["event"]), int(data["round"]), int(data["table"]),
                   tuple(str(p) for p in data["players"]), dict(data["header"]), data.get("game_id"))


def join(address: str, code: str, timeout: float = TIMEOUT) -> Assignment:
    """Join the desk's table with its pairing code."""
    base = desk_url(address)
    code = "".join(code.split()).upper()
    if not code:
        raise DeskLinkError("type the table's pairing code (shown at the desk)")
    answer = request(base, "POST", "/api/join", {"code": code}, timeout=timeout)
    try:
        assignment = Assignment(base, str(answer["token"]), str(answer["event"]), int(answer["round"]),
                                int(answer["table"]), tuple(str(p) for p in answer["players"]),
                                dict(answer["header"]))
        assignment.record()
    except (KeyError, TypeError, ValueError) as error:
        raise DeskLinkError(f"the desk's answer is not a table assignment ({error})") from None
    return assignment


def save_link(data_dir: str | Path, assignment: Assignment) -> None:
    """Kept beside the journal, so a restarted app resumes sending the table's game."""
    path = Path(data_dir) / LINK_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(assignment.to_json(), ensure_ascii=False), encoding="utf-8")
    tmp.replace(path)


def load_link(data_dir: str | Path) -> Assignment | None:
    try:
        return Assignment.from_json(json.loads((Path(data_dir) / LINK_FILE).read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _time_limit(view: dict) -> dict[str, int]:
    """``{"time_limit": N}`` when the desk's view of the game says the time limit ended it after N events."""
    n = view.get("time_limit")
    return {"time_limit": n} if isinstance(n, int) and not isinstance(n, bool) and n >= 0 else {}


def _canonical(event: dict) -> str:
    return json.dumps(event, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


class OutboxSender:
    """Sends one journal game to the desk, from a thread of its own, until stopped.

    ``on_status(status)`` is called on the sender's thread whenever what it can say changes: a dict with
    ``state`` (``sending``, ``up to date``, ``offline``, ``refused``, ``reseated``), ``message`` (with the desk's
    ``key`` and ``values`` after a failure: :class:`DeskLinkError`), ``have`` (the
    events the desk holds), ``note`` (the desk's word on the result), ``time_limit`` (once the desk ended the game
    by the round's time limit: how many events its result stood on, where the tablet journals the end:
    :meth:`companion.table.Table.end_by_time`), ``clock`` (the round clock as the desk last
    said it, with ``heard``: when, on this machine's monotonic clock) and, after ``reseated``, ``assignment``
    (the table's new game: the desk seated the round again after this tablet joined; the sender stops)."""

    def __init__(self, journal_path: str | Path, assignment: Assignment, *,
                 on_status: Callable[[dict[str, Any]], None] | None = None, poll: float = 1.0,
                 batch: int = BATCH, timeout: float = TIMEOUT, max_backoff: float = MAX_BACKOFF,
                 heartbeat: Callable[[], float] | None = None):
        if assignment.game_id is None:
            raise ValueError("the assignment has no journal game yet")
        self.journal_path = Path(journal_path)
        self.assignment = assignment
        self.on_status = on_status
        self.poll, self.batch, self.timeout, self.max_backoff = poll, batch, timeout, max_backoff
        # seconds between asking for the table (the round clock, the desk's note): HEARTBEAT unless the caller
        # hears those pushed (companion.desk_push) and asks only as a fallback
        self.heartbeat = heartbeat or (lambda: HEARTBEAT)
        self._recheck = threading.Event()  # the caller heard the table's players change: ask the desk now
        self.status: dict[str, Any] = {"state": "sending", "message": "", "have": 0, "note": ""}
        self._desk: list[str] | None = None  # the events the desk holds, as far as this sender knows
        self._rev = 0
        self._local: list[str] = []  # the journal's events as last read, canonical JSON
        self._stamps: list[tuple[float, int]] = []  # and when each was journalled (to see what changed since)
        self._last_heard = 0.0
        self._last_clock = 0.0  # when the desk last told the round clock (asked every HEARTBEAT, even mid-game)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # one kept connection for all of this sender's requests (its own thread's): a new one per request cost the
        # desk more than the event itself
        self._link = DeskConnection(assignment.desk, timeout)

    # --- control ------------------------------------------------------------------------------------------
    def start(self) -> "OutboxSender":
        self._thread = threading.Thread(target=self._run, name="desk-outbox", daemon=True)
        self._thread.start()
        return self

    def wake(self) -> None:
        """Something was journalled: send it now rather than at the next poll."""
        self._wake.set()

    def recheck(self) -> None:
        """Ask the desk for the table now: its push names other players at this table (the round was seated
        again: ``reseated`` follows) or the round's time ran out here (the desk's end by time follows, if it ended
        the game), rather than at the next batch or heartbeat."""
        self._recheck.set()
        self._wake.set()

    def stop(self, timeout: float | None = None) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout if timeout is not None else self.timeout + 2)
            self._thread = None
        else:  # (``sync`` called by hand, without the thread: its connection is closed here)
            self._link.close()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    # --- the loop -------------------------------------------------------------------------------------------
    def _run(self) -> None:
        from .record.journal import Journal, JournalError

        try:
            journal = Journal(self.journal_path)
        except JournalError as error:
            self._report("refused", f"the journal cannot be read: {error}")
            return
        backoff = self.poll
        try:
            while not self._stop.is_set():
                try:
                    if self._recheck.is_set():
                        self._recheck.clear()
                        if self._reseated():
                            return
                    self.sync(journal)
                    backoff = self.poll
                except DeskLinkError as error:
                    if error.status in (410, 422) and self._reseated():  # the round was seated again
                        return
                    said = {"key": error.key, "values": error.values}  # (the screen says it by these)
                    if error.status in (401, 403):  # the table was paired again: this tablet sends no more
                        self._report("refused", str(error), **said)
                        return
                    state = "offline" if error.status == 0 else "refused"
                    self._report(state, str(error), **said)
                    # retried ever less often while the desk stays away (a journalled event retries at once)
                    backoff = min(self.max_backoff, max(backoff * 2, self.poll)) if error.status != 409 else 0
                    if backoff:
                        self._wake.wait(backoff)
                        self._wake.clear()
                    continue
                self._wake.wait(self.poll)
                self._wake.clear()
        finally:
            self._link.close()
            journal.close()

    def _next_rev(self) -> int:
        self._rev = max(time.time_ns(), self._rev + 1)
        return self._rev

    def sync(self, journal) -> None:
        """Send what the desk lacks, batch by batch, until it holds the whole journal game (or a call fails)."""
        a = self.assignment
        while not self._stop.is_set():
            local = self._read(journal)
            rev = self._next_rev()  # read, then stamped: a later read always carries a larger rev
            known = self._desk
            if known is None:
                start = 0
            else:
                start = next((i for i, (x, y) in enumerate(zip(local, known)) if x != y), min(len(local), len(known)))
                if start == len(local) == len(known):
                    # nothing to send: ask for the table when it is time, or at once after a failure (a tablet
                    # with nothing left to send said "offline" until its table journalled again, after a desk
                    # restart: tests/test_desk_kill.py)
                    if self.status["state"] == "offline" or \
                            time.monotonic() - min(self._last_heard, self._last_clock) >= self.heartbeat():
                        game = self._ask_table().get("game")
                        if isinstance(game, dict) and game.get("game") == a.game_id and game.get("have") != len(known):
                            self._desk = None  # the desk holds other than it said: send from 0 again
                            continue
                        if self.status["state"] != "up to date":
                            self._report("up to date", f"the desk has all {len(known)} events", have=len(known))
                    return
            if time.monotonic() - self._last_clock >= self.heartbeat():  # the clock may have been paused or reset
                try:
                    self._ask_table()
                except DeskLinkError:  # the events' own request says what is wrong, if anything
                    self._last_clock = time.monotonic()
            chunk, size = [], 0
            for e in local[start:start + self.batch]:
                size += len(e.encode("utf-8")) + 1
                if chunk and size > BATCH_BYTES:
                    break
                chunk.append(e)
            body = {"round": a.round, "table": a.table, "game": a.game_id, "rev": rev, "from": start,
                    "events": [json.loads(e) for e in chunk], "count": len(local)}
            if start == 0:
                body["header"] = a.header
            self._report("sending", f"sending events {start} to {start + len(chunk)} of {len(local)}")
            try:
                view = self._link.request("POST", "/api/events", body, token=a.token)
            except DeskLinkError as error:
                if error.status in (0, 409):
                    # No answer: the desk may or may not have applied it; an answer of 409: it holds something
                    # else. Either way what it holds is not known, and the next send starts from 0 (the desk
                    # then keeps what agrees and takes the rest).
                    self._desk = None
                raise
            self._last_heard = time.monotonic()
            if view.get("stale"):  # the desk has a newer read than this one (a clock set back): read again, later
                self._rev = max(self._rev, int(view.get("rev", 0)))
                self._desk = None
                continue
            have = int(view.get("have", 0))
            self._desk = local[:have] if have == start + len(chunk) else None
            if self._desk is not None and have == len(local):
                self._report("up to date", f"the desk has all {have} events", have=have, note=view.get("note", ""),
                             **_time_limit(view))

    def _ask_table(self) -> dict[str, Any]:
        """The desk's word on the table (its assignment and the round clock): the heartbeat."""
        a = self.assignment
        answer = self._link.request("GET", "/api/table", token=a.token)
        self._last_heard = self._last_clock = time.monotonic()
        game = answer.get("game")  # the desk's view of this tablet's latest game: a note such as "ended by time"
        mine = isinstance(game, dict) and game.get("game") == a.game_id
        note = game.get("note", "") if mine else None
        self._report(self.status["state"], self.status["message"], clock=answer.get("clock"),
                     heard=self._last_clock, **({"note": str(note)} if note is not None else {}),
                     **(_time_limit(game) if mine else {}))
        return answer

    def _reseated(self) -> bool:
        """After a refusal: whether the desk now seats other players at this table (the round was seated again);
        if so the new assignment is reported (``reseated``) and this sender is done."""
        a = self.assignment
        try:
            answer = self._ask_table()
            if answer.get("header") == a.header:
                return False
            new = Assignment(a.desk, a.token, str(answer["event"]), int(answer["round"]), int(answer["table"]),
                             tuple(str(p) for p in answer["players"]), dict(answer["header"]))
            new.record()
        except (DeskLinkError, KeyError, TypeError, ValueError):
            return False
        self._report("reseated", "the desk seated the round again: start the table's new game",
                     assignment=new.to_json())
        return True

    def _read(self, journal) -> list[str]:
        """The game's events as sent (canonical JSON), reading and re-encoding only those journalled since the last
        read (a whole game each second would cost the tablet ~50 ms of CPU beside play)."""
        stamps = journal.event_stamps(self.assignment.game_id)
        same = next((i for i, (x, y) in enumerate(zip(stamps, self._stamps)) if x != y),
                    min(len(stamps), len(self._stamps)))
        if same < len(stamps) or len(stamps) != len(self._local):
            fresh = [_canonical(json.loads(t)) for t in journal.event_texts(self.assignment.game_id, same)]
            self._local = self._local[:same] + fresh
            self._stamps = stamps
        return list(self._local)

    def _report(self, state: str, message: str, **more: Any) -> None:
        status = dict(self.status, state=state, message=message, **more)
        if status == self.status:
            return
        self.status = status
        if self.on_status is not None:
            try:
                self.on_status(dict(status))
            except Exception:  # a listener's bug must not stop the outbox
                log.exception("desk link status listener failed")
