"""``tournament import-result`` with a record nobody vouches for: one short clean line on stderr, nothing stored.

A record handed to the desk may name its players anything and hold any event type; the desk's message quotes
them (the record's players against the table's, the event that cannot be replayed).  What reaches the terminal
is one line -- no planted second line, no escape sequence, no 100 kB echo -- and the table keeps no result.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.tournament.cli import main

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "companion" / "assets" / "games" / "example-base.json"  # Aki, Ben, Chie, Dan; Dan wins
PLANTED = "\n\x1b[31mtournament import-result: result stored for table 1"


def spoiled(data: dict, what: str) -> None:
    if what == "name":
        data["players"][3]["name"] = "Dan" + PLANTED + "z" * 100_000
    elif what == "type":
        data["events"][5]["type"] = "roll" + PLANTED + "y" * 100_000
    elif what == "nested name":
        data["players"][0]["name"] = "\u202eikA" + PLANTED  # a bidi override and a planted line


@pytest.mark.parametrize("what, reason", [
    ("name", "are not the players at this table"),
    ("type", "cannot be replayed"),
    ("nested name", "are not the players at this table"),
    ("file name", ""),
])
def test_a_hostile_record_is_named_on_one_clean_line_and_nothing_is_stored(tmp_path, capsys, what, reason):
    db = str(tmp_path / "t.sqlite3")

    def desk(*argv: str) -> tuple[int, str, str]:
        code = main([*argv, "--db", db])
        out = capsys.readouterr()
        return code, out.out, out.err

    assert desk("new", "E", "--seed", "1")[0] == 0
    for name in ["Aki", "Ben", "Chie", "Dan"]:
        assert desk("add", "E", name)[0] == 0
    assert desk("seat", "E")[0] == 0
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    if what == "file name":
        path = tmp_path / ("game" + PLANTED + ".json")
        data = {"format": "catan-record/1"}
    else:
        path = tmp_path / "game.json"
        spoiled(data, what)
    path.write_text(json.dumps(data), encoding="utf-8")

    code, out, err = desk("import-result", "E", "1", "1", "--record", str(path))
    assert (code, out) == (2, "")
    assert err.startswith("tournament import-result: ") and reason in err
    assert err.count("\n") == 1 and err.endswith("\n"), err[:300]
    assert "\x1b" not in err and "\u202e" not in err and len(err) < 600
    assert "\\n\\x1b[31mtournament import-result" in err  # the planted text is shown escaped, not obeyed
    exported = json.loads(desk("export", "E")[1])
    assert exported["results"] == []
