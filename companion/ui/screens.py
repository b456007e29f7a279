"""The app's own screens, in the order a table meets them.

Each is a module with its layout in a kv file beside it (``start_screen.py`` and ``start.kv``, ...); what they
share is in :mod:`.widgets`, which imports none of them.  The games with a live screen of their own
(Starfarers, the card game), the tournament desk and the camera calibration are added by the app beside these.
"""

from __future__ import annotations

from .start_screen import StartScreen
from .new_game_screen import NewGameScreen
from .board_editor_screen import BoardEditorScreen
from .play_screen import PlayScreen
from .statistics_screen import StatisticsScreen
from .settings_screen import SettingsScreen

APP_SCREENS = (StartScreen, NewGameScreen, BoardEditorScreen, PlayScreen, StatisticsScreen, SettingsScreen)

__all__ = ["APP_SCREENS", "BoardEditorScreen", "NewGameScreen", "PlayScreen", "SettingsScreen", "StartScreen",
           "StatisticsScreen"]
