"""Where simulated dice come from: a seeded random roller and a balanced deck.

A leaf both dice layers use: the dice-box simulator takes its faces from here, and the app's
``virtual://`` source (``companion.dice.virtual``) rolls with the same generators -- so the box's
layer never reaches up into the app's.

:class:`BalancedDeck` deals the 36 ordered pairs of two dice, shuffled, reshuffled when only
``reshuffle`` (default 5) cards are left -- as the Catan "event cards" deck does -- so that over
31 rolls every total comes up in proportion and no pair repeats.
"""

from __future__ import annotations

import random


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
