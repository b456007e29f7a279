"""Events applied one by one, each undoable: the ``push``/``pop`` every game shares.

A game (the board games' :class:`~companion.rules.game.Game`, the card game) keeps its position in
``state`` and its history in ``events``, ``outcomes`` and a stack of earlier states.  Each event type
has a handler ``_on_<type>(event) -> fields``; after it, ``_after_event(context)`` adds what the event
changed as a whole (awards, VP, the winner).  A refused event changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping

from . import events as ev
from .errors import IllegalAction, MalformedEvent
from .refusals import Refusal
from .outcome import Outcome

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any, Callable

GAME_OVER = "game_over"


class EventHistory:
    """The shared history mechanism; a subclass sets up ``state``, ``events``, ``outcomes``, ``_stack``,
    ``_warnings`` and ``_forced`` and can be rebuilt as ``type(self)(initial_board, n_players, options)``."""

    outcome_class: type[Outcome] = Outcome
    # events still accepted once the game is over (an umpire's corrections and notes)
    after_game_over: tuple[str, ...] = ("note",)

    # Every attribute a game holds, as its ``__init__`` sets them. ``_bare_copy`` copies them by name, never
    # through the instance's ``__dict__``: reading an object's ``__dict__`` (as ``copy.copy`` does) takes it out
    # of its class's shared key layout on CPython 3.11+ for good, and the original is a table's live game, copied
    # for every roll it previews, whose attributes are read on every event. tests/test_game_copy.py holds each
    # game class's list to the attributes of played games.
    copied_attributes: tuple[str, ...] = ("initial_board", "n_players", "options", "state", "events", "outcomes",
                                          "_stack", "_warnings", "_forced")

    def _bare_copy(self) -> Any:
        """A new game of this class holding this one's attributes (the same objects: the caller copies what
        it must not share), set one by one."""
        new = object.__new__(type(self))
        for name in self.copied_attributes:
            setattr(new, name, getattr(self, name))
        return new

    # --- hooks --------------------------------------------------------------------------------------
    def _copy_state(self, state: Any) -> Any:
        return state.copy()

    def _before_event(self, saved: Any) -> Any:
        """What ``_after_event`` compares with (by default the state before the event)."""
        return saved

    def _after_event(self, context: Any) -> dict[str, Any]:
        return {}

    # Event types after which ``_after_event`` is not asked: they cannot change anything it looks at (the board
    # games: nobody's VP, nor whose turn it is, so nobody can have won by them). Read from the class only where
    # it is declared by the class whose ``_after_event`` is in use or by a subclass of it: a game that brings
    # its own ``_after_event`` is asked after every event until it declares its own (none are inherited past
    # it). tests/test_after_event_skipped.py plays every game and holds each listed type to it.
    after_event_unneeded: frozenset[str] = frozenset()

    def _refuse_after_game_over(self) -> None:
        raise IllegalAction(Refusal("ended_by_time" if self.ended_by_time is not None else "game_over"))

    @property
    def ended_by_time(self) -> int | None:
        """How many events the result stood on when the round's time limit ended the game (``None``: it did not)."""
        return self.state.extra.get("ended_by_time")

    def _on_time_limit(self, event: Mapping[str, Any]) -> dict[str, Any]:
        """The round's time limit ended the game (a tournament desk's word, journalled by the table's tablet): the
        game stands as it stood after the record's first ``after`` events (all before this one by default).
        Events the table played after that stay in the record but count for nothing (the desk's result stood
        at time); nothing is played after this one. Every game the same way (a game's ``after_game_over`` lists
        ``time_limit``; its state keeps ``extra``)."""
        n = len(self.events)
        after = ev.integer(event.get("after", n), "time_limit.after")
        if not 0 <= after <= n:
            raise MalformedEvent(f"time_limit.after must be 0..{n} (the events before it), got {after}")
        if self.ended_by_time is not None:
            raise IllegalAction(Refusal("ended_by_time"))
        state = self.state
        if after < n:  # the game as it stood then: replayed from the start (once a game, at most)
            stood = type(self)(self.initial_board, self.n_players, self.options)
            stood.push_all(self.events[:after])
            state = stood.state
        if state.phase == GAME_OVER:  # won before time: nothing to end (not even an umpire's forced entry)
            raise IllegalAction(Refusal("game_over"))
        state.phase = GAME_OVER
        state.extra["ended_by_time"] = after
        self.state = state
        return {"ranking": self.ranking(), "places": self.places()}

    # --- the end: places ------------------------------------------------------------------------------
    def winners(self) -> tuple[int, ...]:
        """Who won: the winner alone (a game that can end shared says so in its own ``winners``); empty before
        the end or when the game was ended without one (by the round's time limit)."""
        winner = self.state.winner
        return () if winner is None else (winner,)

    def place_key(self, player: int) -> tuple[int, ...]:
        """What places ``player`` below the win, larger first: victory points (a game whose rules break a tie by
        something more says so here: High Tide's resource cards).  Players with the same key share a place."""
        return (self.victory_points(player),)

    def places(self) -> tuple[tuple[int, ...], ...]:
        """The final places, best first, each the players who hold it, in ``ranking`` order: ``((0,), (1, 3),
        (2,))`` is "0 won, 1 and 3 share second place, 2 is fourth".  The winners hold the first place (the
        winner alone, or every player who shares the win); the others are placed by :meth:`place_key`, level
        players sharing the better place, as a tournament desk places them (``tournament.scoring``).  A game
        the round's time limit ended has no winner: every player is placed by victory points alone (the desk's
        rule for it).  Empty before the end.  ``ranking`` stays the full order it always was (ties broken by
        cards in hand, then seat); ``places`` says where that order is a tie."""
        if self.state.phase != GAME_OVER:
            return ()
        ranking = self.ranking()
        by_time = self.ended_by_time is not None
        won = () if by_time else tuple(p for p in ranking if p in self.winners())
        places: list[tuple[int, ...]] = [won] if won else []
        last = None
        for p in ranking:
            if p in won:
                continue
            key = (self.victory_points(p),) if by_time else self.place_key(p)
            if places and places[-1] is not won and key == last:
                places[-1] += (p,)
            else:
                places.append((p,))
            last = key
        return tuple(places)

    @classmethod
    def event_types(cls) -> list[str]:
        return sorted(n[4:] for n in dir(cls) if n.startswith("_on_"))

    def waiting_for(self) -> int | None:
        raise NotImplementedError

    # --- the mechanism ------------------------------------------------------------------------------
    def push(self, event: Mapping[str, Any], *, atomic: bool = True) -> Outcome:
        """Apply one event.  On any error nothing changes and the error says why.

        ``atomic=False`` (bulk replay, where an error ends the replay anyway) skips the snapshot that
        makes the event undoable in O(1); ``pop`` then recomputes the earlier state from the events.
        """
        self._push_events((event,), atomic)
        return self.outcomes[-1]

    def push_all(self, events: Iterable[Mapping[str, Any]]) -> None:
        """``push(event, atomic=False)`` for each of ``events`` in turn (a replay), in one loop instead of a call
        per event.  The first event refused raises its error, as ``push`` would; the events before it stay
        pushed, so ``len(self.outcomes)`` less the count before the call is the refused event's place."""
        self._push_events(events, False)

    def _push_events(self, events: Iterable[Mapping[str, Any]], atomic: bool) -> None:
        # The one mechanism behind push and push_all. What an event does not change is read once before the
        # loop: the class's facts (a class's methods do not change while games are played; see _handler_table),
        # the game's lists, its bound hooks. (A replay's per-event call, its keyword argument and these reads
        # were a sixth of push's fixed cost.)
        cls = type(self)
        if cls not in _CLASS_FACTS:
            _handler_table(cls)
        handlers, plain_before, outcome_class, known_fields, unneeded = _CLASS_FACTS[cls]
        after_game_over = self.after_game_over
        after_event = self._after_event
        waiting_for = self.waiting_for
        history, outcomes, stack = self.events, self.outcomes, self._stack
        for event in events:
            if type(event) is not dict and not isinstance(event, Mapping):  # (isinstance of an ABC is slow)
                raise MalformedEvent(f"an event must be an object, got {type(event).__name__}")
            kind = event.get("type")
            try:
                handler: Callable[[Any, Mapping[str, Any]], dict[str, Any]] = handlers[kind]
            except (KeyError, TypeError):  # a type the class does not know, or no name at all
                handler = self._handler_for(kind)
                handlers, plain_before, outcome_class, known_fields, unneeded = _CLASS_FACTS[cls]
            forced = event.get("forced", False)
            if forced is not False and forced is not True:
                raise MalformedEvent(f"forced must be true or false, got {forced!r}")
            saved = self.state
            if atomic:
                self.state = self._copy_state(saved)
            context = saved if plain_before else self._before_event(saved)  # (the usual, no call)
            self._warnings = warnings = []
            if forced:  # (False between events: set only for an umpire's entry, and put back below)
                self._forced = True
            try:
                if saved.phase == GAME_OVER and kind not in after_game_over:
                    self._refuse_after_game_over()
                fields = handler(self, event)
                if kind not in unneeded:  # (a roll, trade, discard, robber move, steal cannot make a winner)
                    more = after_event(context)
                    if more:
                        fields.update(more)
            except Exception:
                if atomic:
                    self.state = saved
                raise
            finally:
                if forced:
                    self._forced = False
            if not known_fields.issuperset(fields):  # (before the five fields below, which every outcome has)
                outcome_class.adopt(fields)  # (raises, naming the unknown fields)
            stack.append(saved if atomic else None)
            # The handler's fields dict (always a new one) becomes the outcome's, with what every outcome says.
            # (Outcome.adopt written out here: a replay makes an outcome for every event, and the call was a
            # tenth of an event's fixed cost.) No warnings, the usual, is left to the class's default, ``()``, as
            # any field an event leaves empty: one entry fewer, and most handlers' dicts then need no resize.
            fields["index"] = len(history)
            history.append(dict(event))
            fields["kind"] = kind
            if warnings:
                fields["warnings"] = tuple(warnings)
            fields["next"] = self.state.phase
            fields["next_player"] = waiting_for()
            outcome = _new_object(outcome_class)
            _set_outcome_fields(outcome, fields)
            outcomes.append(outcome)  # (last: len(outcomes) counts the events pushed whole)

    def _handler_for(self, kind: Any) -> Callable[[Any, Mapping[str, Any]], dict[str, Any]]:
        """``push``'s handler when the class's table does not have it at hand: the table read (again) from the
        class, or the refusal naming the known types."""
        cls = type(self)
        if not isinstance(kind, str) or _handler_table(cls, refresh=True).get(str(kind)) is None:
            raise MalformedEvent(f"unknown event type {kind!r} (known: {', '.join(self.event_types())})")
        return _handler_table(cls)[str(kind)]

    def pop(self) -> dict[str, Any]:
        """Take back the last event; returns it."""
        if not self._stack:
            raise IndexError("no event to take back")
        saved = self._stack.pop()
        self.outcomes.pop()
        event = self.events.pop()
        if saved is None:  # no snapshot: recompute the state from the start
            fresh = type(self)(self.initial_board, self.n_players, self.options)
            fresh.push_all(self.events)
            saved = fresh.state
        self.state = saved
        return event


_PLAIN_BEFORE = EventHistory._before_event
_new_object = object.__new__
# An outcome's ``__dict__`` set through its descriptor (an outcome is frozen, so not by assignment): what
# ``object.__setattr__(outcome, "__dict__", fields)`` ends in, without looking the name up in the class first
# (a third of the cost of making an outcome). Every outcome class is an Outcome, which holds the descriptor.
_set_outcome_fields = Outcome.__dict__["__dict__"].__set__
_HANDLERS: dict[type, dict[str, Callable]] = {}  # a game class -> its handler table (see below)
# a game class -> (its handler table, it has no _before_event of its own, its outcome class, that class's
# fields, the event types its _after_event is not asked after), read with its handler table: class attributes
# read through an instance or a class are not cached by this interpreter (3.11), and push read three every event
_CLASS_FACTS: dict[type, tuple[dict[str, Callable], bool, type[Outcome], frozenset, frozenset]] = {}


def after_event_unneeded(cls: type) -> frozenset[str]:
    """The event types after which ``cls``'s ``_after_event`` is not asked (see
    ``EventHistory.after_event_unneeded``): its declaration counts only if made by the class defining the
    ``_after_event`` in use or by a subclass of that class."""
    declared_by = next(k for k in cls.__mro__ if "after_event_unneeded" in k.__dict__)
    checked_by = next(k for k in cls.__mro__ if "_after_event" in k.__dict__)
    return frozenset(cls.after_event_unneeded) if issubclass(declared_by, checked_by) else frozenset()


def _handler_table(cls: type, *, refresh: bool = False) -> dict[str, Callable]:
    """Event type -> the class's ``_on_<type>`` function (a game class turns a handler off by setting
    it to None).  Read from the class itself, once per class: a class's methods do not change while games
    are played, so the table cannot drift (``refresh`` reads them again, for the error path)."""
    table = None if refresh else _HANDLERS.get(cls)
    if table is None:
        table = {}
        for name in dir(cls):
            if name.startswith("_on_"):
                function = getattr(cls, name)
                if callable(function):
                    table[name[4:]] = function
        if not issubclass(cls.outcome_class, Outcome):  # (push sets its fields through Outcome's descriptor)
            raise TypeError(f"{cls.__name__}.outcome_class must be an Outcome")
        if cls.push is not EventHistory.push:  # (push_all, a replay, would pass it by: use the hooks)
            raise TypeError(f"{cls.__name__} overrides push: _before_event/_after_event are the hooks")
        _CLASS_FACTS[cls] = (table, cls._before_event is _PLAIN_BEFORE, cls.outcome_class,
                             cls.outcome_class._known, after_event_unneeded(cls))
        _HANDLERS[cls] = table
    return table
