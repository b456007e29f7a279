"""``replay`` reads and writes JSON without the json package (companion/record/json_text.py, issue 27), and must
read and print exactly what the package would: the same values, the same text byte for byte, the same errors."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record.json_text import dumps_indented, loads

KEYS = st.one_of(st.text(max_size=8), st.integers(-10**20, 10**20), st.booleans(), st.none(),
                 st.floats(allow_nan=True, allow_infinity=True))
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.floats(allow_nan=True),
                   st.text(alphabet=st.characters(), max_size=12), st.sampled_from(["", "東京", "a\"b\\c", "\x00\x1f\u2028\ud800"]))
VALUES = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=5), st.tuples(inner, inner),
                                                      st.dictionaries(KEYS, inner, max_size=5)), max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(VALUES)
def test_written_as_json_dumps_writes_it(value):
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(VALUES, st.sampled_from([None, 0, 1, 2, "\t"]), st.sampled_from(["", " ", "\n", " \t\r\n "]))
def test_read_as_json_loads_reads_it(value, indent, around):
    text = around + json.dumps(value, indent=indent, ensure_ascii=indent is None) + around
    assert repr(loads(text)) == repr(json.loads(text))  # (repr: NaN is not equal to itself)


class Named(str):
    pass


@pytest.mark.parametrize("value", [{"a": Named("x")}, [object()], {(1, 2): 3}, {Named("k"): 1}, [1.5, {"b": set()}]])
def test_what_it_does_not_write_itself_json_writes_or_refuses(value):
    try:
        expected = json.dumps(value, indent=2, ensure_ascii=False)
    except TypeError as error:
        with pytest.raises(TypeError, match=str(error)):
            dumps_indented(value)
    else:
        assert dumps_indented(value) == expected


def test_a_cycle_is_refused_in_jsons_words():
    loop: list = []
    loop.append(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps_indented(loop)


BROKEN = ["", "   ", "\ufeff{}", "{", '{"a": 1,}', "[1 2]", "{} {}", "{}x", "nul", "[NaN, -Infinity]", "01",
          '"\x01"', '"\\x"', "[" * 5000 + "]" * 5000, "1" * 5000, '{"a": 1} \n ]', "\u3000{}", "[1.5e999]"]


@pytest.mark.parametrize("text", BROKEN)
def test_a_broken_or_odd_text_gets_json_loads_answer(text):
    try:
        expected = json.loads(text)
    except Exception as error:  # noqa: BLE001 -- whatever json says
        with pytest.raises(type(error)) as caught:
            loads(text)
        assert str(caught.value) == str(error)
    else:
        got = loads(text)
        assert repr(got) == repr(expected)
