"""The boxes' components as the rules count them: the bank, the development deck, the pieces.

Base game (seed 000 / RULES.md §1): 19 cards of each resource, a deck of 14 knights, 5 victory points and
2 each of road building, year of plenty and monopoly, 15 roads, 5 settlements, 4 cities per player.
The 5-6 extension (used by every game played by 5 or 6): 24 of each resource and a deck of 20/5/3/3/3.
Seafarers adds 15 ships per player.  Each count is checked by playing up to it and one past it.
"""

import json
from pathlib import Path

import pytest

from companion.record import parse_record, replay
from companion.rules import IllegalAction

SCENARIOS = Path(__file__).parent / "scenarios"


def game_after_setup(scenario, n_setup):
    """The scenario's game after its set-up and the first roll (a 2, which pays nobody)."""
    record = parse_record(json.loads((SCENARIOS / f"{scenario}.json").read_text())["record"])
    record.events = record.events[:n_setup] + [{"type": "roll", "dice": [1, 1]}]
    return replay(record)


BASE = ("setup_snake_order_and_starting_cards", 12)
FIVE = ("five_special_building_phase", 20)
DECKS = {BASE: {"knight": 14, "victory_point": 5, "road_building": 2, "year_of_plenty": 2, "monopoly": 2},
         FIVE: {"knight": 20, "victory_point": 5, "road_building": 3, "year_of_plenty": 3, "monopoly": 3}}


@pytest.mark.parametrize("where, card", [(w, c) for w in DECKS for c in DECKS[w]],
                         ids=[f"{w[0].split('_')[0]}-{c}" for w in DECKS for c in DECKS[w]])
def test_the_development_deck_holds_exactly_so_many_of_each_card(where, card):
    game = game_after_setup(*where)
    count = DECKS[where][card]
    game.push({"type": "set_hand", "player": 0, "cards": {"grain": count + 1, "wool": count + 1, "ore": count + 1}})
    for _ in range(count):
        game.push({"type": "buy_development", "player": 0, "card": card})
    with pytest.raises(IllegalAction, match=f"no {card.replace('_', ' ')} card is left"):
        game.push({"type": "buy_development", "player": 0, "card": card})
    assert game.state.deck_size == sum(DECKS[where].values()) - count


@pytest.mark.parametrize("where, size", [(BASE, 19), (FIVE, 24)], ids=["base", "five-six"])
def test_the_bank_holds_so_many_of_each_resource(where, size):
    game = game_after_setup(*where)
    held = {r: sum(p.hand.count(r) for p in game.state.players) for r in game.resources}
    assert {r: game.state.bank[r] + held[r] for r in game.resources} == {r: size for r in game.resources}


def test_five_settlements_and_four_cities_per_player():
    game = game_after_setup(*BASE)
    assert {k: game.pieces_left(0, k) for k in ("road", "settlement", "city")} == {"road": 13, "settlement": 3, "city": 4}


def test_seafarers_gives_each_player_fifteen_ships():
    record = parse_record(json.loads((SCENARIOS / "sea_trade_route_through_own_settlement.json").read_text())["record"])
    game = replay(record)
    assert game.pieces_left(0, "ship") == 15 - 3  # one set-up ship and two built
