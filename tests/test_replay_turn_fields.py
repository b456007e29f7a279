"""``turn.player`` and ``turn.waiting_for`` mean the same in every game (docs/record-format.md, issue 27 point 6).

``turn.player`` is whose turn it is (in set-up, the player placing); ``turn.waiting_for`` whose input the table
waits for.  Starfarers printed the player returning cards after a 7 as ``turn.player``; here every scenario record
and every example game of every kind is replayed event by event and the two fields are checked after each event.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.record import parse_record
from companion.record.format import new_game

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = ROOT / "tests" / "scenarios"
SETUP_PHASES = {"setup_settlement", "setup_road", "setup_colony", "setup_spaceport"}


def _records():
    for path in sorted(SCENARIOS.glob("*.json")):
        yield path.stem, json.loads(path.read_text())["record"]
    for folder in (ROOT / "companion" / "assets" / "games", ROOT / "assets" / "games"):
        for path in sorted(folder.glob("example-*.json")):
            yield path.stem, json.loads(path.read_text())


RECORDS = dict(_records())


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_turn_player_is_whose_turn_and_waiting_for_is_who_acts(name):
    record = parse_record(RECORDS[name])
    game = new_game(record)
    roller = None
    for i, event in enumerate(record.events):
        try:
            game.push(event)
        except Exception:
            break  # a scenario of a refused event: the fields were checked up to it
        turn = game.summary()["turn"]
        assert {"player", "phase", "number", "waiting_for"} <= set(turn), (name, i, turn)
        if event.get("type") == "roll":
            roller = turn["player"]  # the roller keeps the turn until end_turn
        elif event.get("type") == "end_turn":
            roller = None  # (a knight may come before the next roll)
        if turn["phase"] == "game_over":
            assert turn["waiting_for"] is None, (name, i, turn)
        elif turn["phase"] in SETUP_PHASES:
            assert turn["player"] == turn["waiting_for"], (name, i, turn)  # the player placing
        elif roller is not None and turn["phase"] not in ("roll", "special_build"):
            assert turn["player"] == roller, (name, i, turn)  # discards, steals, gold: still the roller's turn
        if turn["phase"] == "discard":
            assert turn["waiting_for"] in game.state.discards_owed, (name, i, turn)
