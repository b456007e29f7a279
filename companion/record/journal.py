"""The SQLite journal: every game's record, committed event by event.

One file under the user's data directory holds every game (stdlib ``sqlite3``, WAL,
``synchronous=FULL``): an event is on disk before its outcome is shown or said, so killing the app
at any moment loses no committed event, and reopening resumes each unfinished game.

Undo does not destroy input: the taken-back event moves to the game's redo list (also on disk)
and comes back with redo; a new event clears that list, as in every editor.

A camera's roll keeps its photo (the tray as the camera saw it, a JPEG) beside the record, by the roll's
``roll_id``, committed with the roll: the evidence of what was read, for a dispute after the game. A camera's
roll undone and entered again by hand is kept as a *correction* (the faces read, the faces entered): how often
the camera is wrong at this table, and the photos of its misreads. The record itself (``catan-record/1``)
stays plain JSON.

The file is identified before it is opened for writing (:mod:`.sqlite_file`: its header, or a read that
cannot write): a file that is not SQLite, a SQLite database of another program -- its ``-wal`` and ``-journal``
too -- or a damaged one is reported and never written to.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from companion.dice import RollPhoto

from .format import Record, parse_record
from .sqlite_file import open_ours

# How long a write waits for another process holding the file (another desk, the desk server, a second app)
# before it is refused as busy: SQLite's default 5 s is too short on a loaded machine, where the holder
# may be descheduled mid-transaction; a desk or a table would rather wait than fail.
BUSY_WAIT_S = 30.0

APPLICATION_ID = 0x43544E31  # "CTN1", stored in the SQLite header to recognise our files
SCHEMA_VERSION = 5  # 2: roll_photos, roll_corrections; 3: roll_photos.dice; 4: roll_photos.plain, .boxes;
                    # 5: roll_photos.checked
FILE_NAME = "journal.sqlite3"


class JournalError(RuntimeError):
    """The journal file cannot be used; the message names the file and what is wrong with it.  ``key`` says what
    is wrong as a word the app can say in the user's language (``file_not_sqlite``, ``file_foreign``,
    ``file_damaged``, ``file_unopenable``, ``journal_newer``; "" for anything else) and ``facts`` its details."""

    def __init__(self, message: str, key: str = "", **facts):
        super().__init__(message)
        self.key, self.facts = key, facts


def data_dir() -> Path:
    """Where the companion keeps its files: ``$CATAN_COMPANION_HOME`` or the platform's user data dir."""
    override = os.environ.get("CATAN_COMPANION_HOME")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_data_dir("catan-companion", appauthor=False))


def default_path() -> Path:
    return data_dir() / FILE_NAME


@dataclass(frozen=True)
class GameInfo:
    id: int
    title: str
    game: str
    players: list[dict[str, Any]]
    events: int
    finished: bool
    created: float
    updated: float


class Journal:
    """The journal file.  Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # identified before any read-write connection: a foreign file stays byte-identical (sqlite_file.py)
        self._db = open_ours(self.path, APPLICATION_ID, timeout=BUSY_WAIT_S,
                             not_ours="a companion journal (not an SQLite file)",
                             damaged="the journal is damaged or not a database", init_schema=self._init_schema,
                             refuse=lambda key, message, **facts: JournalError(message, key, **facts))

    # --- opening -----------------------------------------------------------------------------
    def _init_schema(self, db: sqlite3.Connection) -> None:
        self._db = db
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise JournalError(f"{self.path} was written by a newer companion (journal version {version}); "
                               "it was left untouched", "journal_newer", version=version)
        problems = db.execute("PRAGMA quick_check").fetchall()
        if problems != [("ok",)]:
            raise JournalError(f"{self.path} is damaged: {problems[0][0]}; it was left untouched", "file_damaged")
        if version == SCHEMA_VERSION:
            return
        with self._transaction():
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            for statement in """
                CREATE TABLE IF NOT EXISTS games (
                    id INTEGER PRIMARY KEY,
                    title TEXT NOT NULL,
                    header TEXT NOT NULL,
                    finished INTEGER NOT NULL DEFAULT 0,
                    created REAL NOT NULL,
                    updated REAL NOT NULL
                );
                CREATE TABLE IF NOT EXISTS events (
                    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    event TEXT NOT NULL,
                    recorded REAL NOT NULL,
                    PRIMARY KEY (game, seq)
                );
                CREATE TABLE IF NOT EXISTS redo (
                    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                    seq INTEGER NOT NULL,
                    event TEXT NOT NULL,
                    PRIMARY KEY (game, seq)
                );
                CREATE TABLE IF NOT EXISTS roll_photos (
                    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                    roll_id TEXT NOT NULL,
                    photo BLOB NOT NULL,
                    recorded REAL NOT NULL,
                    dice BLOB,
                    plain BLOB,
                    boxes TEXT,
                    checked INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (game, roll_id)
                );
                CREATE TABLE IF NOT EXISTS roll_corrections (
                    game INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
                    roll_id TEXT NOT NULL,
                    read TEXT NOT NULL,
                    entered TEXT NOT NULL,
                    recorded REAL NOT NULL,
                    PRIMARY KEY (game, roll_id)
                );
            """.split(";"):
                if statement.strip():
                    db.execute(statement)
            # An older journal's table gets the columns added since (version 2: dice; 2 and 3: plain, boxes;
            # up to 4: checked, its rolls taken as not checked).
            columns = {column for (_, column, *_) in db.execute("PRAGMA table_info(roll_photos)")}
            for column, kind in (("dice", "BLOB"), ("plain", "BLOB"), ("boxes", "TEXT"),
                                 ("checked", "INTEGER NOT NULL DEFAULT 0")):
                if column not in columns:
                    db.execute(f"ALTER TABLE roll_photos ADD COLUMN {column} {kind}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _transaction(self):
        return Transaction(self._db)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Journal":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- games -------------------------------------------------------------------------------
    def create_game(self, record: Record, title: str | None = None) -> int:
        """Store a new game (header and any events already in ``record``); returns its id."""
        now = time.time()
        if title is None:
            title = f"{record.game}: " + ", ".join(p["name"] for p in record.players)
        with self._transaction():
            cur = self._db.execute("INSERT INTO games (title, header, created, updated) VALUES (?, ?, ?, ?)",
                                   (title, json.dumps(record.header(), ensure_ascii=False), now, now))
            game_id = cur.lastrowid
            self._db.executemany("INSERT INTO events (game, seq, event, recorded) VALUES (?, ?, ?, ?)",
                                 [(game_id, i, json.dumps(e, ensure_ascii=False), now)
                                  for i, e in enumerate(record.events)])
        return int(game_id)

    def games(self, *, unfinished_only: bool = False) -> list[GameInfo]:
        rows = self._db.execute(
            "SELECT g.id, g.title, g.header, g.finished, g.created, g.updated, "
            "(SELECT COUNT(*) FROM events e WHERE e.game = g.id) FROM games g ORDER BY g.updated DESC").fetchall()
        out = []
        for gid, title, header, finished, created, updated, n in rows:
            if unfinished_only and finished:
                continue
            h = json.loads(header)
            out.append(GameInfo(gid, title, h.get("game", "?"), h.get("players", []), n, bool(finished),
                                created, updated))
        return out

    def load(self, game_id: int) -> Record:
        row = self._db.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"{self.path}: there is no game {game_id}")
        data = json.loads(row[0])
        data["events"] = [json.loads(e) for (e,) in self._db.execute(
            "SELECT event FROM events WHERE game = ? ORDER BY seq", (game_id,))]
        return parse_record(data)

    def append(self, game_id: int, event: dict[str, Any], photo: RollPhoto | None = None,
               corrects: dict[str, Any] | None = None, replaces: dict[str, Any] | None = None) -> int:
        """Commit one event (durably) and clear the redo list (but see ``replaces``); returns its index.

        ``photo`` (a roll's, as its source saw it: the tray, and the dice picture) is committed with the event,
        kept by the event's ``roll_id``: a roll and its photo are on disk together or not at all.  ``corrects``:
        the camera's roll event this roll (entered by hand after undoing it) puts right, kept as a correction.
        ``replaces``: the
        undone event (the next to redo) this one takes the place of — a roll put right — which alone leaves the
        redo list: the events undone after it stay to be redone (a misread noticed a few events later: undo back
        to it, enter the dice, redo the rest).  Any other event clears the redo list."""
        now = time.time()
        # A photo is kept by its roll's id: this event's, or (a camera's roll put right before it was recorded)
        # the corrected roll's.
        photo_of = event.get("roll_id") or (corrects or {}).get("roll_id")
        if photo is not None and not photo_of:
            raise ValueError("a photo is kept by its roll's roll_id, and this event has none")
        if corrects is not None and not (corrects.get("roll_id") and "dice" in corrects and "dice" in event):
            raise ValueError("a correction needs the camera roll's roll_id and dice, and this roll's dice")
        with self._transaction():
            if corrects is not None:
                self._db.execute("INSERT OR REPLACE INTO roll_corrections (game, roll_id, read, entered, recorded) "
                                 "VALUES (?, ?, ?, ?, ?)", (game_id, corrects["roll_id"], json.dumps(corrects["dice"]),
                                                            json.dumps(event["dice"]), now))
            (n,) = self._db.execute("SELECT COUNT(*) FROM events WHERE game = ?", (game_id,)).fetchone()
            self._db.execute("INSERT INTO events (game, seq, event, recorded) VALUES (?, ?, ?, ?)",
                             (game_id, n, json.dumps(event, ensure_ascii=False), now))
            if photo is not None:
                self._db.execute("INSERT OR REPLACE INTO roll_photos (game, roll_id, photo, dice, plain, boxes, "
                                 "checked, recorded) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                                 (game_id, photo_of, photo.tray, photo.dice, photo.plain,
                                  json.dumps([list(b) for b in photo.boxes]) if photo.plain is not None else None,
                                  int(photo.checked), now))
            if replaces is not None and self._next_redo(game_id) == replaces:
                self._db.execute("DELETE FROM redo WHERE game = ? AND seq = "
                                 "(SELECT MAX(seq) FROM redo WHERE game = ?)", (game_id, game_id))
            else:
                self._db.execute("DELETE FROM redo WHERE game = ?", (game_id,))
            self._db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return n

    def undo(self, game_id: int) -> dict[str, Any] | None:
        """Move the last event to the redo list; returns it (None when there is none)."""
        with self._transaction():
            row = self._db.execute("SELECT seq, event FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1",
                                   (game_id,)).fetchone()
            if row is None:
                return None
            seq, event = row
            (depth,) = self._db.execute("SELECT COUNT(*) FROM redo WHERE game = ?", (game_id,)).fetchone()
            self._db.execute("INSERT INTO redo (game, seq, event) VALUES (?, ?, ?)", (game_id, depth, event))
            self._db.execute("DELETE FROM events WHERE game = ? AND seq = ?", (game_id, seq))
            self._db.execute("UPDATE games SET updated = ?, finished = 0 WHERE id = ?", (time.time(), game_id))
        return json.loads(event)

    def _next_redo(self, game_id: int) -> dict[str, Any] | None:
        row = self._db.execute("SELECT event FROM redo WHERE game = ? ORDER BY seq DESC LIMIT 1", (game_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def redo_events(self, game_id: int) -> list[dict[str, Any]]:
        """The redo list, next event first."""
        return [json.loads(e) for (e,) in self._db.execute(
            "SELECT event FROM redo WHERE game = ? ORDER BY seq DESC", (game_id,))]

    def redo(self, game_id: int) -> dict[str, Any] | None:
        """Move the next redo event back onto the record; returns it."""
        now = time.time()
        with self._transaction():
            row = self._db.execute("SELECT seq, event FROM redo WHERE game = ? ORDER BY seq DESC LIMIT 1",
                                   (game_id,)).fetchone()
            if row is None:
                return None
            seq, event = row
            (n,) = self._db.execute("SELECT COUNT(*) FROM events WHERE game = ?", (game_id,)).fetchone()
            self._db.execute("INSERT INTO events (game, seq, event, recorded) VALUES (?, ?, ?, ?)",
                             (game_id, n, event, now))
            self._db.execute("DELETE FROM redo WHERE game = ? AND seq = ?", (game_id, seq))
            self._db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return json.loads(event)

    def set_finished(self, game_id: int, finished: bool = True) -> None:
        with self._transaction():
            self._db.execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    def _kept(self, game_id: int, roll_id: str, columns: str) -> tuple | None:
        """The columns ``columns`` of the roll ``roll_id``'s row in roll_photos, or None (no such row)."""
        return self._db.execute(f"SELECT {columns} FROM roll_photos WHERE game = ? AND roll_id = ?",
                                (game_id, roll_id)).fetchone()

    def roll_photo(self, game_id: int, roll_id: str) -> bytes | None:
        """The photo kept with the roll ``roll_id`` of a game (a JPEG), or None."""
        row = self._kept(game_id, roll_id, "photo")
        return bytes(row[0]) if row else None

    def dice_picture(self, game_id: int, roll_id: str) -> bytes | None:
        """The dice of the roll ``roll_id`` as shown beside it when it was rolled (a JPEG), or None (none kept:
        no camera roll, or a journal older than version 3)."""
        row = self._kept(game_id, roll_id, "dice")
        return bytes(row[0]) if row and row[0] is not None else None

    def plain_photo(self, game_id: int, roll_id: str) -> tuple[bytes, list[tuple]] | None:
        """The tray of the roll ``roll_id`` with nothing drawn on it (a JPEG) and the dice the camera read in it,
        ``(x, y, w, h, face or None)``; None when not kept (no camera roll, a journal older than version 4)."""
        row = self._kept(game_id, roll_id, "plain, boxes")
        if not row or row[0] is None:
            return None
        return bytes(row[0]), [tuple(box) for box in json.loads(row[1] or "[]")]

    def roll_corrections(self, game_id: int) -> list[tuple[str, list[int], list[int]]]:
        """The camera's rolls of a game that the players undid and entered again by hand, in the order made:
        ``(roll_id, faces read, faces entered)`` (the roll's photo, if kept, is under the same roll id)."""
        return [(r, json.loads(read), json.loads(entered)) for r, read, entered in self._db.execute(
            "SELECT roll_id, read, entered FROM roll_corrections WHERE game = ? ORDER BY recorded", (game_id,))]

    def checked_rolls(self, game_id: int) -> set[str]:
        """The camera's rolls of a game whose faces a player vouched for: agreed before it was recorded (OK, while
        the roll waited for it) or put right by hand.  The others are as the camera read them."""
        agreed = {r for (r,) in self._db.execute("SELECT roll_id FROM roll_photos WHERE game = ? AND checked = 1",
                                                 (game_id,))}
        return agreed | {roll_id for roll_id, _read, _entered in self.roll_corrections(game_id)}

    def roll_photo_ids(self, game_id: int) -> set[str]:
        """The roll ids of a game that have a photo (an undone roll's photo stays, with its redo)."""
        return {r for (r,) in self._db.execute("SELECT roll_id FROM roll_photos WHERE game = ?", (game_id,))}

    def iter_events(self, game_id: int) -> Iterator[dict[str, Any]]:
        for (e,) in self._db.execute("SELECT event FROM events WHERE game = ? ORDER BY seq", (game_id,)):
            yield json.loads(e)

    def event_stamps(self, game_id: int) -> list[tuple[float, int]]:
        """Each event's ``(when it was journalled, its length)``, in order, without reading the events: a reader
        that keeps a copy of the game (the desk link's outbox) sees which events are new or changed (an undo and
        another event in its place) and reads only those (:meth:`event_texts`)."""
        return self._db.execute("SELECT recorded, LENGTH(event) FROM events WHERE game = ? ORDER BY seq",
                                (game_id,)).fetchall()

    def event_texts(self, game_id: int, since: int = 0) -> list[str]:
        """The JSON text of a game's events from index ``since`` on."""
        return [e for (e,) in self._db.execute("SELECT event FROM events WHERE game = ? AND seq >= ? ORDER BY seq",
                                                (game_id, since))]


class Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on error), for every SQLite file of the companion."""

    def __init__(self, db: sqlite3.Connection):
        self.db = db

    def __enter__(self):
        self.db.execute("BEGIN IMMEDIATE")
        return self.db

    def __exit__(self, exc_type, exc, tb):
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")
        return False
