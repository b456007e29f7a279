"""The board's seed kept with the game (``"seed"`` in the record's header, docs/record-format.md): the app's
"New game, same players" deals the next board from the finished game's seed + 1, also after a restart (it took
the form's seed + 1, and a restarted app's form holds 1: every such game was dealt from seed 2, playtest s11).

A record without the field (every record written before, or elsewhere) loads, replays and is written back as
before; a "seed" that is not a whole number (another recorder's field of that name) is kept as it came and not
used.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from companion.record import load_record, new_game, parse_record, replay
from companion.rules.random_play import random_events

GAMES = Path(__file__).resolve().parents[1] / "companion" / "assets" / "games"


def test_a_record_without_a_seed_is_read_and_written_as_before():
    text = (GAMES / "example-base.json").read_text(encoding="utf-8")
    data = json.loads(text)
    assert "seed" not in data
    record = parse_record(data)
    assert record.seed is None and "seed" not in record.header() and "seed" not in record.extra
    assert record.to_json() == data  # nothing added, nothing moved
    assert replay(record).state == replay(parse_record(json.loads(text))).state


def test_a_seed_is_kept_through_the_text_and_changes_nothing_in_the_game():
    data = json.loads((GAMES / "example-base.json").read_text(encoding="utf-8"))
    with_seed = dict(data, seed=41)
    record = parse_record(with_seed)
    assert record.seed == 41 and record.header()["seed"] == 41 and "seed" not in record.extra
    again = parse_record(json.loads(record.dumps()))
    assert again.seed == 41 and again == record
    assert replay(record).state == replay(parse_record(data)).state


@pytest.mark.parametrize("other", ["41", "a7f3", 4.0, True, [41], 2 ** 70, None])
def test_a_seed_that_is_not_the_companions_is_kept_as_it_came_and_not_used(other):
    """Another recorder's "seed" (a text, a list...) was an unknown field, kept and written back: it still is,
    and the game reads no seed from it (a record from elsewhere loads and replays as it did)."""
    data = json.loads((GAMES / "example-base.json").read_text(encoding="utf-8"))
    record = parse_record(dict(data, seed=other))
    assert record.seed is None
    assert record.to_json() == dict(data, seed=other)  # written back as it came
    assert replay(record).state == replay(parse_record(data)).state


def test_the_journal_keeps_the_seed(tmp_path):
    from companion.record.journal import Journal

    record = load_record(GAMES / "example-base.json")
    record.seed = 7
    with Journal(tmp_path / "journal.sqlite3") as stored:
        game_id = stored.create_game(record)
        assert stored.load(game_id).seed == 7
