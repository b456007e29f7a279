"""High Tide decisions the book leaves open (docs/high-tide.md): the robber and harbors on flooded land."""

import json
from pathlib import Path

import pytest

from companion.record import RecordError, parse_record, replay

SCENARIOS = Path(__file__).parent / "scenarios"


def flood_record(*, desert: bool):
    """The flood scenario (P1 floods (0,0)), with the robber on (0,0) and a 3:1 harbor on its west side."""
    record = json.loads((SCENARIOS / "tide_flood_sinks_settlement_and_longest_road.json").read_text())["record"]
    board = record["board"]
    board["robber"] = [0, 0]
    board["harbors"] = [{"edge": [[-1, 0], [0, 0]], "trade": "3:1"}, {"edge": [[1, -1], [1, 0]], "trade": "wool"}]
    if desert:
        for entry in board["hexes"]:
            if entry["at"] == [3, 0]:
                entry["terrain"] = "desert"
                entry.pop("number")
    return parse_record(record)


def test_a_robber_on_a_flooded_hex_is_washed_to_the_desert():
    game = replay(flood_record(desert=True))
    assert game.summary()["robber"] == [3, 0]
    assert game.summary()["last_roll"]["payouts"] == [{}, {}, {}]  # the robber blocked (0,0) before it flooded


def test_with_no_desert_left_the_robber_leaves_the_board_and_may_come_back_anywhere():
    game = replay(flood_record(desert=False))
    assert game.summary()["robber"] is None
    assert game.robber_hexes() == tuple(sorted(game.board.land))


def test_a_harbor_whose_land_floods_is_gone_and_the_others_stay():
    game = replay(flood_record(desert=True))
    assert set(game.board.harbors.values()) == {"wool"}
    assert [[-1, 0], [0, 0]] not in [[list(h) for h in e] for e in game.board.harbors]


def test_undoing_the_flood_gives_the_land_back():
    game = replay(flood_record(desert=True))
    game.pop()
    assert game.board.is_land((0, 0)) and game.board.tiles[(0, 0)].number == 6
    assert game.state.robber == (0, 0) and len(game.board.harbors) == 2


def test_an_umpire_can_record_the_flood_the_table_really_made():
    """The roller flooded a hex without the number by mistake: refused, unless the umpire forces it."""
    record = json.loads((SCENARIOS / "tide_flood_sinks_settlement_and_longest_road.json").read_text())["record"]
    assert record["events"][-1] == {"type": "flood", "at": [0, 0]}
    record["events"][-1] = {"type": "flood", "at": [1, 0]}
    with pytest.raises(RecordError, match=r"event \d+ \(flood\): the tide takes a land hex with the number rolled"):
        replay(parse_record(record))
    record["events"][-1]["forced"] = True
    game = replay(parse_record(record))
    assert game.outcomes[-1].warnings == ("the tide takes a land hex with the number rolled: one of [[0, 0]], "
                                          "not [1, 0]",)
    assert game.summary()["high_tide"]["flooded"] == [[1, 0]]
    record["events"][-1] = {"type": "flood", "at": [1, -1], "forced": True}  # sea: nothing to flood
    with pytest.raises(RecordError, match=r"\[1, -1\] is not land"):
        replay(parse_record(record))


def test_the_flood_outcome_says_what_the_land_was():
    """The outcome names the flooded hex as it was before the flood (its terrain and number), so the voice can
    say "the 6 fields" from the outcome alone; the board itself no longer has it as land."""
    record = json.loads((SCENARIOS / "tide_flood_sinks_settlement_and_longest_road.json").read_text())["record"]
    before = next(e for e in record["board"]["hexes"] if e["at"] == [0, 0])
    game = replay(parse_record(record))
    last = game.outcomes[-1]
    assert last.flooded == (0, 0)
    assert [(f.at, f.terrain, f.number) for f in last.floods] == [((0, 0), before["terrain"], before["number"])]
    assert (before["terrain"], before["number"]) == ("fields", 6)
    assert not game.board.is_land((0, 0))
    assert last.to_json()["floods"][0]["terrain"] == "fields"


def test_flood_all_names_every_hex_it_takes_and_tells_twins_apart():
    """With the flood-all option a roll floods every land hex with the number: the outcome names each (it named
    the first only); two that share terrain and number each carry the neighbour only it has, read on the board
    before the flood (the one the screen offered)."""
    record = json.loads((SCENARIOS / "tide_variant_flood_all.json").read_text())["record"]
    last = replay(parse_record(record)).outcomes[-1]
    assert [(f.at, f.terrain, f.number, f.beside) for f in last.floods] == [
        ((0, 0), "fields", 6, None), ((3, 0), "hills", 6, None)]
    for tile in record["board"]["hexes"]:
        if tile["at"] == [3, 0]:
            tile["terrain"] = "fields"  # two 6 fields: (0,0) beside the 5 forest, (3,0) the 8 pasture and 9 gold
    last = replay(parse_record(record)).outcomes[-1]
    assert [(f.at, f.beside) for f in last.floods] == [((0, 0), ("forest", 5)), ((3, 0), ("pasture", 8))]


@pytest.mark.parametrize("lang, line", [
    ("en", "The dikes on the 6 fields and the 6 hills held back the tide (and are gone)."),
    ("ja", "6の畑と6の丘陵の堤防が潮を防ぎました（堤防はなくなります）。")])
def test_flood_all_over_two_dikes_names_both_dikes_on_the_outcome_and_the_screen(lang, line):
    """With the flood-all option a roll may meet several dikes: each holds (and goes), and the outcome and the
    play screen's High Tide line name every one (the outcome kept the last only, and the screen said one dike)."""
    from companion.ui.i18n import tr
    from companion.ui.refusals_text import places_for
    from companion.ui.tide_text import tide_text

    record = parse_record(json.loads((SCENARIOS / "tide_variant_flood_all.json").read_text())["record"])
    game = replay(record, upto=len(record.events) - 1)
    game.tide.dikes.update({(0, 0): 0, (3, 0): 1})  # both 6s diked, as a dike round would leave them
    last = game.push(record.events[-1])
    assert last.dikes_removed == ((0, 0), (3, 0)) and last.dike_removed == (0, 0)
    assert last.flooded is None and not last.floods and game.board.is_land((0, 0)) and game.board.is_land((3, 0))
    assert not game.tide.dikes
    assert last.to_json()["dikes_removed"] == [[0, 0], [3, 0]]

    name = [p["name"] for p in record.players].__getitem__
    screen = tide_text(game, last, lambda key, **v: tr(key, lang, **v), name, places_for(game.board, lang, name),
                       lang, places_for(game.initial_board, lang, name))
    assert line in screen.split("\n"), screen
