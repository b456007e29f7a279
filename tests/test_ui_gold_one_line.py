"""Seafarers' gold choice names each kind with what the bank holds of it, "lumber (19)", on one line: lying down
(1280x800) the name's place is 83 px and "lumber (16)" wrapped onto two lines beside its neighbours' one (session
18's trial); in Japanese 「レンガ (19)」 did too.  A text meant for one line now takes smaller letters to stay whole,
and the layout check names one that still wraps.  The record: a random Seafarers game (seed 4) at its first gold
choice, a second settlement's card in the set-up, the bank holding 19 of every kind (two digits at their widest)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from companion.ui import driver as d
from companion.ui.choices import TakeAll

pytestmark = pytest.mark.timeout(180)


def gold_record(seed: int = 4, players: int = 4):
    from companion.record import COLORS, Record, new_game
    from companion.rules.random_play import random_events
    from companion.rules.seafarers_board import deal_map

    record = Record("seafarers", [{"name": n, "color": COLORS[i]} for i, n in enumerate(("Aki", "Ben", "Chie", "Dan"))],
                    deal_map("new_world", seed, players).to_json())
    game = new_game(record)
    for event in random_events(game, random.Random(seed)):
        record.events.append(event)
        if game.state.phase == "gold":
            return record, game
    raise AssertionError("no gold choice")


@pytest.mark.parametrize("size,lang", [((1280, 800), "en"), ((1280, 800), "ja"), ((800, 1280), "en"),
                                       ((800, 1280), "ja")],
                         ids=["landscape-en", "landscape-ja", "portrait-en", "portrait-ja"])
def test_the_gold_choice_names_each_kind_and_its_count_on_one_line(tmp_path, size, lang):
    record, game = gold_record()
    assert all(n >= 10 for n in game.state.bank.values())
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    try:
        app.apply_settings(dataclasses.replace(app.settings, lang=lang))
        d.settle()
        play = d.resume(app, game_id)
        d.settle()
        names = [w for w in d.walk(play.ids.actions) if isinstance(w, TakeAll)]
        assert len(names) == 5
        for w in names:
            assert w.text.endswith(f"({game.state.bank[w.resource]})"), w.text
        wrapped = {w.text: len(w._label._cached_lines) for w in names if len(w._label._cached_lines) != 1}
        assert wrapped == {}, f"on more than one line: {wrapped}"
        assert d.layout_problems(app.root) == []
        # a tap on a name still takes the card (the smaller letters are the same toggle)
        d.tap(names[0])
        assert sum(play.selection.get("cards", {}).values()) == 1
    finally:
        d.stop_app(app)
