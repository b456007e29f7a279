"""The round's time limit in Starfarers and the card game (docs/record-format.md, "Ended by the time limit"): the
same event as in the base game, the same meaning, printed by ``replay`` the same way. Before, Starfarers took the
event but its replay did not say ``ended_by_time``, and the card game refused it as an unknown event type."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion.record import parse_record, replay
from companion.rules.errors import IllegalAction, MalformedEvent

ROOT = Path(__file__).resolve().parents[1]
GAMES = {name: json.loads((ROOT / "companion" / "assets" / "games" / f"example-{name}.json").read_text())
         for name in ("starfarers", "card-game")}  # whole games, each won with its last events


def game_of(name: str, events) -> "object":
    return replay(parse_record({**GAMES[name], "events": [dict(e) for e in events]}))


def replay_command(path: Path) -> subprocess.CompletedProcess:
    """``python -m companion replay PATH`` as a user runs it from the checkout: its exit code, stdout and stderr."""
    return subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def assert_replay_prints_ended_by_time(path: Path, after: int, vp_then: list[int]) -> None:
    """``replay`` prints the record at ``path``, ended by time after ``after`` events, as docs/record-format.md
    says: ``ended_by_time``, no winner, the game over, and the VP as they stood after those events (``vp_then``).
    Shared with the base game's test (tests/test_desk_time_limit.py): every game prints the end the same way."""
    out = replay_command(path)
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)
    assert printed["ended_by_time"] == {"after": after} and printed["winner"] is None
    assert printed["turn"]["phase"] == "game_over"
    assert [p["vp"] for p in printed["players"]] == vp_then


def without_end(summary: dict) -> dict:
    s = dict(summary, turn={"number": summary["turn"]["number"]})  # (whose turn it was: no longer anybody's)
    s.pop("ended_by_time", None)
    return s


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(sorted(GAMES)), cut=st.floats(0.05, 0.9), played_on=st.integers(0, 8))
def test_the_game_stands_as_it_stood_after_the_events_the_result_stood_on(name, cut, played_on):
    events = GAMES[name]["events"]
    after = int(cut * (len(events) - 10))  # (the example games are won near their end)
    played = after + played_on
    ended = game_of(name, [*events[:played], {"type": "time_limit", "after": after}])
    summary = ended.summary()
    assert without_end(summary) == without_end(game_of(name, events[:after]).summary())
    assert summary["turn"]["phase"] == "game_over" and summary["winner"] is None
    assert summary["turn"]["waiting_for"] is None
    assert summary["ended_by_time"] == {"after": after}
    assert len(ended.events) == played + 1


@pytest.mark.parametrize("name", sorted(GAMES))
def test_nothing_is_played_after_it_and_the_refusal_says_why(name):
    events = GAMES[name]["events"]
    game = game_of(name, [*events[:40], {"type": "time_limit"}])
    assert game.summary()["ended_by_time"] == {"after": 40}
    with pytest.raises(IllegalAction, match="^the game was ended by the round's time limit$"):
        game.push(dict(events[40]))
    with pytest.raises(IllegalAction, match="ended by the round's time limit"):
        game.push({"type": "time_limit"})  # ended once
    assert len(game.events) == 41
    game.push({"type": "note", "text": "the referee looked"})  # an umpire's note is still kept
    game.pop()
    assert game.pop() == {"type": "time_limit"}  # taken back, the game goes on from where it was
    game.push(dict(events[40]))
    assert "ended_by_time" not in game.summary()


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("after, message", [
    (-1, "time_limit.after must be 0..30 (the events before it), got -1"),
    (31, "time_limit.after must be 0..30 (the events before it), got 31"),
    ("30", "time_limit.after must be an integer, got '30'"),
])
def test_a_bad_time_limit_is_refused_naming_the_field_and_changes_nothing(name, after, message):
    game = game_of(name, GAMES[name]["events"][:30])
    before = game.summary()
    with pytest.raises(MalformedEvent) as refused:
        game.push({"type": "time_limit", "after": after})
    assert str(refused.value) == message
    assert game.summary() == before and len(game.events) == 30


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_won_before_time_is_not_ended_by_it(name):
    events = GAMES[name]["events"]
    with pytest.raises(IllegalAction, match="the game is over"):
        game_of(name, events).push({"type": "time_limit"})
    late = game_of(name, [*events, {"type": "time_limit", "after": len(events) - 5}])  # won after time
    assert late.summary()["winner"] is None and late.summary()["ended_by_time"] == {"after": len(events) - 5}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replay_prints_ended_by_time(tmp_path, name):
    events = GAMES[name]["events"]
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps({**GAMES[name], "events": [*events[:60], {"type": "time_limit", "after": 55}]}))
    assert_replay_prints_ended_by_time(path, 55, [p["vp"] for p in game_of(name, events[:55]).summary()["players"]])
    path.write_text(json.dumps({**GAMES[name], "events": events[:60]}))
    out = replay_command(path)
    assert "ended_by_time" not in json.loads(out.stdout)  # absent from a game not ended by time
