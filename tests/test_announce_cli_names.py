"""``catan-companion announce`` names the players as the app does, and prints one clean line whatever a record holds.

The app's captions say the typed names and its voice says a name its player recorded; the command said colours.
Now ``--names``/``--record-names`` give the captions their names and ``--voices`` a game's recorded names, heard
through ALSA's file plugin sample for sample.  A record's names, types and file name come from anywhere: what the
command echoes of them is one short line (no newline, no escape sequence reaching the terminal, no 100 kB echo).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.announce import library, phrase_for_outcome
from companion.announce.clips import RATE
from companion.announce.cli import main
from companion.announce.name_voices import NameVoices, game_key, render_phrase
from companion.record import load_record, replay
from test_announce_alsa import file_home, find_in_order, read_capture, run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "companion" / "assets" / "games" / "example-base.json"  # ends: Dan wins, order Dan, Aki, Ben, Chie


def announce(capsys, *args: str) -> tuple[int, str, str]:
    code = main([*args, "--player", "null"])
    out = capsys.readouterr()
    return code, out.out, out.err


def last_phrase(record, lang: str, names=None):
    last = replay(record).outcomes[-1]
    return last.index, phrase_for_outcome(last, [p["color"] for p in record.players], lang, names=names,
                                          event=record.events[last.index])


@pytest.mark.parametrize("lang, caption", [
    ("en", "Dan wins the game. Final order: Dan, Aki, Ben and Chie."),
    ("ja", "Danの勝ちです。順位はDan、Aki、Ben、Chie。"),
])
def test_the_records_names_are_the_captions_names(capsys, lang, caption):
    code, out, err = announce(capsys, str(EXAMPLE), "--lang", lang, "--record-names")
    assert (code, err) == (0, "")
    assert out == f"#818 {caption}\n"


def test_typed_names_are_said_in_seat_order_and_without_them_the_colours_stay(capsys):
    code, out, _ = announce(capsys, str(EXAMPLE), "--names", "Ann,Bo,Cy,Di")
    assert code == 0 and out == "#818 Di wins the game. Final order: Di, Ann, Bo and Cy.\n"
    index, phrase = last_phrase(load_record(EXAMPLE), "en")
    assert announce(capsys, str(EXAMPLE))[1] == f"#{index} {phrase.caption}\n"  # by colour, as before
    assert "Dan" not in phrase.caption


@pytest.mark.parametrize("names, message", [
    ("Ann,Bo", "--names: 2 names for the record's 4 players"),
    ("Ann,Bo\u200b,Cy,Di", "player 2's name 'Bo\\u200b' holds an invisible formatting character at position 3"),
    ("Ann,\x1b[2J,Cy,Di", "player 2's name '\\x1b[2J' holds a control character at position 1"),
    ("Ann,,Cy,Di", "player 2's name is empty"),
])
def test_names_that_cannot_be_used_are_refused_naming_the_seat(capsys, names, message):
    code, out, err = announce(capsys, str(EXAMPLE), "--names", names)
    assert (code, out) == (2, "")
    assert message in err and err.count("\n") == 1 and "\x1b" not in err


def test_a_recorded_name_is_heard_where_the_colour_was(tmp_path):
    """Through PortAudio and ALSA into a file: Dan's and Aki's own recordings, the others by colour."""
    record = load_record(EXAMPLE)
    rng = np.random.default_rng(7)
    voices = {seat: (rng.normal(0, 6000, int(RATE * length)).clip(-32000, 32000)).astype(np.int16)
              for seat, length in ((3, 0.4), (0, 0.3))}
    store = NameVoices(tmp_path / "name-voices")
    key = game_key(5, 1_700_000_000.0)
    for seat, clip in voices.items():
        store.save(key, seat, clip)
    home, captured = file_home(tmp_path)
    done = run_cli(home, str(EXAMPLE), "--lang", "ja", "--record-names", "--voices", str(store.folder / key))
    assert done.returncode == 0, done.stderr
    index, phrase = last_phrase(record, "ja", names=[p["name"] for p in record.players])
    assert done.stdout == f"#{index} {phrase.caption}\n"
    heard = read_capture(captured)
    find_in_order(heard, [render_phrase(library("ja"), phrase.tokens, voices)])
    assert not contains(heard, library("ja").samples("orange_no"))  # Dan (orange) is no longer said by colour


def contains(samples: np.ndarray, clip: np.ndarray) -> bool:
    starts = np.flatnonzero(samples[:len(samples) - len(clip) + 1] == clip[0])
    return any(np.array_equal(samples[s:s + len(clip)], clip) for s in starts)


def test_a_voices_folder_that_is_not_there_is_named(capsys, tmp_path):
    code, out, err = announce(capsys, str(EXAMPLE), "--voices", str(tmp_path / "nowhere"))
    assert (code, out) == (2, "") and "--voices" in err and "nowhere" in err


# --- hostile records: one clean line ---------------------------------------------------------------------------

PLANTED = "\n\x1b[31mannounce: everything is fine"


def hostile(tmp_path: Path, change, name: str = "game.json") -> Path:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def one_clean_line(text: str, limit: int = 2000) -> bool:
    return text.count("\n") == 1 and text.endswith("\n") and text[:-1].isprintable() and len(text) <= limit


def test_an_event_type_planting_a_line_is_named_on_one_short_line(capsys, tmp_path):
    path = hostile(tmp_path, lambda d: d["events"][3].update(type="x" + PLANTED + "y" * 100_000))
    code, out, err = announce(capsys, str(path))
    assert (code, out) == (1, "")
    assert one_clean_line(err, 600), err[:300]
    assert err.startswith(f"announce: {path}: event 3")


def test_a_file_name_planting_a_line_is_named_on_one_line(capsys, tmp_path):
    path = tmp_path / ("game" + PLANTED + ".json")
    path.write_text('{"format": "catan-record/1"}', encoding="utf-8")
    code, out, err = announce(capsys, str(path))
    assert (code, out) == (1, "")
    assert one_clean_line(err, 600), err[:300]
    assert err.startswith("announce: ") and "game\\n\\x1b[31mannounce" in err


def test_a_hostile_name_in_the_record_is_captioned_on_one_line(capsys, tmp_path):
    path = hostile(tmp_path, lambda d: d["players"][3].update(name="Dan" + PLANTED + "z" * 100_000))
    code, out, err = announce(capsys, str(path), "--record-names", "--all")
    assert (code, err) == (0, "")
    lines = out.splitlines(keepends=True)
    assert len(lines) > 300
    assert all(one_clean_line(line) and line.startswith("#") for line in lines)
    assert "Dan\\n\\x1b[31mannounce: everything is fine" in lines[-1]


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(names=st.lists(st.text(max_size=300), min_size=4, max_size=4))
def test_whatever_the_record_names_its_players_each_printed_line_is_one_clean_line(capsys, tmp_path, names):
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    for player, name in zip(data["players"], names):
        player["name"] = name
    path = tmp_path / "named.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = announce(capsys, str(path), "--record-names")
    assert code in (0, 1)
    for text in (out, err):
        assert text == "" or one_clean_line(text), text[:300]
    assert (code == 0) == out.startswith("#818 ")
