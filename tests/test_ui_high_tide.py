"""High Tide at the table, by touches: the roller taps the hex the tide floods, the screen says what
flooded (and what sank), the announcer's caption shows it; the leader ends the game and the ranking shows.

Games come from the bundled example (companion/assets/games/example-high-tide.json), journalled at the moment
of interest and resumed from the start screen, as after a restart.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from companion.announce import phrase_for_outcome
from companion.announce.vocabulary import CLIPS
from companion.record import load_record, replay
from companion.record.journal import Journal
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(120)
EXAMPLE = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games" / "example-high-tide.json"


def journal_upto(data_dir: Path, count: int) -> int:
    record = load_record(EXAMPLE)
    record.events = record.events[:count]
    with Journal(data_dir / "journal.sqlite3") as journal:
        return journal.create_game(record, "High Tide example")


def first_moment(found) -> int:
    """The event count of the example at its first moment where ``found(game)`` holds (read from the game, not
    pinned: the example is regenerated when the random play changes)."""
    record = load_record(EXAMPLE)
    game = replay(record, upto=0)
    for n, event in enumerate(record.events):
        if found(game):
            return n
        game.push(event)
    raise AssertionError("the example has no such moment")


def aki_dike_round(game, terrain_number=None) -> bool:
    """The dike round, Aki (player 0) to build, a dike allowed (on a hex of ``terrain_number`` when given)."""
    if not (game.tide.phase == "dike_round" and game.state.phase == "main" and game.waiting_for() == 0
            and game.build_problem(0, "dike") is None):
        return False
    return terrain_number is None or any((game.board.tiles[h].number, game.board.tiles[h].terrain) == terrain_number
                                         for h in game.legal_dike_spots(0))


def tide_moments() -> dict[str, int]:
    """Event counts of the example at each moment of the tide: the last turn's main phase before anybody leads
    ("normal"), the first with a leader ("leader", still before the dike round), the first in the dike round where
    the player may build a dike ("dike round"), the first of the high tide ("high tide").  (Read from the game: the
    example is regenerated when the random play changes, session 19.)"""
    record = load_record(EXAMPLE)
    game = replay(record, upto=0)
    moments: dict[str, int] = {}
    for n, event in enumerate(record.events):
        tide, phase = game.tide, game.state.phase
        if tide.leader is None:
            if phase == "main":
                moments["normal"] = n
        elif tide.phase == "normal":
            moments.setdefault("leader", n)
        elif tide.phase == "dike_round" and phase == "main" and game.build_problem(game.waiting_for(), "dike") is None:
            moments.setdefault("dike round", n)
        elif tide.phase == "high_tide":
            moments.setdefault("high tide", n)
        game.push(event)
    assert list(moments) == ["normal", "leader", "dike round", "high tide"], moments
    return moments


def test_flood_by_tap_then_the_end_and_ranking(tmp_path):
    full = load_record(EXAMPLE).events
    flood_at = max(i for i, e in enumerate(full) if e["type"] == "flood")  # the last flood of the game
    game_id = journal_upto(tmp_path, flood_at)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        board = play.ids.board
        assert game.state.phase == "flood"
        choices = frozenset(game.tide.flood_choices)
        assert board.pick == "hex" and board.legal == choices
        assert "tap the hex the tide floods" in play.prompt

        # A hex that is not offered is refused with the rules' reason; nothing recorded.
        wrong = next(h for h in sorted(game.board.land) if h not in choices)
        d.tap_at(*board.hex_pos(wrong))
        assert len(app.table.record.events) == flood_at and play.message.startswith("Not allowed")

        target = tuple(full[flood_at]["at"])
        d.tap_at(*board.hex_pos(target))
        outcome = app.table.last_outcome
        assert outcome.kind == "flood"
        assert not game.board.is_land(target)
        then = load_record(EXAMPLE).board  # the flooded hex is said as it was dealt, not as coordinates
        tile = next(h for h in then["hexes"] if tuple(h["at"]) == target)
        assert f"The tide floods the {tile['number']} {tile['terrain']}" in play.tide_text, play.tide_text
        assert "[" not in play.tide_text
        assert outcome.sunk, "the example's last flood sinks three of Chie's roads"
        assert [(x.player, x.piece) for x in outcome.sunk] == [(2, "road")] * 3
        chie = app.player_name(2)
        # counted, as a table says it (it read "Chie's road, Chie's road")
        assert f"Sank: {chie}'s 3 roads" in play.tide_text, play.tide_text
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        assert f"沈んだもの：{chie}の道3つ" in play.tide_text, play.tide_text  # it read 'Chie 道, Chie 道'
        app.apply_settings(replace(app.settings, lang="en"))
        d.settle()
        players = app.table.record.players  # the caption names players as the screen does
        expected = phrase_for_outcome(outcome, [p["color"] for p in players], "en",
                                      names=[p.get("name") for p in players]).caption
        assert d.wait_until(lambda: app.caption == expected), (app.caption, expected)
        # the voice names the same land as the screen, by number and terrain (it said "The tide floods the land")
        number, terrain = CLIPS["en"][f"n{tile['number']}"][1], CLIPS["en"][f"terrain_{tile['terrain']}"][1]
        assert app.caption.startswith(f"The tide floods the {number} {terrain}."), app.caption

        # The leader ends their last turn: game over, ranking on the screen.
        assert game.state.phase == "main"
        d.tap(play.ids.end_turn)
        assert game.state.phase == "game_over"
        ranking = app.table.last_outcome.ranking
        assert ranking and play.prompt == f"Game over — {app.player_name(ranking[0])} wins"
        text = d.find_label(play.ids.actions, "Ranking").text
        lines = text.splitlines()[1:]
        assert [line.split(". ", 1)[1].split(" — ")[0] for line in lines] == [app.player_name(p) for p in ranking]
        assert app.journal.games(unfinished_only=True) == []  # finished: no longer offered to resume
    finally:
        d.stop_app(app)


def test_the_tide_says_what_happens_and_what_comes_next_and_dikes_go_only_where_allowed(tmp_path):
    """At each phase the screen says what the tide does now and what comes next (the leader and why, the dike
    round, the high tide's rounds and the leader's turns left, which hexes may flood); in dike mode the board
    offers only the hexes the rules allow (none before the dike round)."""
    events = load_record(EXAMPLE).events
    moments = tide_moments()
    ids = {what: journal_upto(tmp_path, n) for what, n in moments.items()}
    app = d.start_app(tmp_path)
    try:
        said = {}
        for what, game_id in ids.items():
            play = d.resume(app, game_id)
            game = app.table.game
            said[what] = play.tide_text
            assert play.ids.tide.height > 0 and "[" not in play.tide_text
            if what in ("normal", "dike round") and game.state.phase == "main":
                who = game.waiting_for()
                dike = d.find(play.ids.actions, "Dike", startswith=True)
                if what == "normal":
                    # before the dike round the button says when dikes come, not "can't pay" (read at a first
                    # evening as "I need brick and lumber"; playtest s10); the reason is the rules' own
                    assert game.build_problem(who, "dike").code == "dike_too_early"
                    assert "from the dike round" in dike.text and "can't pay" not in dike.text, dike.text
                d.tap(dike)
                if what == "normal":  # tapped, the rules' whole sentence, and nothing armed
                    assert "before the dike-building round" in play.message, play.message
                # the hexes offered (before the dike round the button arms nothing: the board offers no hex,
                # only the sides and corners a tap builds on)
                hexes = play.ids.board.legal if play.ids.board.pick == "hex" else frozenset()
                assert hexes == frozenset(game.legal_dike_spots(who))
                assert bool(hexes) == (what == "dike round")
            d.tap(play.ids.menu)
        assert "first to reach 8 VP becomes the leader" in said["normal"], said
        leader = app.player_name(2)
        assert f"{leader} reached 8 VP and leads" in said["leader"] and "dike round begins" in said["leader"]
        assert said["dike round"].startswith(f"Dike round (leader: {leader})") and "Next: the high tide" in said["dike round"]
        assert "High tide, round 1" in said["high tide"] and "leader turns left" in said["high tide"]
        assert "floods one land hex with the number rolled" in said["high tide"]
        assert events[moments["high tide"] - 1]  # (the moments lie inside the example game)
    finally:
        d.stop_app(app)
