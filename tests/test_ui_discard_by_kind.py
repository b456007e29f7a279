"""A 7's discards as a table says them: a tap on a resource's name takes all of it, up to what is still owed.

Session 17's trial (1280x800, English, 3 players): at the first 7 Aki, Ben and Chie discarded 5, 8 and 6 cards
with a + per card and an OK each, 22 taps.  A player says "two wood, two brick and one ore": one tap a kind,
+ and − fine-tune, OK when the count is right; nothing is recorded before OK, and the + stops at what the hand
may hold and at what is owed, so an over-count cannot be entered.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.ui import driver as d

pytestmark = pytest.mark.timeout(240)

#: The trial's three hands (10, 16 and 12 cards) and what each player says they discard, in the order said.
HANDS = {0: {"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 2},
         1: {"lumber": 3, "brick": 3, "wool": 5, "grain": 3, "ore": 2},
         2: {"lumber": 1, "brick": 2, "wool": 3, "grain": 4, "ore": 2}}
SAID = {0: {"lumber": 2, "brick": 2, "ore": 1},    # "two wood, two brick and one ore": 3 names, OK
        1: {"wool": 5, "lumber": 3},               # "all my wool and three wood": 2 names, OK
        2: {"grain": 2, "wool": 3, "lumber": 1}}   # "two grain" of four: the name and − twice; 3 wool, 1 lumber; OK
TAPS = {0: 4, 1: 3, 2: 6}                          # one + per card and OK: 6, 9 and 7 (22)


def shot(app, name: str) -> None:
    """``DISCARD_SHOTS=DIR``: a picture of the screen now (to look at; none kept in docs/screens)."""
    if os.environ.get("DISCARD_SHOTS"):
        d.screenshot(Path(os.environ["DISCARD_SHOTS"]) / f"{name}.png")


def trial_hands(journal_dir) -> int:
    record, _game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    for p, cards in HANDS.items():
        record.events.append({"type": "set_hand", "player": p, "cards": dict(cards)})
    return d.journal(journal_dir, record, "the trial's 7")


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_the_trials_seven_costs_a_tap_a_kind(tmp_path, size, lang):
    game_id = trial_hands(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        play = d.resume(app, game_id)
        game = app.table.game
        d.tap_dice(play, 7)
        assert dict(game.state.discards_owed) == {0: 5, 1: 8, 2: 6}
        taps = {}
        while game.state.phase == "discard":
            who = game.waiting_for()
            owed = game.state.discards_owed[who]
            assert d.layout_problems(app.root) == [], (who, size, lang)
            events = len(app.table.record.events)
            shot(app, f"discard-{who}-{size[0]}x{size[1]}-{lang}")
            taps[who] = d.discard_by_kind(app, who, SAID[who])
            assert app.table.record.events[events:] == [{"type": "discard", "player": who, "cards": SAID[who]}]
            assert sum(SAID[who].values()) == owed
            left = {r: n - SAID[who].get(r, 0) for r, n in HANDS[who].items()}
            assert game.state.players[who].hand.known == {r: n for r, n in left.items() if n}
        assert taps == TAPS, taps
        assert sum(taps.values()) == 13  # was 22: a + per card
        assert game.state.phase == "move_robber"
    finally:
        d.stop_app(app)


def test_a_tap_on_a_name_takes_what_is_still_owed_and_a_second_puts_it_back(tmp_path):
    """Ben owes 8: wool (5) then lumber (3 held, 3 left) fill the count; every + and every name not chosen is then
    disabled (a ninth card cannot be entered); a second tap on wool puts its five back and OK says 3/8."""
    game_id = trial_hands(tmp_path)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        game = app.table.game
        d.tap_dice(play, 7)
        d.discard_by_kind(app, 0, SAID[0])
        assert game.waiting_for() == 1
        panel = play.ids.actions
        d.tap(d.counter(panel, "wool", "cards").name)
        assert d.counter(panel, "wool", "cards").n == 5
        d.tap(d.counter(panel, "brick", "cards").name)  # 3 held, 3 still owed
        assert d.counter(panel, "brick", "cards").n == 3
        assert d.find(panel, "OK (8/8)").disabled is False
        shot(app, "discard-ben-chosen")
        for r in game.resources:
            c = d.counter(panel, r, "cards")
            assert c.plus.disabled, f"{r}: + still offered with the count reached"
            assert c.name.disabled == (c.n == 0), r
        d.tap(d.counter(panel, "wool", "cards").name)
        assert d.counter(panel, "wool", "cards").n == 0
        assert d.find(panel, "OK (3/8)").disabled
        assert game.state.phase == "discard" and game.waiting_for() == 1  # nothing recorded before OK
        assert [e["type"] for e in app.table.record.events[-2:]] == ["roll", "discard"]
    finally:
        d.stop_app(app)


def unseen_card_hand(journal_dir) -> int:
    """Aki (7 known cards) robs Ben blind at a first 7 and ends the turn: at Ben's 7 Aki holds 8, one unseen."""
    record, game = d.base_game_after_setup(board_seed=1, setup_seed=11)
    hands = {0: {"lumber": 2, "brick": 2, "wool": 2, "grain": 1}, 1: {"ore": 1, "grain": 1}, 2: {"grain": 1}}
    events = [{"type": "set_hand", "player": p, "cards": c} for p, c in hands.items()]
    events.append({"type": "roll", "dice": [3, 4]})
    for e in events:
        game.push(e)
    hex_ = next(h for h in sorted(game.robber_hexes()) if game.steal_candidates(h, 0) == (1,))
    events += [{"type": "move_robber", "to": list(hex_)}, {"type": "steal", "from": 1, "card": None},
               {"type": "end_turn"}]
    record.events += events
    return d.journal(journal_dir, record, "an unseen card")


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_a_hand_with_an_unseen_card_is_discarded_by_kind(tmp_path, size, lang):
    """Aki owes 4 of 2 lumber, 2 brick, 2 wool, 1 grain and 1 unseen: "two lumber, a brick and an ore" -- the ore
    can only be the unseen card: its name takes that one, and its + stops there."""
    game_id = unseen_card_hand(tmp_path)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        play = d.resume(app, game_id)
        game = app.table.game
        assert game.state.players[0].hand.unknown == 1
        d.tap_dice(play, 7)
        assert game.waiting_for() == 0 and game.state.discards_owed[0] == 4
        assert play.prompt == app.tr("p_discard_unseen", name="Aki", n=4, u=1)
        assert d.layout_problems(app.root) == []
        shot(app, f"discard-unseen-{size[0]}x{size[1]}-{lang}")
        panel = play.ids.actions
        d.tap(d.counter(panel, "ore", "cards").name)
        ore = d.counter(panel, "ore", "cards")
        assert ore.n == 1 and ore.plus.disabled  # the one unseen card at most
        d.tap(d.counter(panel, "ore", "cards").name)  # put back
        taps = d.discard_by_kind(app, 0, {"lumber": 2, "brick": 1, "ore": 1})
        assert taps == 5  # lumber; brick and −; ore; OK (one + per card: 5 too, the one unseen by + either way)
        hand = game.state.players[0].hand
        assert (hand.known, hand.unknown) == ({"brick": 1, "wool": 2, "grain": 1}, 0)
    finally:
        d.stop_app(app)


def test_year_of_plenty_two_of_a_kind_in_a_tap(tmp_path):
    """Year of plenty shares the rows: a tap on ore takes the two the card gives, OK (2/2)."""
    game_id = d.journal_main_phase_game(tmp_path)
    app = d.start_app(tmp_path)
    try:
        play = d.resume(app, game_id)
        d.tap(d.find(play.ids.actions, app.tr("play_card"), startswith=True))
        d.tap(d.find(play.ids.actions, app.tr("c_year_of_plenty")))
        d.tap(d.counter(play.ids.actions, "ore", "cards").name)
        assert d.counter(play.ids.actions, "lumber", "cards").plus.disabled  # two is all it gives
        d.tap(d.find(play.ids.actions, "OK (2/2)"))
        assert app.table.record.events[-1]["resources"] == ["ore", "ore"], play.message
    finally:
        d.stop_app(app)


@pytest.mark.parametrize("size", ["landscape", "portrait", "ipad", "android10"])
def test_the_discard_panel_fits_every_tablet_in_both_languages(tmp_path, size):
    """The longest prompt (a hand with an unseen card) and a name chosen (down), on the four tablets of
    test_ui_sizes: the layout check finds nothing in English or Japanese."""
    import dataclasses

    from kivy.metrics import Metrics

    from tests.test_ui_sizes import SIZES

    window, density = SIZES[size]
    game_id = unseen_card_hand(tmp_path)
    old_density = Metrics.density
    Metrics.density = density
    app = d.start_app(tmp_path, size=window)
    try:
        play = d.resume(app, game_id)
        d.tap_dice(play, 7)
        d.tap(d.counter(play.ids.actions, "lumber", "cards").name)
        found = {}
        for lang in ("en", "ja"):
            app.apply_settings(dataclasses.replace(app.settings, lang=lang))
            found[lang] = d.layout_problems(app.root)
            shot(app, f"fits-{size}-{lang}")
        assert found == {"en": [], "ja": []}
    finally:
        d.stop_app(app)
        Metrics.density = old_density


def test_starfarers_returns_take_a_kind_at_a_tap(tmp_path):
    """Starfarers' 7 (its own screen, "returns"): the name of each kind is a toggle as in the base game -- a tap
    takes the known cards of it up to what is owed, a second puts them back; the + still stops at the hand."""
    from companion.record import Record, load_record
    from tests.test_ui_starfarers import EXAMPLE, phase_at, stepper

    example = load_record(EXAMPLE)
    app = d.start_app(tmp_path)
    try:
        app.start_game(Record(example.game, example.players, example.board, example.options,
                              list(example.events[:phase_at(example, "discard")])))
        screen, game = app.root.get_screen("starfarers"), app.table.game
        who = game.waiting_for()
        need, hand = game.state.discards_owed[who], game.state.players[who].hand
        kinds = sorted((r for r in ("ore", "fuel", "carbon", "food", "trade_goods") if hand.count(r)),
                       key=hand.count, reverse=True)

        def name(r):
            _plus, minus = stepper(screen, screen.resource_text(r))
            return minus.parent.children[2]

        taps, left = 0, need
        for r in kinds:
            if not left:
                break
            d.tap(name(r))
            taps += 1
            assert screen.selection.get(f"d_{r}") == min(hand.count(r), left), r
            left -= min(hand.count(r), left)
        while left:  # unseen cards, by + on a kind with room left
            plus = next(p for p, _m in (stepper(screen, screen.resource_text(r)) for r in kinds) if not p.disabled)
            d.tap(plus)
            taps, left = taps + 1, left - 1
        first = kinds[0]
        d.tap(name(first))  # put back, then taken again
        assert screen.selection.get(f"d_{first}", 0) == 0
        d.tap(name(first))
        assert d.layout_problems(app.root) == []
        shot(app, "starfarers-returns")
        d.tap(d.find(screen.ids.actions, f"OK ({need}/{need})"))
        assert app.table.record.events[-1]["type"] == "discard" and game.state.discards_owed.get(who, 0) == 0
        assert taps < need, (taps, need)  # a + per card took ``need``
    finally:
        d.stop_app(app)


FIVE = {0: ({"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 2}, {"lumber": 2, "brick": 2, "ore": 1}),
        1: ({"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 2}, {"wool": 2, "grain": 2, "ore": 1}),
        2: ({"lumber": 2, "brick": 2, "wool": 2, "grain": 2, "ore": 1}, {"wool": 2, "grain": 2}),
        3: ({"lumber": 1, "brick": 2, "wool": 2, "grain": 2, "ore": 2}, {"brick": 2, "ore": 2}),
        4: ({"lumber": 3, "brick": 2, "wool": 2, "grain": 2, "ore": 2}, {"lumber": 3, "grain": 2})}


@pytest.mark.parametrize("size, lang", [((1280, 800), "en"), ((800, 1280), "ja")])
def test_five_players_seven_in_a_tap_a_kind(tmp_path, size, lang):
    """The lead's session-18 table: five players owing 5, 5, 4, 4 and 5 (28 taps with a + per card); the 5-6
    player game's own layout (the special building phase's room) holds the panel, the layout check finds
    nothing at any discard, and the 7 costs 17 taps."""
    import random

    from companion.record import COLORS, Record, new_game as record_game
    from companion.rules.board import EXTENSION_SPEC, standard_board
    from companion.rules.random_play import random_events

    names = ("Aki", "Ben", "Chie", "Dan", "Emi")
    record = Record("base56", [{"name": n, "color": COLORS[i]} for i, n in enumerate(names)],
                    standard_board(3, spec=EXTENSION_SPEC).to_json())
    game = record_game(record)
    for event in random_events(game, random.Random(5)):
        record.events.append(event)
        if game.state.phase == "roll":
            break
    record.events += [{"type": "set_hand", "player": p, "cards": dict(hand)} for p, (hand, _said) in FIVE.items()]
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, size=size)
    try:
        app.lang = lang
        play = d.resume(app, game_id)
        game = app.table.game
        d.tap_dice(play, 7)
        assert dict(game.state.discards_owed) == {0: 5, 1: 5, 2: 4, 3: 4, 4: 5}
        taps = 0
        while game.state.phase == "discard":
            who = game.waiting_for()
            assert d.layout_problems(app.root) == [], (who, size, lang)
            shot(app, f"five-{who}-{size[0]}x{size[1]}-{lang}")
            taps += d.discard_by_kind(app, who, FIVE[who][1])
        assert taps == 17  # 28 with a + per card
        assert game.state.phase == "move_robber"
    finally:
        d.stop_app(app)
