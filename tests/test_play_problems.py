"""What the rules core tells the play screen's Play card and knight buttons: why no development card can be
played now (none held, all bought this turn, one played already).  A reason for one card is the refusal the
event itself gets; over random games, a card the query refuses is refused by the rules."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from companion.record import COLORS, Record, new_game
from companion.rules import IllegalAction, standard_board
from companion.rules.random_play import random_events

CARDS = ("knight", "road_building", "year_of_plenty", "monopoly")


def after_setup(seed: int = 5):
    """A 3-player base game after its set-up, player 0 about to roll."""
    record = Record("base", [{"name": "", "color": COLORS[i]} for i in range(3)],
                    standard_board(2, separate_red_numbers=True).to_json())
    game = new_game(record)
    for _event in random_events(game, random.Random(seed)):
        if game.state.phase == "roll":
            break
    return game


def play(game, events) -> None:
    for event in events:
        game.push(event)


BUY = [{"type": "set_hand", "player": 0, "cards": {"ore": 1, "grain": 1, "wool": 1}},
       {"type": "roll", "dice": [1, 1]}]
ROUND = [{"type": "end_turn"}, {"type": "roll", "dice": [1, 1]}, {"type": "end_turn"},
         {"type": "roll", "dice": [1, 1]}, {"type": "end_turn"}, {"type": "roll", "dice": [1, 1]}]


@pytest.mark.parametrize("name, events, card, code", [
    ("nothing held", [{"type": "roll", "dice": [1, 1]}], None, "dev_none_to_play"),
    ("nothing held, a knight", [{"type": "roll", "dice": [1, 1]}], "knight", "dev_none"),
    ("bought this turn", BUY + [{"type": "buy_development", "player": 0, "card": None}], None, "dev_all_new"),
    ("a knight bought this turn", BUY + [{"type": "buy_development", "player": 0, "card": "knight"}], "knight",
     "dev_bought_this_turn"),
    ("an unseen card from before", BUY + [{"type": "buy_development", "player": 0, "card": None}] + ROUND, None,
     None),
    ("an unseen card may be a monopoly", BUY + [{"type": "buy_development", "player": 0, "card": None}] + ROUND,
     "monopoly", None),
    ("a known knight is no monopoly", BUY + [{"type": "buy_development", "player": 0, "card": "knight"}] + ROUND,
     "monopoly", "dev_none"),
    ("a victory-point card is shown, not played",
     BUY + [{"type": "buy_development", "player": 0, "card": "victory_point"}] + ROUND, None, "dev_none_to_play"),
    ("one played already", BUY + [{"type": "buy_development", "player": 0, "card": "knight"},
                                  {"type": "buy_development", "player": 0, "card": "knight", "forced": True}]
     + ROUND[:-1] + [{"type": "play_development", "player": 0, "card": "knight"}], None, "dev_already_played"),
])
def test_play_problem(name, events, card, code):
    game = after_setup()
    play(game, events)
    assert game.state.turn_player == 0
    problem = game.play_problem(0, card)
    assert (problem.code if problem else None) == code, name
    if problem is not None and card is not None:  # the same refusal as the event itself gets
        event = {"type": "play_development", "player": 0, "card": card}
        if card == "monopoly":
            event["resource"] = "ore"
        with pytest.raises(IllegalAction) as info:
            game.push(event)
        assert info.value.refusal == problem


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_a_card_the_query_refuses_is_refused_by_the_rules(seed):
    """Over a random game, at each roll or main phase: a card ``play_problem`` refuses is refused when played."""
    game = after_setup(seed)
    checked = 0
    for _event in random_events(game, random.Random(seed), max_events=400):
        if game.state.phase not in ("roll", "main"):
            continue
        who = game.state.turn_player
        for card in CARDS if game.state.phase == "main" else ("knight",):
            problem = game.play_problem(who, card)
            if problem is None:
                continue
            event = {"type": "play_development", "player": who, "card": card,
                     "resources": ["ore", "grain"], "resource": "ore", "taken": {}}
            with pytest.raises(IllegalAction) as info:
                game.push(event)
            assert info.value.refusal == problem
            checked += 1
    assert checked > 0
