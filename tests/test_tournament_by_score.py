"""Seating by score (Swiss, スイスドロー) avoids repeat opponents where it can: the standings' tables, then swaps
between nearby tables that make fewer earlier opponents meet again. On a real desk file, and as a property of the
pure search over random histories."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings, strategies as st

from companion.tournament import Desk, formats
from companion.tournament.seating import History, table_sizes


def repeats(tables, history: History) -> int:
    return sum(1 for t in tables for a, b in itertools.combinations(sorted(t), 2) if (a, b) in history.meetings)


def test_the_runners_up_of_one_strong_table_are_not_seated_together_again(tmp_path):
    """Round 1: at one table everybody but the winner made 9 VP, at the others 2-4. In the standings the winners
    lead and that table's three runners-up come next: filled straight, round 2's table 2 would seat the three of
    them together again. Seated by score, the leaders still share table 1 and nobody meets an opponent again."""
    with Desk(tmp_path / "t.sqlite3") as desk:
        ev = desk.create_event("Open", "catan-studio", seed=11)
        for i in range(16):
            desk.add_player(ev.id, f"P{i:02d}")
        first = desk.seat_round(ev.id)
        names = desk.names(ev.id)
        strong = first.tables[0]
        for t, table in enumerate(first.tables, start=1):
            vp = {names[p]: 10 if s == 0 else (9 if t == 1 else 4 - s) for s, p in enumerate(table)}
            desk.enter_result(ev.id, 1, t, vp, names[table[0]])
        ranked = [s.player for s in desk.standings(ev.id)]
        straight = [ranked[i:i + 4] for i in range(0, 16, 4)]
        history = History.from_rounds([(1, first.tables)])
        assert set(straight[1]) >= set(strong[1:])  # (the old seating by score: three of them at table 2 again)
        assert repeats(straight, history) == 6  # and at tables 3 and 4 the other tables' seconds, thirds, ...
        second = desk.seat_round(ev.id, kind="score")
        assert second.kind == "score"
        assert repeats(second.tables, history) == 0
        assert set(second.tables[0]) == set(ranked[:4]) == {t[0] for t in first.tables}  # the winners meet
        block = {p: i // 4 for i, p in enumerate(ranked)}
        for t, table in enumerate(second.tables):
            assert all(abs(block[p] - t) <= formats.SCORE_REACH for p in table)


@settings(max_examples=120, deadline=None)
@given(n=st.integers(6, 40), rounds=st.integers(0, 4), seed=st.integers(0, 10**6))
def test_the_search_never_adds_a_repeat_and_moves_nobody_far(n, rounds, seed):
    rng = random.Random(seed)
    players = list(range(1, n + 1))
    earlier = []
    for number in range(1, rounds + 1):
        rng.shuffle(players)
        tables, i = [], 0
        for size in table_sizes(n):
            tables.append(players[i:i + size])
            i += size
        earlier.append((number, tables))
    history = History.from_rounds(earlier)
    ranked = rng.sample(range(1, n + 1), n)
    blocks, i = [], 0
    for size in table_sizes(n):
        blocks.append(ranked[i:i + size])
        i += size
    seated = formats.fewer_repeats(blocks, history)
    assert [len(t) for t in seated] == [len(b) for b in blocks]  # the tables of three stay last
    assert sorted(p for t in seated for p in t) == sorted(ranked)
    assert repeats(seated, history) <= repeats(blocks, history)
    home = {p: t for t, b in enumerate(blocks) for p in b}
    assert all(abs(home[p] - t) <= formats.SCORE_REACH for t, table in enumerate(seated) for p in table)
    if repeats(blocks, history) == 0:
        assert seated == blocks  # nothing to avoid: the standings' tables as they are
