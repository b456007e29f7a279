"""The kinds of wrong, each its own ``ValueError`` so callers can say exactly what happened.

Each carries a :class:`~companion.rules.refusals.Refusal` (``code`` and ``params``) so that an app can
say it in its user's language; ``str(error)`` stays the English sentence.
"""

from __future__ import annotations


from .refusals import Refusal

TYPE_CHECKING = False  # (typing is not imported at run time: see values.py)
if TYPE_CHECKING:
    from typing import Any


class Refused:
    """What carries a :class:`Refusal` (``self.refusal``) shows its ``code`` and ``params``."""

    __slots__ = ()

    @property
    def code(self) -> str:
        return self.refusal.code

    @property
    def params(self) -> dict[str, Any]:
        return self.refusal.params


class RulesError(Refused, ValueError):
    """Base of every error the rules core raises.  Built from a :class:`Refusal`, or from an English
    text, which then travels under the class's generic code with the text as its ``detail``."""

    generic_code = "illegal_action"

    def __init__(self, reason: "Refusal | str"):
        if not isinstance(reason, Refusal):
            reason = Refusal(self.generic_code, detail=str(reason))
        self.refusal = reason
        super().__init__(str(reason))


class BoardError(RulesError):
    """A board that cannot be played.  ``problems`` lists every problem found, by hex."""

    generic_code = "board_format"

    def __init__(self, problems: list["BoardProblem"]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems) or "invalid board")


class MalformedEvent(RulesError):
    """An event whose shape is wrong (missing field, wrong type, unknown name)."""

    generic_code = "malformed_event"


class IllegalAction(RulesError):
    """An event that is well formed but breaks a rule in the current state."""


class BoardProblem(Refused):
    """One problem with a board, at a hex (or board-wide when ``at`` is None), with its :class:`Refusal`."""

    __slots__ = ("at", "refusal")

    def __init__(self, at, reason: "Refusal | str"):
        self.at = at
        self.refusal = reason if isinstance(reason, Refusal) else Refusal("board_format", detail=str(reason))

    @property
    def message(self) -> str:
        return str(self.refusal)

    def __str__(self) -> str:
        return f"hex {list(self.at)}: {self.message}" if self.at is not None else self.message

    def __repr__(self) -> str:
        return f"BoardProblem({self.at!r}, {self.message!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, BoardProblem) and (self.at, self.message) == (other.at, other.message)
