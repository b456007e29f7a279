"""The 5-6 player extension: bigger bank and deck, the 30-hex board, the special building phase.

Any game played by 5 or 6 (``base56``, Seafarers and High Tide with 5-6 players) uses these
components; the special building phase itself lives in the core (:class:`Game` turns it on for
5 or more players): after each turn the other players, in seat order from the next one, may build
and buy development cards (no trades, no development cards played) before the next roll.

Components (the extension's box, checked against the 5-6 player rules sheet):

- bank: 24 cards of each resource (19 + 5);
- development deck of 34: 20 knights, 5 victory points, 3 road building, 3 year of plenty,
  3 monopoly (base 25 + 9: 6 knights, 1 of each progress card);
- board: 30 land hexes (6 forest, 6 pasture, 6 fields, 5 hills, 5 mountains, 2 deserts),
  28 number tokens, 11 harbors (5 generic 3:1, 2 wool, 1 each of the other resources).
"""

from __future__ import annotations

from . import GAMES
from .board import EXTENSION_SPEC
from .game import Game

BANK_SIZE = 24
DECK = {"knight": 20, "victory_point": 5, "road_building": 3, "year_of_plenty": 3, "monopoly": 3}
BOARD_SPEC = EXTENSION_SPEC


class Base56Game(Game):
    """The base game for 5 or 6 players (record game name ``"base56"``)."""

    name = "base56"
    bank_size = BANK_SIZE
    deck_composition = DECK
    min_players, max_players = 5, 6


GAMES["base56"] = Base56Game
