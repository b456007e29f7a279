"""Starfarers and card-game records, however spoiled, are replayed or refused with the event index and the
reason -- never a traceback (the board games' records get the same treatment in test_bad_records.py).
"""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.record import RecordError, parse_record, replay

ROOT = Path(__file__).resolve().parents[1]
RECORDS = {p.stem: json.loads(p.read_text())["record"] for p in sorted((ROOT / "tests" / "scenarios").glob("*.json"))
           if p.stem.startswith(("star_", "card_"))}
RECORDS.update({p.stem: json.loads(p.read_text()) for p in
                (ROOT / "companion" / "assets" / "games" / "example-starfarers.json", ROOT / "companion" / "assets" / "games" / "example-card-game.json")})
NAMES = sorted(RECORDS)
FIELDS = ["type", "player", "piece", "at", "dice", "cards", "from", "card", "with", "give", "get", "forced", "balls",
          "half_medals", "gain", "lose", "upgrades", "number", "ship", "upgrade", "face", "kind", "flip_fate", "paid",
          "count", "pirate", "ice"]
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.just(1.5),
    st.sampled_from(["", "ore", "fuel", "bank", "pile", "market", "road", "knight", "colony_ship", "church",
                     "robber_raid", "boosters", "x", "black", "red"]),
    st.lists(st.integers(-4, 4), max_size=3),
    st.lists(st.lists(st.integers(-4, 4), min_size=2, max_size=2), min_size=1, max_size=3),
    st.lists(st.sampled_from(["red", "black", "yellow", "green"]), max_size=3),
    st.dictionaries(st.sampled_from(["ore", "wool", "carbon", "cannon", "x", "1"]), st.integers(-2, 3), max_size=2),
    st.sampled_from(["build", "roll", "shake", "encounter", "found_colony", "trade_station", "terraform",
                     "defeat_pirate", "reveal", "setup_spaceport", "exchange", "flip_fate", "draw", "discard",
                     "end_turn", "steal", "trade", "set_hand", "remove_piece"]),
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _replays_or_names_the_event(record):
    try:
        game = replay(parse_record(record))
        game.summary()
        [o.to_json() for o in game.outcomes]
    except RecordError as error:
        assert error.index is None or 0 <= error.index < len(record["events"])
        assert str(error)


@SETTINGS
@given(name=st.sampled_from(NAMES), data=st.data())
def test_a_spoiled_or_shuffled_event_is_replayed_or_refused_by_index(name, data):
    record = json.loads(json.dumps(RECORDS[name]))
    events = record["events"]
    for _ in range(data.draw(st.integers(1, 3))):
        event = data.draw(st.sampled_from(events))
        if event and data.draw(st.booleans()):
            event.pop(data.draw(st.sampled_from(sorted(event))))
        else:
            event[data.draw(st.sampled_from(FIELDS))] = data.draw(JUNK)
    if data.draw(st.booleans()):
        i, j = data.draw(st.integers(0, len(events) - 1)), data.draw(st.integers(0, len(events) - 1))
        events[i], events[j] = events[j], events[i]
    _replays_or_names_the_event(record)


@SETTINGS
@given(name=st.sampled_from(NAMES), data=st.data())
def test_a_spoiled_board_or_option_is_refused_with_a_reason(name, data):
    record = json.loads(json.dumps(RECORDS[name]))
    board = record["board"]
    if data.draw(st.booleans()):
        record["options"] = {data.draw(st.sampled_from(["vp_target", "starting_cards", "supply_refill",
                                                         "expansion_kinds", "bogus"])): data.draw(JUNK)}
    elif "systems" in board:
        planet = data.draw(st.sampled_from(data.draw(st.sampled_from(board["systems"]))["planets"]))
        planet[data.draw(st.sampled_from(["at", "resource", "number", "pirate", "ice", "hidden"]))] = data.draw(JUNK)
        if data.draw(st.booleans()):
            board[data.draw(st.sampled_from(["stations", "neutral", "systems"]))] = data.draw(JUNK)
    else:
        board[data.draw(st.sampled_from(["decks", "fate", "start", "bogus"]))] = data.draw(JUNK)
    _replays_or_names_the_event(record)
