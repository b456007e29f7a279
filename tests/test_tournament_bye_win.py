""""A bye counts as a win" as an event's option (the preset's ``bye_win``): each bye is a win, a 1st place and
the 1st place's points of a 4-player table -- not a game played, no VP, no share. On a real desk file and through
the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from companion.tournament import Desk
from companion.tournament.scoring import PRESETS, Preset, TableResult, standings


@pytest.mark.parametrize("key", sorted(PRESETS))
def test_a_bye_is_a_win_a_first_place_and_its_points_and_nothing_else(key):
    import dataclasses

    preset = dataclasses.replace(PRESETS[key], bye_win=True)
    game = TableResult(1, 1, {1: 10, 2: 7, 3: 6, 4: 5}, 1)
    plain = {r.player: r for r in standings([1, 2, 3, 4, 5], [game], PRESETS[key], 10, byes=[5])}
    counted = {r.player: r for r in standings([1, 2, 3, 4, 5], [game], preset, 10, byes=[5])}
    assert (plain[5].wins, plain[5].place_counts, plain[5].points) == (0, [0, 0, 0, 0], 0)  # without the option
    bye = counted[5]
    assert (bye.games, bye.wins, bye.vp, bye.share_sum) == (0, 1, 0, 0)
    assert bye.place_counts == [1, 0, 0, 0]
    assert bye.points == (PRESETS[key].points4[0] if PRESETS[key].points4 else Fraction(0))
    assert all((counted[p].wins, counted[p].vp) == (plain[p].wins, plain[p].vp) for p in (1, 2, 3, 4))
    assert Preset.from_json(preset.to_json()) == preset and "bye_win" not in PRESETS[key].to_json()


def test_five_players_over_a_round_the_bye_counts_as_a_win_only_when_the_event_says_so(tmp_path):
    db = str(tmp_path / "t.sqlite3")

    def run(*args):
        out = subprocess.run([sys.executable, "-m", "companion", "tournament", *args, "--db", db],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        return out.stdout

    for event, option in (("Club night", ()), ("Club night B", ("--bye-win",))):
        run("new", event, *option)
        for name in ("Aki", "Ben", "Chie", "Dan", "Emi"):
            run("add", event, name)
        run("seat", event)
    with Desk(tmp_path / "t.sqlite3") as desk:
        for event in ("Club night", "Club night B"):
            ev = desk.event(event)
            names = desk.names(ev.id)
            (table,) = desk.round(ev.id, 1).tables
            desk.enter_result(ev.id, 1, 1, {names[p]: 10 if s == 0 else 5 for s, p in enumerate(table)},
                              names[table[0]])
        plain, counted = ({names_of[s.player]: s for s in desk.standings(desk.event(e).id)}
                          for e, names_of in (("Club night", desk.names(desk.event("Club night").id)),
                                              ("Club night B", desk.names(desk.event("Club night B").id))))
        assert desk.event("Club night B").preset.bye_win and not desk.event("Club night").preset.bye_win
    (bye_a,) = [n for n, s in plain.items() if s.games == 0]
    (bye_b,) = [n for n, s in counted.items() if s.games == 0]
    assert plain[bye_a].wins == 0
    assert (counted[bye_b].wins, counted[bye_b].vp, counted[bye_b].games) == (1, 0, 0)
    shown = json.loads(run("standings", "Club night B", "--json"))
    row = next(r for r in (shown["standings"] if isinstance(shown, dict) else shown) if r["player"] == bye_b)
    assert (row["wins"], row["games"]) == (1, 0)
