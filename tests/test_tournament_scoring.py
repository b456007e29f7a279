"""Scoring properties (hypothesis) and the rules for games ended by time."""

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from companion.tournament.scoring import PRESETS, TableResult, custom_preset, score_game, standings


@st.composite
def table_results(draw, round_no=1, table=1):
    size = draw(st.sampled_from([3, 4]))
    players = draw(st.lists(st.integers(0, 50), min_size=size, max_size=size, unique=True))
    vp = {p: draw(st.integers(0, 12)) for p in players}
    by_time = draw(st.booleans())
    winner = None if by_time else draw(st.sampled_from(players))
    return TableResult(round_no, table, vp, winner, by_time)


@settings(max_examples=200, deadline=None)
@given(result=table_results(), key=st.sampled_from(sorted(PRESETS)))
def test_split_points_conserve_the_tables_points_and_shares_add_up(result, key):
    preset = PRESETS[key]
    scores = score_game(result, preset, 10)
    size = len(result.vp)
    if preset.points4:
        table_points = preset.points4 if size == 4 else preset.points3
        assert sum(s.points for s in scores) == sum(table_points)
    total = sum(s.counted_vp for s in scores)
    if total:
        expected = Fraction(3, 4) if (preset.dummy_share and size == 3) else 1
        assert sum(s.share for s in scores) == expected
    # at most one win, and only for someone with the most VP unless a winner was named
    winners = [s for s in scores if s.won]
    assert len(winners) <= 1
    if result.winner is None and winners:
        assert winners[0].vp == max(result.vp.values())
    # places: 1-based, the better place shared by equal players
    for s in scores:
        better = [t for t in scores if (t.won, t.vp) > (s.won, s.vp) and not s.won]
        assert s.place == (1 if s.won else len(better) + 1)


@settings(max_examples=60, deadline=None)
@given(results=st.lists(table_results(), min_size=1, max_size=6), key=st.sampled_from(sorted(PRESETS)),
       data=st.data())
def test_standings_do_not_depend_on_the_order_results_arrive_in(results, key, data):
    players = sorted({p for r in results for p in r.vp})
    a = standings(players, results, PRESETS[key], 10, seed=4)
    shuffled = data.draw(st.permutations(results))
    b = standings(players, shuffled, PRESETS[key], 10, seed=4)
    assert [(r.player, r.rank, r.decided_by) for r in a] == [(r.player, r.rank, r.decided_by) for r in b]
    # ranks never go down the table; a player equal to the one above shares the rank
    for above, below in zip(a, a[1:]):
        assert below.rank >= above.rank
        assert (below.rank == above.rank) == (below.decided_by is None)


def test_time_limit_sole_leader_wins_only_when_the_preset_says_so():
    result = TableResult(1, 1, {1: 8, 2: 7, 3: 7, 4: 3}, None, True)
    by_player = {s.player: s for s in score_game(result, PRESETS["german"], 10)}
    assert by_player[1].won and by_player[1].place == 1 and by_player[1].points == 5
    assert by_player[2].place == by_player[3].place == 2 and by_player[2].points == Fraction(5, 2)
    no_win = custom_preset([5, 3, 2, 1], [5, 3, 1], ["points"], time_win=False)
    by_player = {s.player: s for s in score_game(result, no_win, 10)}
    assert not by_player[1].won and by_player[1].place == 1 and by_player[1].points == 5


def test_time_limit_with_a_winner_named_by_the_referee():
    """Two leaders level at time; the referee names one (a table's own tie rule): that one is 1st alone."""
    result = TableResult(1, 1, {1: 8, 2: 8, 3: 5}, 2, True)
    by_player = {s.player: s for s in score_game(result, PRESETS["german"], 10)}
    assert by_player[2].won and by_player[2].place == 1 and by_player[2].points == 5
    assert by_player[1].place == 2 and by_player[1].points == 3 and by_player[3].points == 1


def test_unknown_criterion_and_short_points_are_refused():
    from companion.tournament.scoring import ScoringError
    with pytest.raises(ScoringError, match="unknown ranking criterion 'luck'"):
        custom_preset([3, 2, 1, 0], [3, 1, 0], ["luck"])
    with pytest.raises(ScoringError, match="needs 4 points for a 4-player table and 3"):
        custom_preset([3, 2, 1], [3, 1, 0], ["points"])
