"""Reading a Catan board from a photo (issue 30): the hex lattice, each hex's terrain, the tokens, the robber.

``read_board(image)`` returns a :class:`~vision.board.reader.BoardReading`; a photo with no board raises
:class:`NoBoardError`.  See docs/board-reader.md for the method, the label format and the figures.
"""

from vision.board.reader import BoardReading, NoBoardError, read_board, read_board_file

__all__ = ["BoardReading", "NoBoardError", "read_board", "read_board_file"]
