"""``python -m companion replay`` handed anything at all: exit 0 with the state, or exit 2 with ONE line on standard
error naming the event index (where there is one) and the reason, and nothing on standard output.

Hostile files as an outsider wrote them (nesting 1,100 deep, a 5,000-digit integer, an event type that plants a
second, coloured line on the terminal, a 5 MB string, a UTF-8 byte order mark), then hypothesis over raw bytes and
over JSON trees grafted into a real record.  The checker runs in process for speed; a few runs are real processes.
"""

import contextlib
import io
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.record import RecordError, load_record, replay
from companion.record.cli import replay_main

SCENARIOS = Path(__file__).parent / "scenarios"
RECORD = json.loads((SCENARIOS / "longest_road_simple.json").read_text())["record"]
MESSAGE_LIMIT = 400  # characters on the one line, whatever the record holds
WHERE = re.compile(r"^.*?: (record|event \d+( \(.*?\))?): ")


def _record(**changes):
    record = json.loads(json.dumps(RECORD))
    for index, event in changes.get("events", {}).items():
        record["events"][index] = event
    return record


def _built(event_index: int, **fields) -> str:
    record = _record()
    record["events"][event_index].update(fields)
    return json.dumps(record)


HOSTILE = {
    # name: (file bytes, what the one line must say)
    "nested 1,100 deep": (("[" * 1100 + "]" * 1100).encode(), "nested more than 64 levels deep at line 1 column 65"),
    "nested 900 deep inside an event": (_built(3, at=json.loads("[" * 900 + "]" * 900)).encode(),
                                        "event 3 (build): nested more than 64 levels deep"),
    "a 5,000-digit integer": (('{"format": "catan-record/1", "players": ' + "9" * 5000 + "}").encode(),
                              "record: a number of more than 4300 digits"),
    "a 5,000-digit player in an event": (_built(5, player=int("7" * 4000)).replace(
        "7" * 4000, "-" + "7" * 5000).encode(), "event 5 (build): a number of more than 4300 digits"),
    "a type with a newline and ANSI escapes": (
        _built(3, type="build\n\x1b[31mgame.json: event 0: all fine\x1b[0m").encode(),
        r"event 3 ('build\n\x1b[31mgame.json: event 0: all fine\x1b[0m'): unknown event type"),
    "a 5 MB type": (_built(3, type="x" * 5_000_000).encode(), "event 3 ('xxxx"),
    "a 5 MB place": (_built(3, at="y" * 5_000_000).encode(), "event 3 (build): at must name an edge"),
    "a 5 MB game name": (json.dumps({**RECORD, "game": "z" * 5_000_000}).encode(), "record: unknown game 'zzz"),
    "a bidi override in a colour": (json.dumps({**RECORD, "players": [{"name": "A", "color": "\u202ered"}]}).encode(),
                                    r"got '\u202ered'"),
    "not UTF-8": (b'{"format": "catan-record/1", "game": "\xff"}', "is not UTF-8 text (byte 38)"),
}


def _run_in_process(data: bytes, folder: Path) -> tuple[int, str, str]:
    path = folder / "record.json"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = replay_main([str(path)])
    return code, out.getvalue(), err.getvalue()


def _assert_one_line_or_the_state(code: int, out: str, err: str) -> None:
    assert code in (0, 2)
    if code == 0:
        assert err == ""
        json.loads(out)
        return
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    line = err[:-1]
    assert line.isprintable(), line  # no raw newline, ESC, bidi override or other control character
    assert len(line) <= MESSAGE_LIMIT, len(line)
    assert WHERE.match(line), line


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_record_gets_one_short_line_naming_where_and_why(name, tmp_path):
    data, said = HOSTILE[name]
    code, out, err = _run_in_process(data, tmp_path)
    _assert_one_line_or_the_state(code, out, err)
    assert code == 2 and said in err, err


def test_a_byte_order_mark_is_read_as_utf8(tmp_path):
    plain = _run_in_process(json.dumps(RECORD).encode(), tmp_path)
    with_mark = _run_in_process(b"\xef\xbb\xbf" + json.dumps(RECORD).encode(), tmp_path)
    assert with_mark == plain and plain[0] == 0


@pytest.mark.parametrize("name", ["nested 1,100 deep", "a 5,000-digit integer", "a type with a newline and ANSI escapes",
                                  "a 5 MB type"])
def test_the_real_command_says_one_line_and_exits_2(name, tmp_path):
    data, said = HOSTILE[name]
    path = tmp_path / "record.json"
    path.write_bytes(data)
    result = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True)
    _assert_one_line_or_the_state(result.returncode, result.stdout, result.stderr)
    assert result.returncode == 2 and said in result.stderr


def test_the_real_command_reads_a_record_with_a_byte_order_mark(tmp_path):
    path = tmp_path / "record.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(RECORD).encode())
    result = subprocess.run([sys.executable, "-m", "companion", "replay", str(path)], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == ""
    assert json.loads(result.stdout)["turn"]


# --- hypothesis: raw bytes and JSON trees ---------------------------------------------------------------------------

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["build", "roll", "road", "\n", "\x1b[2J", "\u202e", "\ufeff", "\x00", "catan-record/1", "base"])
SCALARS = (st.none() | st.booleans() | st.integers(-(10 ** 30), 10 ** 30) | st.integers(-3, 20)
           | st.floats(allow_nan=False, allow_infinity=False) | TEXT)
TREES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                     max_leaves=20)
RECORD_BYTES = json.dumps(RECORD).encode()


def _spoiled_bytes(data: st.DataObject) -> bytes:
    raw = bytearray(RECORD_BYTES)
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(raw)))
        action = data.draw(st.sampled_from(["insert", "delete", "replace", "cut"]))
        if action == "insert":
            raw[at:at] = data.draw(st.binary(min_size=1, max_size=8) | st.sampled_from([b"[" * 2000, b"9" * 5000,
                                                                                      b"\xef\xbb\xbf", b"{"]))
        elif action == "delete":
            del raw[at:at + data.draw(st.integers(1, 20))]
        elif action == "replace" and at < len(raw):
            raw[at] = data.draw(st.integers(0, 255))
        else:
            del raw[at:]
    return bytes(raw)


def _grafted(data: st.DataObject) -> dict:
    """The record with a JSON tree put in place of (or beside) one of its values, at any depth."""
    record = json.loads(json.dumps(RECORD))
    for _ in range(data.draw(st.integers(1, 3))):
        holder = record
        while True:  # walk down to a random list or object
            keys = list(holder) if isinstance(holder, dict) else list(range(len(holder)))
            if not keys:
                break
            key = data.draw(st.sampled_from(keys))
            if not isinstance(holder[key], (dict, list)) or data.draw(st.booleans()):
                break
            holder = holder[key]
        if keys:
            holder[key] = data.draw(TREES)
        elif isinstance(holder, dict):
            holder[data.draw(TEXT)] = data.draw(TREES)
        else:
            holder.append(data.draw(TREES))
    return record


@FUZZ
@given(data=st.binary(max_size=300) | st.sampled_from([b"", b"\xef\xbb\xbf", b"null", b"[]", b"{}", b"\xff\xfe{}"]))
def test_any_bytes_get_the_state_or_one_line(data):
    with tempfile.TemporaryDirectory() as folder:
        _assert_one_line_or_the_state(*_run_in_process(data, Path(folder)))


@FUZZ
@given(data=st.data())
def test_a_record_with_spoiled_bytes_gets_the_state_or_one_line(data):
    with tempfile.TemporaryDirectory() as folder:
        _assert_one_line_or_the_state(*_run_in_process(_spoiled_bytes(data), Path(folder)))


@FUZZ
@given(data=st.data())
def test_a_record_with_a_json_tree_grafted_in_gets_the_state_or_one_line(data):
    record = _grafted(data)
    with tempfile.TemporaryDirectory() as folder:
        _assert_one_line_or_the_state(*_run_in_process(json.dumps(record).encode(), Path(folder)))
        try:  # and every refusal is one the checker gave a reason for, not a rules check that missed the input
            replay(load_record(Path(folder) / "record.json"))
        except RecordError as error:
            assert error.__cause__ is None, f"{type(error.__cause__).__name__} escaped the checks: {error}"
