"""The kinds of wrong, each its own ``ValueError`` so callers can say exactly what happened."""

from __future__ import annotations


class RulesError(ValueError):
    """Base of every error the rules core raises."""


class BoardError(RulesError):
    """A board that cannot be played.  ``problems`` lists every problem found, by hex."""

    def __init__(self, problems: list["BoardProblem"]):
        self.problems = problems
        super().__init__("; ".join(str(p) for p in problems) or "invalid board")


class MalformedEvent(RulesError):
    """An event whose shape is wrong (missing field, wrong type, unknown name)."""


class IllegalAction(RulesError):
    """An event that is well formed but breaks a rule in the current state."""


class BoardProblem:
    """One problem with a board, at a hex (or board-wide when ``at`` is None)."""

    __slots__ = ("at", "message")

    def __init__(self, at, message: str):
        self.at = at
        self.message = message

    def __str__(self) -> str:
        return f"hex {list(self.at)}: {self.message}" if self.at is not None else self.message

    def __repr__(self) -> str:
        return f"BoardProblem({self.at!r}, {self.message!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, BoardProblem) and (self.at, self.message) == (other.at, other.message)
