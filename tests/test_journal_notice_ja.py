"""The start screen's notice about a journal that could not be opened, in Japanese: every part said in Japanese.
It kept the journal's English inside the Japanese sentence ("問題：/x/journal.sqlite3 was written by a newer
companion (journal version 99); it was left untouched", "（12 events, 1 photo）").  Real SQLite files, opened
by the app's own rescue; the notice's text as the start screen shows it."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

import pytest

from companion.record.journal import Journal
from companion.record.rescue import open_journal
from companion.ui import driver as d
from companion.ui.journal_notice import notice_text

ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
TITLES = ("木曜の試合", "金曜の試合")


def journal_of(path: Path, kind: str) -> None:
    if kind == "not-sqlite":
        path.write_text("a shopping list, not a journal\n")
        return
    record, _ = d.base_game_after_setup()
    with Journal(path) as journal:
        for title in TITLES:
            journal.create_game(record, title)
    if kind == "newer":
        db = sqlite3.connect(path)
        db.execute("PRAGMA user_version=99")
        db.commit()
        db.close()
    elif kind == "cut-short":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) * 2 // 3])


@pytest.mark.parametrize("kind", ["not-sqlite", "newer", "cut-short"])
def test_the_damaged_journal_notice_is_all_japanese(tmp_path, kind):
    path = tmp_path / "journal.sqlite3"
    journal_of(path, kind)
    journal, rescue = open_journal(path)
    journal.close()
    assert rescue is not None
    said = notice_text(rescue, "ja")
    english = ENGLISH_WORD.findall(said.replace(rescue.kept_as.name, ""))
    assert not english, f"English in the Japanese notice: {english}\n{said}"
    if kind == "newer":
        assert "記録の版99" in said and all(t in said for t in TITLES)
    assert ENGLISH_WORD.search(notice_text(rescue, "en"))  # the English notice is as it was
