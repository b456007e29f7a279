"""The rules core: pure game logic, no I/O, no clocks, no Kivy.

- :mod:`.geometry` -- axial hexes, vertices and edges named by the hexes around them.
- :mod:`.board` -- boards (any set of hexes), validation by hex, the standard generator.
- :mod:`.production` -- the one production routine; :mod:`.routes` -- the one longest-route search.
- :mod:`.game` -- the base game as a state with ``push``/``pop``; variants subclass it.
- :mod:`.outcome` -- what an event meant, for the announcer and the app.
"""

from .board import Board, Tile, board_from_json, board_problems, standard_board
from .errors import BoardError, IllegalAction, MalformedEvent, RulesError
from .game import Game, Options
from .outcome import AwardChange, Outcome

GAMES: dict[str, type[Game]] = {"base": Game}


def game_class(name: str) -> type[Game]:
    """The rules for a game name of the record (``"base"``, ``"base56"``, ``"seafarers"``, ...)."""
    if name not in GAMES:
        _load_variants()
    try:
        return GAMES[name]
    except KeyError:
        raise MalformedEvent(f"unknown game {name!r} (known: {', '.join(sorted(GAMES))})") from None


def _load_variants() -> None:
    import importlib

    for module in ("extension", "seafarers", "high_tide", "starfarers", "card_game"):
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{module}":
                raise


__all__ = ["AwardChange", "Board", "BoardError", "GAMES", "Game", "IllegalAction", "MalformedEvent",
           "Options", "Outcome", "RulesError", "Tile", "board_from_json", "board_problems", "game_class",
           "standard_board"]
