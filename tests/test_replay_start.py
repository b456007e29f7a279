"""``python -m companion replay`` starts lean (issue 27): what it imports, and its plain argument forms.

Timings are never tests here (docs/performance.md has them); what is checked is what makes the time: the
modules a replay process loads.  ``dataclasses`` (with ``inspect``, ``ast``, ``dis``), ``typing`` and
``argparse`` (with ``gettext``, ``locale``, ``shutil``) cost more instructions at start than the replay of
a 1,000-event game does, and none is needed to replay a record.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record.cli import _plain_replay_arguments

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "companion" / "assets" / "games"
NOT_AT_START = {"dataclasses", "inspect", "ast", "typing", "argparse", "gettext", "locale", "shutil", "string",
                "random", "json", "json.decoder", "json.encoder"}  # (json brings re and enum: json_text.py)


def imported_by(*args: str) -> set[str]:
    """The modules a fresh ``python -m companion ARGS`` imports (``-X importtime`` lists each one)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "companion", *args], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode in (0, 2), run.stderr[-2000:]
    return {line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")}


def test_a_replay_process_imports_no_dataclasses_typing_argparse_or_json():
    for game in ("example-base.json", "example-high-tide.json", "example-starfarers.json",
                 "example-card-game.json"):
        modules = imported_by("replay", "--outcomes", str(EXAMPLES / game))
        assert "companion.rules.game" in modules or "companion.rules.card_game" in modules  # (it did replay)
        assert not modules & NOT_AT_START, (game, sorted(modules & NOT_AT_START))


def test_a_bad_record_is_still_said_in_one_line_without_them(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "catan-record/1", "game": "base"')
    modules = imported_by("replay", str(bad))
    # (a message may need string; a broken text is said in json's own words, json_text.py)
    assert not modules & NOT_AT_START - {"string", "json", "json.decoder", "json.encoder"}, \
        sorted(modules & NOT_AT_START)


def _argparse_reading(argv: list[str]):
    """What the replay command's argparse parser makes of ``argv`` (None: it refuses it)."""
    parser = argparse.ArgumentParser(prog="replay", exit_on_error=False, add_help=False)
    parser.add_argument("record")
    parser.add_argument("--upto", type=int, default=None)
    parser.add_argument("--outcomes", action="store_true")
    try:
        args, rest = parser.parse_known_args(argv)
    except (argparse.ArgumentError, SystemExit):
        return None
    if rest or (args.upto is not None and args.upto < 0):
        return None
    return args.record, args.upto, args.outcomes


TOKENS = st.sampled_from(["game.json", "other.json", "--outcomes", "--upto", "3", "0", "12", "-1", "--upto=2",
                          "--out", "-h", "--", "-", "", "٣", " 4"])


@settings(max_examples=300, deadline=None)
@given(argv=st.lists(TOKENS, max_size=6))
def test_the_plain_forms_read_as_argparse_reads_them(argv):
    """The replay command reads its plain forms itself; whatever it reads, argparse reads the same, and
    whatever it does not, argparse still reads (with its messages)."""
    plain = _plain_replay_arguments(argv)
    if plain is not None:
        assert plain == _argparse_reading(argv), argv


def test_the_usual_command_lines_take_the_plain_path():
    assert _plain_replay_arguments(["g.json"]) == ("g.json", None, False)
    assert _plain_replay_arguments(["--outcomes", "g.json", "--upto", "40"]) == ("g.json", 40, True)
    for odd in (["--upto=4", "g.json"], ["-h"], ["g.json", "--upto", "-1"], ["a.json", "b.json"], []):
        assert _plain_replay_arguments(odd) is None, odd


def test_a_replay_leaves_the_garbage_collector_as_it_found_it():
    """``replay`` pauses the cyclic collector while it pushes events (docs/performance.md); the app's process
    goes on after it, so the collector is on again after a replay, after a refused record, and stays off
    for a caller that had turned it off."""
    import gc

    from companion.record import RecordError, load_record, replay

    record = load_record(EXAMPLES / "example-base.json")
    spoilt = load_record(EXAMPLES / "example-base.json")
    spoilt.events.append({"type": "build", "player": 0, "piece": "city", "at": [[0, 0], [1, 0], [0, 1]]})
    was = gc.isenabled()
    try:
        for collecting in (True, False):
            (gc.enable if collecting else gc.disable)()
            replay(record)
            assert gc.isenabled() is collecting
            try:
                replay(spoilt)
            except RecordError:
                pass
            else:
                raise AssertionError("the spoilt record was replayed")
            assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()
