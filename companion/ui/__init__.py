"""The Kivy tablet app (``python -m companion app``); see docs/app.md.

Read top-down: ``main`` starts ``app`` (the CompanionApp: journal, table, dice source, announcer), which adds
the screens listed in ``screens`` — one module each with its kv file beside it (``start_screen``,
``new_game_screen``, ``board_editor_screen``, ``play_screen`` with ``play_panels``, ``statistics_screen``,
``settings_screen``) — and the games' own screens (``game_screen`` under ``starfarers_screen`` and
``card_game_screen``), the tournament desk and table, the camera calibration.  Beneath them, imported by
screens and importing none: ``widgets`` (buttons, kv loading), ``choices`` (the shared choice panels),
``board_view``, ``camera_picture``, ``fitted_label``, ``wrapping``, ``steady_scroll``, and the words
(``i18n*``, ``refusals_text``, ``places``, ``tide_text``).  ``driver`` drives the real widgets for the tests.

Kivy reads some settings from the environment when it is first imported, so they are set here,
before any module of this package imports Kivy: no command-line parsing by Kivy (the app has its
own), and SDL's clipboard rather than the xclip/xsel programs a tablet does not have.
"""

import os

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
