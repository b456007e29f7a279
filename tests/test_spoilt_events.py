"""A real game's events spoilt one by one get the same answers as when they were written down (issue 27).

tests/data/spoilt_events.json (written by tools/make_spoilt_events.py from the tree before issue 27's sixth
round) holds the benches' 1,000-event game and a sample of its events spoilt -- a trade giving a card too many,
a discard by the wrong player, the robber off the board, a steal from each player, a roll without dice, a
build by another player, stray bank trades, discards, steals and robber moves -- plain and as an umpire's
``forced`` entry, each tried on the game as it stood before that event.  The hot checks those events go through
are the ones the speed work keeps rewriting: each must still be refused with the same class, code, parameters
and English sentence, or accepted with the same outcome (warnings included) and the same changes to the
``replay`` summary.
"""

import json
from pathlib import Path

import pytest

from companion.record import new_game, parse_record
from companion.rules.errors import RulesError

DATA = json.loads((Path(__file__).parent / "data" / "spoilt_events.json").read_text(encoding="utf-8"))


def plain(value):
    return json.loads(json.dumps(value))


def summary_changes(before, after):
    def flat(summary):
        out = {f"players.{p}.{k}": v for p, player in enumerate(summary["players"]) for k, v in player.items()}
        out.update({k: v for k, v in summary.items() if k != "players"})
        return out
    a, b = flat(plain(before)), flat(plain(after))
    return {k: b.get(k) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


def answers_now():
    """Each case's answer from the rules as they are, in the file's order."""
    record = parse_record(DATA["record"])
    game = new_game(record)
    cases = DATA["cases"]
    out, next_case = [], 0
    for i, event in enumerate(record.events):
        while next_case < len(cases) and cases[next_case]["after"] == i:
            case = cases[next_case]
            twin = game.copy()
            try:
                outcome = twin.push(case["event"])
            except RulesError as error:
                out.append({"refused": {"error": type(error).__name__, "code": error.code,
                                        "params": plain(error.params), "message": str(error)}})
            else:
                out.append({"accepted": {"outcome": plain(outcome.to_json()),
                                         "changes": summary_changes(game.summary(), twin.summary())}})
            next_case += 1
        game.push(event, atomic=False)
    assert next_case == len(cases)
    return out


@pytest.fixture(scope="module")
def now():
    return answers_now()


def test_the_sample_covers_every_way_of_spoiling_refused_and_accepted():
    hows = {case["how"].split(":")[0] for case in DATA["cases"]}
    assert hows == {"trade", "discard", "robber", "steal", "build", "roll", "stray"}
    assert sum("refused" in case for case in DATA["cases"]) > 100
    assert sum("accepted" in case for case in DATA["cases"]) > 100
    assert len(DATA["record"]["events"]) == 1000


def test_every_spoilt_event_gets_the_same_answer_field_by_field(now):
    wrong = []
    for case, answer in zip(DATA["cases"], now):
        said = {k: case[k] for k in ("refused", "accepted") if k in case}
        if answer != said:
            (kind, expected), = said.items()
            got = answer.get(kind)
            fields = sorted(k for k in set(expected) | set(got or {}) if got is None or expected.get(k) != got.get(k))
            wrong.append(f"before event {case['after']}, {case['how']} {case['event']}: "
                         f"{'now ' + next(iter(answer)) if got is None else 'differs in ' + ', '.join(fields)}")
    assert not wrong, f"{len(wrong)} of {len(now)}:\n" + "\n".join(wrong[:20])
