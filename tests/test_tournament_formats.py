"""Tournament formats at the desk (a real desk file): byes for a field tables cannot seat, seating by score
(Swiss), semi-final winners to the final, the play-off stage kept out of the qualifying standings, and the
CATAN Studio warning on a game ended by time, a league over several events; on SQLite and on a real
PostgreSQL server (tests/postgres_server.py)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from companion.tournament import Desk, TournamentError
from companion.tournament import formats
from companion.tournament.seating import table_sizes


@pytest.fixture(params=["sqlite", "postgresql"])
def desk(request, tmp_path):
    """The same desk on SQLite and on a real PostgreSQL server (a league's shared store)."""
    with (Desk(tmp_path / "t.sqlite3") if request.param == "sqlite"
          else Desk(dsn=request.getfixturevalue("postgres").new_database())) as d:
        yield d


def _event(desk, n, preset="catan-studio"):
    ev = desk.create_event("Open", preset, seed=11)
    names = [f"P{i:02d}" for i in range(n)]
    for name in names:
        desk.add_player(ev.id, name)
    return ev, names


def _tournament_cli(db):
    """``python -m companion tournament … --db db`` as the organiser types it: a function of the words."""
    def run(*args):
        return subprocess.run([sys.executable, "-m", "companion", "tournament", *args, "--db", str(db)],
                              capture_output=True, text=True, timeout=120)
    return run


def _play(desk, ev, number, scores=None):
    """Results for every table of a round: seat 1 wins with 10, the others 9-seat, 8-seat... unless ``scores``
    (name -> VP) says otherwise; the winner is the one with the most VP."""
    names = desk.names(ev.id)
    for t, table in enumerate(desk.round(ev.id, number).tables, start=1):
        vp = {names[p]: (scores or {}).get(names[p], 10 if s == 0 else 8 - s) for s, p in enumerate(table)}
        desk.enter_result(ev.id, number, t, vp, max(vp, key=vp.get))


@pytest.mark.parametrize("n, byes", [(3, 0), (4, 0), (5, 1), (6, 0), (7, 0), (8, 0), (9, 0), (11, 0)])
def test_only_a_field_tables_cannot_seat_gets_byes(n, byes):
    assert formats.bye_count(n) == byes
    table_sizes(n - byes)  # the rest can be seated


@settings(max_examples=150, deadline=None)
@given(n=st.integers(3, 40), byes_before=st.lists(st.integers(0, 3), min_size=40, max_size=40))
def test_the_bye_goes_to_those_with_fewest_byes_then_the_lowest_placed(n, byes_before):
    ranked = list(range(n))
    before = {p: byes_before[p] for p in ranked}
    count = formats.bye_count(n)
    chosen = formats.choose_byes(ranked, count, before, "seed", 3)
    assert len(chosen) == count
    table_sizes(n - count)
    for p in chosen:
        for q in ranked:
            if q not in chosen:  # nobody playing had fewer byes, or as few and placed lower
                assert (before[q], -ranked.index(q)) >= (before[p], -ranked.index(p))


def test_five_players_take_turns_at_the_bye_and_a_bye_scores_nothing(desk):
    ev, names = _event(desk, 5)
    had = []
    for number in range(1, 6):
        rnd = desk.seat_round(ev.id)
        (bye,) = formats.byes_of(rnd)
        assert len(rnd.tables) == 1 and len(rnd.tables[0]) == 4 and bye not in rnd.tables[0]
        if number > 1:  # the lowest placed of those who have not sat out yet
            standing = [s.player for s in desk.standings(ev.id) if s.player not in had]
            assert bye == standing[-1]
        had.append(bye)
        _play(desk, ev, number)
    assert sorted(had) == sorted(desk.names(ev.id))  # five rounds: everybody sat out once
    assert all(s.games == 4 for s in desk.standings(ev.id))
    trail = [a for a in desk.audit(ev.id) if a["action"] == "seat round"]
    assert trail[0]["details"]["byes"] == [desk.names(ev.id)[had[0]]]


def test_seating_by_score_puts_the_leaders_together(desk):
    ev, names = _event(desk, 11)  # 11: tables of 4, 4, 3
    desk.seat_round(ev.id)
    _play(desk, ev, 1)
    ranked = [s.player for s in desk.standings(ev.id)]
    rnd = desk.seat_round(ev.id, kind="score")
    assert rnd.kind == "score"
    assert [sorted(t) for t in rnd.tables] == [sorted(ranked[0:4]), sorted(ranked[4:8]), sorted(ranked[8:11])]


def test_semi_final_winners_go_to_the_final_and_the_play_offs_are_a_stage_of_their_own(desk):
    ev, names = _event(desk, 16)
    desk.seat_round(ev.id)
    _play(desk, ev, 1)
    qualifying = [(s.player, s.games, s.wins, s.vp) for s in desk.standings(ev.id)]
    ranked = [p for p, *_ in qualifying]
    semi = desk.seat_round(ev.id, kind="semi", size=16)
    n = desk.names(ev.id)
    # in each semi-final the last seated (a lower-placed player) wins: not the top 4 of the standings
    winners = []
    for t, table in enumerate(semi.tables, start=1):
        winner = table[-1]
        winners.append(winner)
        desk.enter_result(ev.id, semi.number, t, {n[p]: (10 if p == winner else 5) for p in table}, n[winner])
    assert set(winners) != set(ranked[:4])
    assert [(s.player, s.games, s.wins, s.vp) for s in desk.standings(ev.id)] == qualifying  # not a 4th game
    final = desk.seat_round(ev.id, kind="final")
    assert final.kind == "final" and final.tables == (tuple(sorted(winners, key=ranked.index)),)


def test_a_semi_final_without_a_winner_holds_the_final_back(desk):
    ev, names = _event(desk, 8)
    desk.seat_round(ev.id)
    _play(desk, ev, 1)
    semi = desk.seat_round(ev.id, kind="semi", size=8)
    n = desk.names(ev.id)
    for t, table in enumerate(semi.tables, start=1):
        if t == 2:  # ended by time, two leaders level: nobody is credited with the win
            desk.enter_result(ev.id, semi.number, t, {n[p]: (8 if s < 2 else 5) for s, p in enumerate(table)},
                              None, ended_by_time=True)
        else:
            desk.enter_result(ev.id, semi.number, t, {n[p]: (10 if s == 0 else 5) for s, p in enumerate(table)},
                              n[table[0]])
    with pytest.raises(TournamentError, match=r"semi-final table\(s\) 2 have no winner"):
        desk.seat_round(ev.id, kind="final")
    assert len(desk.rounds(ev.id)) == 2  # nothing stored


def test_catan_studio_warns_on_a_game_ended_by_time(desk):
    ev, names = _event(desk, 4)
    desk.seat_round(ev.id)
    n = desk.names(ev.id)
    entry = desk.enter_result(ev.id, 1, 1, {n[p]: 7 - s for s, p in enumerate(desk.round(ev.id, 1).tables[0])},
                              None, ended_by_time=True)
    assert any("may not place time limits" in w for w in entry.warnings)


def test_the_command_line_seats_by_score_and_shows_the_bye(tmp_path):
    run = _tournament_cli(tmp_path / "t.sqlite3")

    assert run("new", "Club night").returncode == 0
    for name in ("Aki", "Ben", "Chie", "Dan", "Emi"):
        assert run("add", "Club night", name).returncode == 0, run("add", "Club night", name).stderr
    out = run("seat", "Club night", "--by-score")
    assert out.returncode == 0, out.stderr
    assert "bye (sits this round out): " in out.stdout and out.stdout.count("table ") == 1
    data = json.loads(run("tables", "Club night", "--json").stdout)
    assert len(data["cost"]["byes"]) == 1


def test_a_league_ranks_players_over_several_evenings_by_name(desk):
    evenings = []
    for night, field in enumerate((["Aki", "Ben", "Chie", "Dan"], ["aki", "Ben", "Emi", "Fumi", "Gen"])):
        ev = desk.create_event(f"Club night {night + 1}", "catan-studio", seed=night)
        for name in field:
            desk.add_player(ev.id, name)
        desk.seat_round(ev.id)  # the second night: 5 players, one bye
        names = desk.names(ev.id)
        table = desk.round(ev.id, 1).tables[0]
        winner = next(p for p in table if names[p].casefold() in ("aki", "ben"))
        desk.enter_result(ev.id, 1, 1, {names[p]: (10 if p == winner else 4) for p in table}, names[winner])
        evenings.append((ev, names[winner]))
    rows, names = formats.league_standings(desk, [ev.name for ev, _ in evenings])
    by_name = {names[r.player].casefold(): r for r in rows}
    assert set(by_name) == {"aki", "ben", "chie", "dan", "emi", "fumi", "gen"}  # Aki and aki are one player
    winners = [w.casefold() for _, w in evenings]
    for person in ("aki", "ben"):
        assert by_name[person].wins == winners.count(person)
    assert sum(r.games for r in rows) == 4 + 4
    with pytest.raises(TournamentError, match="no event 'Nope'"):
        formats.league_standings(desk, ["Club night 1", "Nope"])


def test_the_league_command(tmp_path):
    run = _tournament_cli(tmp_path / "t.sqlite3")

    for night in ("Night 1", "Night 2"):
        assert run("new", night).returncode == 0
        for name in ("Aki", "Ben", "Chie"):
            assert run("add", night, name).returncode == 0
        assert run("seat", night).returncode == 0
    assert run("result", "Night 1", "1", "1", "Aki=10", "Ben=5", "Chie=3", "--winner", "Aki").returncode == 0
    out = run("league", "Night 1", "Night 2", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["events"] == ["Night 1", "Night 2"] and data["standings"][0]["player"] == "Aki"
    assert "Night 1 + Night 2" in run("league", "Night 1", "Night 2").stdout


def test_the_japanese_preset_breaks_a_time_out_tie_among_leaders_by_buildings(desk):
    from companion.tournament.scoring import PRESETS, TableResult, score_game

    level = TableResult(1, 1, {1: 8, 2: 8, 3: 6, 4: 3}, None, True, buildings={1: 5, 2: 7, 3: 6, 4: 3})
    won = {s.player: s.won for s in score_game(level, PRESETS["japanese"], 10)}
    assert won == {1: False, 2: True, 3: False, 4: False}  # 2 has the cities
    studio = {s.player: s.won for s in score_game(level, PRESETS["catan-studio"], 10)}
    assert not any(studio.values())  # other presets leave the leaders level
    same = TableResult(1, 1, {1: 8, 2: 8, 3: 6, 4: 3}, None, True, buildings={1: 6, 2: 6, 3: 6, 4: 3})
    assert not any(s.won for s in score_game(same, PRESETS["japanese"], 10))
    # from a game record at the desk: the buildings the rules core holds are kept with the result
    ev, names = _event(desk, 4, preset="japanese")
    desk.seat_round(ev.id)
    from companion.record import Record, new_game
    from companion.rules.board import standard_board
    from companion.rules.random_play import random_events
    import random
    n = desk.names(ev.id)
    seated = desk.round(ev.id, 1).tables[0]
    record = Record("base", [{"name": n[p], "color": c} for p, c in zip(seated, ("red", "blue", "white", "orange"))],
                    standard_board(5).to_json(), {}, [], {})
    record.events = list(random_events(new_game(record), random.Random(7), 200))
    entry = desk.enter_record(ev.id, 1, 1, record, ended_by_time=True)
    assert entry.buildings is not None and sum(entry.buildings.values()) >= 8  # two settlements each at least
    assert entry.as_table_result().buildings == entry.buildings


def test_the_floor_settings_from_the_command_line(tmp_path):
    db = str(tmp_path / "t.sqlite3")
    run = _tournament_cli(db)

    assert run("new", "Kobe").returncode == 0
    assert "results from tablets auto, at time finish_round, display language en" in run("floor", "Kobe").stdout
    out = run("floor", "Kobe", "--confirm", "referee", "--language", "ja", "--json")
    assert json.loads(out.stdout) == {"confirm": "referee", "time_rule": "finish_round", "language": "ja"}
    bad = run("floor", "Kobe", "--time-rule", "never")
    assert bad.returncode == 2 and "never" in bad.stderr
    with Desk(db) as desk:
        assert [a["action"] for a in desk.audit(desk.event("Kobe").id)].count("floor settings") == 1
