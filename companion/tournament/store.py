"""The tournament desk's SQLite file: events, players, rounds, seats, results and the audit trail.

The file lives beside the game journal (``companion.record.journal.data_dir()``), opened the same way: WAL,
``synchronous=FULL``, every change one ``BEGIN IMMEDIATE`` transaction, so a result the desk has seen
committed survives a crash.  Every change writes an audit row (who, what, when) in the same transaction.
A corrected result never overwrites the old one: the old row stays, marked as superseded by the new one.
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import time
import unicodedata
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from ..plain_text import NameRefused, clean_name
from ..record.journal import BUSY_WAIT_S, Transaction, data_dir
from ..record.sqlite_file import open_ours
from . import seating as seating_mod
from .scoring import PRESETS, Preset, ScoringError, Standing, TableResult, standings as compute_standings

APPLICATION_ID = 0x43545431  # "CTT1": recognises our file
SCHEMA_VERSION = 1
FILE_NAME = "tournament.sqlite3"
MAX_VP = 30  # far above any Catan game's end score; a typo such as 100 is refused
MAX_CARDS = 95  # a hand at a game's end (High Tide's tiebreak) holds at most every resource card there is


class TournamentError(ValueError):
    """Bad input or a state that forbids the change; the message says what and where.  Nothing was changed.

    The message is English (the CLI's, the server's).  ``key`` and ``values`` say the same for a screen to put in
    its user's language (the app's tournament screen: ``companion/ui/desk_refusals.py``); ``key`` is "" where
    no screen reaches the refusal."""

    def __init__(self, message: str = "", key: str = "", **values) -> None:
        super().__init__(message)
        self.key, self.values = key, values


class DeskFileError(TournamentError):
    """The tournament file itself cannot be used (not SQLite, another program's, damaged, newer); left untouched."""


def database_errors() -> tuple[type[Exception], ...]:
    """What the desk's storage raises when it is busy or gone: SQLite's, and psycopg's where it is installed."""
    errors: list[type[Exception]] = [sqlite3.OperationalError]
    try:
        import psycopg
    except ImportError:
        pass
    else:
        errors.append(psycopg.OperationalError)
    return tuple(errors)


def default_path() -> Path:
    return data_dir() / FILE_NAME


def _who() -> str:
    return os.environ.get("CATAN_DESK_USER") or os.environ.get("USER") or "desk"


def _clean(text: str, what: str) -> str:
    """A name (player, event, club, group) as stored: NFC, nothing invisible in it (see companion.plain_text)."""
    try:
        return clean_name(text, what)
    except NameRefused as error:
        raise TournamentError(str(error)) from None


def _typed(ref: str) -> str:
    """A name typed to find a player, as names are compared: NFC, case ignored."""
    return unicodedata.normalize("NFC", ref).strip().casefold()


@dataclass(frozen=True)
class Event:
    id: int
    name: str
    preset: Preset
    vp_target: int
    seed: str
    weights: seating_mod.Weights
    created: float

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "preset": self.preset.to_json(), "vp_target": self.vp_target,
                "seed": self.seed, "seating_weights": self.weights.to_json(), "created": self.created}


@dataclass(frozen=True)
class Player:
    id: int
    name: str
    club: str
    groups: tuple[str, ...]
    entered_round: int  # first round they can be seated in
    dropped_after: int | None  # last round they played; None while still in

    def active_in(self, round_no: int) -> bool:
        return round_no >= self.entered_round and (self.dropped_after is None or round_no <= self.dropped_after)

    def to_json(self) -> dict:
        return {"id": self.id, "name": self.name, "club": self.club, "groups": list(self.groups),
                "entered_round": self.entered_round, "dropped_after": self.dropped_after}


@dataclass(frozen=True)
class Round:
    number: int
    kind: str  # "swiss" (seated by the solver), "semi", "final" (snake-seeded), "manual"
    tables: tuple[tuple[int, ...], ...]
    cost: dict

    def to_json(self, names: Mapping[int, str] | None = None) -> dict:
        n = (lambda p: names[p]) if names else (lambda p: p)
        return {"number": self.number, "kind": self.kind,
                "tables": [{"table": i + 1, "seats": [n(p) for p in t]} for i, t in enumerate(self.tables)],
                "cost": self.cost}


@dataclass(frozen=True)
class ResultEntry:
    """One stored version of a table's result."""

    id: int
    round: int
    table: int
    vp: dict[int, int]
    winner: int | None
    ended_by_time: bool
    source: str  # "referee" or "record: ..." (where the game record came from)
    entered_by: str
    entered_at: float
    superseded_by: int | None
    reason: str
    warnings: tuple[str, ...]
    buildings: dict[int, int] | None = None  # settlement + city points, from a record (a time-limit tiebreak)
    cards: dict[int, int] | None = None  # resource cards at the end, from a High Tide record (its VP tiebreak)

    def as_table_result(self) -> TableResult:
        return TableResult(self.round, self.table, self.vp, self.winner, self.ended_by_time, self.buildings,
                           self.cards)

    def to_json(self, names: Mapping[int, str] | None = None) -> dict:
        n = (lambda p: names[p]) if names else (lambda p: p)
        return {"id": self.id, "round": self.round, "table": self.table,
                "vp": {n(p): v for p, v in self.vp.items()},
                "winner": None if self.winner is None else n(self.winner), "ended_by_time": self.ended_by_time,
                "source": self.source, "entered_by": self.entered_by, "entered_at": self.entered_at,
                "superseded_by": self.superseded_by, "reason": self.reason, "warnings": list(self.warnings)}


class Desk:
    """The tournament file (or, with ``dsn``, a PostgreSQL database: :mod:`.store_postgres`; the same schema,
    migrations and transactions).  Use as a context manager or call :meth:`close`."""

    def __init__(self, path: str | Path | None = None, *, dsn: str | None = None):
        self.dsn = dsn
        if dsn is not None:
            self._open_postgres(dsn)
            return
        self.path = Path(path) if path is not None else default_path()
        self.where = str(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # Identified before any read-write connection, which would replay (and delete) another program's -wal.
        self._db = open_ours(self.path, APPLICATION_ID, timeout=BUSY_WAIT_S, not_ours="a tournament file (not SQLite)",
                             damaged="damaged or not a database", init_schema=self._init_schema_of,
                             refuse=lambda key, message, **facts: DeskFileError(message, key, **facts))

    def _init_schema_of(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._init_schema()

    def _open_postgres(self, dsn: str) -> None:
        from .store_postgres import PostgresDesk, PostgresUnavailable, describe

        self.path = None
        self.where = describe(dsn)
        try:
            self._db = PostgresDesk(dsn)
        except PostgresUnavailable as error:
            raise DeskFileError(str(error)) from None
        try:
            foreign = self._db.foreign_tables(["events", "players", "groups", "rounds", "seats", "results", "audit"])
            if foreign:
                raise DeskFileError(f"{self.where} already holds tables of another program ({', '.join(foreign)}); "
                                    "it was left untouched: give the desk an empty database or schema")
            self._init_schema()
        except BaseException:
            self._db.close()
            raise

    def reopen(self) -> "Desk":
        """Another connection to the same desk (file or database)."""
        return Desk(dsn=self.dsn) if self.dsn is not None else Desk(self.path)

    def _init_schema(self) -> None:
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        if version > SCHEMA_VERSION:
            raise DeskFileError(f"{self.where} was written by a newer companion (version {version}); "
                                "it was left untouched", "file_newer", version=version)
        if version == SCHEMA_VERSION:
            return
        with self._tx():
            self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            for statement in """
                CREATE TABLE events (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, preset TEXT NOT NULL,
                    vp_target INTEGER NOT NULL, seed TEXT NOT NULL, weights TEXT NOT NULL, created REAL NOT NULL);
                CREATE TABLE players (id INTEGER PRIMARY KEY, event INTEGER NOT NULL REFERENCES events(id),
                    name TEXT NOT NULL, club TEXT NOT NULL DEFAULT '', entered_round INTEGER NOT NULL,
                    dropped_after INTEGER, created REAL NOT NULL, UNIQUE (event, name));
                CREATE TABLE groups (player INTEGER NOT NULL REFERENCES players(id), name TEXT NOT NULL,
                    PRIMARY KEY (player, name));
                CREATE TABLE rounds (event INTEGER NOT NULL REFERENCES events(id), number INTEGER NOT NULL,
                    kind TEXT NOT NULL, cost TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (event, number));
                CREATE TABLE seats (event INTEGER NOT NULL, round INTEGER NOT NULL, table_no INTEGER NOT NULL,
                    seat INTEGER NOT NULL, player INTEGER NOT NULL REFERENCES players(id),
                    PRIMARY KEY (event, round, player), FOREIGN KEY (event, round) REFERENCES rounds(event, number));
                CREATE TABLE results (id INTEGER PRIMARY KEY, event INTEGER NOT NULL, round INTEGER NOT NULL,
                    table_no INTEGER NOT NULL, data TEXT NOT NULL, source TEXT NOT NULL, entered_by TEXT NOT NULL,
                    entered_at REAL NOT NULL, superseded_by INTEGER REFERENCES results(id),
                    reason TEXT NOT NULL DEFAULT '', FOREIGN KEY (event, round) REFERENCES rounds(event, number));
                CREATE TABLE audit (id INTEGER PRIMARY KEY, event INTEGER, at REAL NOT NULL, who TEXT NOT NULL,
                    action TEXT NOT NULL, details TEXT NOT NULL);
            """.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @contextmanager
    def _tx(self):
        """One change: ``BEGIN IMMEDIATE`` takes the file's write lock *before* the change's checks read what they
        check, so two desks entering the same table cannot both find it empty.  A change made inside another
        (``enter_record`` → ``enter_result``) is part of the outer one."""
        if self._db.in_transaction:
            yield self._db
            return
        with Transaction(self._db):
            yield self._db

    def _audit(self, event: int | None, who: str | None, action: str, details: dict) -> None:
        self._db.execute("INSERT INTO audit (event, at, who, action, details) VALUES (?, ?, ?, ?, ?)",
                         (event, time.time(), who or _who(), action, json.dumps(details, ensure_ascii=False)))

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "Desk":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- events ----------------------------------------------------------------------------------------------
    def create_event(self, name: str, preset: str | Preset = "catan-studio", *, vp_target: int = 10,
                     seed: int | str | None = None, weights: seating_mod.Weights | None = None,
                     who: str | None = None) -> Event:
        if not name.strip():
            raise TournamentError("an event needs a name", "event_name_empty")
        name = _clean(name, "the event name")
        if isinstance(preset, str):
            if preset not in PRESETS:
                raise TournamentError(f"unknown preset {preset!r}; choose {', '.join(PRESETS)} or a custom preset")
            preset = PRESETS[preset]
        if not isinstance(vp_target, int) or not 3 <= vp_target <= MAX_VP:
            raise TournamentError(f"the win target must be a whole number from 3 to {MAX_VP}, got {vp_target!r}")
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        weights = weights or seating_mod.Weights()
        with self._tx():
            if self._db.execute("SELECT 1 FROM events WHERE name = ?", (name,)).fetchone():
                raise TournamentError(f"there is already an event named {name!r}", "event_exists", name=name)
            cur = self._db.execute(
                "INSERT INTO events (name, preset, vp_target, seed, weights, created) VALUES (?, ?, ?, ?, ?, ?)",
                (name, json.dumps(preset.to_json()), vp_target, str(seed), json.dumps(weights.to_json()), time.time()))
            self._audit(cur.lastrowid, who, "create event", {"name": name, "preset": preset.key,
                                                              "vp_target": vp_target, "seed": str(seed)})
        return self.event(cur.lastrowid)

    def events(self) -> list[Event]:
        return [self.event(i) for (i,) in self._db.execute("SELECT id FROM events ORDER BY id")]

    def event(self, ref: int | str) -> Event:
        """An event by id or by name."""
        row = None
        if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
            row = self._db.execute("SELECT * FROM events WHERE id = ?", (int(ref),)).fetchone()
        if row is None:
            row = self._db.execute("SELECT * FROM events WHERE name = ?",
                                   (unicodedata.normalize("NFC", str(ref)).strip(),)).fetchone()
        if row is None:
            known = ", ".join(n for (n,) in self._db.execute("SELECT name FROM events ORDER BY id")) or "none yet"
            raise TournamentError(f"no event {ref!r} (events: {known})")
        eid, name, preset, vp_target, seed, weights, created = row
        return Event(eid, name, Preset.from_json(json.loads(preset)), vp_target, seed,
                     seating_mod.Weights.from_json(json.loads(weights)), created)

    # --- players ---------------------------------------------------------------------------------------------
    def players(self, event: int) -> list[Player]:
        groups: dict[int, list[str]] = {}
        for pid, g in self._db.execute(
                "SELECT g.player, g.name FROM groups g JOIN players p ON p.id = g.player WHERE p.event = ? "
                "ORDER BY g.name", (event,)):
            groups.setdefault(pid, []).append(g)
        return [Player(pid, name, club, tuple(groups.get(pid, ())), entered, dropped)
                for pid, name, club, entered, dropped in self._db.execute(
                    "SELECT id, name, club, entered_round, dropped_after FROM players WHERE event = ? ORDER BY id",
                    (event,))]

    def player(self, event: int, ref: int | str) -> Player:
        """A player of the event by id or by name (names are unique within an event; case is ignored)."""
        players = self.players(event)
        for p in players:
            if (isinstance(ref, int) and p.id == ref) or (isinstance(ref, str) and p.name.casefold() == _typed(ref)):
                return p
        if isinstance(ref, str) and ref.isdigit():
            for p in players:
                if p.id == int(ref):
                    return p
        raise TournamentError(f"no player {ref!r} in this event")

    def names(self, event: int) -> dict[int, str]:
        return {p.id: p.name for p in self.players(event)}

    def _last_round(self, event: int) -> int:
        (n,) = self._db.execute("SELECT COALESCE(MAX(number), 0) FROM rounds WHERE event = ?", (event,)).fetchone()
        return n

    def add_player(self, event: int, name: str, *, club: str = "", groups: Iterable[str] = (),
                   who: str | None = None) -> Player:
        """Register a player; once rounds exist, this is a late entry (seated from the next round)."""
        return self.add_players(event, [(name, club, tuple(groups))], who=who)[0]

    def add_players(self, event: int, entries: Sequence[tuple[str, str, Sequence[str]]], *,
                    who: str | None = None, labels: Sequence[str] | None = None) -> list[Player]:
        """Register several players at once: all or none.  ``labels`` name each entry in messages."""
        with self._tx():  # the names checked are the names there when the players are written
            return self._add_players(event, entries, who=who, labels=labels)

    def _add_players(self, event: int, entries: Sequence[tuple[str, str, Sequence[str]]], *,
                     who: str | None, labels: Sequence[str] | None) -> list[Player]:
        entered = self._last_round(event) + 1
        existing = {p.name.casefold(): p.name for p in self.players(event)}
        seen: dict[str, str] = {}
        cleaned = []
        for i, (name, club, groups) in enumerate(entries):
            where = labels[i] if labels else f"player {i + 1}"
            if not name.strip():
                raise TournamentError(f"{where}: the name is empty", "player_name_empty")
            name = _clean(name, f"{where}: the name")
            club = _clean(club, f"{where} ({name}): the club") if club.strip() else ""
            key = name.casefold()
            if key in existing or key in seen:
                raise TournamentError(f"{where}: {name!r} is already registered as "
                                      f"{existing.get(key) or seen[key]!r} (names must differ, ignoring case)",
                                      "player_exists", name=name, existing=existing.get(key) or seen[key])
            seen[key] = name
            for g in groups:
                if not g.strip():
                    raise TournamentError(f"{where} ({name}): an empty keep-apart group name")
            cleaned.append((name, club, [_clean(g, f"{where} ({name}): the group") for g in groups]))
        ids = []
        with self._tx():
            for name, club, groups in cleaned:
                cur = self._db.execute("INSERT INTO players (event, name, club, entered_round, created) "
                                       "VALUES (?, ?, ?, ?, ?)", (event, name, club, entered, time.time()))
                ids.append(cur.lastrowid)
                for g in sorted({g.strip() for g in groups}):
                    self._db.execute("INSERT INTO groups (player, name) VALUES (?, ?)", (cur.lastrowid, g))
                self._audit(event, who, "add player" if entered == 1 else "late entry",
                            {"player": name, "club": club, "groups": sorted(groups),
                             "from_round": entered})
        return [self.player(event, i) for i in ids]

    def import_players_csv(self, event: int, text: str, *, who: str | None = None) -> list[Player]:
        """Players from CSV with a header row: ``name`` required, ``club`` and ``groups`` (separated by ``;``)
        optional.  A bad row is reported by its line number and nothing is imported."""
        reader = csv.DictReader(io.StringIO(text))
        fields = [f.strip().lower() for f in (reader.fieldnames or [])]
        if "name" not in fields:
            raise TournamentError(f"the CSV needs a header row with a 'name' column (found: {', '.join(fields) or 'nothing'})")
        entries, labels = [], []
        for row in reader:
            row = {(k or "").strip().lower(): (v or "") for k, v in row.items()}
            line = reader.line_num
            name = row.get("name", "").strip()
            if not name:
                raise TournamentError(f"CSV line {line}: the name is empty")
            groups = [g.strip() for g in row.get("groups", "").split(";") if g.strip()]
            entries.append((name, row.get("club", "").strip(), groups))
            labels.append(f"CSV line {line}")
        if not entries:
            raise TournamentError("the CSV has no players")
        return self.add_players(event, entries, who=who, labels=labels)

    def set_groups(self, event: int, player: int | str, groups: Iterable[str], *, who: str | None = None) -> Player:
        groups = sorted({_clean(g, "the group") for g in groups if g.strip()})
        with self._tx():
            p = self.player(event, player)
            self._db.execute("DELETE FROM groups WHERE player = ?", (p.id,))
            for g in groups:
                self._db.execute("INSERT INTO groups (player, name) VALUES (?, ?)", (p.id, g))
            self._audit(event, who, "set groups", {"player": p.name, "before": list(p.groups), "after": groups})
        return self.player(event, p.id)

    def drop_player(self, event: int, player: int | str, *, who: str | None = None) -> Player:
        """Drop a player: they keep their games and standing, and are not seated from the next round on."""
        with self._tx():
            p = self.player(event, player)
            if p.dropped_after is not None:
                raise TournamentError(f"{p.name} already dropped out after round {p.dropped_after}")
            last = self._last_round(event)
            self._db.execute("UPDATE players SET dropped_after = ? WHERE id = ?", (last, p.id))
            self._audit(event, who, "drop player", {"player": p.name, "after_round": last})
        return self.player(event, p.id)

    # --- rounds ----------------------------------------------------------------------------------------------
    def rounds(self, event: int) -> list[Round]:
        seats: dict[int, dict[int, list[tuple[int, int]]]] = {}
        for rnd, table, seat, player in self._db.execute(
                "SELECT round, table_no, seat, player FROM seats WHERE event = ?", (event,)):
            seats.setdefault(rnd, {}).setdefault(table, []).append((seat, player))
        out = []
        for number, kind, cost in self._db.execute(
                "SELECT number, kind, cost FROM rounds WHERE event = ? ORDER BY number", (event,)):
            tables = seats.get(number, {})
            out.append(Round(number, kind, tuple(tuple(p for _, p in sorted(tables[t])) for t in sorted(tables)),
                             json.loads(cost)))
        return out

    def round(self, event: int, number: int) -> Round:
        for r in self.rounds(event):
            if r.number == number:
                return r
        raise TournamentError(f"round {number} has not been seated (rounds so far: {self._last_round(event)})")

    def history(self, event: int, before: int | None = None) -> seating_mod.History:
        return seating_mod.History.from_rounds(
            (r.number, r.tables) for r in self.rounds(event) if before is None or r.number < before)

    def plan_round(self, event: int, *, kind: str = "swiss", size: int | None = None) -> seating_mod.Seating:
        """Compute (without storing) the next round's seating.

        ``kind="swiss"``: the solver seats every active player.  ``"final"``/``"semi"``: the top ``size`` of the
        current standings (4 for a final, 16 for semi-finals by default) seeded into tables by snake order.
        """
        ev = self.event(event)
        number = self._last_round(ev.id) + 1
        players = [p for p in self.players(ev.id) if p.active_in(number)]
        history = self.history(ev.id)
        from . import formats  # byes, seating by score, semi-final winners to the final

        try:
            planned = formats.plan(self, ev, number, players, history, kind)
        except seating_mod.SeatingError as error:
            raise TournamentError(f"round {number}: {error}", error.key, round=number, **error.values) from None
        if planned is not None:
            return planned
        if kind == "swiss":
            if not players:
                raise TournamentError("no active players to seat", "no_players")
            try:
                return seating_mod.seat_round([p.id for p in players], number, history,
                                              groups={p.id: p.groups for p in players}, seed=ev.seed,
                                              weights=ev.weights)
            except seating_mod.SeatingError as error:
                raise TournamentError(f"round {number}: {error}", error.key, round=number, **error.values) from None
        if kind in ("final", "semi"):
            size = size or (4 if kind == "final" else 16)
            if size % 4:
                raise TournamentError(f"a {kind} seats tables of four: {size} is not a multiple of 4")
            if number == 1:
                raise TournamentError(f"a {kind} is seeded by the standings: play a round first",
                                      "playoff_needs_round", kind=kind)
            self._check_round_complete(ev.id, number - 1)
            active = {p.id for p in players}
            ranked = [s.player for s in self.standings(ev.id) if s.player in active]
            if len(ranked) < size:
                raise TournamentError(f"a {kind} of {size} needs {size} active players; there are {len(ranked)}",
                                      "playoff_too_few", kind=kind, size=size, n=len(ranked))
            tables = seating_mod.snake(ranked[:size], size // 4)
            cost = seating_mod.seating_cost(tables, number, history, weights=ev.weights)
            return seating_mod.Seating(number, tables, cost)
        raise TournamentError(f"unknown round kind {kind!r} (swiss, score, semi, final)")

    def _check_round_complete(self, event: int, number: int) -> None:
        if number < 1:
            return
        missing = [i + 1 for i, _ in enumerate(self.round(event, number).tables)
                   if self.current_result(event, number, i + 1) is None]
        if missing:
            raise TournamentError(f"round {number} still lacks the result of table(s) {', '.join(map(str, missing))}",
                                  "round_incomplete", round=number, tables=missing)

    def seat_round(self, event: int, *, kind: str = "swiss", size: int | None = None,
                   tables: Sequence[Sequence[int | str]] | None = None, who: str | None = None) -> Round:
        """Seat and store the next round (``tables`` given: a seating made by hand, checked and stored)."""
        ev = self.event(event)
        number = self._last_round(ev.id) + 1
        if tables is not None:
            kind = "manual"
            ids = [[self.player(ev.id, p).id for p in t] for t in tables]
            flat = [p for t in ids for p in t]
            if len(flat) != len(set(flat)):
                raise TournamentError("a player is seated twice in the hand-made seating")
            if any(len(t) not in (3, 4) for t in ids):
                raise TournamentError("every table needs 3 or 4 players")
            cost = seating_mod.seating_cost(ids, number, self.history(ev.id),
                                            groups={p.id: p.groups for p in self.players(ev.id)}, weights=ev.weights)
            plan = seating_mod.Seating(number, tuple(tuple(t) for t in ids), cost)
        else:
            plan = self.plan_round(ev.id, kind=kind, size=size)
        names = self.names(ev.id)
        with self._tx():
            # The seating was planned outside the lock (a search can take seconds); it stands only if no other
            # desk seated this round meanwhile.
            if self._last_round(ev.id) + 1 != number:
                raise TournamentError(f"round {number} was seated meanwhile (by another desk); nothing was stored",
                                      "seated_meanwhile", round=number)
            cost = dict(plan.cost.to_json(), **({"byes": list(plan.byes)} if plan.byes else {}))
            self._db.execute("INSERT INTO rounds (event, number, kind, cost, created) VALUES (?, ?, ?, ?, ?)",
                             (ev.id, number, kind, json.dumps(cost), time.time()))
            for t, table in enumerate(plan.tables, start=1):
                for s, p in enumerate(table, start=1):
                    self._db.execute("INSERT INTO seats (event, round, table_no, seat, player) VALUES (?, ?, ?, ?, ?)",
                                     (ev.id, number, t, s, p))
            self._audit(ev.id, who, "seat round", {"round": number, "kind": kind, "cost": round(plan.cost.total, 6),
                                                    "tables": [[names[p] for p in t] for t in plan.tables],
                                                    **({"byes": [names[p] for p in plan.byes]} if plan.byes else {})})
        return self.round(ev.id, number)

    def unseat_last_round(self, event: int, *, who: str | None = None) -> None:
        """Take back the last round's seating (only while it has no result), e.g. after a late entry."""
        with self._tx():  # a result entered at another desk meanwhile is seen, and the round stays
            number = self._last_round(event)
            if not number:
                raise TournamentError("no round has been seated")
            (n,) = self._db.execute("SELECT COUNT(*) FROM results WHERE event = ? AND round = ?",
                                    (event, number)).fetchone()
            if n:
                raise TournamentError(f"round {number} already has results; correct them instead of re-seating")
            self._db.execute("DELETE FROM seats WHERE event = ? AND round = ?", (event, number))
            self._db.execute("DELETE FROM rounds WHERE event = ? AND number = ?", (event, number))
            self._audit(event, who, "unseat round", {"round": number})

    # --- results ---------------------------------------------------------------------------------------------
    def _entries(self, event: int, where: str = "", args: tuple = ()) -> list[ResultEntry]:
        out = []
        for rid, rnd, table, data, source, by, at, sup, reason in self._db.execute(
                "SELECT id, round, table_no, data, source, entered_by, entered_at, superseded_by, reason "
                f"FROM results WHERE event = ? {where} ORDER BY id", (event, *args)):
            d = json.loads(data)
            out.append(ResultEntry(rid, rnd, table, {int(p): v for p, v in d["vp"].items()}, d["winner"],
                                   d["ended_by_time"], source, by, at, sup, reason, tuple(d.get("warnings", ())),
                                   {int(p): v for p, v in d["buildings"].items()} if d.get("buildings") else None,
                                   {int(p): v for p, v in d["cards"].items()} if d.get("cards") else None))
        return out

    def current_result(self, event: int, round_no: int, table: int) -> ResultEntry | None:
        rows = self._entries(event, "AND round = ? AND table_no = ? AND superseded_by IS NULL", (round_no, table))
        return rows[0] if rows else None

    def results(self, event: int, *, with_history: bool = False) -> list[ResultEntry]:
        return self._entries(event, "" if with_history else "AND superseded_by IS NULL")

    def enter_result(self, event: int, round_no: int, table: int, vp: Mapping[int | str, int],
                     winner: int | str | None = None, *, ended_by_time: bool = False, correct: bool = False,
                     reason: str = "", source: str = "referee", who: str | None = None,
                     buildings: Mapping[int, int] | None = None, cards: Mapping[int, int] | None = None) -> ResultEntry:
        """Store a table's result: each seated player's VP, the winner, or ``ended_by_time`` (``buildings``: each
        player id's settlement and city points, when a record gave them; ``cards``: each player id's resource cards
        at the end, when the record's game places players level on VP by them -- High Tide).

        A table that already has a result is changed only with ``correct=True`` and a ``reason``; the old
        result stays in the file, marked as superseded.  Shapes that cannot be right (a player missing or not at
        the table, VP below 0 or above 30, no winner in a finished game) are refused; unusual but possible
        entries (the winner below the target, someone level with the winner) are stored with warnings.
        Checked and written in one transaction: of two desks entering the same table, the second is refused.
        """
        with self._tx():
            return self._enter_result(event, round_no, table, vp, winner, ended_by_time=ended_by_time,
                                      correct=correct, reason=reason, source=source, who=who, buildings=buildings,
                                      cards=cards)

    def _enter_result(self, event: int, round_no: int, table: int, vp: Mapping[int | str, int],
                      winner: int | str | None, *, ended_by_time: bool, correct: bool, reason: str, source: str,
                      who: str | None, buildings: Mapping[int, int] | None = None,
                      cards: Mapping[int, int] | None = None) -> ResultEntry:
        ev = self.event(event)
        rnd = self.round(ev.id, round_no)
        if not 1 <= table <= len(rnd.tables):
            raise TournamentError(f"round {round_no} has tables 1 to {len(rnd.tables)}, not {table}")
        seated = rnd.tables[table - 1]
        names = self.names(ev.id)
        where = f"round {round_no} table {table}"
        scores: dict[int, int] = {}
        for ref, v in vp.items():
            try:
                pid = self.player(ev.id, ref).id
            except TournamentError as error:
                raise TournamentError(f"{where}: {error}") from None
            if pid not in seated:
                raise TournamentError(f"{where}: {names[pid]} is not seated at this table "
                                      f"(seated: {', '.join(names[p] for p in seated)})")
            if pid in scores:
                raise TournamentError(f"{where}: {names[pid]} has two scores")
            if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= MAX_VP:
                raise TournamentError(f"{where}: {names[pid]}'s VP must be a whole number from 0 to {MAX_VP}, got {v!r}",
                                      "vp_range", round=round_no, table=table, name=names[pid], max=MAX_VP, got=v)
            scores[pid] = v
        missing = [names[p] for p in seated if p not in scores]
        if missing:
            raise TournamentError(f"{where}: no VP for {', '.join(missing)}", "no_vp", round=round_no, table=table,
                                  names=missing)
        win_id = None
        if winner is not None:
            try:
                win_id = self.player(ev.id, winner).id
            except TournamentError as error:
                raise TournamentError(f"{where}: winner: {error}") from None
            if win_id not in seated:
                raise TournamentError(f"{where}: the winner {names[win_id]} is not seated at this table")
        if win_id is None and not ended_by_time:
            raise TournamentError(f"{where}: name the winner, or mark the game as ended by the time limit",
                                  "no_winner", round=round_no, table=table)
        if not (cards and set(cards) == set(seated) and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_CARDS for v in cards.values())):
            cards = None  # (from a record: each seated player's resource cards, or nothing)
        warnings = []
        if win_id is not None:
            if scores[win_id] < ev.vp_target and not ended_by_time:
                warnings.append(f"the winner {names[win_id]} has {scores[win_id]} VP, below the target {ev.vp_target}")
            # (a player level on VP with fewer resource cards is behind the winner where the game says so: High Tide)
            level = [names[p] for p in seated if p != win_id and (scores[p] > scores[win_id] or (
                scores[p] == scores[win_id] and not (cards and cards[p] < cards[win_id])))]
            if level:
                warnings.append(f"{', '.join(level)} scored as many VP as the winner or more")
        if ended_by_time and ev.preset.key == "catan-studio":
            warnings.append("CATAN Studio's rules: organizers may not place time limits on the games")
        for p in seated:  # (a game placing by VP, then cards -- High Tide -- is not won by reaching a target)
            if p != win_id and scores[p] >= ev.vp_target and not ended_by_time and not cards:
                warnings.append(f"{names[p]} reached the target ({scores[p]} VP) but is not the winner")
        old = self.current_result(ev.id, round_no, table)
        if old is not None and not correct:
            raise TournamentError(f"{where} already has a result (entered by {old.entered_by}); "
                                  "to change it, enter it as a correction with a reason",
                                  "has_result", round=round_no, table=table, by=old.entered_by)
        if old is not None and not reason.strip():
            raise TournamentError(f"{where}: a correction needs a reason", "needs_reason", round=round_no,
                                  table=table)
        if old is None and correct:
            raise TournamentError(f"{where} has no result yet to correct", "nothing_to_correct", round=round_no,
                                  table=table)
        data = {"vp": {str(p): scores[p] for p in seated}, "winner": win_id, "ended_by_time": bool(ended_by_time),
                "warnings": warnings}
        if buildings and set(buildings) == set(seated) and all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_VP for v in buildings.values()):
            data["buildings"] = {str(p): buildings[p] for p in seated}
        if cards:
            data["cards"] = {str(p): cards[p] for p in seated}
        who = who or _who()
        with self._tx():
            cur = self._db.execute(
                "INSERT INTO results (event, round, table_no, data, source, entered_by, entered_at, reason) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (ev.id, round_no, table, json.dumps(data), source, who, time.time(), reason.strip()))
            if old is not None:
                self._db.execute("UPDATE results SET superseded_by = ? WHERE id = ?", (cur.lastrowid, old.id))
            detail = {"round": round_no, "table": table, "vp": {names[p]: scores[p] for p in seated},
                      "winner": names.get(win_id), "ended_by_time": bool(ended_by_time), "source": source}
            if old is not None:
                detail["before"] = {"vp": {names[p]: v for p, v in old.vp.items()}, "winner": names.get(old.winner),
                                    "ended_by_time": old.ended_by_time}
                detail["reason"] = reason.strip()
            self._audit(ev.id, who, "correct result" if old is not None else "enter result", detail)
        return self.current_result(ev.id, round_no, table)

    def enter_record(self, event: int, round_no: int, table: int, record, *, ended_by_time: bool = False,
                     source: str = "record", correct: bool = False, reason: str = "",
                     who: str | None = None, game=None) -> ResultEntry:
        """Fill a table's result from a finished game record (``companion.record.Record``; ``game``: the record
        replayed, when the caller holds it: :func:`.results.result_details`)."""
        from .results import result_details

        rnd = self.round(event, round_no)
        if not 1 <= table <= len(rnd.tables):
            raise TournamentError(f"round {round_no} has tables 1 to {len(rnd.tables)}, not {table}")
        names = self.names(event)
        seated = [(p, names[p]) for p in rnd.tables[table - 1]]
        try:
            vp, winner, by_time, buildings, cards = result_details(record, seated, ended_by_time=ended_by_time,
                                                                   game=game)
        except ValueError as error:
            raise TournamentError(f"round {round_no} table {table}: {error}") from None
        return self.enter_result(event, round_no, table, vp, winner, ended_by_time=by_time, correct=correct,
                                 reason=reason, source=source, who=who, buildings=buildings, cards=cards)

    # --- standings and the audit trail -------------------------------------------------------------------------
    def standings(self, event: int, *, through_round: int | None = None) -> list[Standing]:
        ev = self.event(event)
        players = self.players(ev.id)
        from .formats import playoff_rounds  # semi-finals and the final are a stage of their own

        playoffs = playoff_rounds(self.rounds(ev.id))
        results = [r.as_table_result() for r in self.results(ev.id)
                   if (through_round is None or r.round <= through_round) and r.round not in playoffs]
        from .formats import byes_of  # the preset may count a bye as a win
        byes = [p for r in self.rounds(ev.id) if (through_round is None or r.number <= through_round)
                and r.number not in playoffs for p in byes_of(r)]
        try:
            return compute_standings([p.id for p in players], results, ev.preset, ev.vp_target, seed=ev.seed,
                                     dropped=[p.id for p in players if p.dropped_after is not None], byes=byes)
        except ScoringError as error:
            raise TournamentError(str(error)) from None

    def audit(self, event: int) -> list[dict[str, Any]]:
        return [{"id": i, "at": at, "who": who, "action": action, "details": json.loads(details)}
                for i, at, who, action, details in self._db.execute(
                    "SELECT id, at, who, action, details FROM audit WHERE event = ? ORDER BY id", (event,))]
