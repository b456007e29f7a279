"""Seating one round: who sits at which table, in which seat.  Pure: no I/O, no clock.

The round is a partition of the active players into tables of four, with exactly as many tables of three as
``(4 - n mod 4) mod 4`` requires.  Among such partitions we look for one of low *cost*:

- **3-table duty** (weight ``duty``, meant to be absolute): nobody sits at a 3-table while someone who has sat
  at fewer 3-tables sits at a 4-table.
- **keep-apart** (weight ``keep_apart`` per pair): two members of one keep-apart group (family, club) at a table.
- **repeat opponents** (``repeat + recency / age`` per earlier meeting of a pair, ``age`` = rounds since): so
  meeting again is always costly, and meeting the same person as last round costs most.
- **seats** (``seat`` per earlier time in the same seat): seats are start positions, chosen per table once its
  members are fixed, so everybody rotates through first, second, third and fourth player.

The search is an iterated local search over swaps of two players at different tables (only a swap involving a
player who currently costs something can improve), restarted from random kicks; every random choice comes from
``random.Random`` seeded with the event's seed and the round number, so the same inputs give the same seating.

When the player count is a square of a prime power with the right table size (16 players at tables of four,
9 at tables of three), the first candidate is a parallel class of the affine plane AG(2, q): its q + 1 classes
are rounds in which no two players ever meet twice (16 players: five such rounds), which a round-by-round local
search cannot promise on its own.  When an earlier round was seated some other way (by hand), the players are
labelled so that round is one class, and the remaining classes are tried too.  The local search starts from the
cheapest such round and keeps it unless something (a keep-apart group, a changed field) makes another cheaper.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence


class SeatingError(ValueError):
    """A round cannot be seated (too few players, five players, ...); the message says why (in English; ``key`` and
    ``values`` say it for a screen in its user's language, as :class:`~companion.tournament.TournamentError`)."""

    def __init__(self, message: str = "", key: str = "", **values) -> None:
        super().__init__(message)
        self.key, self.values = key, values


@dataclass(frozen=True)
class Weights:
    """The cost of each kind of blemish; stored per event so a re-seat is reproducible."""

    duty: float = 10_000_000.0  # far above any sum of the others: a rule, not a preference
    keep_apart: float = 100_000.0  # above any realistic sum of repeat costs in one round
    repeat: float = 100.0
    recency: float = 100.0
    seat: float = 1.0

    def to_json(self) -> dict:
        return {"duty": self.duty, "keep_apart": self.keep_apart, "repeat": self.repeat,
                "recency": self.recency, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Mapping | None) -> "Weights":
        data = dict(data or {})
        unknown = set(data) - {"duty", "keep_apart", "repeat", "recency", "seat"}
        if unknown:
            raise SeatingError(f"unknown seating weight(s): {', '.join(sorted(unknown))}")
        return cls(**{k: float(v) for k, v in data.items()})


@dataclass
class History:
    """What earlier rounds did, as the seating needs it."""

    meetings: dict[tuple[int, int], list[int]] = field(default_factory=dict)  # (low id, high id) -> rounds met
    three_duty: dict[int, int] = field(default_factory=dict)  # player -> times at a 3-table
    seat_counts: dict[int, list[int]] = field(default_factory=dict)  # player -> times in seat 1..4
    rounds: list[tuple[int, tuple[tuple[int, ...], ...]]] = field(default_factory=list)  # as given, in order

    @classmethod
    def from_rounds(cls, rounds: Iterable[tuple[int, Sequence[Sequence[int]]]]) -> "History":
        """From ``(round number, tables)`` pairs, each table a list of player ids in seat order."""
        h = cls()
        for number, tables in rounds:
            h.rounds.append((number, tuple(tuple(t) for t in tables)))
            for table in tables:
                for seat, p in enumerate(table):
                    h.seat_counts.setdefault(p, [0, 0, 0, 0])[seat] += 1
                    if len(table) == 3:
                        h.three_duty[p] = h.three_duty.get(p, 0) + 1
                for a, b in itertools.combinations(sorted(table), 2):
                    h.meetings.setdefault((a, b), []).append(number)
        return h


def table_sizes(n: int) -> list[int]:
    """Table sizes for ``n`` players: fours, then the ``(4 - n mod 4) mod 4`` threes."""
    threes = (4 - n % 4) % 4
    if n < 3 or 3 * threes > n:
        raise SeatingError(f"{n} players cannot be seated at tables of 4 and 3 "
                           f"(3, 4 and every count from 6 up can; {n} cannot)", "cannot_seat", n=n)
    return [4] * ((n - 3 * threes) // 4) + [3] * threes


@dataclass(frozen=True)
class Seating:
    """One round's tables (player ids in seat order: seat 1 starts) and the cost of that seating."""

    round: int
    tables: tuple[tuple[int, ...], ...]
    cost: "Cost"
    byes: tuple[int, ...] = ()  # players sitting the round out (a field tables cannot seat: formats.py)


@dataclass(frozen=True)
class Cost:
    """A seating's cost, item by item, so the desk can see (and explain) why it is what it is."""

    total: float
    repeats: tuple[tuple[int, int, tuple[int, ...], float], ...]  # (a, b, rounds met before, cost)
    keep_apart: tuple[tuple[int, int, tuple[str, ...], float], ...]  # (a, b, shared groups, cost)
    duty: tuple[tuple[int, int, str, float], ...]  # (player, 3-tables before, "sits at a 3-table"/..., cost)
    seats: tuple[tuple[int, int, int, float], ...]  # (player, seat 1-4, times in that seat before, cost)

    def to_json(self, names: Mapping[int, str] | None = None) -> dict:
        n = (lambda p: names.get(p, str(p))) if names else (lambda p: p)
        return {
            "total": round(self.total, 6),
            "repeat_opponents": [{"players": [n(a), n(b)], "met_in_rounds": list(r), "cost": round(c, 6)}
                                 for a, b, r, c in self.repeats],
            "keep_apart": [{"players": [n(a), n(b)], "groups": list(g), "cost": c} for a, b, g, c in self.keep_apart],
            "three_table_duty": [{"player": n(p), "three_tables_before": d, "problem": why, "cost": c}
                                 for p, d, why, c in self.duty],
            "seats": [{"player": n(p), "seat": s, "times_before": t, "cost": c} for p, s, t, c in self.seats if c],
        }

    def explain(self, names: Mapping[int, str] | None = None) -> list[str]:
        """The cost as sentences, largest items first."""
        n = (lambda p: names.get(p, str(p))) if names else str
        lines = [f"total cost {self.total:g}"]
        for p, d, why, c in self.duty:
            lines.append(f"  {c:g}: {n(p)} {why} (3-tables before: {d})")
        for a, b, g, c in self.keep_apart:
            lines.append(f"  {c:g}: {n(a)} and {n(b)} share a table though both are in {', '.join(g)}")
        for a, b, r, c in sorted(self.repeats, key=lambda x: -x[3]):
            lines.append(f"  {c:g}: {n(a)} and {n(b)} meet again (before in round {', '.join(map(str, r))})")
        seat_cost = sum(c for *_, c in self.seats)
        if seat_cost:
            lines.append(f"  {seat_cost:g}: seats already held before "
                         f"({sum(1 for *_, c in self.seats if c)} players sit where they sat before)")
        if len(lines) == 1:
            lines.append("  no repeat opponents, no keep-apart pair together, 3-table duty fair, all seats new")
        return lines


# --- affine planes: rounds in which no two players meet twice ----------------------------------------------
_GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]  # GF(4) = {0, 1, a, a+1}, a^2 = a + 1


def _field(q: int):
    if q == 4:
        return (lambda a, b: a ^ b), (lambda a, b: _GF4_MUL[a][b])
    if q in (2, 3, 5, 7):
        return (lambda a, b: (a + b) % q), (lambda a, b: (a * b) % q)
    raise ValueError(q)


def affine_class(q: int, index: int) -> list[list[int]]:
    """Parallel class ``index`` (0..q) of AG(2, q): q lines of q points, points numbered ``x * q + y``.

    Classes 0..q-1 are the lines ``y = m x + b`` of slope m = index; class q the vertical lines.  Two points lie
    on exactly one common line, so across all classes no pair of points shares a line twice.  Each line lists
    its points in seat order.
    """
    add, mul = _field(q)
    if index == q:
        return [[x * q + y for y in range(q)] for x in range(q)]
    lines = []
    for b in range(q):
        line = [0] * q
        for x in range(q):
            # seat x + m: distinct within a line (x differs) and, for one point, across classes 0..q-1, so
            # in the first q rounds everybody sits once in every seat
            line[add(x, index)] = x * q + add(mul(index, x), b)
        lines.append(line)
    return lines


def _design_candidates(players: list[int], round_no: int, seed: str, history: History) -> list[list[list[int]]]:
    """Rounds taken from an affine plane whose points are the players (16 or 9 players, else none).

    When an earlier round seated exactly these players at q tables of q (by this search or by hand), a labelling
    that makes the first such round class 0, so that classes 1..q are rounds in which nobody meets anybody from
    that round again; then the event's own labelling (a seeded shuffle; round r uses class r - 1), which is what
    round 1 gets.
    """
    n = len(players)
    q = {16: 4, 9: 3}.get(n)
    if q is None:
        return []
    order = sorted(players)
    random.Random(f"{seed}:design").shuffle(order)  # which player is which point: fixed for the event
    own = [[order[i] for i in line] for line in affine_class(q, (round_no - 1) % (q + 1))]
    out = []
    everyone = set(players)
    for _, tables in history.rounds:
        if len(tables) == q and all(len(t) == q for t in tables) and {p for t in tables for p in t} == everyone:
            # class 0's line b holds the points x * q + b, seat x: put table b's seat x there
            derived = [0] * n
            for b, table in enumerate(tables):
                for x, p in enumerate(table):
                    derived[x * q + b] = p
            out += [[[derived[i] for i in line] for line in affine_class(q, m)] for m in range(1, q + 1)]
            break
    # once a first round exists, its labelling comes first: every later round is derived from that same round,
    # so the classes stay one plane (the event's own labelling might fit one round by chance, then strand the next)
    return out + [own]


# --- the search ---------------------------------------------------------------------------------------------
class _Problem:
    def __init__(self, players, round_no, history: History, groups, weights: Weights, sizes):
        self.players = players
        self.sizes = sizes
        self.w = weights
        active = set(players)
        # pair weights, sparse: only pairs with a reason to stay apart
        self.pw: dict[int, dict[int, float]] = {p: {} for p in players}
        for (a, b), rounds in history.meetings.items():
            if a in active and b in active:
                c = sum(weights.repeat + weights.recency / max(1, round_no - r) for r in rounds)
                self.pw[a][b] = self.pw[a].get(b, 0) + c
                self.pw[b][a] = self.pw[b].get(a, 0) + c
        members: dict[str, list[int]] = {}
        for p in players:
            for g in groups.get(p, ()):
                members.setdefault(g, []).append(p)
        for ms in members.values():
            for a, b in itertools.combinations(ms, 2):
                self.pw[a][b] = self.pw[a].get(b, 0) + weights.keep_apart
                self.pw[b][a] = self.pw[b].get(a, 0) + weights.keep_apart
        # 3-table duty: the 3 * threes players with the fewest 3-tables so far must take them
        slots = sum(s for s in sizes if s == 3)
        duty = {p: history.three_duty.get(p, 0) for p in players}
        self.duty = duty
        if slots:
            self.threshold = sorted(duty.values())[slots - 1]
        else:
            self.threshold = -1
        self.pen3 = {p: (weights.duty if duty[p] > self.threshold else 0.0) for p in players}
        self.pen4 = {p: (weights.duty if duty[p] < self.threshold else 0.0) for p in players}

    def player_cost(self, p, table) -> float:
        w = self.pw[p]
        c = sum(w.get(x, 0.0) for x in table if x != p)
        return c

    def table_cost(self, table) -> float:
        c = 0.0
        for i, a in enumerate(table):
            w = self.pw[a]
            for b in table[i + 1:]:
                c += w.get(b, 0.0)
            c += self.pen3[a] if len(table) == 3 else self.pen4[a]
        return c

    def total(self, tables) -> float:
        return sum(self.table_cost(t) for t in tables)


def _greedy(problem: _Problem, rng: random.Random) -> list[list[int]]:
    """Players in random order, each to the open table where they add least (3-table duty first)."""
    sizes = problem.sizes
    tables: list[list[int]] = [[] for _ in sizes]
    order = list(problem.players)
    rng.shuffle(order)
    # players owed a 3-table go first, those who must not sit at one last, so duty is met by construction
    order.sort(key=lambda p: (0 if problem.pen4[p] else 2 if problem.pen3[p] else 1))
    for p in order:
        best, best_c = None, None
        for i, t in enumerate(tables):
            if len(t) >= sizes[i]:
                continue
            c = problem.player_cost(p, t) + (problem.pen3[p] if sizes[i] == 3 else problem.pen4[p])
            if best_c is None or c < best_c:
                best, best_c = i, c
        tables[best].append(p)
    return tables


def _local_search(problem: _Problem, tables: list[list[int]], rng: random.Random, kicks: int) -> list[list[int]]:
    pw, pen3, pen4 = problem.pw, problem.pen3, problem.pen4
    where = {p: i for i, t in enumerate(tables) for p in t}

    def delta(p, q):
        a, b = where[p], where[q]
        ta, tb = tables[a], tables[b]
        wp, wq = pw[p], pw[q]
        d = 0.0
        for x in ta:
            if x != p:
                d += wq.get(x, 0.0) - wp.get(x, 0.0)
        for y in tb:
            if y != q:
                d += wp.get(y, 0.0) - wq.get(y, 0.0)
        la, lb = len(ta), len(tb)
        if la != lb:
            # p moves to a table of size lb, q to one of size la
            d += (pen3[p] if lb == 3 else pen4[p]) - (pen3[p] if la == 3 else pen4[p])
            d += (pen3[q] if la == 3 else pen4[q]) - (pen3[q] if lb == 3 else pen4[q])
        return d

    def swap(p, q):
        a, b = where[p], where[q]
        ta, tb = tables[a], tables[b]
        ta[ta.index(p)] = q
        tb[tb.index(q)] = p
        where[p], where[q] = b, a

    def costly():
        out = []
        for t in tables:
            three = len(t) == 3
            for p in t:
                w = pw[p]
                if (pen3[p] if three else pen4[p]) or any(x != p and x in w for x in t):
                    out.append(p)
        return out

    def descend():
        while True:
            improved = False
            hot = costly()
            rng.shuffle(hot)
            for p in hot:
                best_q, best_d = None, -1e-9
                for q in problem.players:
                    if where[q] == where[p]:
                        continue
                    d = delta(p, q)
                    if d < best_d:
                        best_q, best_d = q, d
                if best_q is not None:
                    swap(p, best_q)
                    improved = True
            if not improved:
                return

    descend()
    best_cost = problem.total(tables)
    best = [list(t) for t in tables]
    players = problem.players
    for _ in range(kicks):
        if best_cost <= 0:
            break
        hot = costly()
        if not hot:
            break
        # kick: move a few costly players to random other tables, then descend again
        for _ in range(min(3, len(hot))):
            p = rng.choice(hot)
            q = rng.choice(players)
            if where[q] != where[p]:
                swap(p, q)
        descend()
        c = problem.total(tables)
        if c < best_cost - 1e-9:
            best_cost, best = c, [list(t) for t in tables]
        else:
            # continue from the best seating found, not from a worse one
            for i, t in enumerate(best):
                tables[i] = list(t)
            where.clear()
            where.update({p: i for i, t in enumerate(tables) for p in t})
    return best


def _order_seats(table: list[int], history: History, rng: random.Random) -> tuple[int, ...]:
    """The seat order (start positions) that repeats fewest earlier seats; ties broken by the seeded rng."""
    perms = list(itertools.permutations(table))
    rng.shuffle(perms)
    return min(perms, key=lambda perm: _seat_cost(perm, history))


def _seat_cost(perm, history: History) -> int:
    return sum(history.seat_counts.get(p, (0, 0, 0, 0))[s] for s, p in enumerate(perm))


def seat_round(players: Sequence[int], round_no: int, history: History | None = None, *,
               groups: Mapping[int, Iterable[str]] | None = None, seed: int | str = 0,
               weights: Weights | None = None, kicks: int = 200) -> Seating:
    """Seat ``players`` (ids) for round ``round_no`` given the earlier rounds in ``history``.

    ``groups`` maps a player to the keep-apart groups they belong to.  The result is reproducible from
    ``seed``: the same players, history, groups and seed give the same tables.
    """
    history = history or History()
    weights = weights or Weights()
    groups = {p: tuple(sorted(set(g))) for p, g in (groups or {}).items()}
    players = sorted(set(players))
    sizes = table_sizes(len(players))
    problem = _Problem(players, round_no, history, groups, weights, sizes)
    rng = random.Random(f"{seed}:round:{round_no}")
    candidates = []
    designs = _design_candidates(players, round_no, str(seed), history)
    designs.sort(key=problem.total)  # stable: the event's own labelling first among equals
    candidates.extend(designs)
    candidates.append(_greedy(problem, rng))
    best, best_cost, design = None, None, None
    for start in candidates:
        tables = _local_search(problem, [list(t) for t in start], rng, kicks)
        c = problem.total(tables)
        if best_cost is None or c < best_cost - 1e-9:
            best, best_cost = tables, c
            design = start if any(start is d for d in designs) else None
        if best_cost <= 0:
            break
    # fours first, then threes; within a size, by lowest player id, so table numbers do not depend on search order
    best.sort(key=lambda t: (-len(t), min(t)))
    design_order = {frozenset(t): tuple(t) for t in design or ()}
    ordered = []
    for t in best:
        seats = _order_seats(t, history, rng)
        planned = design_order.get(frozenset(t))
        if planned is not None and _seat_cost(planned, history) <= _seat_cost(seats, history):
            seats = planned  # the design's rotation: everybody in every seat once over its first q rounds
        ordered.append(seats)
    ordered = tuple(ordered)
    return Seating(round_no, ordered, seating_cost(ordered, round_no, history, groups=groups, weights=weights))


def seating_cost(tables: Sequence[Sequence[int]], round_no: int, history: History | None = None, *,
                 groups: Mapping[int, Iterable[str]] | None = None, weights: Weights | None = None) -> Cost:
    """The cost of a given seating, item by item (also for a seating made by hand)."""
    history = history or History()
    weights = weights or Weights()
    groups = {p: set(g) for p, g in (groups or {}).items()}
    players = [p for t in tables for p in t]
    repeats, apart, duty, seats = [], [], [], []
    for t in tables:
        for a, b in itertools.combinations(sorted(t), 2):
            met = history.meetings.get((a, b), [])
            if met:
                c = sum(weights.repeat + weights.recency / max(1, round_no - r) for r in met)
                repeats.append((a, b, tuple(met), c))
            shared = groups.get(a, set()) & groups.get(b, set())
            if shared:
                apart.append((a, b, tuple(sorted(shared)), weights.keep_apart * len(shared)))
        for s, p in enumerate(t):
            times = history.seat_counts.get(p, (0, 0, 0, 0))[s]
            seats.append((p, s + 1, times, weights.seat * times))
    slots = sum(len(t) for t in tables if len(t) == 3)
    if slots:
        counts = {p: history.three_duty.get(p, 0) for p in players}
        threshold = sorted(counts.values())[slots - 1]
        for t in tables:
            for p in t:
                if len(t) == 3 and counts[p] > threshold:
                    duty.append((p, counts[p], "sits at a 3-table again while others have sat at fewer",
                                 weights.duty))
                elif len(t) == 4 and counts[p] < threshold:
                    duty.append((p, counts[p], "sits at a 4-table though owed a 3-table turn", weights.duty))
    total = sum(x[-1] for x in repeats) + sum(x[-1] for x in apart) + sum(x[-1] for x in duty) + \
        sum(x[-1] for x in seats)
    return Cost(total, tuple(repeats), tuple(apart), tuple(duty), tuple(seats))


def snake(ranked: Sequence[int], n_tables: int) -> tuple[tuple[int, ...], ...]:
    """Seed ranked players into ``n_tables`` tables by snake order: with 16 and 4 tables, table 1 gets
    places 1, 8, 9 and 16, table 2 gets 2, 7, 10, 15, and so on.  Seats follow rank (the best-placed player
    chooses first)."""
    if n_tables < 1:
        raise SeatingError("snake seeding needs at least one table")
    if len(ranked) % n_tables:
        raise SeatingError(f"{len(ranked)} players do not fill {n_tables} tables evenly")
    tables: list[list[int]] = [[] for _ in range(n_tables)]
    for i, p in enumerate(ranked):
        block, pos = divmod(i, n_tables)
        tables[pos if block % 2 == 0 else n_tables - 1 - pos].append(p)
    return tuple(tuple(t) for t in tables)
