"""Hands as far as they are known: sizes exact, known counts never more than the truth."""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import IllegalAction
from companion.rules.board import RESOURCES
from companion.rules.hands import Hand

operation = st.one_of(
    st.tuples(st.just("gain"), st.sampled_from(RESOURCES), st.integers(1, 3)),
    st.tuples(st.just("pay"), st.sampled_from(RESOURCES), st.integers(1, 2)),
    st.tuples(st.just("stolen"), st.integers(0, 100)),
    st.tuples(st.just("gain_unseen"), st.integers(1, 2)),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(operation, max_size=40))
def test_tracked_hand_is_a_lower_bound_of_the_real_hand(ops):
    real = Counter()
    tracked = Hand()
    for op in ops:
        if op[0] == "gain":
            real[op[1]] += op[2]
            tracked.add({op[1]: op[2]})
        elif op[0] == "gain_unseen":  # a blind steal by this player: the thief knows, the table does not
            r = RESOURCES[op[1] % 5]
            real[r] += 1
            tracked.unknown += 1
        elif op[0] == "pay":
            if real[op[1]] >= op[2]:
                assert tracked.can_pay({op[1]: op[2]})
                real[op[1]] -= op[2]
                tracked.remove({op[1]: op[2]})
        elif op[0] == "stolen" and sum(real.values()):
            cards = sorted(real.elements())
            real[cards[op[1] % len(cards)]] -= 1
            tracked.lose_unseen()
        assert tracked.size == sum(real.values())
        for r in RESOURCES:
            assert tracked.count(r) <= real[r]


def test_a_card_stolen_from_a_hand_of_one_kind_is_known():
    hand = Hand({"ore": 3})
    hand.lose_unseen()
    assert hand.known == {"ore": 2} and hand.unknown == 0


def test_a_card_stolen_from_a_mixed_hand_leaves_lower_bounds():
    hand = Hand({"ore": 2, "wool": 1})
    hand.lose_unseen()
    assert hand.size == 2 and hand.known == {"ore": 1} and hand.unknown == 1


def test_paying_what_the_hand_cannot_hold_is_refused_and_changes_nothing():
    hand = Hand({"ore": 1}, unknown=1)
    with pytest.raises(IllegalAction, match="does not hold 3 ore"):
        hand.remove({"ore": 3})
    assert hand == Hand({"ore": 1}, unknown=1)


@pytest.mark.parametrize("known, unknown, resource, beside, most", [
    ({"lumber": 3, "brick": 2}, 0, "lumber", {}, 3),                       # all of it known
    ({"lumber": 3, "brick": 2}, 0, "ore", {"lumber": 3}, 0),               # none held
    ({"lumber": 2}, 1, "lumber", {}, 3),                                   # the unseen card may be one more
    ({"lumber": 2}, 1, "ore", {}, 1),                                      # or the one ore
    ({"lumber": 2}, 1, "ore", {"lumber": 3}, 0),                           # ... unless a third lumber takes it
    ({"lumber": 2, "wool": 1}, 2, "wool", {"lumber": 3, "ore": 1}, 1),     # both unseen cards taken by others
    ({"lumber": 2, "wool": 1}, 2, "wool", {"lumber": 2, "wool": 5}, 3),    # its own choice does not count
])
def test_most_of_a_resource_is_what_the_hand_may_give_beside_the_others(known, unknown, resource, beside, most):
    hand = Hand(dict(known), unknown)
    assert hand.most_of(resource, beside) == most
    others = {r: n for r, n in beside.items() if r != resource}
    assert hand.can_pay({**others, resource: most})          # that many may be given
    assert not hand.can_pay({**others, resource: most + 1})  # one more would be refused
