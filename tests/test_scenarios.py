"""Scenario records with the states and outcomes a person expects (tests/scenarios/*.json)."""

import json
from pathlib import Path

import pytest

from companion.record import RecordError, parse_record, replay

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def assert_subset(expected, actual, where="state"):
    """Every field the scenario names must match; fields it leaves out are not checked."""
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{where}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{where}.{key} missing (have {sorted(actual)})"
            assert_subset(value, actual[key], f"{where}.{key}")
    elif isinstance(expected, list) and expected and isinstance(expected[0], dict) and where.endswith("players"):
        assert len(expected) <= len(actual), f"{where}: more players expected than present"
        for i, item in enumerate(expected):
            assert_subset(item, actual[i], f"{where}[{i}]")
    else:
        assert expected == actual, f"{where}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path):
    data = json.loads(path.read_text())
    record = parse_record(data["record"])
    if "expect_error" in data:
        with pytest.raises(RecordError) as info:
            replay(record)
        assert info.value.index == data["expect_error"]["index"], str(info.value)
        assert data["expect_error"]["contains"] in str(info.value)
        return
    for index, expected in data.get("expect_after", {}).items():
        assert_subset(expected, replay(record, upto=int(index) + 1).summary(), f"after event {index}")
    game = replay(record)
    assert_subset(data.get("expect", {}), game.summary())
    for index, expected in data.get("expect_outcomes", {}).items():
        outcome = game.outcomes[int(index)].to_json()
        for key, value in expected.items():
            assert outcome.get(key, [] if isinstance(value, list) else {} if isinstance(value, dict) else None) \
                == value, f"outcome {index}.{key}: expected {value!r}, got {outcome.get(key)!r}"


def test_every_scenario_replays_the_same_after_undo_and_redo():
    """Popping every event and pushing it back gives the identical state."""
    for path in SCENARIOS:
        data = json.loads(path.read_text())
        if "expect_error" in data:
            continue
        record = parse_record(data["record"])
        game = replay(record)
        before = game.summary()
        popped = [game.pop() for _ in range(len(game.events))]
        for event in reversed(popped):
            game.push(event)
        assert game.summary() == before, path.stem
