"""High Tide's end when the first two are level on points and on resource cards.  Seed 002: "最も勝利ポイントの多い
プレイヤーが勝利します。同点の場合は資源カードの多い方が勝ちます。" -- most VP wins, a tie goes to the most
resource cards, and no more: players level on both share the win.  The outcome names them all (``winners``), and
the voice says so ("Red and blue share the win." / 「赤と青が同点で勝ちです。」); it named the first in seat order
alone ("Red wins the game.") and the screen's heading did too (playtest s11).

The game: High Tide for three played by the rules core's random legal play (seed 81 ends with red and blue on
8 VP and 6 cards each; seed 36's red and white tie, until session 19, came from a game whose random play named
unseen cards of kinds the bank held all of).
"""

from __future__ import annotations

import random

import pytest

from companion.announce import library, phrase_for_outcome
from companion.assets import read_json
from companion.record import COLORS, Record, new_game, parse_record, replay
from companion.rules.random_play import random_events

NAMES = ["Aki", "Ben", "Chie"]


def shared_win_record():
    record = Record("high-tide", [{"name": n, "color": COLORS[i]} for i, n in enumerate(NAMES)],
                    dict(read_json("boards", "high-tide-3-4.json")), {})
    game = new_game(record)
    record.events = list(random_events(game, random.Random(81), 20000))
    return record, game


def test_players_level_on_points_and_cards_share_the_win():
    record, game = shared_win_record()
    assert game.state.phase == "game_over"
    vp = [game.victory_points(p) for p in range(3)]
    cards = [game.state.players[p].hand.size for p in range(3)]
    assert (vp[0], cards[0]) == (vp[1], cards[1]) == (8, 6) and vp[2] < 8  # the precondition: a full tie
    last = game.outcomes[-1]
    assert last.winners == (0, 1) == game.winners() and last.winner == 0 and last.ranking == (0, 1, 2)
    assert last.to_json()["winners"] == [0, 1]
    # the same from the record, replayed
    assert replay(parse_record(record.to_json())).outcomes[-1].winners == (0, 1)


def test_one_winner_is_no_shared_win():
    """Ties on points broken by cards, and the base game's winner: ``winners`` stays empty (the outcome's JSON
    unchanged), ``Game.winners()`` names the one winner."""
    record = parse_record(read_json("games", "example-high-tide.json"))
    game = replay(record)
    last = game.outcomes[-1]
    assert last.winner is not None and last.winners == () and "winners" not in last.to_json()
    assert game.winners() == (last.winner,)
    base = replay(parse_record(read_json("games", "example-base.json")))
    assert base.winners() == ((base.state.winner,) if base.state.winner is not None else ())


@pytest.mark.parametrize("lang, sentence", [("en", "Red and blue share the win."),
                                            ("ja", "赤と青が同点で勝ちです。")])
def test_the_voice_says_a_shared_win(lang, sentence):
    record, game = shared_win_record()
    phrase = phrase_for_outcome(game.outcomes[-1], [p["color"] for p in record.players], lang)
    assert sentence in phrase.caption, phrase.caption
    assert "wins" not in phrase.tokens
    assert len(library(lang).render(phrase.tokens)) > 0  # every clip is there
