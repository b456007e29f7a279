"""An outcome's dict fields left empty by its event are one shared, read-only ``{}`` (issue 27: a replay made three
fresh dicts for every event).  Shared, it must refuse to be filled, or one listener's change would show in every
other outcome; it must still read, compare, print, copy and pickle as the ``{}`` it stands for."""

import copy
import json
import pickle

import pytest

from companion.record import replay
from companion.record.format import parse_record
from companion.assets import read_json
from companion.rules.card_game import CardOutcome
from companion.rules.outcome import NO_ENTRIES, Outcome
from companion.rules.starfarers import StarOutcome
from companion.rules.values import Fresh


def _outcomes(name):
    return replay(parse_record(read_json("games", name))).outcomes


@pytest.mark.parametrize("game", ["example-base.json", "example-card-game.json", "example-starfarers.json"])
def test_an_empty_dict_field_refuses_to_be_filled_and_other_outcomes_stay_empty(game):
    outcomes = _outcomes(game)
    quiet = [o for o in outcomes if not o.payouts]
    assert len(quiet) >= 2
    for change in (lambda d: d.__setitem__(0, {"ore": 1}), lambda d: d.update({0: {}}),
                   lambda d: d.setdefault(0, {}), lambda d: d.pop(0), lambda d: d.popitem(), lambda d: d.clear()):
        with pytest.raises(TypeError, match="not changed after the event"):
            change(quiet[0].payouts)
    assert all(o.payouts == {} for o in quiet)
    assert any(o.payouts for o in outcomes if o.kind == "roll") or game != "example-base.json"


def test_the_shared_empty_dict_reads_as_a_plain_empty_dict():
    outcome = Outcome.make(index=0, kind="note")
    assert outcome.payouts == {} and outcome.discards_owed == {} and not outcome.gold_owed
    assert repr(outcome.payouts) == "{}" and json.dumps(outcome.payouts) == "{}"
    assert outcome == Outcome(index=0, kind="note") == copy.deepcopy(outcome)
    for twin in (copy.copy(NO_ENTRIES), copy.deepcopy(NO_ENTRIES), pickle.loads(pickle.dumps(NO_ENTRIES))):
        assert type(twin) is dict and twin == {}
        twin[1] = 2  # a copy is the caller's own
    assert outcome.to_json() == {"index": 0, "kind": "note"}
    for cls in (CardOutcome, StarOutcome):
        assert cls._fresh == () and all(getattr(cls, name) is NO_ENTRIES for name in ("vp",))


def test_an_outcome_class_with_a_fresh_default_other_than_a_dict_is_refused():
    with pytest.raises(TypeError, match="must be dicts"):
        class Listed(Outcome, frozen=True):  # noqa: F841 -- defined to be refused
            items: list[int] = Fresh(list)


def test_an_unknown_field_from_a_handler_is_named():
    with pytest.raises(TypeError, match="no field.*bogus"):
        Outcome.adopt({"index": 0, "kind": "note", "bogus": 1})


def test_push_names_a_handler_field_no_outcome_has():
    from companion.rules import Game, standard_board
    from companion.rules.board import BASE_SPEC

    class Careless(Game):
        def _on_note(self, event):
            return {"bogus": 1}

    game = Careless(standard_board(1, spec=BASE_SPEC), 4)
    with pytest.raises(TypeError, match="no field.*bogus"):
        game.push({"type": "note"})
