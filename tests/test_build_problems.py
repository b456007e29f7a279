"""What the rules core tells the play screen's buttons: why a piece cannot be built now, and how many
victory-point cards a player may show.  Records as data: a set-up game, then the hand or pieces that make
each reason true; the reason must be the refusal the event itself would get."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.record import parse_record, replay
from companion.rules import IllegalAction
from companion.rules.refusals import json_spot

SCENARIOS = Path(__file__).parent / "scenarios"


def game_after(name: str, upto: int | None = None):
    data = json.loads((SCENARIOS / f"{name}.json").read_text())
    record = parse_record(data["record"])
    return replay(record, upto=upto) if upto is not None else replay(record)


def setup_game(hand: dict):
    """Player 0 on turn after the roll, holding ``hand``."""
    game = game_after("reveal_vp_cards_wins", upto=12)  # the common set-up, then a roll of 3
    game.push({"type": "roll", "dice": [1, 2]})
    game.push({"type": "set_hand", "player": 0, "cards": hand})
    return game


@pytest.mark.parametrize("hand, piece, code", [
    ({}, "road", "cannot_afford"),
    ({"lumber": 1, "brick": 1}, "road", None),
    ({"lumber": 1, "brick": 1, "grain": 1, "wool": 1}, "settlement", "no_legal_spot"),  # no road reaches a spot
    ({"ore": 3, "grain": 2}, "city", None),
    ({"ore": 2, "grain": 2}, "city", "cannot_afford"),
    ({"grain": 1, "wool": 1, "ore": 1}, "development", None),
    ({"grain": 1, "wool": 1}, "development", "cannot_afford"),
])
def test_build_problem_is_the_refusal_the_build_would_get(hand, piece, code):
    game = setup_game(hand)
    problem = game.build_problem(0, piece)
    assert (problem.code if problem else None) == code
    if code == "cannot_afford":  # the same refusal as the event itself gets
        spots = {"road": game.legal_road_spots, "city": game.legal_city_spots}
        event = {"type": "buy_development", "player": 0, "card": None} if piece == "development" else \
            {"type": "build", "player": 0, "piece": piece, "at": json_spot(spots[piece](0)[0])}
        with pytest.raises(IllegalAction) as info:
            game.push(event)
        assert info.value.refusal == problem


def test_no_piece_left_comes_before_paying():
    game = setup_game({"lumber": 1, "brick": 1})
    game.piece_limits = {**game.piece_limits, "road": 2}  # both set-up roads placed: none left
    assert game.build_problem(0, "road").code == "no_piece_left"


def test_an_unseen_card_may_pay():
    """A hand with cards nobody has seen is given the benefit of the doubt: the button stays usable -- while the
    unseen card may be a brick (session 19: not when the bank and the known hands hold every brick)."""
    game = setup_game({"lumber": 1})
    game.state.players[0].hand.unknown = 1
    game.state.bank["brick"] -= 1  # (the unseen card came out of the bank, as every card does: here a brick)
    assert game.build_problem(0, "road") is None
    game.state.bank["brick"] += 1  # every brick in the bank or in Chie's known hand: the unseen card is no brick
    assert game.build_problem(0, "road").code == "unseen_all_placed"


def test_revealable_vp_cards_counts_unseen_and_known_cards():
    game = game_after("reveal_vp_card_short_of_the_target", upto=16)  # two unseen cards bought
    assert game.revealable_vp_cards(0) == 2 and game.revealable_vp_cards(1) == 0
    game.push({"type": "reveal_development", "player": 0, "cards": {"victory_point": 1}})
    assert game.revealable_vp_cards(0) == 1
    game = game_after("reveal_vp_cards_beyond_the_deck", upto=20)  # five seen VP cards and one unseen
    assert game.revealable_vp_cards(0) == 5  # the unseen one cannot be a sixth
