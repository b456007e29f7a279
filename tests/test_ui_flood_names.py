"""High Tide on the real play screen: every hex a flood takes is named, twins told apart, and the voice's caption
says what the screen says.

The flood-all scenario's board is a row of land ((0,0) 6 fields, (1,0) 5 forest, (2,0) 8 pasture, (3,0) here also
6 fields, (4,0) 9 gold, (5,0) 3 mountains); its last event is a roll of 6.  Journalled before that roll and resumed
from the start screen, the roll is tapped in (flood-all: both 6 fields go), or, without flood-all, tapped in and
then one of the two 6 fields tapped on the board.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from companion.record import parse_record
from companion.ui import driver as d

pytestmark = pytest.mark.timeout(180)
SCENARIO = Path(__file__).parent / "scenarios" / "tide_variant_flood_all.json"
SHOTS = Path("/tmp/VOICE2")


def twins_before_the_six(flood_all: bool):
    data = json.loads(SCENARIO.read_text())["record"]
    for tile in data["board"]["hexes"]:
        if tile["at"] == [3, 0]:
            tile["terrain"] = "fields"
    data["options"]["flood_all"] = flood_all
    assert data["events"][-1] == {"type": "roll", "dice": [2, 4]}
    data["events"] = data["events"][:-1]
    return parse_record(data)


def flood_line(text: str) -> str:
    return next(line for line in text.split("\n") if line.startswith("The tide floods") or "が浸水しました" in line)


def digits(caption: str) -> str:
    words = "zero one two three four five six seven eight nine ten eleven twelve".split()
    return re.sub(r"\b(" + "|".join(words) + r")\b", lambda m: str(words.index(m.group(1))), caption)


def check_both_languages(app, play, english: str, japanese: str, shot: str) -> None:
    assert flood_line(play.tide_text) == english, play.tide_text
    assert d.wait_until(lambda: english.removesuffix(".") in digits(app.caption)), (app.caption, english)
    if SHOTS.is_dir():
        d.screenshot(SHOTS / f"{shot}-en.png")
    app.apply_settings(replace(app.settings, lang="ja"))
    d.settle()
    try:
        assert flood_line(play.tide_text) == japanese, play.tide_text
        if SHOTS.is_dir():
            d.screenshot(SHOTS / f"{shot}-ja.png")
    finally:
        app.apply_settings(replace(app.settings, lang="en"))
        d.settle()


def test_a_flood_all_roll_names_both_twins(tmp_path):
    game_id = d.journal(tmp_path, twins_before_the_six(flood_all=True), "flood all twins")
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        d.tap_dice(play, 6)
        assert d.wait_until(lambda: app.table.last_outcome is not None and len(app.table.last_outcome.floods) == 2)
        check_both_languages(
            app, play,
            "The tide floods the 6 fields next to the 5 forest and the 6 fields next to the 8 pasture.",
            "5の森林の隣の6の畑と8の牧草地の隣の6の畑が浸水しました。", "flood-all-twins")
    finally:
        d.stop_app(app)


def test_the_twin_chosen_is_named_as_the_offer_named_it(tmp_path):
    game_id = d.journal(tmp_path, twins_before_the_six(flood_all=False), "flood a twin")
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        d.tap_dice(play, 6)
        assert d.wait_until(lambda: app.table.game.state.phase == "flood")
        offer = "one of the 6 fields next to the 5 forest or the 6 fields next to the 8 pasture"
        assert offer in play.tide_text, play.tide_text
        d.tap_at(*play.ids.board.hex_pos((3, 0)))
        assert d.wait_until(lambda: app.table.last_outcome.kind == "flood")
        check_both_languages(app, play, "The tide floods the 6 fields next to the 8 pasture.",
                             "8の牧草地の隣の6の畑が浸水しました。", "flood-twin-chosen")
    finally:
        d.stop_app(app)
