"""Start with a journal that cannot be opened: keep it aside, start a fresh one, carry over what can be read.

A tablet at a table must start even when its journal is damaged (a card pulled mid-write, a disk error), was
written by a newer companion, or is another program's file that landed in its place.  Nobody at the table can be
asked to delete a file by hand -- and nothing may be deleted: the file may be the evidence of a disputed game, or
another program's data.  So:

1. the file and its sidecars (``-wal``, ``-journal``, ``-shm``) are *renamed*, together, to
   ``journal.sqlite3.damaged-<time>`` (and ``…-wal`` etc.): not a byte of them changes, and SQLite would still
   find the WAL beside the renamed file;
2. a fresh journal is made where the old one was, for the games to come;
3. every game that can still be read from a copy of the old file (a companion journal, damaged or newer) is
   journalled again in the fresh one -- its record, event by event, with its camera photos and corrections, and
   its players' recorded names copied to the new game's folder beside the journal (game_folders) -- and named;
   a game that cannot be read is named with why.

:func:`open_journal` does all three and says what it did in a :class:`Rescue` for the start screen.
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from .format import parse_record
from .game_folders import carry_name_voices
from .journal import APPLICATION_ID, Journal, JournalError
from .sqlite_file import identify

log = logging.getLogger(__name__)
SIDE_FILES = ("-wal", "-journal", "-shm")


@dataclass
class Rescue:
    """What happened to a journal that could not be opened."""

    problem: str                 # the journal's own message: which file, what is wrong with it
    kept_as: Path | None         # where the old file is now (None: it could not be moved; see ``problem``)
    recovered: list[str] = field(default_factory=list)  # titles of the games carried over to the fresh journal
    lost: list[str] = field(default_factory=list)       # games that could not be read, each with why
    in_memory: bool = False      # no fresh file could be made either: this session's games are not kept
    # the same as facts, for a notice in the user's language (the texts above are English):
    problem_key: str = ""        # JournalError.key: what is wrong ("" when the journal did not say)
    problem_facts: dict = field(default_factory=dict)  # JournalError.facts (a newer journal's version)
    carried: list[dict] = field(default_factory=list)  # per game carried over: title, events, photos, voices, cut
    lost_facts: list[dict] = field(default_factory=list)  # per loss: what ("journal", "list", "game"), game, title


def open_journal(path: str | Path) -> tuple[Journal, Rescue | None]:
    """The journal at ``path``; when it cannot be opened, a fresh one there and what was done (see the module)."""
    path = Path(path)
    try:
        return Journal(path), None
    except JournalError as error:
        problem, key, facts = str(error), error.key, {k: v for k, v in error.facts.items() if k == "version"}
    log.warning("the journal cannot be opened: %s", problem)
    kept_as = set_aside(path)
    if kept_as is None:
        return Journal(":memory:"), Rescue(problem, None, in_memory=True, problem_key=key, problem_facts=facts)
    try:
        journal = Journal(path)
    except JournalError as error:  # pragma: no cover - the file was just moved away
        log.warning("no fresh journal either: %s", error)
        return Journal(":memory:"), Rescue(problem, kept_as, in_memory=True, problem_key=key, problem_facts=facts)
    rescue = Rescue(problem, kept_as, problem_key=key, problem_facts=facts)
    if identify(kept_as, APPLICATION_ID).kind != "foreign":  # another program's tables are not our games
        _carry_over(kept_as, journal, rescue)
    return journal, rescue


def set_aside(path: Path) -> Path | None:
    """Rename ``path`` and its sidecars to ``<name>.damaged-<time>`` (the sidecars keep their suffix after it);
    None when that is impossible (a read-only directory)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        aside = path.with_name(f"{path.name}.damaged-{stamp}" + (f"-{n}" if n else ""))
        if not any(aside.with_name(aside.name + s).exists() for s in ("", *SIDE_FILES)):
            break
    else:  # pragma: no cover - a hundred in one second
        return None
    try:
        for suffix in SIDE_FILES:  # sidecars first: the main file last, so a failure leaves it where it was
            side = path.with_name(path.name + suffix)
            if side.exists():
                side.rename(aside.with_name(aside.name + suffix))
        path.rename(aside)
    except OSError as error:
        log.warning("%s could not be moved aside: %s", path, error)
        return None
    return aside


def _carry_over(old: Path, journal: Journal, rescue: Rescue) -> None:
    """Journal again every game of ``old`` that can be read (from a copy: the kept file stays as it is)."""
    with tempfile.TemporaryDirectory(prefix="catan-rescue-") as scratch:
        copy = Path(scratch) / "journal.sqlite3"
        try:
            shutil.copyfile(old, copy)
            for suffix in ("-wal", "-journal"):
                side = old.with_name(old.name + suffix)
                if side.exists():
                    shutil.copyfile(side, copy.with_name(copy.name + suffix))
            _pad_to_header_size(copy)
            db = sqlite3.connect(copy)
        except (OSError, sqlite3.Error) as error:
            rescue.lost.append(f"the old journal cannot be read ({error})")
            rescue.lost_facts.append({"what": "journal"})
            return
        try:
            try:
                games = db.execute("SELECT id, title, header, finished FROM games ORDER BY id").fetchall()
            except sqlite3.Error as error:
                rescue.lost.append(f"the list of games cannot be read ({error})")
                rescue.lost_facts.append({"what": "list"})
                return
            for game_id, title, header, finished in games:
                try:
                    data = json.loads(header)
                    events, cut = _readable_events(db, game_id)
                    data["events"] = events
                    record = parse_record(data)
                except (sqlite3.Error, ValueError, TypeError, KeyError, RecursionError) as error:
                    rescue.lost.append(f"game {game_id} ({title}): {error}")
                    rescue.lost_facts.append({"what": "game", "game": game_id, "title": title})
                    continue
                new_id = journal.create_game(record, title)
                if finished and cut is None:
                    journal.set_finished(new_id)
                photos = _carry_photos(db, game_id, journal, new_id)
                voices = _carry_voices(db, game_id, journal, new_id)
                rescue.carried.append({"title": title, "events": len(events), "photos": photos, "voices": voices,
                                       "cut": cut is not None})
                rescue.recovered.append(f"{title} ({len(events)} events" + (f", {photos} photo{'s' * (photos != 1)}" if photos else "") +
                                        (f", {voices} recorded name{'s' * (voices != 1)}" if voices else "") +
                                        (f"; those after them could not be read: {cut})" if cut else ")"))
        finally:
            db.close()


def _carry_photos(db: sqlite3.Connection, old_id: int, journal: Journal, new_id: int) -> int:
    """The camera's photos and corrections of a game carried over with it (the evidence of its rolls), as far as
    they can be read; returns how many photos.  Written with the journal's own connection, in one transaction."""
    carried = 0
    try:
        columns = [c for (_, c, *_) in db.execute("PRAGMA table_info(roll_photos)")]
        wanted = [c for c in ("roll_id", "photo", "recorded", "dice", "plain", "boxes", "checked") if c in columns]
        photos = db.execute(f"SELECT {', '.join(wanted)} FROM roll_photos WHERE game = ?", (old_id,)).fetchall() \
            if {"roll_id", "photo", "recorded"} <= set(wanted) else []
        corrections = db.execute("SELECT roll_id, read, entered, recorded FROM roll_corrections WHERE game = ?",
                                 (old_id,)).fetchall() if "roll_corrections" in _tables(db) else []
    except sqlite3.DatabaseError as error:
        log.warning("the photos of game %s cannot be read: %s", old_id, error)
        return 0
    with journal._transaction():  # the record package's own file: no public API writes a photo without its roll
        for values in photos:
            journal._db.execute(f"INSERT OR REPLACE INTO roll_photos (game, {', '.join(wanted)}) "
                                f"VALUES (?, {', '.join('?' * len(wanted))})", (new_id, *values))
            carried += 1
        for values in corrections:
            journal._db.execute("INSERT OR REPLACE INTO roll_corrections (game, roll_id, read, entered, recorded) "
                                "VALUES (?, ?, ?, ?, ?)", (new_id, *values))
    return carried


def _carry_voices(db: sqlite3.Connection, old_id: int, journal: Journal, new_id: int) -> int:
    """The players' recorded names of a game carried over, copied to the folder of its new id and creation time
    (both differ in the fresh journal: the app would look for them there, and find none); how many clips."""
    try:
        (created,) = db.execute("SELECT created FROM games WHERE id = ?", (old_id,)).fetchone()
        old_created = float(created)
    except (sqlite3.DatabaseError, TypeError, ValueError) as error:
        log.warning("the creation time of game %s cannot be read (its recorded names stay behind): %s", old_id, error)
        return 0
    new_created = next(g.created for g in journal.games() if g.id == new_id)
    return carry_name_voices(journal.path.parent, (old_id, old_created), (new_id, new_created))


def _tables(db: sqlite3.Connection) -> set[str]:
    return {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _readable_events(db: sqlite3.Connection, game_id: int) -> tuple[list, str | None]:
    """A game's events up to the first that cannot be read, and why the rest could not be (None: all read).
    A game cut short is still worth resuming: it is the table's record up to that point."""
    events: list = []
    cursor = db.execute("SELECT event FROM events WHERE game = ? ORDER BY seq", (game_id,))
    while True:
        try:
            row = cursor.fetchone()
        except sqlite3.DatabaseError as error:
            return events, str(error)
        if row is None:
            return events, None
        events.append(json.loads(row[0]))


def _pad_to_header_size(copy: Path) -> None:
    """A file cut short (a copy stopped, a card pulled) is shorter than its header says, and SQLite then reads
    nothing at all.  Zeros up to that size (in the copy only) let it read every page that is still there."""
    with open(copy, "r+b") as f:
        header = f.read(100)
        if len(header) < 100:
            return
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        pages = int.from_bytes(header[28:32], "big")
        size = f.seek(0, 2)
        if 512 <= page_size <= 65536 and pages and size < pages * page_size <= 1 << 31:
            f.truncate(pages * page_size)
