"""The tablet's ear on the desk: the desk's server-sent events read with the standard library.

:func:`read_events` reads one stream (``/api/table/stream`` with the table's token, or the display's
``/display/stream``) and yields each event as ``(name, data)``; :class:`TableListener` keeps a tablet's stream
open on a thread of its own, reconnecting after a dropped connection, and hands each push (round, table, the
round clock, the desk's view of the game) to a callback -- the app moves it to the UI thread itself.
"""

from __future__ import annotations

import http.client
import json
import logging
import threading
from typing import Any, Callable, Iterator
from urllib.parse import urlsplit

from .desk_link import DeskLinkError

log = logging.getLogger(__name__)

READ_TIMEOUT = 40.0  # the desk says something (at least a comment) every 15 s; silence this long is a dead link
MAX_LINE = 1 << 20  # a pushed event is a few KB; a longer line is not the desk's
MAX_BACKOFF = 30.0


def read_events(base: str, path: str, token: str | None = None, timeout: float = READ_TIMEOUT,
                on_connection: Callable[[http.client.HTTPConnection], None] | None = None
                ) -> Iterator[tuple[str, str]]:
    """Server-sent events from ``base`` + ``path`` as ``(event name, data)`` ("message" when unnamed), until the
    desk ends the stream. Raises :class:`DeskLinkError` (status 0: no answer; else the HTTP status and the desk's
    message). ``on_connection`` gets the connection once it is open (closing it from another thread stops the
    read)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
    headers = {"Accept": "text/event-stream"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    try:
        try:
            connection.request("GET", path, headers=headers)
            if on_connection is not None:
                on_connection(connection)
            response = connection.getresponse()
        except (OSError, http.client.HTTPException) as error:
            raise DeskLinkError(f"the desk at {base} does not answer ({error})") from None
        if response.status != 200:
            try:
                message = json.loads(response.read(1 << 16).decode("utf-8")).get("error")
            except (ValueError, AttributeError, OSError, http.client.HTTPException):
                message = None
            raise DeskLinkError(str(message or f"HTTP {response.status}"), response.status)
        name, data = "message", []
        while True:
            try:
                raw = response.readline(MAX_LINE + 1)
            except (OSError, http.client.HTTPException, ValueError) as error:
                raise DeskLinkError(f"the desk at {base} stopped answering ({error})") from None
            if not raw:
                return  # the desk ended the stream
            if len(raw) > MAX_LINE:
                raise DeskLinkError(f"the desk at {base} sent a line longer than {MAX_LINE} bytes")
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if not line:  # an empty line ends an event
                if data:
                    yield name, "\n".join(data)
                name, data = "message", []
            elif line.startswith(":"):
                continue  # a comment: the desk is still there
            else:
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    name = value
                elif field == "data":
                    data.append(value)
    finally:
        connection.close()


class TableListener:
    """Listens to a table's pushes until stopped: ``on_push(dict)`` for each (round, table, clock, game);
    ``on_refused(message)`` once if the desk says this tablet's token no longer works (then it stops).
    Both are called on the listener's thread."""

    def __init__(self, desk: str, token: str, on_push: Callable[[dict[str, Any]], None],
                 on_refused: Callable[[str], None] | None = None, *, timeout: float = READ_TIMEOUT):
        self.desk, self.token, self.timeout = desk, token, timeout
        self.on_push, self.on_refused = on_push, on_refused
        self.connected = threading.Event()  # set while a stream is open (for tests and a status line)
        self._stop = threading.Event()
        self._connection: http.client.HTTPConnection | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> "TableListener":
        self._thread = threading.Thread(target=self._run, name="desk-push", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        connection = self._connection
        if connection is not None and connection.sock is not None:
            try:  # a read blocked on the socket returns at once
                connection.sock.shutdown(2)
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(self.timeout + 2)
            self._thread = None

    def _keep(self, connection: http.client.HTTPConnection) -> None:
        self._connection = connection
        if self._stop.is_set():
            connection.close()

    def _run(self) -> None:
        backoff = 1.0
        while not self._stop.is_set():
            try:
                for name, data in read_events(self.desk, "/api/table/stream", self.token, self.timeout, self._keep):
                    self.connected.set()
                    backoff = 1.0
                    if name == "refused":
                        self._refused(_message(data))
                        return
                    try:
                        push = json.loads(data)
                    except ValueError:
                        continue  # not the desk's: ignored, the next push says it all again
                    self._deliver(push)
            except DeskLinkError as error:
                if error.status in (401, 403):
                    self._refused(str(error))
                    return
                if not self._stop.is_set():
                    log.info("desk push: %s", error)
            finally:
                self.connected.clear()
                self._connection = None
            self._stop.wait(backoff)
            backoff = min(MAX_BACKOFF, backoff * 2)

    def _deliver(self, push: dict[str, Any]) -> None:
        try:
            self.on_push(push)
        except Exception:  # a listener's bug must not stop the link
            log.exception("desk push listener failed")

    def _refused(self, message: str) -> None:
        if self.on_refused is not None:
            try:
                self.on_refused(message)
            except Exception:
                log.exception("desk push listener failed")


def _message(data: str) -> str:
    try:
        return str(json.loads(data).get("error") or data)
    except (ValueError, AttributeError):
        return data
