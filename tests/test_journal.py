"""The SQLite journal: durability, resume, undo/redo on disk, foreign files left alone."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from companion.dice import DiceRolled, RollPhoto
from companion.record import Record, parse_record
from companion.record.journal import Journal, JournalError
from companion.rules import IllegalAction
from companion.table import Table

from pathlib import Path

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.json"))


def _scenario_record(name):
    path = next(p for p in SCENARIOS if p.stem == name)
    return parse_record(json.loads(path.read_text())["record"])


def _header(record):
    return Record(record.game, record.players, record.board, record.options)


def _played(journal, count):
    """A new game in ``journal``: the scenario's first ``count`` events submitted; its table."""
    full = _scenario_record("production_robber_city_shortage")
    table = Table.create(journal, _header(full))
    for event in full.events[:count]:
        table.submit(event)
    return table


def test_a_game_resumes_after_reopening(tmp_path):
    full = _scenario_record("production_robber_city_shortage")
    with Journal(tmp_path / "j.sqlite3") as journal:
        game_id = _played(journal, 20).game_id
    with Journal(tmp_path / "j.sqlite3") as journal:
        [info] = journal.games(unfinished_only=True)
        assert info.id == game_id and info.events == 20
        table = Table(journal, game_id)
        for event in full.events[20:]:
            table.submit(event)
        assert table.game.summary()["bank"]["lumber"] == 0


def test_an_illegal_input_is_refused_and_not_journalled(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        table = _played(journal, 12)
        with pytest.raises(IllegalAction, match="not allowed now"):
            table.submit({"type": "end_turn"})
        assert len(list(journal.iter_events(table.game_id))) == 12


def test_outcome_is_published_only_after_the_event_is_committed(tmp_path):
    full = _scenario_record("production_robber_city_shortage")
    path = tmp_path / "j.sqlite3"
    seen = []
    with Journal(path) as journal:
        table = Table.create(journal, _header(full))

        def listener(outcome):
            # another connection sees the event already on disk
            other = sqlite3.connect(path)
            (n,) = other.execute("SELECT COUNT(*) FROM events").fetchone()
            other.close()
            seen.append((outcome.index, n))

        table.add_listener(listener)
        for event in full.events[:13]:
            table.submit(event)
    assert seen == [(i, i + 1) for i in range(13)]


def test_undo_and_redo_survive_a_restart(tmp_path):
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        table = _played(journal, 13)
        after_roll = table.game.summary()
        assert table.undo()["type"] == "roll"
        game_id = table.game_id
    with Journal(path) as journal:
        table = Table(journal, game_id)
        assert len(table.game.events) == 12 and table.can_redo
        table.redo()
        assert table.game.summary() == after_roll
        assert not table.can_redo


def test_a_roll_from_a_dice_source_is_recorded_with_its_source(tmp_path):
    with Journal(tmp_path / "j.sqlite3") as journal:
        table = _played(journal, 12)
        outcome = table.roll(DiceRolled((5, 3), "camera", confidence=0.97))
        assert outcome.payouts == {0: {"brick": 1, "lumber": 1}, 1: {"lumber": 1}}
        assert list(journal.iter_events(table.game_id))[-1] == {
            "type": "roll", "dice": [5, 3], "source": "camera", "confidence": 0.97}


def test_a_box_roll_resent_after_a_restart_is_applied_once(tmp_path):
    """The box resends a result it never saw acknowledged; the reopened game must not pay twice."""
    path = tmp_path / "j.sqlite3"
    box_roll = DiceRolled((5, 3), "box", roll_id="1a2b3c4d-17")
    with Journal(path) as journal:
        table = _played(journal, 12)
        assert table.roll(box_roll) is not None
        paid = table.game.summary()
        game_id = table.game_id
    with Journal(path) as journal:
        table = Table(journal, game_id)
        heard = []
        table.add_listener(heard.append)
        assert table.roll(box_roll) is None
        assert heard == [] and table.game.summary() == paid
        assert [e.get("roll_id") for e in journal.iter_events(game_id)].count("1a2b3c4d-17") == 1
        # An undone roll is gone from the record: the same box roll may be entered again.
        table.undo()
        assert table.roll(box_roll) is not None
        assert table.game.summary() == paid


def test_a_camera_rolls_photo_is_kept_with_it_through_a_restart_and_an_undo(tmp_path):
    """The photo of a camera roll is the evidence of what was read: committed with the roll, found again by
    its roll id after a restart, and not thrown away when the roll is undone (redo brings the roll back)."""
    path = tmp_path / "j.sqlite3"
    photo = RollPhoto(b"\xff\xd8 a JPEG of the tray \xff\xd9", b"\xff\xd8 the two dice \xff\xd9")
    with Journal(path) as journal:
        table = _played(journal, 12)
        table.roll(DiceRolled((5, 3), "camera", 0.9, roll_id="camera-0a1b2c3d-1"), photo)
        game_id = table.game_id
    with Journal(path) as journal:
        assert journal.roll_photo(game_id, "camera-0a1b2c3d-1") == photo.tray
        assert journal.dice_picture(game_id, "camera-0a1b2c3d-1") == photo.dice
        assert journal.roll_photo(game_id, "camera-0a1b2c3d-2") is None
        assert journal.dice_picture(game_id, "camera-0a1b2c3d-2") is None
        table = Table(journal, game_id)
        table.undo()
        assert journal.roll_photo_ids(game_id) == {"camera-0a1b2c3d-1"}
        table.redo()
        assert list(journal.iter_events(game_id))[-1]["roll_id"] == "camera-0a1b2c3d-1"


def test_a_photo_of_an_event_without_a_roll_id_is_refused_and_nothing_is_written(tmp_path):
    full = _scenario_record("production_robber_city_shortage")
    with Journal(tmp_path / "j.sqlite3") as journal:
        table = _played(journal, 0)
        with pytest.raises(ValueError, match="roll_id"):
            journal.append(table.game_id, full.events[0], photo=RollPhoto(b"jpeg"))
        assert list(journal.iter_events(table.game_id)) == [] and journal.roll_photo_ids(table.game_id) == set()


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_a_journal_of_a_previous_version_is_upgraded_with_its_games_and_photos_intact(tmp_path, version):
    """Journals written before roll photos were kept (version 1), before the dice picture was kept with
    them (version 2), before the plain photo and its dice (version 3), or before a roll a player vouched for was
    marked (version 4), open with every game and photo and keep the new things from then on."""
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        table = _played(journal, 12)
        table.roll(DiceRolled((6, 2), "camera", 0.9, roll_id="camera-0a1b2c3d-1"), RollPhoto(b"old"))
        game_id = table.game_id
    db = sqlite3.connect(path)  # as that version left it
    if version == 1:
        db.execute("DROP TABLE roll_photos")
    else:
        db.execute("ALTER TABLE roll_photos DROP COLUMN checked")
    if version in (2, 3):
        db.execute("ALTER TABLE roll_photos DROP COLUMN plain")
        db.execute("ALTER TABLE roll_photos DROP COLUMN boxes")
        if version == 2:
            db.execute("ALTER TABLE roll_photos DROP COLUMN dice")
    db.execute(f"PRAGMA user_version={version}")
    db.commit()
    db.close()
    with Journal(path) as journal:
        table = Table(journal, game_id)
        assert len(table.record.events) == 13
        assert journal.roll_photo(game_id, "camera-0a1b2c3d-1") == (b"old" if version > 1 else None)
        assert journal.dice_picture(game_id, "camera-0a1b2c3d-1") is None
        assert journal.plain_photo(game_id, "camera-0a1b2c3d-1") is None
        assert journal.checked_rolls(game_id) == set()  # an old roll: as the camera read it
        table.submit({"type": "end_turn"})
        table.roll(DiceRolled((5, 3), "camera", 0.9, roll_id="camera-0a1b2c3d-2"),
                   RollPhoto(b"tray", b"dice", b"plain", ((10, 12, 30, 31, 5), (60, 12, 30, 29, None)), checked=True))
        assert journal.roll_photo(game_id, "camera-0a1b2c3d-2") == b"tray"
        assert journal.dice_picture(game_id, "camera-0a1b2c3d-2") == b"dice"
        assert journal.plain_photo(game_id, "camera-0a1b2c3d-2") == (
            b"plain", [(10, 12, 30, 31, 5), (60, 12, 30, 29, None)])
        assert journal.checked_rolls(game_id) == {"camera-0a1b2c3d-2"}
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (5,)
    db.close()


def another_programs_database(path):
    """An SQLite file of some other program's (a table of its own) at ``path``."""
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER)")
    db.commit()
    db.close()
    return path


def assert_refused_and_untouched(open_file, path, error, match):
    """``open_file(path)`` raises ``error`` saying ``match``, and the file is byte for byte as it was (shared with
    the tournament file's test, tests/test_tournament_desk.py: both files refuse what is not theirs alike)."""
    before = path.read_bytes()
    with pytest.raises(error, match=match):
        open_file(path)
    assert path.read_bytes() == before


def test_a_file_that_is_not_sqlite_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"my shopping list\n" * 10)
    assert_refused_and_untouched(Journal, path, JournalError, "not a companion journal")


def test_another_programs_database_is_reported_and_left_untouched(tmp_path):
    assert_refused_and_untouched(Journal, another_programs_database(tmp_path / "journal.sqlite3"), JournalError,
                                 "another program")


def test_a_damaged_journal_is_reported(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal(path) as journal:
        table = Table.create(journal, _header(_scenario_record("longest_road_simple")))
        for event in _scenario_record("longest_road_simple").events:
            table.submit(event)
    data = bytearray(path.read_bytes())
    for i in range(1024, min(len(data), 8192)):  # scribble over the first pages after the header
        data[i] = 0xA5
    path.write_bytes(bytes(data))
    with pytest.raises(JournalError, match="damaged|not a database"):
        Journal(path)
    assert path.read_bytes() == bytes(data), "a damaged journal must be left as it was, for rescue"


def test_a_journal_from_a_newer_companion_is_reported_and_left_untouched(tmp_path):
    path = tmp_path / "journal.sqlite3"
    Journal(path).close()
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=9")
    db.commit()
    db.close()
    before = path.read_bytes()
    with pytest.raises(JournalError, match="newer companion"):
        Journal(path)
    assert path.read_bytes() == before


CHILD = textwrap.dedent("""
    import json, sys
    from companion.record import parse_record, Record
    from companion.record.journal import Journal
    from companion.table import Table
    full = parse_record(json.load(open(sys.argv[2]))["record"])
    journal = Journal(sys.argv[1])
    table = Table.create(journal, Record(full.game, full.players, full.board, full.options))
    events = full.events * 1
    i = 0
    while True:  # replay the game over and over as new games until killed
        table.submit(events[i])
        print(table.game_id, i, flush=True)
        i += 1
        if i == len(events):
            table = Table.create(journal, Record(full.game, full.players, full.board, full.options))
            i = 0
""")


def test_kill_9_loses_no_committed_event(tmp_path):
    path = tmp_path / "journal.sqlite3"
    scenario = next(p for p in SCENARIOS if p.stem == "largest_army_transfer")
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    for attempt in range(3):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(path), str(scenario)], stdout=subprocess.PIPE,
                                 text=True, env=env)
        reported = []
        deadline = time.time() + 0.4 + 0.3 * attempt
        while time.time() < deadline:
            line = child.stdout.readline()
            if line:
                reported.append(tuple(map(int, line.split())))
        child.send_signal(signal.SIGKILL)
        child.wait()
        reported += [tuple(map(int, l.split())) for l in child.stdout.read().splitlines() if l.strip()]
        assert reported, "the child committed nothing before the kill"
        with Journal(path) as journal:
            counts = {g.id: g.events for g in journal.games()}
            for game_id, index in reported:  # every event the child saw committed is on disk
                assert counts[game_id] >= index + 1
            for info in journal.games():  # and every stored game resumes
                Table(journal, info.id)


def test_a_failing_listener_does_not_silence_the_others_or_lose_the_event(tmp_path):
    full = _scenario_record("production_robber_city_shortage")
    heard = []
    with Journal(tmp_path / "j.sqlite3") as journal:
        table = Table.create(journal, _header(full))

        def broken(outcome):
            raise RuntimeError("speaker unplugged")

        table.add_listener(broken)
        table.add_listener(heard.append)
        table.submit(full.events[0])
        assert [o.index for o in heard] == [0]
        assert len(list(journal.iter_events(table.game_id))) == 1


def test_an_umpire_records_a_rule_breaking_entry_with_the_forced_flag(tmp_path):
    """The table is never wrong about what happened: refused as entered, journalled when forced, the breach
    published as a warning, and still there after a restart."""
    full = _scenario_record("production_robber_city_shortage")
    heard = []
    path = tmp_path / "j.sqlite3"
    out_of_turn = {"type": "build", "player": 1, "piece": "road", "at": [[-2, 1], [-1, 0]]}
    with Journal(path) as journal:
        table = Table.create(journal, _header(full))
        table.add_listener(heard.append)
        for event in full.events[:13]:  # set-up and player 0's roll
            table.submit(event)
        with pytest.raises(IllegalAction, match="out of turn"):
            table.submit(out_of_turn)
        outcome = table.submit({**out_of_turn, "forced": True})
        assert heard[-1] is outcome and any("out of turn" in w for w in outcome.warnings)
        game_id = table.game_id
    with Journal(path) as journal:
        table = Table(journal, game_id)
        assert table.record.events[-1] == {**out_of_turn, "forced": True}
        assert table.game.state.pieces[((-2, 1), (-1, 0))] == (1, "road")


def test_a_camera_misread_put_right_by_hand_is_kept_as_a_correction_across_a_restart(tmp_path):
    """Players put a misread right with Undo and the dice by hand: the journal keeps what the camera read and
    what was entered (how often the camera is wrong at this table, and which photos show its misreads), even
    when the app restarted in between. The same faces entered again, or a camera roll again, is no correction."""
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        table = _played(journal, 12)
        table.roll(DiceRolled((6, 2), "camera", 0.9, roll_id="camera-0a1b2c3d-1"), RollPhoto(b"jpeg"))
        table.undo()
        game_id = table.game_id
    with Journal(path) as journal:
        table = Table(journal, game_id)
        table.roll(DiceRolled((5, 3), "manual"))
        assert journal.roll_corrections(game_id) == [("camera-0a1b2c3d-1", [6, 2], [5, 3])]
        assert journal.roll_photo(game_id, "camera-0a1b2c3d-1") == b"jpeg"  # the misread's photo stays
        table.undo()  # taken back again, and entered alike: nothing more
        table.roll(DiceRolled((3, 5), "manual"))
        assert len(journal.roll_corrections(game_id)) == 1

    with Journal(tmp_path / "k.sqlite3") as journal:
        for again in (DiceRolled((3, 5), "manual"), DiceRolled((4, 4), "camera", 0.9, roll_id="camera-0a1b2c3d-2")):
            table = _played(journal, 12)
            table.roll(DiceRolled((5, 3), "camera", 0.9, roll_id="camera-0a1b2c3d-1"))
            table.undo()
            table.roll(again)
            assert journal.roll_corrections(table.game_id) == []


def test_the_rolls_a_player_vouched_for_are_told_from_those_only_the_camera_read(tmp_path):
    """A camera roll OK'd before it was recorded (its photo marked checked) and a misread put right by hand are
    labels a person vouched for; a camera roll recorded as read is not -- across a restart."""
    path = tmp_path / "j.sqlite3"
    with Journal(path) as journal:
        table = _played(journal, 12)
        table.roll(DiceRolled((6, 2), "camera", 0.9, roll_id="camera-0a1b2c3d-1"), RollPhoto(b"jpeg", checked=True))
        table.submit({"type": "end_turn"})
        table.roll(DiceRolled((5, 3), "camera", 0.9, roll_id="camera-0a1b2c3d-2"), RollPhoto(b"jpeg"))
        table.undo()
        table.roll(DiceRolled((5, 4), "manual"))  # the 3 was a 4
        table.submit({"type": "end_turn"})
        table.roll(DiceRolled((1, 1), "camera", 0.9, roll_id="camera-0a1b2c3d-3"), RollPhoto(b"jpeg"))
        game_id = table.game_id
    with Journal(path) as journal:
        assert journal.checked_rolls(game_id) == {"camera-0a1b2c3d-1", "camera-0a1b2c3d-2"}


def test_a_misread_noticed_a_few_events_later_is_put_right_and_the_rest_redone(tmp_path):
    """The table notices a camera misread two turns on: Undo back to it, the dice by hand, then Redo brings the
    events after it back, each checked again by the rules (one no longer legal is refused, nothing changed)."""
    later = [{"type": "end_turn"}, DiceRolled((4, 4), "manual"), {"type": "end_turn"}]

    def play(journal, first_roll):
        table = _played(journal, 12)
        table.roll(first_roll, RollPhoto(b"jpeg") if first_roll.roll_id else None)
        for event in later:
            table.roll(event) if isinstance(event, DiceRolled) else table.submit(event)
        return table

    with Journal(tmp_path / "right.sqlite3") as journal:
        expected = play(journal, DiceRolled((5, 3), "manual")).game.summary()
    with Journal(tmp_path / "j.sqlite3") as journal:
        table = play(journal, DiceRolled((6, 2), "camera", 0.9, roll_id="camera-0a1b2c3d-1"))
        misread_paid = {seat: {r: n for r, n in got.items() if n} for seat, got in table.game.outcomes[12].payouts.items()}
        assert misread_paid and 12 not in table.replaced_payouts
        for _ in range(4):
            table.undo()
        table.roll(DiceRolled((5, 3), "manual"))
        assert table.replaced_payouts[12] == misread_paid  # what the table had handed out: said, to go back
        assert journal.roll_corrections(table.game_id) == [("camera-0a1b2c3d-1", [6, 2], [5, 3])]
        assert [e["type"] for e in journal.redo_events(table.game_id)] == ["end_turn", "roll", "end_turn"]
        for _ in range(3):
            table.redo()
        assert table.game.summary() == expected and not table.can_redo

        for _ in range(4):  # a mistap put right likewise (no camera correction: the roll it replaces was tapped)
            table.undo()
        table.roll(DiceRolled((2, 2), "manual"))
        assert len(journal.redo_events(table.game_id)) == 3 and len(journal.roll_corrections(table.game_id)) == 1
        table.submit({"type": "end_turn"})  # any other event: the redo list goes
        assert not table.can_redo

    with Journal(tmp_path / "k.sqlite3") as journal:  # put right to a 7: the robber must move first
        table = play(journal, DiceRolled((6, 2), "camera", 0.9, roll_id="camera-0a1b2c3d-1"))
        for _ in range(4):
            table.undo()
        table.roll(DiceRolled((3, 4), "manual"))
        before = table.game.summary()
        with pytest.raises(IllegalAction):
            table.redo()
        assert table.game.summary() == before and table.can_redo
        assert 12 in table.replaced_payouts
        table.undo()  # taken back and entered alike again: nothing more to give back
        assert 12 not in table.replaced_payouts
        table.roll(DiceRolled((3, 4), "manual"))
        assert 12 not in table.replaced_payouts
