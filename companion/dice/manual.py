"""The manual dice source: the players roll real dice and tap what they show.

``open_source("manual:")`` gives a :class:`ManualSource`; the dice panel calls ``tap(a, b)`` and
the roll reaches ``on_roll`` like any other source's, at once and on the caller's thread.
"""

from __future__ import annotations

from . import DiceRolled, DiceSource, SourceState, register_scheme


class ManualSource(DiceSource):
    name = "manual"

    def start(self, on_roll, on_status=None) -> None:
        super().start(on_roll, on_status)
        self._set_status(SourceState.CONNECTED, "tap the dice")

    def tap(self, *values: int) -> DiceRolled:
        """Deliver the faces a player tapped (two for Catan); ``ValueError`` names a bad face."""
        if not values:
            raise ValueError("a manual roll needs the dice faces, e.g. tap(3, 4)")
        for i, v in enumerate(values):
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
                raise ValueError(f"die {i + 1} of the manual roll must be 1..6, got {v!r}")
        if self._on_roll is None:
            raise RuntimeError("manual source tapped before start()")
        roll = DiceRolled(tuple(values), self.name)
        self._emit_roll(roll)
        return roll

    def stop(self) -> None:
        self._set_status(SourceState.IDLE)


def open_manual(url: str) -> ManualSource:
    rest = url.split(":", 1)[1].strip("/")
    if rest:
        raise ValueError(f"dice source {url!r}: manual takes no options (use 'manual:')")
    return ManualSource()


register_scheme("manual", open_manual)
