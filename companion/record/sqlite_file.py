"""Whose SQLite file is this?  Answered without writing a byte of it.

Opening a database read-write is not harmless: SQLite replays another program's un-checkpointed ``-wal`` into the
main file and deletes it when the connection closes, and rolls a hot ``-journal`` back.  So a file is identified
first, by what can be read without that:

- its 100-byte header (``SQLite format 3``, the application id at offset 68);
- when the header does not say it is ours and no ``-wal``/``-journal`` lies beside it: the file opened with
  ``immutable=1`` (no locks, no recovery, no sidecars), for its tables;
- when a sidecar lies beside it (the newest pages may be there, ours after a crash too): a copy of the file and
  its sidecars in a temporary directory, opened there -- whatever recovery SQLite does happens to the copy.

Only a file that is ours (or new: missing, empty, or an empty SQLite database) is then opened read-write.

A file this process already holds open through :func:`open_ours` is ours without being read again: reading its
header with ``open()`` and closing it would drop this process's SQLite locks on it (POSIX locks belong to the
process and go with the first ``close()`` of any descriptor of the file). Without them, another process that opened
and closed the file (``journal list``, ``doctor``) found itself its last user, checkpointed and deleted the ``-wal``
and ``-shm``, and everything this process wrote afterwards went to the deleted ``-wal``: seen by no connection opened
after (another process's, or the desk link's reader of the next game, which found a fresh ``-wal``), and lost if the
app was killed (a clean exit checkpoints it back). The tablet opens its journal twice (play, and the desk link's
reader, anew for each game): in session 17's trial a tournament table's round-2 game never reached the desk so.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import tempfile
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

MAGIC = b"SQLite format 3\x00"
SIDECARS = ("-wal", "-journal")

# The files this process holds open through open_ours: (device, inode) -> (application id, connections).
_held: dict[tuple[int, int], tuple[int, int]] = {}
_held_lock = threading.Lock()


def _file_key(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _release(key: tuple[int, int]) -> None:
    with _held_lock:
        app, count = _held.get(key, (0, 0))
        if count <= 1:
            _held.pop(key, None)
        else:
            _held[key] = (app, count - 1)


class _Connection(sqlite3.Connection):
    """A connection of :func:`open_ours`: its file counts as held open by this process until it is closed (or
    collected)."""

    _released: weakref.finalize | None = None

    def close(self) -> None:
        super().close()
        if self._released is not None:
            self._released()  # (once)


@dataclass(frozen=True)
class Identity:
    """``kind``: ``new`` (missing, empty, or SQLite with no tables and no application id), ``ours``,
    ``foreign`` (SQLite of another program), ``not_sqlite``, ``damaged`` (SQLite that cannot be read)."""

    kind: str
    application_id: int = 0
    tables: tuple[str, ...] = ()
    detail: str = ""

    def describe(self, path: Path) -> str:
        """What the file is, for a message that goes on to say it was left untouched."""
        if self.kind == "not_sqlite":
            return f"{path} is not an SQLite file"
        if self.kind == "damaged":
            return f"{path} is damaged or not a database ({self.detail})"
        return (f"{path} is an SQLite database of another program (application id {self.application_id:#x}, "
                f"tables {', '.join(self.tables) or 'none'})")


def sidecars(path: Path) -> list[Path]:
    """The ``-wal`` and ``-journal`` files beside ``path`` that hold something (pages SQLite would replay)."""
    found = []
    for suffix in SIDECARS:
        side = path.with_name(path.name + suffix)
        if side.is_file() and side.stat().st_size > 0:
            found.append(side)
    return found


def identify(path: str | Path, application_id: int) -> Identity:
    """Whose file ``path`` is, for a program whose files carry ``application_id``; nothing is written."""
    path = Path(path)
    key = _file_key(path)
    with _held_lock:
        held = _held.get(key) if key is not None else None
    if held is not None and held[0] == application_id:
        return Identity("ours", application_id)  # open here already: not read again (see the module's note)
    pending = sidecars(path)
    if not path.exists() or (path.is_file() and path.stat().st_size == 0 and not pending):
        return Identity("new")
    if not path.is_file():
        return Identity("not_sqlite", detail="not a regular file")
    try:
        with open(path, "rb") as f:
            header = f.read(100)
    except OSError as error:  # no permission: nothing can be said of it, and nothing is done to it
        return Identity("damaged", detail=f"cannot be read: {error}")
    if header and not header.startswith(MAGIC):
        return Identity("not_sqlite")
    if len(header) == 100 and int.from_bytes(header[68:72], "big") == application_id:
        return Identity("ours", application_id)  # only we set this id; the WAL cannot make it another's
    try:
        if pending:
            with tempfile.TemporaryDirectory(prefix="catan-identify-") as scratch:
                copy = Path(scratch) / path.name
                shutil.copyfile(path, copy)
                for side in pending:
                    shutil.copyfile(side, copy.with_name(copy.name + side.name[len(path.name):]))
                return _read_identity(sqlite3.connect(copy), application_id)
        return _read_identity(sqlite3.connect(path.resolve().as_uri() + "?immutable=1", uri=True), application_id)
    except (sqlite3.DatabaseError, OSError) as error:  # OSError: no room for the copy
        return Identity("damaged", detail=str(error))


def _read_identity(db: sqlite3.Connection, application_id: int) -> Identity:
    try:
        (app_id,) = db.execute("PRAGMA application_id").fetchone()
        tables = tuple(name for (name,) in db.execute("SELECT name FROM sqlite_master"))
    finally:
        db.close()
    if app_id == application_id:
        return Identity("ours", app_id, tables)
    if app_id == 0 and not tables:
        return Identity("new")
    return Identity("foreign", app_id, tables)


def open_ours(path: Path, application_id: int, *, timeout: float, not_ours: str, damaged: str,
              init_schema: Callable[[sqlite3.Connection], None],
              refuse: Callable[..., Exception]) -> sqlite3.Connection:
    """Open ``path`` read-write when it is ours (or new), as the game journal and the tournament desk do: the file
    identified first (another program's stays byte-identical), then connected with WAL, full sync and foreign
    keys, then ``init_schema(connection)``.  A file that cannot be used raises ``refuse(key, message, **facts)``
    (``key``: ``file_not_sqlite``, ``file_foreign``, ``file_damaged`` or ``file_unopenable``; the message names
    the file: "PATH is not ``not_ours``", "PATH: ``damaged`` (...)"); what ``init_schema`` raises passes through,
    the connection closed."""
    identity = identify(path, application_id)
    if identity.kind == "not_sqlite":
        raise refuse("file_not_sqlite", f"{path} is not {not_ours}; it was left untouched")
    if identity.kind in ("foreign", "damaged"):
        raise refuse(f"file_{identity.kind}", f"{identity.describe(path)}; it was left untouched")
    try:  # (a file that cannot be opened at all -- no permission, a full disk -- is said as such)
        db = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=timeout,
                             factory=_Connection)
    except sqlite3.Error as error:
        raise refuse("file_unopenable", f"{path} cannot be opened ({error})", error=str(error)) from None
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        init_schema(db)
        key = _file_key(path)
        if key is not None:
            with _held_lock:
                _held[key] = (application_id, _held.get(key, (application_id, 0))[1] + 1)
            db._released = weakref.finalize(db, _release, key)
    except sqlite3.DatabaseError as error:
        db.close()
        raise refuse("file_damaged", f"{path}: {damaged} ({error}); it was left untouched") from None
    except BaseException:
        db.close()
        raise
    return db
