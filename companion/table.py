"""One live game at the table: inputs in, checked, journalled, outcomes out.

The :class:`Table` takes events from every input (a roll from any dice source, taps in the app),
checks each against the rules, commits it to the journal, and only then publishes the
:class:`~companion.rules.outcome.Outcome` to its listeners (the announcer, the app).  It knows
nothing of Kivy; listeners are called on the caller's thread, so a UI listener hands work to its
main thread itself.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from .dice import DiceRolled, RollPhoto
from .record import Record, new_game, replay
from .record.journal import Journal
from .rules import Game, RulesError
from .rules.outcome import Outcome

Listener = Callable[[Outcome], None]
log = logging.getLogger(__name__)


class Table:
    """A live game backed by a journal entry."""

    def __init__(self, journal: Journal, game_id: int):
        self.journal = journal
        self.game_id = game_id
        self.record = journal.load(game_id)
        self.game: Game = replay(self.record)
        self._listeners: list[Listener] = []
        #: Event index → what the roll it replaced paid out (player → resource → count): a roll undone and entered
        #: again with other faces, whose cards the table had already handed out (said so they go back).
        self.replaced_payouts: dict[int, dict[int, dict[str, int]]] = {}

    @classmethod
    def create(cls, journal: Journal, record: Record, title: str | None = None) -> "Table":
        """Start a new game from a record header (and any events it already has)."""
        new_game(record)  # the header must be playable before anything is stored
        game_id = journal.create_game(record, title)
        return cls(journal, game_id)

    # --- listening -----------------------------------------------------------------------------
    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        self._listeners.remove(listener)

    def _publish(self, outcome: Outcome) -> None:
        for listener in list(self._listeners):
            try:
                listener(outcome)
            except Exception:  # one broken listener must not silence the others or lose the event
                log.exception("outcome listener %r failed", listener)

    # --- inputs --------------------------------------------------------------------------------
    def submit(self, event: dict[str, Any], photo: RollPhoto | None = None,
               corrects: dict[str, Any] | None = None) -> Outcome:
        """Check, commit, publish.  A rule breach raises and nothing is recorded.

        ``photo``: a roll's photo as its source saw it, committed with the roll (see :meth:`roll`);
        ``corrects``: the camera's roll event (not recorded) this roll puts right, whose photo ``photo`` is."""
        replaced = self._replaced_roll(event)
        paid_before = self._payouts_of(replaced) if replaced is not None else {}
        outcome = self.game.push(event)  # raises RulesError: nothing changed
        try:
            self.journal.append(self.game_id, dict(event), photo,
                                corrects or self._corrected_camera_roll(event, replaced), replaced)
        except Exception:
            self.game.pop()
            raise
        self.replaced_payouts.pop(outcome.index, None)  # (an earlier event at this index was undone)
        if paid_before:
            self.replaced_payouts[outcome.index] = paid_before
        self.record.events.append(dict(event))
        if outcome.winner is not None:
            self.journal.set_finished(self.game_id)
        self._publish(outcome)
        return outcome

    def _replaced_roll(self, event: dict[str, Any]) -> dict[str, Any] | None:
        """The roll this roll takes the place of: the one just undone (the next event to redo) when it showed
        other faces — a misread or a mistap put right.  Read from the redo list on disk, so it holds across a
        restart between the two."""
        if event.get("type") != "roll":
            return None
        pending = self.journal.redo_events(self.game_id)
        undone = pending[0] if pending else None
        if undone is None or undone.get("type") != "roll" or sorted(undone["dice"]) == sorted(event["dice"]):
            return None  # (the same faces entered again: the undo was for something else)
        return undone

    def _payouts_of(self, roll: dict[str, Any]) -> dict[int, dict[str, int]]:
        """What ``roll`` paid out when it was entered here (tried on a copy of the game)."""
        try:
            outcome = self.game.copy().push(roll)
        except RulesError:
            return {}
        return {seat: {r: n for r, n in got.items() if n} for seat, got in outcome.payouts.items() if any(got.values())}

    @staticmethod
    def _corrected_camera_roll(event: dict[str, Any], replaced: dict[str, Any] | None) -> dict[str, Any] | None:
        """The camera's roll this event puts right: a roll not from the camera entered in the place of the
        camera's roll (see :meth:`_replaced_roll`), as players put a misread right (Undo, then the dice by hand)."""
        if replaced is None or event.get("source") == "camera" or replaced.get("source") != "camera" \
                or not replaced.get("roll_id"):
            return None
        return replaced

    def roll(self, roll: DiceRolled, photo: RollPhoto | None = None,
             corrects: DiceRolled | None = None) -> Outcome | None:
        """A settled roll from any dice source.

        A roll the game already holds (same ``roll_id``: a box resending an unacknowledged result
        after the app restarted, or after a reconnect) is dropped and ``None`` returned, so one
        physical roll is never applied twice.  ``photo`` (a camera's view of the settled dice) is kept
        with the roll in the journal, by its ``roll_id``.  ``corrects``: a camera's roll that waited for
        the players' OK and that this roll (tapped instead) puts right; ``photo`` is that one's, kept with
        the correction by its ``roll_id``.
        """
        if len(roll.values) != 2:
            raise RulesError(f"Catan needs two dice, the {roll.source} reported {len(roll.values)}")
        if roll.roll_id is not None and self.holds_roll(roll.roll_id):
            log.info("dropped roll %s from the %s: already recorded", roll.roll_id, roll.source)
            return None
        event: dict[str, Any] = {"type": "roll", "dice": list(roll.values), "source": roll.source}
        if roll.confidence < 1.0:
            event["confidence"] = round(roll.confidence, 3)
        if roll.roll_id is not None:
            event["roll_id"] = roll.roll_id
        if corrects is not None:  # the photo is the corrected camera roll's, kept by its roll id
            camera = {"type": "roll", "dice": list(corrects.values), "source": corrects.source,
                      "roll_id": corrects.roll_id}
            return self.submit(event, photo, camera)
        return self.submit(event, photo if roll.roll_id is not None else None)

    def holds_roll(self, roll_id: str) -> bool:
        """Whether a roll with this source id is already in the record (undone rolls are not)."""
        return any(e.get("type") == "roll" and e.get("roll_id") == roll_id for e in self.record.events)

    def end_by_time(self, after: int) -> Outcome | None:
        """The tournament desk ended this game by the round's time limit, its result standing on the record's
        first ``after`` events: journal the end (a ``time_limit`` event), so the table's record says what the
        desk's result says. Events played since stay in the record and count for nothing; nothing is played
        after it. ``None`` when the record already says so, or when the rules say the game was over by then
        (won before time: the desk's word and the record differ, and the referee settles it)."""
        if getattr(self.game, "ended_by_time", None) is not None:
            return None
        # (a table that took back events the desk had heard ends where it stands: there is nothing else to end on)
        event = {"type": "time_limit", "after": max(0, min(int(after), len(self.game.events)))}
        try:
            outcome = self.submit(event)
        except RulesError as error:
            log.warning("the desk ended game %s by time after %s events; not journalled: %s", self.game_id, after,
                        error)
            return None
        self.journal.set_finished(self.game_id)
        return outcome

    def undo(self) -> dict[str, Any] | None:
        """Take back the last event (kept for redo, on disk)."""
        if not self.game.events:
            return None
        self.journal.undo(self.game_id)  # (clears the journal's "finished": the event taken back may be the win)
        event = self.game.pop()
        self.record.events.pop()
        self.replaced_payouts.pop(len(self.record.events), None)  # said once, when it was entered
        if self._over():  # a note or correction after the end taken back: the game is still over
            self.journal.set_finished(self.game_id)
        return event

    def _over(self) -> bool:
        """Whether the game as the record now stands is over: won, or ended by the desk's time limit -- what the
        journal's "finished" says (the start screen offers an unfinished game under "Resume a game")."""
        return self.game.state.winner is not None or getattr(self.game, "ended_by_time", None) is not None

    def redo(self) -> Outcome | None:
        """Put the last taken-back event back, if the game still accepts it."""
        pending = self.journal.redo_events(self.game_id)
        if not pending:
            return None
        outcome = self.game.push(pending[0])
        self.journal.redo(self.game_id)
        self.record.events.append(dict(pending[0]))
        if self._over():  # over again (the undo had cleared the journal's "finished", as it must)
            self.journal.set_finished(self.game_id)
        self._publish(outcome)
        return outcome

    @property
    def can_redo(self) -> bool:
        return bool(self.journal.redo_events(self.game_id))

    @property
    def last_outcome(self) -> Outcome | None:
        return self.game.outcomes[-1] if self.game.outcomes else None

