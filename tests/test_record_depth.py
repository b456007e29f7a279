"""How deep a record nests, as ``replay`` checks it before the rules see it (issue 26's limit, issue 27's speed).

``untrusted.deeper_than`` sorts a level of plain JSON values by type in C and walks any other level value by
value; both must say what a plain recursive count says, for data the JSON parser makes and for a caller's own
data holding dict or list subclasses.
"""

from __future__ import annotations

from collections import OrderedDict, UserList

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.record.json_text import loads
from companion.record.untrusted import MAX_DEPTH, deeper_than


class Tagged(dict):
    """A dict subclass, as a caller's own data may hold (its values are still walked)."""


class Row(list):
    pass


def depth(value) -> int:
    """Levels of lists and objects, counted by recursion (the reference)."""
    if isinstance(value, dict):
        return 1 + max((depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((depth(v) for v in value), default=0)
    return 0


LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=3))
PLAIN = st.recursive(LEAVES, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                     st.dictionaries(st.text(max_size=2), inner, max_size=4)),
                     max_leaves=40)
MIXED = st.recursive(st.one_of(LEAVES, st.just(UserList([1]))), lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.lists(inner, max_size=3).map(Row),
    st.dictionaries(st.text(max_size=2), inner, max_size=4),
    st.dictionaries(st.text(max_size=2), inner, max_size=3).map(Tagged),
    st.dictionaries(st.text(max_size=2), inner, max_size=3).map(OrderedDict)), max_leaves=40)


@settings(max_examples=150, deadline=None)
@given(value=st.one_of(PLAIN, MIXED), limit=st.integers(0, 8))
def test_deeper_than_says_what_a_recursive_count_says(value, limit):
    assert deeper_than(value, limit) == (depth(value) > limit)


def test_a_deep_list_inside_a_plain_record_is_found_at_any_level():
    for level in range(1, 80):
        text = '{"events": [{"type": "note", "text": "x"}, ' + "[" * level + "]" * level + "]}"
        data = loads(text)
        assert deeper_than(data, MAX_DEPTH) == (2 + level > MAX_DEPTH)
        nested_in_subclass = Tagged(data)
        assert deeper_than(nested_in_subclass, MAX_DEPTH) == (2 + level > MAX_DEPTH)
