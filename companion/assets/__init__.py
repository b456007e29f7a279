"""The files the companion reads at run time, shipped inside the package (wheel, sdist, Android APK).

    voice/<lang>/   announcement clips and their manifest.json (made in a checkout by tools/render_voice.py)
    fonts/          the Noto Sans CJK JP subset every label uses (SIL OFL, OFL.txt beside it)
    boards/         the High Tide maps (made in a checkout by tools/make_high_tide_boards.py)
    games/          example game records (`replay`, `announce`, the docs and the tests use them)

Everything here is found through :mod:`importlib.resources`, never through a path relative to a git
checkout: an installed wheel, a pipx environment or an APK has no checkout.  The camera's models are
the ``vision`` package's own (``vision/models/``).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def path(*parts: str) -> Path:
    """The bundled file or folder ``parts`` (e.g. ``path("games", "example-base.json")``) as a real
    filesystem path: Kivy's font and sound loaders, ``wave`` and OpenCV want a file name, not a stream."""
    found = files(__name__)
    for part in parts:
        found = found / part
    if not isinstance(found, Path):  # a zipped install (zipapp, zipimport): no file names to hand out
        raise FileNotFoundError(f"{found}: the companion's assets must be installed as files, not inside a zip")
    return found


def read_json(*parts: str):
    """The bundled JSON file ``parts``, parsed."""
    import json

    return json.loads(path(*parts).read_text(encoding="utf-8"))
