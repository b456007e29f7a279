"""The tournament desk: players, seating, results, standings and exports (docs/tournament.md).

``seating`` and ``scoring`` are pure (no I/O); ``store.Desk`` keeps an event in SQLite beside the game journal;
``export`` writes CSV, HTML, table slips and JSON; ``cli`` is ``python -m companion tournament``.
"""

from .scoring import PRESETS, Preset, Standing, TableResult, custom_preset, score_game, standings
from .seating import History, Seating, SeatingError, Weights, seat_round, seating_cost, snake, table_sizes
from .store import Desk, DeskFileError, Event, Player, ResultEntry, Round, TournamentError, default_path

__all__ = ["PRESETS", "Preset", "Standing", "TableResult", "custom_preset", "score_game", "standings",
           "History", "Seating", "SeatingError", "Weights", "seat_round", "seating_cost", "snake", "table_sizes",
           "Desk", "DeskFileError", "Event", "Player", "ResultEntry", "Round", "TournamentError", "default_path"]
