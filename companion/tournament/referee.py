"""The floor's referee: an event's floor settings, results a tablet proposes, the referee's confirm or correction,
and the end of a round by time.

- **Settings** (``floor_settings``, one row per event): ``confirm`` -- ``referee`` (a result from a tablet waits
  for the referee's one-tap confirm) or ``auto`` (entered as it comes, the referee corrects afterwards, the
  default: what the desk did before this setting existed); ``time_rule`` -- what happens when the round clock
  runs out (:data:`.clock.TIME_RULES`); ``language`` -- the live display's (``en``/``ja``).
- **Proposals** (``floor_proposals``): a finished game's result, or a game ended by time, as the desk's copy of
  the table's record says. One open proposal per table and round; a newer game at the table replaces it. The
  referee confirms it (entered into the results as it is, source ``tablet: game N``) or corrects it (entered
  with the referee's numbers and a reason; the proposal stays, marked ``corrected``, and the audit trail has
  both). A result the desk corrects later goes through the desk's own corrections (``Desk.enter_result``), which
  keep every old version.
- **Time.** When the clock of the current round has run out, every table without a result or a proposal gets
  one from the desk's copy of its game, marked "ended by time limit": at once under ``stop``; under
  ``finish_round`` once the copy shows the round of turns finished (the first player to roll). A table whose
  tablet sent nothing is left to the referee.

Everything here runs under the desk server's lock, in the desk's ``BEGIN IMMEDIATE`` transactions.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

from ..record import Record, RecordError, replay
from . import clock as clock_mod
from .results import result_details
from .store import TournamentError

CONFIRM_MODES = ("auto", "referee")
LANGUAGES = ("en", "ja")

SCHEMA = """
CREATE TABLE IF NOT EXISTS floor_settings (event INTEGER PRIMARY KEY, confirm TEXT NOT NULL DEFAULT 'auto',
    time_rule TEXT NOT NULL DEFAULT 'finish_round', language TEXT NOT NULL DEFAULT 'en');
CREATE TABLE IF NOT EXISTS floor_proposals (id INTEGER PRIMARY KEY, event INTEGER NOT NULL, round INTEGER NOT NULL,
    table_no INTEGER NOT NULL, pairing INTEGER NOT NULL, game INTEGER NOT NULL, data TEXT NOT NULL,
    created REAL NOT NULL, decided REAL, decision TEXT, result INTEGER);
CREATE TABLE IF NOT EXISTS floor_time_ends (pairing INTEGER NOT NULL, game INTEGER NOT NULL, events INTEGER NOT NULL,
    PRIMARY KEY (pairing, game));
"""

PROPOSED_NOTE = "result proposed: it waits for the referee's confirm at the desk"
SETTLE_BUDGET_S = 0.1  # one look at a run-out clock works this long at most (it holds the desk's lock); the
# tables left over are settled by the next looks (the display looks every second)


@dataclass(frozen=True)
class Settings:
    confirm: str = "auto"
    time_rule: str = clock_mod.DEFAULT_TIME_RULE
    language: str = "en"

    def to_json(self) -> dict[str, str]:
        return {"confirm": self.confirm, "time_rule": self.time_rule, "language": self.language}


@dataclass(frozen=True)
class Proposal:
    id: int
    round: int
    table: int
    pairing: int
    game: int
    vp: dict[int, int]  # player id -> VP
    winner: int | None
    ended_by_time: bool
    created: float
    decided: float | None
    decision: str | None  # None (open), "confirmed", "corrected", "replaced"
    buildings: dict[int, int] | None = None  # settlement + city points (a time-limit tiebreak)
    cards: dict[int, int] | None = None  # resource cards at the end (High Tide's tiebreak on VP)

    def to_json(self, names: dict[int, str]) -> dict[str, Any]:
        return {"id": self.id, "round": self.round, "table": self.table, "game": self.game,
                "vp": {names[p]: v for p, v in self.vp.items()},
                "winner": None if self.winner is None else names[self.winner], "ended_by_time": self.ended_by_time,
                "decision": self.decision}


def ensure_schema(floor) -> None:
    with floor.desk._tx() as db:
        for statement in SCHEMA.split(";"):
            if statement.strip():
                db.execute(statement)


def settings(floor) -> Settings:
    row = floor.desk._db.execute("SELECT confirm, time_rule, language FROM floor_settings WHERE event = ?",
                                 (floor.event.id,)).fetchone()
    return Settings(*row) if row else Settings()


def set_settings(floor, *, confirm: str | None = None, time_rule: str | None = None, language: str | None = None,
                 who: str | None = None) -> Settings:
    """Change the event's floor settings; a value not among the known ones is refused, naming it."""
    for value, known, what in ((confirm, CONFIRM_MODES, "confirm"), (time_rule, clock_mod.TIME_RULES, "time_rule"),
                               (language, LANGUAGES, "language")):
        if value is not None and value not in known:
            raise TournamentError(f"{what} must be one of {', '.join(known)}, not {str(value)[:40]!r}", "bad_setting",
                                  what=what, known=", ".join(known), got=str(value)[:40])
    old = settings(floor)
    new = Settings(confirm or old.confirm, time_rule or old.time_rule, language or old.language)
    with floor.desk._tx() as db:
        db.execute("INSERT OR REPLACE INTO floor_settings (event, confirm, time_rule, language) VALUES (?, ?, ?, ?)",
                   (floor.event.id, new.confirm, new.time_rule, new.language))
        floor.desk._audit(floor.event.id, who, "floor settings", {"before": old.to_json(), "after": new.to_json()})
    return new


# --- proposals --------------------------------------------------------------------------------------------------
def _proposal(row) -> Proposal:
    pid, rnd, table, pairing, game, data, created, decided, decision = row
    d = json.loads(data)
    return Proposal(pid, rnd, table, pairing, game, {int(p): v for p, v in d["vp"].items()}, d["winner"],
                    d["ended_by_time"], created, decided, decision,
                    {int(p): v for p, v in d["buildings"].items()} if d.get("buildings") else None,
                    {int(p): v for p, v in d["cards"].items()} if d.get("cards") else None)


_COLUMNS = "id, round, table_no, pairing, game, data, created, decided, decision"


def proposals(floor, *, open_only: bool = True) -> list[Proposal]:
    where = "AND decided IS NULL" if open_only else ""
    return [_proposal(r) for r in floor.desk._db.execute(
        f"SELECT {_COLUMNS} FROM floor_proposals WHERE event = ? {where} ORDER BY round, table_no, id",
        (floor.event.id,))]


def open_proposal(floor, round_no: int, table: int) -> Proposal | None:
    row = floor.desk._db.execute(f"SELECT {_COLUMNS} FROM floor_proposals WHERE event = ? AND round = ? "
                                 "AND table_no = ? AND decided IS NULL ORDER BY id DESC LIMIT 1",
                                 (floor.event.id, round_no, table)).fetchone()
    return _proposal(row) if row else None


def note_for_a_result_there(floor, pairing, game: int) -> str | None:
    """The game's note when its table already has a result (entered from this very game, or by someone else:
    kept, the referee corrects it at the desk); None when the table has none yet."""
    current = floor.desk.current_result(floor.event.id, pairing.round, pairing.table)
    if current is None:
        return None
    if current.source == f"tablet: game {game}":
        return "result entered"
    return (f"the desk already has a result for round {pairing.round} table {pairing.table} "
            f"(entered by {current.entered_by}); the referee corrects it at the desk if the game says otherwise")


def propose(floor, pairing, game: int, record: Record, *, ended_by_time: bool = False, played=None) -> str:
    """The result of a table's game as the desk's copy says, waiting for the referee; returns the game's note.
    A table that has a result keeps it (the referee corrects at the desk). ``played``: the record's game, replayed
    (:func:`.results.result_details`'s ``game``)."""
    note = note_for_a_result_there(floor, pairing, game)
    if note is not None:
        return note
    names = floor.desk.names(floor.event.id)
    seated = [(p, names[p]) for p in floor.desk.round(floor.event.id, pairing.round).tables[pairing.table - 1]]
    try:
        vp, winner, by_time, buildings, cards = result_details(record, seated, ended_by_time=ended_by_time,
                                                               game=played)
    except ValueError as error:
        return f"result not proposed: {error}"
    data = json.dumps({"vp": {str(p): v for p, v in vp.items()}, "winner": winner, "ended_by_time": by_time,
                       "buildings": {str(p): v for p, v in buildings.items()},
                       **({"cards": {str(p): v for p, v in cards.items()}} if cards else {})})
    with floor.desk._tx() as db:
        old = open_proposal(floor, pairing.round, pairing.table)
        if old is not None and (old.pairing, old.game) == (pairing.id, game) and \
                ((old.vp, old.winner, old.ended_by_time) == (vp, winner, by_time) or old.ended_by_time):
            # the same, or the game went on after the desk ended it by time: what stood at time is the proposal
            return PROPOSED_NOTE
        now = time.time()
        if old is not None:
            db.execute("UPDATE floor_proposals SET decided = ?, decision = 'replaced' WHERE id = ?", (now, old.id))
        db.execute("INSERT INTO floor_proposals (event, round, table_no, pairing, game, data, created) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?)", (floor.event.id, pairing.round, pairing.table, pairing.id, game,
                                                    data, now))
        floor.desk._audit(floor.event.id, f"tablet at table {pairing.table}", "propose result",
                          {"round": pairing.round, "table": pairing.table, "game": game,
                           "vp": {names[p]: v for p, v in vp.items()}, "winner": names.get(winner),
                           "ended_by_time": by_time})
    return PROPOSED_NOTE


def confirm(floor, round_no: int, table: int, *, who: str | None = None):
    """The referee's one tap: the table's open proposal becomes its result, as proposed."""
    with floor.desk._tx() as db:
        p = open_proposal(floor, round_no, table)
        if p is None:
            raise TournamentError(f"round {round_no} table {table} has no result waiting for a confirm",
                                  "nothing_to_confirm", round=round_no, table=table)
        entry = floor.desk.enter_result(floor.event.id, round_no, table, p.vp, p.winner,
                                        ended_by_time=p.ended_by_time, source=f"tablet: game {p.game}",
                                        who=who or "referee", buildings=p.buildings, cards=p.cards)
        db.execute("UPDATE floor_proposals SET decided = ?, decision = 'confirmed', result = ? WHERE id = ?",
                   (time.time(), entry.id, p.id))
        db.execute("UPDATE floor_games SET note = ? WHERE pairing = ? AND game = ?",
                   (_still_by_time(db, p, "result entered"), p.pairing, p.game))
    return entry


def _still_by_time(db, p, note: str) -> str:
    """The game's new note, still saying that the time limit ended it where it did: the tablet shows "The desk
    ended this game by the time limit." from its note, and after the referee's Confirm it said the round clock's
    "Time!" instead (session 16's trial, referee mode)."""
    (before,) = db.execute("SELECT note FROM floor_games WHERE pairing = ? AND game = ?", (p.pairing, p.game)
                           ).fetchone() or ("",)
    return f"ended by time limit; {note}" if str(before or "").startswith("ended by time limit") else note


def correct(floor, round_no: int, table: int, vp: dict, winner=None, *, ended_by_time: bool = False,
            reason: str, who: str | None = None):
    """The referee enters other numbers than the table's proposal (or corrects an entered result): the proposal
    stays, marked ``corrected``; a result already entered is kept as superseded. A reason is required.

    The resource cards the game's record gave (High Tide's tiebreak on VP: the proposal's, or the result's being
    corrected) stay with the corrected numbers: the correction says VP and the winner, not the hands, and without
    them a correction of one player's VP placed the others level on VP by VP alone -- not as the game placed them
    (session 19's review)."""
    if not reason.strip():
        raise TournamentError(f"round {round_no} table {table}: a correction needs a reason", "needs_reason",
                              round=round_no, table=table)
    with floor.desk._tx() as db:
        p = open_proposal(floor, round_no, table)
        current = floor.desk.current_result(floor.event.id, round_no, table)
        from_record = p if p is not None else current
        entry = floor.desk.enter_result(floor.event.id, round_no, table, vp, winner, ended_by_time=ended_by_time,
                                        correct=current is not None, reason=reason,
                                        source="referee" if p is None else f"referee, correcting game {p.game}",
                                        who=who or "referee", cards=from_record.cards if from_record else None)
        if p is not None:
            db.execute("UPDATE floor_proposals SET decided = ?, decision = 'corrected', result = ? WHERE id = ?",
                       (time.time(), entry.id, p.id))
            db.execute("UPDATE floor_games SET note = ? WHERE pairing = ? AND game = ?",
                       (_still_by_time(db, p, f"result entered by the referee: {reason.strip()}"), p.pairing, p.game))
    return entry


# --- the end of a round by time -----------------------------------------------------------------------------------
def settle_time(floor, view: clock_mod.ClockView | None) -> list[int]:
    """With the current round's clock run out: a proposal (or, under ``auto``, a result) ended by time for each
    table whose game is over by the event's rule. Returns the tables settled now."""
    if view is None or not view.time_up or view.round != floor.current_round():
        return []
    rule = settings(floor)
    done = []
    latest: dict[int, tuple] = {}
    for table_no, pairing_id, game, header, finished, count in floor.desk._db.execute(
            "SELECT p.table_no, g.pairing, g.game, g.header, g.finished, g.count FROM floor_games g "
            "JOIN floor_pairings p ON p.id = g.pairing WHERE p.event = ? AND p.round = ? ORDER BY g.updated",
            (floor.event.id, view.round)):
        latest[table_no] = (pairing_id, game, header, finished, count)
    budget_end = time.monotonic() + SETTLE_BUDGET_S
    worked = False
    for table_no, (pairing_id, game, header, finished, count) in sorted(latest.items()):
        if worked and time.monotonic() > budget_end:
            break
        if finished or floor.desk.current_result(floor.event.id, view.round, table_no) is not None \
                or open_proposal(floor, view.round, table_no) is not None:
            continue
        h = json.loads(header)

        def record() -> Record:  # read only when needed: this runs at every look at a run-out clock
            return Record(h["game"], h["players"], h["board"], h.get("options", {}),
                          floor.game_events(pairing_id, game), {})
        cached = floor._games.get((pairing_id, game))  # the desk's replayed copy, when it is the stored one
        if cached is None or cached[0] != count:
            worked = True
            try:
                cached = (count, replay(record()))
            except RecordError:
                continue
            floor._games[(pairing_id, game)] = cached
        if rule.time_rule == "finish_round" and not clock_mod.round_finished_after_time(cached[1].summary()["turn"]):
            continue
        record = record()
        worked = True
        pairing = floor.pairing(pairing_id)
        if rule.confirm == "referee":
            note = propose(floor, pairing, game, record, ended_by_time=True)
        else:
            note = enter_now(floor, pairing, game, record, ended_by_time=True)
        with floor.desk._tx() as db:
            db.execute("UPDATE floor_games SET note = ? WHERE pairing = ? AND game = ?",
                       (f"ended by time limit; {note}", pairing_id, game))
            # how many events the result stood on: the tablet journals the end there (its record and the desk's
            # result then agree, whatever the table played after time)
            db.execute("INSERT OR REPLACE INTO floor_time_ends (pairing, game, events) VALUES (?, ?, ?)",
                       (pairing_id, game, len(record.events)))
        done.append(table_no)
    return done


def time_end(floor, pairing_id: int, game: int) -> int | None:
    """How many events of the game the desk's result stood on when the time limit ended it (None: it did not)."""
    row = floor.desk._db.execute("SELECT events FROM floor_time_ends WHERE pairing = ? AND game = ?",
                                 (pairing_id, game)).fetchone()
    return None if row is None else int(row[0])


def enter_now(floor, pairing, game: int, record: Record, *, ended_by_time: bool) -> str:
    """``auto``: the result straight into the results (the desk's earlier behaviour), returns the note."""
    current = floor.desk.current_result(floor.event.id, pairing.round, pairing.table)
    if current is not None:
        return "result entered" if current.source == f"tablet: game {game}" else \
            (f"the desk already has a result for round {pairing.round} table {pairing.table} "
             f"(entered by {current.entered_by}); the referee corrects it at the desk if the game says otherwise")
    try:
        floor.desk.enter_record(floor.event.id, pairing.round, pairing.table, record, ended_by_time=ended_by_time,
                                source=f"tablet: game {game}", who=f"tablet at table {pairing.table}")
    except TournamentError as error:
        return f"result not entered: {error}"
    return "result entered"
