"""A game won, its winning event taken back and put back again: the journal says it is over again.

Session 19's floor trial (TRIAL11): table 1's tablet won its game, a player tapped Undo and then Redo. The record
was won again, but the journal still said "not finished" (Undo cleared the flag, Redo never set it): the start
screen listed the game under "Resume a game", and after joining round 2 the tablet kept round 1's link, its
"Desk: up to date (37 events)" and round 1's clock under round 2's players."""

import json
from pathlib import Path

import pytest

from companion.record import Record, parse_record
from companion.record.journal import Journal
from companion.table import Table

GAMES = Path(__file__).parent.parent / "companion" / "assets" / "games"


@pytest.mark.parametrize("name", ["example-base.json", "example-card-game.json"])
def test_a_won_game_undone_and_redone_is_finished_again(tmp_path, name):
    full = parse_record(json.loads((GAMES / name).read_text()))
    header = Record(full.game, full.players, full.board, full.options)
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        table = Table.create(journal, header)
        for event in full.events:
            table.submit(event)
        assert table.last_outcome.winner is not None  # (the example is played to its win)
        assert [g.finished for g in journal.games()] == [True]
        table.undo()
        assert [g.finished for g in journal.games()] == [False]  # taken back: not over
        assert table.redo().winner is not None
        assert [g.finished for g in journal.games()] == [True]  # won again: over again
        assert journal.games(unfinished_only=True) == []  # (not offered under "Resume a game")
    with Journal(path) as journal:  # and so after a restart
        assert [g.finished for g in journal.games()] == [True]


@pytest.mark.parametrize("name, end", [("example-base.json", "won"), ("example-card-game.json", "won"),
                                       ("example-base.json", "time")])
def test_a_note_after_the_end_taken_back_leaves_the_game_over(tmp_path, name, end):
    """Undo of what was entered after the end (an umpire's note or correction) takes back no win: the game stays
    over in the journal, and is not offered under "Resume a game" (Undo cleared "finished" whatever it took back:
    session 19's review)."""
    full = parse_record(json.loads((GAMES / name).read_text()))
    header = Record(full.game, full.players, full.board, full.options)
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        table = Table.create(journal, header)
        events = full.events if end == "won" else full.events[:len(full.events) // 2]
        for event in events:
            table.submit(event)
        if end == "time":
            table.end_by_time(len(events))
        table.submit({"type": "note", "text": "checked at the desk"})
        table.undo()
        assert table.game.state.winner is not None or end == "time"  # (still over by the record)
        assert [g.finished for g in journal.games()] == [True]
        assert journal.games(unfinished_only=True) == []
        table.redo()  # and the note put back
        assert [g.finished for g in journal.games()] == [True]
    with Journal(path) as journal:  # and so after a restart
        assert [g.finished for g in journal.games()] == [True]
