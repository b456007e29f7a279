"""Writes tests/data/spoilt_events.json: a real game's events spoilt one by one, and what the rules said to each
(run: python tools/make_spoilt_events.py [--all]).

Issue 27's speed work rewrote the hot checks (trade, discard, robber move, steal, build, roll) so that they build
their refusal only to refuse; these cases hold every later rewrite to the same words.  The game is the
1,000-event game the benches replay (a random legal 4-player base game, seed 3, kept in the file whole, so a
change to random play does not change the cases).  Before each of its events, the event is spoilt in each of a
few ways (another player, a card too many, no dice, a hex off the board, ...), and four stray events (a bank
trade, a discard, a steal, a robber move) are tried too, each plain and as an umpire's ``forced`` entry, on a
copy of the game as it stood.  What the rules said is kept: a refusal's class, code, parameters and English
sentence, or for an accepted event its outcome and what changed in the ``replay`` summary.

The whole set is ~11,000 cases; the file keeps an even sample (up to ``PER_KIND`` of each way of spoiling, plain
and forced, spread over the game) so that tests/test_spoilt_events.py stays a few seconds; ``--all`` keeps every
case (for a one-off comparison of two trees; not committed).
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
from pathlib import Path

from companion.record import Record, new_game
from companion.rules.errors import RulesError

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "data" / "spoilt_events.json"
sys.path.insert(0, str(ROOT / "bench"))
from bench_core import thousand_event_record  # noqa: E402  (the benches' 1,000-event game, one writer of it)
PER_KIND = 8  # cases kept of each way of spoiling, plain and forced


def spoilt(event: dict, robber) -> list[tuple[str, dict]]:
    """(how, the spoilt event) for ``event``, and the four stray events tried before every event."""
    def changed(**fields):
        out = copy.deepcopy(event)
        out.update(fields)
        return out

    kind, out = event["type"], []
    if kind == "trade":
        first_given, first_got = next(iter(event["give"])), next(iter(event["get"]))
        out += [("trade: gives nothing", changed(give={})), ("trade: gets nothing", changed(get={})),
                ("trade: gives one more", changed(give={first_given: event["give"][first_given] + 1})),
                ("trade: gets one more", changed(get={first_got: event["get"][first_got] + 1})),
                ("trade: gets what it gives", changed(get=dict(event["give"]))),
                ("trade: gives both sides", changed(give={**event["give"], **event["get"]})),
                ("trade: another player", changed(player=(event["player"] + 1) % 4)),
                ("trade: gives 9 ore", changed(give={"ore": 9})),
                ("trade: bank and player swapped",
                 changed(**{"with": "bank" if event["with"] != "bank" else (event["player"] + 1) % 4}))]
    elif kind == "discard":
        first = next(iter(event["cards"]))
        out += [("discard: another player", changed(player=(event["player"] + 1) % 4)),
                ("discard: one more", changed(cards={first: event["cards"][first] + 1})),
                ("discard: 20 ore", changed(cards={"ore": 20}))]
    elif kind == "move_robber":
        out += [("robber: off the board", changed(to=[9, 9])),
                ("robber: where it stands", changed(to=list(robber) if robber is not None else [0, 0]))]
    elif kind == "steal":
        out += [(f"steal: from player {p}", changed(**{"from": p})) for p in range(4)]
    elif kind == "build":
        out += [("build: another player", changed(player=(event["player"] + 1) % 4))]
    elif kind == "roll":
        out += [("roll: no dice", {k: v for k, v in event.items() if k != "dice"})]
    out += [("stray: bank trade", {"type": "trade", "player": 0, "with": "bank", "give": {"ore": 4},
                                   "get": {"wool": 1}}),
            ("stray: discard", {"type": "discard", "player": 0, "cards": {"ore": 1}}),
            ("stray: steal", {"type": "steal", "from": 1}),
            ("stray: robber move", {"type": "move_robber", "to": [0, 0]})]
    return out


def plain(value):
    """``value`` as JSON reads it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value))


def summary_changes(before: dict, after: dict) -> dict:
    """What differs between two ``replay`` summaries, by field (``players.N.field`` for a player's)."""
    def flat(summary):
        out = {f"players.{p}.{k}": v for p, player in enumerate(summary["players"]) for k, v in player.items()}
        out.update({k: v for k, v in summary.items() if k != "players"})
        return out
    a, b = flat(plain(before)), flat(plain(after))
    return {k: b.get(k) for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)}


def what_the_rules_say(game, event) -> dict:
    """A refusal as class, code, parameters and sentence; an acceptance as outcome and summary changes."""
    twin = game.copy()
    try:
        outcome = twin.push(event)
    except RulesError as error:
        return {"refused": {"error": type(error).__name__, "code": error.code, "params": plain(error.params),
                            "message": str(error)}}
    return {"accepted": {"outcome": plain(outcome.to_json()),
                         "changes": summary_changes(game.summary(), twin.summary())}}


def cases(record: Record) -> list[dict]:
    game = new_game(record)
    out = []
    for i, event in enumerate(record.events):
        for how, bad in spoilt(event, game.state.robber):
            for forced in (False, True):
                bad_event = dict(bad, forced=True) if forced else bad
                out.append({"after": i, "how": how, "event": bad_event, **what_the_rules_say(game, bad_event)})
        game.push(event, atomic=False)
    return out


def sample(every: list[dict]) -> list[dict]:
    """Up to ``PER_KIND`` cases of each way of spoiling (plain and forced apart), evenly spread over the game."""
    groups: dict[tuple, list[dict]] = {}
    for case in every:
        groups.setdefault((case["how"], "forced" in case["event"]), []).append(case)
    kept = []
    for group in groups.values():
        step = max(1, len(group) / PER_KIND)
        kept += [group[int(k * step)] for k in range(min(PER_KIND, len(group)))]
    return sorted(kept, key=lambda c: (c["after"], c["how"], "forced" in c["event"]))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--all", action="store_true", help="keep every case (~11,000), not a sample")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    record = thousand_event_record()
    every = cases(record)
    kept = every if args.all else sample(every)
    data = {"about": "written by tools/make_spoilt_events.py (see its doc); read by tests/test_spoilt_events.py",
            "record": record.to_json(), "cases": kept}
    args.out.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
    refused = sum("refused" in c for c in kept)
    print(f"{args.out}: {len(kept)} of {len(every)} cases ({refused} refused, {len(kept) - refused} accepted)")


if __name__ == "__main__":
    main()
