"""The virtual dice source: a seeded random roller or a balanced deck, no hardware.

``virtual://?seed=4`` rolls two dice with ``random.Random(4)``; ``virtual://?seed=4&deck=1`` deals
from a balanced deck instead: the 36 ordered pairs of two dice, shuffled, reshuffled when only
``reshuffle`` (default 5) cards are left -- as the Catan "event cards" deck does -- so that over
31 rolls every total comes up in proportion and no pair repeats.  ``every=S`` rolls by itself
every S seconds; otherwise ``roll()`` (or ``request_roll()``, the app's roll button) rolls once.

The generators (:class:`SeededDice`, :class:`BalancedDeck`) live in ``firmware_bridge.roll_generators``,
a leaf this source and the dice-box simulator both use for their faces.
"""

from __future__ import annotations

import threading
from urllib.parse import parse_qs, urlsplit

from firmware_bridge.roll_generators import BalancedDeck, SeededDice

from . import DiceRolled, DiceSource, SourceState, register_scheme

__all__ = ["BalancedDeck", "SeededDice", "VirtualSource", "open_virtual"]


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
