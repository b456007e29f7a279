"""The display line a kept batch pushes is worked out from what the batch left (issue 31: the desk's CPU per event),
not read back from the desk file: it must be the line :meth:`Floor.live_table` reads from scratch, after every batch
-- games extended, undone at the tablet (a batch that differs from what the desk holds), a table's second game, a
resend that changes nothing -- and the desk's answer must be the game's row as stored. On SQLite and PostgreSQL.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.record import new_game, parse_record
from companion.rules.random_play import random_events
from companion.tournament.server_store import Floor
from companion.tournament.store import Desk

from test_desk_server import make_event

TABLE = 2


def _journals(header: dict, seed: int) -> list[list[dict]]:
    """Two journals of one game sharing their first events (the second is the first undone and played on)."""
    start = new_game(parse_record(header))
    common = list(random_events(start, random.Random(seed), 25 + seed % 20))
    first = common + list(random_events(start.copy(), random.Random(seed + 1), 60))
    second = common + list(random_events(start.copy(), random.Random(seed + 2), 60))
    return [first, second]


def _common(a: list[dict], b: list[dict]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


@pytest.fixture(params=["sqlite", "postgresql"])
def floor(request, tmp_path):
    dsn = request.getfixturevalue("postgres").new_database() if request.param == "postgresql" else None
    make_event(tmp_path / "desk.sqlite3", dsn=dsn)
    with (Desk(dsn=dsn) if dsn else Desk(tmp_path / "desk.sqlite3")) as desk:
        floor = Floor(desk, "Kobe Open")
        floor.test_games = iter(range(1, 10_000))  # each example's games are new to the desk
        yield floor


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000),
       steps=st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 12)), min_size=1, max_size=14))
def test_the_line_pushed_after_a_batch_is_the_line_read_from_scratch(floor, seed, steps):
    code = floor.issue_code(TABLE).code
    pairing = floor.authenticate(floor.join(code)[0])
    header = floor.table_header(pairing.round, TABLE)
    games = [next(floor.test_games), next(floor.test_games)]
    journals = _journals(header, seed)
    held = {g: [] for g in games}  # what the desk holds of each game, as its answers say
    rev = 0
    for which_game, which_journal, size in steps:
        game = games[which_game]
        journal = journals[which_journal] if which_game == 0 else journals[1 - which_journal]
        start = min(len(held[game]), _common(held[game], journal))
        rev += 1
        view = floor.receive(pairing, game, rev, start, journal[start:start + size], len(journal),
                             header if not held[game] else None)
        held[game] = journal[:view["have"]]
        assert view == floor._view(pairing, game), "the answer is not the game's row as stored"
        line, language = floor.live_table_after(pairing)
        from_scratch = Floor(floor.desk, "Kobe Open")  # no cached games, headers or pieces: replays the game
        assert line == from_scratch.live_table(TABLE)
        assert language in (None, "en")
