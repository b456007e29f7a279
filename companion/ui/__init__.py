"""The Kivy tablet app (``python -m companion app``); see docs/app.md.

Kivy reads some settings from the environment when it is first imported, so they are set here,
before any module of this package imports Kivy: no command-line parsing by Kivy (the app has its
own), and SDL's clipboard rather than the xclip/xsel programs a tablet does not have.
"""

import os

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")
