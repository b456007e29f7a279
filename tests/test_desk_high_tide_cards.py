"""The tournament desk places a High Tide table as the game does: level on VP, more resource cards is the better
place (seed 002: "同点の場合は資源カードの多い方が勝ちです"; the game's ``Outcome.places``, docs/high-tide.md), level on
both shares the place.  The desk placed such players level by VP alone (session 18, "What is left").

The result carries the cards when it comes from the game's record (``enter_record``, a tablet's result waiting for
the referee); a result typed in by hand carries none and is placed by VP as before.  A game ended by the time
limit is placed by VP alone, as the game places it.
"""

from __future__ import annotations

import random
from fractions import Fraction
from types import SimpleNamespace

import pytest

from companion.assets import read_json
from companion.record import COLORS, Record, new_game, replay
from companion.rules.random_play import random_events
from companion.tournament import Desk
from companion.tournament.scoring import PRESETS, TableResult, score_game

NAMES = ["Aki", "Ben", "Chie", "Dan"]


@pytest.mark.parametrize("vp, winner, by_time, cards, places", [
    # winner 1; 2 and 3 level on 7 VP: more cards is 2nd
    ({1: 9, 2: 7, 3: 7, 4: 3}, 1, False, {1: 2, 2: 5, 3: 2, 4: 9}, {1: 1, 2: 2, 3: 3, 4: 4}),
    ({1: 9, 2: 7, 3: 7, 4: 3}, 1, False, {1: 2, 2: 2, 3: 5, 4: 9}, {1: 1, 2: 3, 3: 2, 4: 4}),
    # level on both: the better place shared, as before
    ({1: 9, 2: 7, 3: 7, 4: 3}, 1, False, {1: 2, 2: 4, 3: 4, 4: 9}, {1: 1, 2: 2, 3: 2, 4: 4}),
    # no cards (typed in by hand, or a game placing by VP alone): VP alone
    ({1: 9, 2: 7, 3: 7, 4: 3}, 1, False, None, {1: 1, 2: 2, 3: 2, 4: 4}),
    # ended by time: VP alone, as the game places a game the time limit ended
    ({1: 9, 2: 7, 3: 7, 4: 3}, None, True, {1: 2, 2: 5, 3: 2, 4: 9}, {1: 1, 2: 2, 3: 2, 4: 4}),
    # three level behind the winner, 3 players
    ({1: 8, 2: 2, 3: 2}, 1, False, {1: 0, 2: 1, 3: 6}, {1: 1, 2: 3, 3: 2}),
])
def test_level_vp_are_placed_by_cards_when_the_result_carries_them(vp, winner, by_time, cards, places):
    scores = {s.player: s for s in score_game(TableResult(1, 1, vp, winner, by_time, cards=cards),
                                              PRESETS["german"], 10)}
    assert {p: s.place for p, s in scores.items()} == places
    # tied places share the points of the places they span, as ever (5-3-2-1, 5-3-1)
    assert sum(s.points for s in scores.values()) == sum((5, 3, 2, 1) if len(vp) == 4 else (5, 3, 1))


def high_tide_with_level_losers():
    """High Tide for four by the rules core's random legal play (leader at 8 VP, seed 1): Chie wins on 8 VP and the
    other three end on 2 VP each with 6, 4 and 3 resource cards -- the game places them 2nd, 3rd and 4th."""
    record = Record("high-tide", [{"name": n, "color": COLORS[i]} for i, n in enumerate(NAMES)],
                    dict(read_json("boards", "high-tide-3-4.json")), {"leader_vp": 8})
    game = new_game(record)
    record.events = list(random_events(game, random.Random(1), 3000))
    assert game.state.phase == "game_over"
    vp = [game.victory_points(p) for p in range(4)]
    cards = [game.state.players[p].hand.size for p in range(4)]
    assert (vp, cards) == ([2, 2, 8, 2], [6, 4, 6, 3]), (vp, cards)  # the precondition
    assert game.outcomes[-1].places == ((2,), (0,), (1,), (3,))
    return record, game


def tide_night(desk: Desk):
    """An event (German scoring, target 8) whose round 1 seats the four at table 1."""
    ev = desk.create_event("Tide night", "german", vp_target=8, seed=3)
    for n in NAMES:
        desk.add_player(ev.id, n)
    desk.seat_round(ev.id, tables=[NAMES])
    return ev


def test_a_high_tide_record_is_placed_at_the_desk_as_the_game_places_it(tmp_path):
    record, game = high_tide_with_level_losers()
    with Desk(tmp_path / "t.sqlite3") as desk:
        ev = tide_night(desk)
        entry = desk.enter_record(ev.id, 1, 1, record, source="record: high tide")
        ids = {n: desk.player(ev.id, n).id for n in NAMES}
        assert entry.cards == {ids[n]: c for n, c in zip(NAMES, (6, 4, 6, 3))}
        assert not entry.warnings  # Aki, Ben and Dan level on VP below the winner: nothing odd
        places = {s.player: s.place for s in score_game(entry.as_table_result(), ev.preset, ev.vp_target)}
        game_places = {ids[NAMES[p]]: i + 1 for i, held in enumerate(game.outcomes[-1].places) for p in held}
        assert places == game_places == {ids["Chie"]: 1, ids["Aki"]: 2, ids["Ben"]: 3, ids["Dan"]: 4}
        rows = {s.player: s for s in desk.standings(ev.id)}
        assert [rows[ids[n]].place_counts[:4] for n in ("Chie", "Aki", "Ben", "Dan")] == \
            [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]
        assert rows[ids["Aki"]].points == 3 and rows[ids["Dan"]].points == 1  # were 2 each (3 + 2 + 1) / 3
        # typed in by hand (a correction): no cards, so placed by VP alone -- the three share 2nd
        typed = desk.enter_result(ev.id, 1, 1, {n: v for n, v in zip(NAMES, (2, 2, 8, 2))}, "Chie", correct=True,
                                  reason="typed")
        assert typed.cards is None
        assert {s.place for s in score_game(typed.as_table_result(), ev.preset, ev.vp_target)
                if s.player != ids["Chie"]} == {2}
        assert {s.points for s in score_game(typed.as_table_result(), ev.preset, ev.vp_target)
                if s.player != ids["Chie"]} == {Fraction(2)}


def test_a_tablets_high_tide_result_waiting_for_the_referee_keeps_the_cards(tmp_path):
    from companion.tournament import referee

    record, _ = high_tide_with_level_losers()
    with Desk(tmp_path / "t.sqlite3") as desk:
        ev = desk.create_event("Tide night", "german", seed=3)
        for n in NAMES:
            desk.add_player(ev.id, n)
        desk.seat_round(ev.id, tables=[NAMES])
        floor = SimpleNamespace(desk=desk, event=ev)
        referee.ensure_schema(floor)
        note = referee.propose(floor, SimpleNamespace(id=1, round=1, table=1), 7, record, played=replay(record))
        assert "referee" in note
        (waiting,) = referee.proposals(floor)
        ids = {n: desk.player(ev.id, n).id for n in NAMES}
        assert waiting.cards == {ids[n]: c for n, c in zip(NAMES, (6, 4, 6, 3))}


def test_a_winner_level_on_vp_with_more_cards_is_no_oddity_but_one_with_fewer_is(tmp_path):
    """A High Tide winner level on VP with another player won by cards: the desk stores it without the warnings
    "scored as many VP as the winner" and "reached the target but is not the winner" (High Tide is not won by
    reaching a target); a typed-in result (no cards) keeps both, a winner holding fewer cards the first."""
    with Desk(tmp_path / "t.sqlite3") as desk:
        ev = tide_night(desk)
        ids = {n: desk.player(ev.id, n).id for n in NAMES}
        vp = {"Aki": 8, "Ben": 8, "Chie": 5, "Dan": 3}
        by_cards = desk.enter_result(ev.id, 1, 1, vp, "Aki", cards={ids["Aki"]: 5, ids["Ben"]: 3, ids["Chie"]: 0,
                                                                     ids["Dan"]: 1})
        assert by_cards.warnings == ()
        assert {s.player: s.place for s in score_game(by_cards.as_table_result(), ev.preset, 8)}[ids["Ben"]] == 2
        fewer = desk.enter_result(ev.id, 1, 1, vp, "Aki", cards={ids["Aki"]: 3, ids["Ben"]: 5, ids["Chie"]: 0,
                                                                  ids["Dan"]: 1}, correct=True, reason="cards")
        typed = desk.enter_result(ev.id, 1, 1, vp, "Aki", correct=True, reason="typed")
        assert fewer.warnings == ("Ben scored as many VP as the winner or more",)
        assert typed.warnings == ("Ben scored as many VP as the winner or more",
                                  "Ben reached the target (8 VP) but is not the winner")  # as before


@pytest.mark.parametrize("waiting", [True, False])
def test_a_referees_correction_of_one_players_vp_keeps_the_others_placed_by_cards(tmp_path, waiting):
    """The referee corrects Dan's VP (2 -> 3: a settlement the tide took counted wrong) in the tablet's result,
    waiting for a confirm or already entered: Aki and Ben, still level on 2 VP with 6 and 4 cards, stay 3rd and 4th
    as the game places them. The correction said VP and the winner, not the hands; without the record's cards
    they shared 3rd (session 19's review)."""
    from companion.tournament import referee
    from companion.tournament.server_store import Floor

    record, _ = high_tide_with_level_losers()
    with Desk(tmp_path / "t.sqlite3") as desk:
        ev = tide_night(desk)
        floor = Floor(desk, ev.id)
        if waiting:
            referee.propose(floor, SimpleNamespace(id=1, round=1, table=1), 7, record, played=replay(record))
        else:
            desk.enter_record(ev.id, 1, 1, record, source="tablet: game 7")
        ids = {n: desk.player(ev.id, n).id for n in NAMES}
        entry = referee.correct(floor, 1, 1, {"Aki": 2, "Ben": 2, "Chie": 8, "Dan": 3}, "Chie",
                                reason="Dan's settlement on the flooded coast was counted twice")
        assert entry.cards == {ids[n]: c for n, c in zip(NAMES, (6, 4, 6, 3))}
        places = {s.player: s.place for s in score_game(entry.as_table_result(), ev.preset, ev.vp_target)}
        assert places == {ids["Chie"]: 1, ids["Dan"]: 2, ids["Aki"]: 3, ids["Ben"]: 4}
