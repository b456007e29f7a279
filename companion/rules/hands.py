"""Hands as far as they are known.

Hand *sizes* are always exact.  Hand *contents* are tracked as lower bounds per resource plus a
count of cards nobody at the table has seen (a blind steal moves an "unknown" card).  Every card
that enters or leaves the bank is named by the rules (costs, production, discards, maritime trade),
so the bank's contents stay exact even when players' hands are not.
"""

from __future__ import annotations

from .errors import IllegalAction
from .refusals import Refusal

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Mapping


class Hand:
    """A player's hand: ``known`` counts by resource (lower bounds) and ``unknown`` unseen cards.
    (A plain class with slots: copied with every state, so kept as small as a value can be.)"""

    __slots__ = ("known", "unknown")
    __hash__ = None  # mutable

    def __init__(self, known: dict[str, int] | None = None, unknown: int = 0):
        self.known = {} if known is None else known
        self.unknown = unknown

    def __eq__(self, other):
        if other.__class__ is not Hand:
            return NotImplemented
        return self.known == other.known and self.unknown == other.unknown

    def __repr__(self) -> str:
        return f"Hand(known={self.known!r}, unknown={self.unknown!r})"

    def copy(self) -> "Hand":
        new = object.__new__(Hand)
        new.known = dict(self.known)
        new.unknown = self.unknown
        return new

    @property
    def size(self) -> int:
        return sum(self.known.values()) + self.unknown

    def count(self, resource: str) -> int:
        """Cards of ``resource`` known to be in the hand (a lower bound)."""
        return self.known.get(resource, 0)

    def can_pay(self, cards: Mapping[str, int]) -> bool:
        """Whether the hand may hold ``cards``: what the known cards do not cover must fit in the unknown ones."""
        known = self.known
        missing = 0
        for r, n in cards.items():  # (a plain loop: every payment and trade asks)
            have = known.get(r, 0)
            if n > have:
                missing += n - have
        return missing <= self.unknown

    def most_of(self, resource: str, beside: Mapping[str, int] | None = None) -> int:
        """The most cards of ``resource`` the hand may give up along with ``beside`` (cards of other kinds already
        chosen): those known of it, and the unknown ones the chosen others do not already need.  A discard's +
        stops there: one more would be refused (:meth:`can_pay`)."""
        known = self.known
        needed = 0  # unknown cards the others chosen take (what their known counts do not cover)
        for r, n in (beside or {}).items():
            if r != resource and n > known.get(r, 0):
                needed += n - known.get(r, 0)
        return known.get(resource, 0) + max(0, self.unknown - needed)

    def add(self, cards: Mapping[str, int]) -> None:
        for r, n in cards.items():
            if n:
                self.known[r] = self.known.get(r, 0) + n

    def remove(self, cards: Mapping[str, int], player: int | None = None) -> None:
        """Take named cards out; what the known cards do not cover comes out of the unknown ones.
        (``player``: whose hand, for the refusal.)"""
        if not self.can_pay(cards):
            if player is None:
                raise IllegalAction(Refusal("hand_lacks", cards=dict(cards), holds=self.holdings()))
            raise IllegalAction(Refusal("does_not_hold_hand", player=player, cards=dict(cards), holds=self.holdings()))
        self.take(cards)

    def take(self, cards: Mapping[str, int]) -> None:
        """:meth:`remove` for a caller that has just asked :meth:`can_pay` (a payment, a trade): the check not
        made twice.  Cards the hand may not hold would leave it fewer than none unseen."""
        known = self.known
        for r, n in cards.items():
            have = known.get(r, 0)
            from_known = have if have < n else n
            if from_known:
                if have == from_known:
                    del known[r]
                else:
                    known[r] = have - from_known
            self.unknown -= n - from_known

    def remove_all(self, resource: str) -> int:
        n = self.known.pop(resource, 0)
        return n

    def lose_unseen(self) -> None:
        """One card leaves without anybody seeing which: every known count may have dropped by one."""
        if self.size == 0:
            raise IllegalAction(Refusal("empty_hand"))
        if self.unknown:
            # The lost card may be one of the unknown ones or any known one; stay with what is certain.
            self.unknown -= 1
            for r in list(self.known):
                self.known[r] -= 1
                self.unknown += 1
                if not self.known[r]:
                    del self.known[r]
        else:
            kinds = [r for r, n in self.known.items() if n]
            if len(kinds) == 1:
                self.known[kinds[0]] -= 1
                if not self.known[kinds[0]]:
                    del self.known[kinds[0]]
                return
            size = self.size - 1
            for r in kinds:
                self.known[r] -= 1
                if not self.known[r]:
                    del self.known[r]
            self.unknown = size - sum(self.known.values())

    def holdings(self) -> dict[str, int]:
        """What the table knows of the hand, as plain data: named counts, and ``unseen`` cards if any."""
        out = {r: n for r, n in sorted(self.known.items()) if n}
        if self.unknown:
            out["unseen"] = self.unknown
        return out
