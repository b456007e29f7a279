"""Any record, however wrong, is either replayed or refused with the event index and the reason.

The replay command promises a clear message naming the event and exit status 2 for a bad record, never a
traceback; these properties feed it records spoiled the way people and tools spoil them (a wrong type, a
missing field, a number out of range, an event out of order, a broken board or option) and check it.
"""

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.record import RecordError, parse_record, replay
from companion.record.cli import replay_main

HEX_GAMES = ("base", "base56", "seafarers", "high-tide")  # (Starfarers and the card game have their own tests)
SCENARIOS = {p.stem: record for p in sorted((Path(__file__).parent / "scenarios").glob("*.json"))
             if (record := json.loads(p.read_text())["record"])["game"] in HEX_GAMES}
NAMES = sorted(SCENARIOS)
FIELDS = ["type", "player", "piece", "at", "dice", "cards", "to", "from", "card", "with", "give", "get",
          "resource", "resources", "taken", "forced", "text"]
JUNK = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 20), st.sampled_from(["", "ore", "bank", "road", "ship", "knight", "x"]),
    st.just(1.5), st.lists(st.integers(-4, 4), max_size=3),
    st.lists(st.lists(st.integers(-4, 4), min_size=2, max_size=2), min_size=1, max_size=3),
    st.dictionaries(st.sampled_from(["ore", "wool", "gold", "1", "2"]), st.integers(-2, 3), max_size=2),
    st.sampled_from(["build", "roll", "discard", "move_robber", "steal", "buy_development", "play_development",
                     "trade", "end_turn", "set_hand", "remove_piece", "move_ship", "move_pirate", "gold", "flood"]),
)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _copy(name):
    return json.loads(json.dumps(SCENARIOS[name]))


def _replays_or_names_the_event(record):
    try:
        replay(parse_record(record)).summary()
    except RecordError as error:
        assert error.index is None or 0 <= error.index < len(record["events"])
        assert str(error) and "Traceback" not in str(error)


@SETTINGS
@given(name=st.sampled_from(NAMES), data=st.data())
def test_a_spoiled_event_is_replayed_or_refused_by_index(name, data):
    record = _copy(name)
    for _ in range(data.draw(st.integers(1, 3))):
        event = data.draw(st.sampled_from(record["events"]))
        if event and data.draw(st.booleans()):
            event.pop(data.draw(st.sampled_from(sorted(event))))
        else:
            event[data.draw(st.sampled_from(FIELDS))] = data.draw(JUNK)
    _replays_or_names_the_event(record)


@SETTINGS
@given(name=st.sampled_from(NAMES), data=st.data())
def test_events_out_of_order_are_replayed_or_refused_by_index(name, data):
    record = _copy(name)
    events = record["events"]
    i, j = data.draw(st.integers(0, len(events) - 1)), data.draw(st.integers(0, len(events) - 1))
    events[i], events[j] = events[j], events[i]
    if data.draw(st.booleans()):
        events.insert(data.draw(st.integers(0, len(events))), dict(data.draw(st.sampled_from(events))))
    _replays_or_names_the_event(record)


@SETTINGS
@given(name=st.sampled_from(NAMES), data=st.data())
def test_a_spoiled_header_is_refused_with_a_reason(name, data):
    record = _copy(name)
    where = data.draw(st.sampled_from(["option", "hex", "board", "top"]))
    if where == "option":
        key = data.draw(st.sampled_from(["vp_target", "discard_limit", "win_on_own_turn_only", "use_robber",
                                         "leader_vp", "dike_cost", "dikes_per_player", "flood_all", "bogus"]))
        record["options"] = {**record["options"], key: data.draw(JUNK)}
    elif where == "hex":
        hex_ = data.draw(st.sampled_from(record["board"]["hexes"]))
        hex_[data.draw(st.sampled_from(["at", "terrain", "number", "islet"]))] = data.draw(
            st.one_of(JUNK, st.sampled_from(["sea", "gold", "desert", "forest"])))
    elif where == "board":
        record["board"][data.draw(st.sampled_from(["robber", "pirate", "harbors", "hexes"]))] = data.draw(JUNK)
    else:
        record[data.draw(st.sampled_from(["format", "game", "players", "options", "board", "events"]))] = data.draw(JUNK)
    try:
        parsed = parse_record(record)
    except RecordError as error:
        assert error.index is None or record["events"][error.index] is not None
        return
    _replays_or_names_the_event(parsed.to_json())


def test_the_command_prints_nothing_but_the_reason_on_standard_error(tmp_path, capsys):
    record = _copy("longest_road_simple")
    record["events"][13] = {"type": "roll", "dice": [3, "4"]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record))
    assert replay_main([str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"{path}: event 13 (roll): dice must be two faces 1-6 like [3, 4], got [3, '4']\n"
