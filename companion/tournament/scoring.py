"""Scoring presets and standings.  Pure: a preset and the table results in, the standings out.

Every number that decides a place is exact (``fractions.Fraction``): VP shares such as 10/32 and split points
such as (3 + 2) / 2 compare without rounding, so two players are tied exactly when the rules say they are.
The sources of the presets are in docs/tournament.md.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Mapping, Sequence


class ScoringError(ValueError):
    """A preset or a result that cannot be scored; the message says what is wrong."""


CRITERIA = {
    "wins": "games won",
    "points": "tournament points",
    "vp": "victory points",
    "share_sum": "summed share of the table's VP",
    "share_avg": "average share of the table's VP",
    "places": "counts of 1st, then 2nd, then 3rd places",
    "seconds": "2nd places",
    "thirds": "3rd places",
    "lot": "lot (drawn from the event's seed)",
}


@dataclass(frozen=True)
class Preset:
    """How an event ranks its players.

    ``points4``/``points3``: tournament points for 1st, 2nd, ... place at a 4-/3-player table (tied places share
    the points of the places they span).  ``cap_vp``: count VP only up to the win target.  ``dummy_share``: at a
    3-player table a fourth score equal to the table's average joins the total the shares are taken of.
    ``time_win``: in a game ended by the time limit, a sole VP leader is credited with a win.
    ``time_tiebreak``: ``"buildings"`` -- in such a game, leaders level on VP are told apart by their buildings'
    points (settlements 1, cities 2), as the Japanese rules of 2006 do; ``""``: they stay level.
    ``order``: the ranking criteria, most important first (names in ``CRITERIA``).
    """

    key: str
    title: str
    order: tuple[str, ...]
    points4: tuple[Fraction, ...] = ()
    points3: tuple[Fraction, ...] = ()
    cap_vp: bool = True
    dummy_share: bool = False
    time_win: bool = True
    time_tiebreak: str = ""
    bye_win: bool = False  # a bye counts as a win: a win, a 1st place and its points (no game, no VP, no share)

    def __post_init__(self):
        if self.time_tiebreak not in ("", "buildings"):
            raise ScoringError(f"unknown time-limit tiebreak {self.time_tiebreak!r} (buildings or none)")
        for c in self.order:
            if c not in CRITERIA:
                raise ScoringError(f"unknown ranking criterion {c!r}; known: {', '.join(CRITERIA)}")
        if "points" in self.order and (len(self.points4) != 4 or len(self.points3) != 3):
            raise ScoringError("a preset ranking by points needs 4 points for a 4-player table and 3 for a 3-player table")

    def to_json(self) -> dict:
        return {"key": self.key, "title": self.title, "order": list(self.order),
                "points4": [_num(p) for p in self.points4], "points3": [_num(p) for p in self.points3],
                "cap_vp": self.cap_vp, "dummy_share": self.dummy_share, "time_win": self.time_win,
                **({"time_tiebreak": self.time_tiebreak} if self.time_tiebreak else {}),
                **({"bye_win": True} if self.bye_win else {})}

    @classmethod
    def from_json(cls, data: Mapping) -> "Preset":
        if data.get("key") in PRESETS and set(data) <= {"key"}:
            return PRESETS[data["key"]]
        try:
            return cls(key=str(data["key"]), title=str(data.get("title", data["key"])),
                       order=tuple(data["order"]),
                       points4=tuple(Fraction(str(p)) for p in data.get("points4", ())),
                       points3=tuple(Fraction(str(p)) for p in data.get("points3", ())),
                       cap_vp=bool(data.get("cap_vp", True)), dummy_share=bool(data.get("dummy_share", False)),
                       time_win=bool(data.get("time_win", True)),
                       time_tiebreak=str(data.get("time_tiebreak", "")), bye_win=bool(data.get("bye_win", False)))
        except (KeyError, TypeError, ValueError) as error:
            raise ScoringError(f"bad preset {data!r}: {error}") from None


def _f(*xs) -> tuple[Fraction, ...]:
    return tuple(Fraction(x) for x in xs)


PRESETS: dict[str, Preset] = {
    "catan-studio": Preset("catan-studio", "CATAN Studio / world championship",
                           ("wins", "vp", "share_sum", "seconds", "thirds", "lot"),
                           cap_vp=True, dummy_share=True, time_win=True),
    "german": Preset("german", "German championship (Deutsche Catan-Meisterschaft)",
                     ("points", "vp", "share_avg", "places"),
                     points4=_f(5, 3, 2, 1), points3=_f(5, 3, 1), cap_vp=True, dummy_share=False, time_win=True),
    "japanese": Preset("japanese", "Japanese championship",
                       ("wins", "vp", "share_sum"),
                       cap_vp=False, dummy_share=False, time_win=True, time_tiebreak="buildings"),
}


def custom_preset(points4: Sequence, points3: Sequence, order: Sequence[str], *, cap_vp: bool = True,
                  dummy_share: bool = False, time_win: bool = True, title: str = "custom") -> Preset:
    """A preset of the event's own: points per place and a tiebreak order."""
    try:
        p4 = tuple(Fraction(str(p)) for p in points4)
        p3 = tuple(Fraction(str(p)) for p in points3)
    except ValueError as error:
        raise ScoringError(f"points must be numbers: {error}") from None
    return Preset("custom", title, tuple(order), p4, p3, cap_vp=cap_vp, dummy_share=dummy_share, time_win=time_win)


# --- one game ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableResult:
    """A table's result as entered: each seated player's VP, the winner (None when the time limit ended the
    game without one reaching the target), and whether the time limit ended it."""

    round: int
    table: int
    vp: Mapping[int, int]  # player -> VP, every player at the table
    winner: int | None
    ended_by_time: bool = False
    buildings: Mapping[int, int] | None = None  # player -> settlement and city points, when the record said
    # player -> resource cards in hand at the end, when the record's game breaks a tie on VP by them (High Tide)
    cards: Mapping[int, int] | None = None


@dataclass(frozen=True)
class GameScore:
    """One player's line from one game, as the preset counts it."""

    player: int
    round: int
    table: int
    size: int
    vp: int  # as entered
    counted_vp: int  # capped at the target when the preset caps
    place: int  # 1 = best; tied players share the better place
    won: bool
    points: Fraction
    share: Fraction


def score_game(result: TableResult, preset: Preset, vp_target: int) -> list[GameScore]:
    """Places, points and shares of one game.

    The winner (if any) is 1st; everybody else is placed by VP, equal VP sharing the better place -- in a game
    whose rules break a tie on VP by resource cards (High Tide: the result carries ``cards``), equal VP are placed
    by cards, equal on both sharing the better place, as the game's own ``Outcome.places``.  In a game ended by
    time with no winner named, the players are placed by VP alone and, when the preset says so, a sole VP leader
    is credited with the win.
    """
    vp = dict(result.vp)
    size = len(vp)
    if size not in (3, 4):
        raise ScoringError(f"round {result.round} table {result.table}: a table has 3 or 4 players, not {size}")
    winner = result.winner
    if winner is None and result.ended_by_time and preset.time_win:
        best = max(vp.values())
        leaders = [p for p, v in vp.items() if v == best]
        if len(leaders) > 1 and preset.time_tiebreak == "buildings" and result.buildings:
            most = max(result.buildings.get(p, 0) for p in leaders)
            leaders = [p for p in leaders if result.buildings.get(p, 0) == most]
        if len(leaders) == 1:
            winner = leaders[0]
    # cards break a tie on VP in a game that ended by its own rules (by time, VP alone: as the game places)
    cards = result.cards if result.cards and winner is not None and not result.ended_by_time else None

    # sort key: the winner first, then VP descending (then resource cards, in a game that counts them)
    def key(p):
        return (0 if p == winner else 1, -vp[p], -cards.get(p, 0) if cards else 0)
    order = sorted(vp, key=key)
    places: dict[int, int] = {}
    spans: dict[int, tuple[int, int]] = {}
    i = 0
    while i < size:
        j = i
        while j + 1 < size and key(order[j + 1]) == key(order[i]):
            j += 1
        for k in range(i, j + 1):
            places[order[k]] = i + 1
            spans[order[k]] = (i, j)
        i = j + 1
    table_points = preset.points4 if size == 4 else preset.points3
    counted = {p: (min(v, vp_target) if preset.cap_vp else v) for p, v in vp.items()}
    total = Fraction(sum(counted.values()))
    if preset.dummy_share and size == 3:
        total += total / 3  # a fourth score equal to the table's average
    out = []
    for p in vp:
        lo, hi = spans[p]
        pts = (sum(table_points[lo:hi + 1], Fraction(0)) / (hi - lo + 1)) if table_points else Fraction(0)
        out.append(GameScore(p, result.round, result.table, size, vp[p], counted[p], places[p], p == winner, pts,
                             Fraction(counted[p]) / total if total else Fraction(0)))
    return out


# --- standings ---------------------------------------------------------------------------------------------
@dataclass
class Standing:
    """A player's line in the standings."""

    player: int
    rank: int = 0
    games: int = 0
    wins: int = 0
    points: Fraction = Fraction(0)
    vp: int = 0
    share_sum: Fraction = Fraction(0)
    place_counts: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    lot: int = 0
    decided_by: str | None = None  # the criterion that put this player below the one above (None: tied or first)
    dropped: bool = False
    scores: list[GameScore] = field(default_factory=list)

    @property
    def share_avg(self) -> Fraction:
        return self.share_sum / self.games if self.games else Fraction(0)

    def value(self, criterion: str):
        if criterion == "wins":
            return self.wins
        if criterion == "points":
            return self.points
        if criterion == "vp":
            return self.vp
        if criterion == "share_sum":
            return self.share_sum
        if criterion == "share_avg":
            return self.share_avg
        if criterion == "places":
            return tuple(self.place_counts[:3])
        if criterion == "seconds":
            return self.place_counts[1]
        if criterion == "thirds":
            return self.place_counts[2]
        if criterion == "lot":
            return -self.lot  # a lower lot number ranks higher
        raise ScoringError(criterion)

    def key(self, order: Sequence[str]) -> tuple:
        return tuple(self.value(c) for c in order)

    def to_json(self, names: Mapping[int, str] | None = None) -> dict:
        return {
            "rank": self.rank, "player": names.get(self.player, self.player) if names else self.player,
            "games": self.games, "wins": self.wins, "points": _num(self.points), "vp": self.vp,
            "share_sum": round(float(self.share_sum), 6), "share_avg": round(float(self.share_avg), 6),
            "places": self.place_counts[:4], "decided_by": self.decided_by, "dropped": self.dropped,
        }


def standings(players: Iterable[int], results: Iterable[TableResult], preset: Preset, vp_target: int, *,
              seed: int | str = 0, dropped: Iterable[int] = (), byes: Iterable[int] = ()) -> list[Standing]:
    """Rank ``players`` by the preset's criteria over ``results``.

    ``byes``: a player for each bye given (a player twice for two). With the preset's ``bye_win`` each is counted
    as a win: a win, a 1st place and the 1st place's points at a 4-player table -- not a game played, no VP, no
    share (so averages stay those of the games played). Without it a bye counts for nothing.

    Players equal on every criterion share a rank (the next rank is skipped, as in 1, 2, 2, 4); a preset whose
    last criterion is ``lot`` never leaves a tie.  ``decided_by`` names the criterion that separated each
    player from the one ranked just above.
    """
    table: dict[int, Standing] = {p: Standing(p) for p in players}
    for p in dropped:
        if p in table:
            table[p].dropped = True
    for result in results:
        for s in score_game(result, preset, vp_target):
            if s.player not in table:
                table[s.player] = Standing(s.player)
            row = table[s.player]
            row.games += 1
            row.wins += s.won
            row.points += s.points
            row.vp += s.counted_vp
            row.share_sum += s.share
            row.place_counts[s.place - 1] += 1
            row.scores.append(s)
    for p in byes if preset.bye_win else ():
        row = table.setdefault(p, Standing(p))
        row.wins += 1
        row.place_counts[0] += 1
        row.points += preset.points4[0] if preset.points4 else Fraction(0)
    ids = sorted(table)
    lots = list(range(1, len(ids) + 1))
    random.Random(f"{seed}:lot").shuffle(lots)
    for p, lot in zip(ids, lots):
        table[p].lot = lot
    order = preset.order
    rows = sorted(table.values(), key=lambda r: (r.key(order), -r.player), reverse=True)
    for i, row in enumerate(rows):
        if i == 0:
            row.rank = 1
            continue
        above = rows[i - 1]
        if row.key(order) == above.key(order):
            row.rank = above.rank
            row.decided_by = None
        else:
            row.rank = i + 1
            row.decided_by = next(c for c in order if row.value(c) != above.value(c))
    return rows


def _num(x: Fraction):
    """A Fraction as JSON: an int when whole, else a float."""
    return int(x) if x.denominator == 1 else float(x)
