"""``tournament serve EVENT``: the desk server, one process on the desk machine (uvicorn serving
:class:`.server_app.DeskApp` over the event's desk file).

:class:`DeskServer` runs it in the foreground (the command) or on a thread of its own (tests, benches), on a
socket bound before the server starts, so port 0 gives a free port that is known at once.
"""

from __future__ import annotations

import gc
import importlib
import os
import secrets
import socket
import threading
import time
from pathlib import Path

import uvicorn

from .server_app import DeskApp
from .server_store import Floor
from .store import Desk

DEFAULT_PORT = 8731


def http_stack() -> tuple[str, str]:
    """uvicorn's HTTP parser and event loop: ``httptools`` and ``uvloop`` (C extensions, pinned in
    pyproject.toml) where installed -- they cut the desk's CPU per tablet request (docs/performance.md) -- and the
    pure-Python ``h11`` and ``asyncio`` where they are not (uvloop has no Windows build). ``CATAN_DESK_HTTP=plain``
    chooses the pure-Python pair (bench/bench_desk_http.py measures both)."""
    if os.environ.get("CATAN_DESK_HTTP") == "plain":
        return "h11", "asyncio"
    return ("httptools" if _importable("httptools") else "h11"), ("uvloop" if _importable("uvloop") else "asyncio")


def settle_heap() -> None:
    """What the desk's heap holds now is kept out of the garbage collector's full passes (``gc.freeze``), after
    a pass over what is not yet frozen (young cycles are collected, not kept). The served desk calls it once
    started, after each long batch (a tablet joining or back from offline: its game's state is new and stays) and
    after each game's end (its result, its replayed game; the full passes came five times as often in the second
    after one, docs/performance.md):
    a full pass over a desk with 60 games held the whole process 0.7 s at a time, five times in 150 s of a
    60-tablet run (docs/performance.md). The floor's games hold no reference cycles (refcounting frees them when
    dropped), so what is frozen is still freed when let go; only a cycle made before a freeze and dropped after it
    stays. Only in the desk's own process (``tournament serve``): a desk served inside another program (the
    tests) leaves that program's collector alone."""
    gc.collect()
    gc.freeze()


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


class DeskServer:
    def __init__(self, event: int | str, db: str | Path | None = None, *, host: str = "0.0.0.0",
                 port: int = DEFAULT_PORT, password: str | None = None, clock=None, dsn: str | None = None,
                 announce: bool = False, own_process: bool = False):
        self.desk = Desk(dsn=dsn) if dsn is not None else Desk(db)  # dsn: a PostgreSQL database (--dsn)
        self.announce = announce  # say where the desk is over mDNS (server_mdns) while it serves
        self.advertisement = None
        try:
            self.floor = Floor(self.desk, event, clock=clock)  # clock: the round clock's time (time.time)
        except Exception:
            self.desk.close()
            raise
        self.password = password or secrets.token_urlsafe(9)
        self.web = DeskApp(self.floor, self.password)
        if own_process:  # the process is the desk's alone (tournament serve): its heap settled (settle_heap)
            self.web.after_backlog = settle_heap
            settle_heap()
        self.socket = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            self.socket.bind((host, port))
        except OSError:
            self.socket.close()
            self.desk.close()
            raise
        self.socket.listen(2048)  # connections wait in the backlog from now on, before the server runs
        # the current round's games replayed before the first look: the display is right from its first page after
        # a restart (connections wait in the backlog meanwhile; docs/performance.md, "A desk restarted")
        started = time.perf_counter()
        try:
            self.warmed = self.floor.warm()
        except Exception:
            self.socket.close()
            self.desk.close()
            raise
        self.warm_seconds = time.perf_counter() - started
        if own_process and self.warmed:
            settle_heap()  # (the replayed games stay)
        self.host, self.port = host, self.socket.getsockname()[1]
        # (a display's open stream would hold a stopping server for ever: streams end when it stops, and the
        # graceful shutdown is bounded anyway)
        http, loop = self.http_stack = http_stack()
        config = uvicorn.Config(self.web.app, log_level="warning", lifespan="off", access_log=False,
                                timeout_keep_alive=30, timeout_graceful_shutdown=3, http=http, loop=loop)
        self.server = uvicorn.Server(config)
        self.web.push.should_stop = lambda: self.server.should_exit or self.web.stopping
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def _advertise(self) -> None:
        if not self.announce:
            return
        from .server_cli import lan_addresses
        from .server_mdns import Advertisement

        wildcard = self.host in ("0.0.0.0", "", "::")
        addresses = lan_addresses() if wildcard else [self.host]
        self.advertisement = Advertisement(self.floor.event.name, self.port, addresses or ["127.0.0.1"]).start()

    def serve_forever(self) -> None:
        """Serve until Ctrl-C (uvicorn's signal handling), then close the desk file."""
        try:
            self._advertise()
            self.server.run(sockets=[self.socket])
        finally:
            self.close()

    def start(self) -> "DeskServer":
        """Serve on a thread of its own; returns once the server accepts connections."""
        self._thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.socket]},
                                        name="desk-server", daemon=True)
        self._thread.start()
        while not self.server.started:
            if not self._thread.is_alive():
                raise RuntimeError("the desk server did not start")
            self._thread.join(0.01)
        self._advertise()
        return self

    def stop(self) -> None:
        """Stop serving (open requests finish first) and close the desk file."""
        if self._thread is not None:
            self.server.should_exit = True
            self._thread.join()
            self._thread = None
        self.close()

    def close(self) -> None:
        if self.advertisement is not None:
            self.advertisement.stop()
            self.advertisement = None
        self.socket.close()
        self.web.close()
        self.desk.close()

    def __enter__(self) -> "DeskServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
