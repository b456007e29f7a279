"""The virtual dice source: a seeded random roller or a balanced deck, no hardware.

``virtual://?seed=4`` rolls two dice with ``random.Random(4)``; ``virtual://?seed=4&deck=1`` deals
from a balanced deck instead: the 36 ordered pairs of two dice, shuffled, reshuffled when only
``reshuffle`` (default 5) cards are left -- as the Catan "event cards" deck does -- so that over
31 rolls every total comes up in proportion and no pair repeats.  ``every=S`` rolls by itself
every S seconds; otherwise ``roll()`` (or ``request_roll()``, the app's roll button) rolls once.

The generators (:class:`SeededDice`, :class:`BalancedDeck`) are also what the dice-box simulator
uses for its faces.
"""

from __future__ import annotations

import random
import threading
from urllib.parse import parse_qs, urlsplit

from . import DiceRolled, DiceSource, SourceState, register_scheme


class SeededDice:
    """Independent fair dice from a seeded generator: ``next()`` is a tuple of ``dice`` faces."""

    def __init__(self, seed: int | None = None, dice: int = 2) -> None:
        self._rng = random.Random(seed)
        self.dice = dice

    def next(self) -> tuple[int, ...]:
        return tuple(self._rng.randint(1, 6) for _ in range(self.dice))


class BalancedDeck:
    """Two dice dealt from a shuffled deck of the 36 ordered pairs.

    When ``reshuffle`` cards remain, the whole deck is gathered and shuffled again, so the last
    few cards stay unknown (a player counting cards cannot be sure of them).
    """

    def __init__(self, seed: int | None = None, reshuffle: int = 5) -> None:
        if not 0 <= reshuffle < 36:
            raise ValueError(f"reshuffle must be 0..35 cards, got {reshuffle}")
        self._rng = random.Random(seed)
        self.reshuffle = reshuffle
        self.dice = 2
        self._cards: list[tuple[int, int]] = []
        self._shuffle()

    def _shuffle(self) -> None:
        self._cards = [(a, b) for a in range(1, 7) for b in range(1, 7)]
        self._rng.shuffle(self._cards)

    @property
    def remaining(self) -> int:
        return len(self._cards)

    def next(self) -> tuple[int, int]:
        if len(self._cards) <= self.reshuffle:
            self._shuffle()
        return self._cards.pop()


def _query(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    query = {k: v[-1] for k, v in parse_qs(parts.query, keep_blank_values=True).items()}
    return query


def _number(query: dict[str, str], key: str, kind, default, url: str):
    if key not in query:
        return default
    try:
        return kind(query[key])
    except ValueError:
        raise ValueError(f"dice source {url!r}: {key}={query[key]!r} is not a {kind.__name__}") from None


class VirtualSource(DiceSource):
    """Rolls from a :class:`SeededDice` or a :class:`BalancedDeck` when asked (or every ``every`` s)."""

    name = "virtual"
    rolls_on_request = True

    def __init__(self, seed: int | None = None, deck: bool = False, every: float | None = None) -> None:
        super().__init__()
        self.generator = BalancedDeck(seed) if deck else SeededDice(seed)
        self.every = every
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def start(self, on_roll, on_status=None) -> None:
        super().start(on_roll, on_status)
        self._set_status(SourceState.CONNECTED, "balanced deck" if isinstance(self.generator, BalancedDeck)
                         else "random dice")
        if self.every:
            self._stop.clear()
            self._thread = threading.Thread(target=self._auto, name="virtual-dice", daemon=True)
            self._thread.start()

    def _auto(self) -> None:
        while not self._stop.wait(self.every):
            self.roll()

    def roll(self) -> DiceRolled:
        """Roll once now and deliver it."""
        with self._lock:
            roll = DiceRolled(tuple(self.generator.next()), self.name)
        self._emit_roll(roll)
        return roll

    def request_roll(self) -> bool:
        self.roll()
        return True

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._set_status(SourceState.IDLE)


def open_virtual(url: str) -> VirtualSource:
    query = _query(url)
    unknown = set(query) - {"seed", "deck", "every"}
    if unknown:
        raise ValueError(f"dice source {url!r}: unknown option {sorted(unknown)[0]!r} "
                         "(known: seed, deck, every)")
    return VirtualSource(seed=_number(query, "seed", int, None, url),
                         deck=_number(query, "deck", int, 0, url) != 0,
                         every=_number(query, "every", float, None, url))


register_scheme("virtual", open_virtual)
