"""A settings file that cannot be read at all: the app's settings are the defaults, the file is kept aside as
``settings.json.bad-<time>`` (never deleted), and saving the settings afterwards works."""

from __future__ import annotations

import json

import pytest

from companion.ui.settings import Settings

DEEP = "[" * 100_000 + "]" * 100_000


def _make(path, kind):
    if kind == "directory":
        path.mkdir()
        (path / "inside.txt").write_text("someone's notes")
    elif kind == "deep":
        path.write_text('{"lang": ' + DEEP + "}")
    elif kind == "deep-object":
        path.write_text('{"a":' * 50_000 + "1" + "}" * 50_000)
    elif kind == "not-utf8":
        path.write_bytes(b'{"lang": "\xff\xfe"}')
    elif kind == "truncated":
        path.write_text('{"lang": "ja", "vol')
    elif kind == "huge":
        path.write_text('{"lang": "ja", "pad": "' + "x" * 200_000 + '"}')


@pytest.mark.parametrize("kind", ["directory", "deep", "deep-object", "not-utf8", "truncated", "huge"])
def test_a_settings_file_that_cannot_be_read_is_kept_aside_and_the_defaults_saved(tmp_path, kind, caplog):
    path = tmp_path / "settings.json"
    _make(path, kind)
    before = sorted(p.name for p in tmp_path.rglob("*"))
    settings = Settings.load(tmp_path)
    assert settings == Settings()
    aside = [p for p in tmp_path.iterdir() if p.name.startswith("settings.json.bad-")]
    assert len(aside) == 1 and not path.exists()
    assert aside[0].name in caplog.text and "cannot be read" in caplog.text
    if kind == "directory":
        assert (aside[0] / "inside.txt").read_text() == "someone's notes"
    assert len(before) == len(list(tmp_path.rglob("*")))  # moved, nothing removed
    settings.lang = "ja"
    settings.save(tmp_path)  # the defaults (and a change) are written where the bad file was
    assert json.loads(path.read_text())["lang"] == "ja" and Settings.load(tmp_path).lang == "ja"


def test_two_bad_files_in_one_second_are_both_kept(tmp_path):
    for _ in range(2):
        (tmp_path / "settings.json").write_text("{")
        assert Settings.load(tmp_path) == Settings()
    assert len([p for p in tmp_path.iterdir() if p.name.startswith("settings.json.bad-")]) == 2


def test_a_readable_file_with_one_bad_value_stays_where_it_is(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"lang": "fr", "volume": 0.5}))
    assert Settings.load(tmp_path).volume == 0.5
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]
