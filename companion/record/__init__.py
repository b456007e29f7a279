"""The game record: the JSON interchange format, replay, and the SQLite journal.

The record is the only truth; a game's state is derived by replaying it.
"""

from .format import COLORS, FORMAT, Record, RecordError, load_record, new_game, parse_record, replay

__all__ = ["COLORS", "FORMAT", "Record", "RecordError", "load_record", "new_game", "parse_record", "replay"]
