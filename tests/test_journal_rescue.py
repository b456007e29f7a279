"""A journal that cannot be opened, without the app: kept aside renamed and byte-identical, a fresh one made,
every readable game carried over with its camera photos and corrections; a game cut short keeps the events
before the damage and can be resumed to that point."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from companion.dice import DiceRolled, RollPhoto
from companion.record.journal import Journal
from companion.record.rescue import open_journal
from companion.table import Table
from companion.ui import driver as d  # noqa: F401  (its record helpers only; no window is opened)

PHOTO = RollPhoto(b"\xff\xd8 the tray \xff\xd9", b"\xff\xd8 the dice \xff\xd9")


def _journal_with_a_camera_game(path: Path) -> tuple[int, int]:
    """Two games; the first with a camera roll (its photo) and a misread put right.  Their ids."""
    record, game = d.base_game_after_setup()
    with Journal(path) as journal:
        table = Table.create(journal, record, "with photos")
        camera = DiceRolled((2, 3), "camera", 0.9, roll_id="camera-ab-1")
        table.roll(camera, PHOTO)
        table.undo()
        table.roll(DiceRolled((2, 4), "manual"))  # the misread put right: kept as a correction
        other = journal.create_game(record, "plain game")
        return table.game_id, other


def _files(directory: Path, name: str) -> dict[str, bytes]:
    return {p.name[len(name):]: p.read_bytes() for p in directory.iterdir() if p.name.startswith(name)}


def test_a_newer_journal_is_kept_aside_and_its_games_photos_and_corrections_carried_over(tmp_path):
    path = tmp_path / "journal.sqlite3"
    _journal_with_a_camera_game(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")
    db.commit()
    db.close()
    before = _files(tmp_path, path.name)
    journal, rescue = open_journal(path)
    try:
        assert "newer companion" in rescue.problem and rescue.lost == []
        n = len(d.base_game_after_setup()[0].events)
        assert rescue.recovered == [f"with photos ({n + 1} events, 1 photo)", f"plain game ({n} events)"]
        assert _files(tmp_path, rescue.kept_as.name) == before
        games = {g.title: g.id for g in journal.games()}
        assert set(games) == {"with photos", "plain game"}
        assert journal.roll_photo(games["with photos"], "camera-ab-1") == PHOTO.tray
        assert journal.roll_corrections(games["with photos"]) == [("camera-ab-1", [2, 3], [2, 4])]
        table = Table(journal, games["with photos"])  # resumes: the record replays
        assert table.record.events[-1]["dice"] == [2, 4]
    finally:
        journal.close()


def test_a_journal_cut_short_keeps_the_events_before_the_damage(tmp_path):
    path = tmp_path / "journal.sqlite3"
    record, _ = d.base_game_after_setup()
    with Journal(path) as journal:
        table = Table.create(journal, record, "long game")
        for _ in range(300):  # notes: events enough to span many pages
            table.submit({"type": "note", "text": "x" * 200})
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 9 // 10])
    journal, rescue = open_journal(path)
    try:
        assert "damaged" in rescue.problem
        (line,) = rescue.recovered
        assert "those after them could not be read" in line
        (info,) = journal.games()
        assert 12 < info.events < 312 and not info.finished
        Table(journal, info.id)  # the events kept replay
    finally:
        journal.close()
    assert rescue.kept_as.read_bytes() == data[: len(data) * 9 // 10]


def test_a_carried_game_keeps_its_players_recorded_names(tmp_path):
    """The recordings live beside the journal under the game's id and creation time; the fresh journal gives the
    game a new creation time (and maybe a new id), so they are copied where the app will look for them."""
    from companion.announce.name_voices import FOLDER, NameVoices, game_key

    path = tmp_path / "journal.sqlite3"
    first, second = _journal_with_a_camera_game(path)
    voices = NameVoices(tmp_path / FOLDER)
    with Journal(path) as journal:
        created = {g.id: g.created for g in journal.games()}
    clips = {0: np.arange(-800, 800, 2, dtype=np.int16), 2: np.full(1200, 900, np.int16)}
    for seat, clip in clips.items():
        voices.save(game_key(second, created[second]), seat, clip)  # the plain game's players said their names
    old_folder = tmp_path / FOLDER / game_key(second, created[second])
    old_bytes = {p.name: p.read_bytes() for p in old_folder.iterdir()}
    db = sqlite3.connect(path)
    db.execute("PRAGMA user_version=99")  # a newer companion's journal: set aside, its games carried over
    db.commit()
    db.close()
    journal, rescue = open_journal(path)
    try:
        n = len(d.base_game_after_setup()[0].events)
        assert rescue.recovered == [f"with photos ({n + 1} events, 1 photo)", f"plain game ({n} events, 2 recorded names)"]
        carried = {g.title: g for g in journal.games()}
        plain, photos = carried["plain game"], carried["with photos"]
        assert game_key(plain.id, plain.created) != game_key(second, created[second])  # where the app looks now
        heard = voices.load(game_key(plain.id, plain.created))
        assert sorted(heard) == [0, 2] and all(np.array_equal(heard[s], clips[s]) for s in clips)
        assert voices.load(game_key(photos.id, photos.created)) == {}  # a game nobody recorded for: nothing made
        assert {p.name: p.read_bytes() for p in old_folder.iterdir()} == old_bytes  # the old ones stay as they were
    finally:
        journal.close()
