"""A tablet's Pictures folder for the picture list's tests (Scan the board, Check the board): real photos copied
in under a camera's names, files that are no picture, each with its age, and the XDG settings pointing at it
(platformdirs' user_pictures_dir reads XDG_PICTURES_DIR when no user-dirs.dirs says otherwise)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

DAY = 24 * 3600.0
NOW = 1_795_000_000.0  # a fixed "now" (2026-11-18): the ages below are the list's order, not today's date


def pictures_folder(tmp_path: Path, monkeypatch, files: dict[str, tuple[Path | str, float]],
                    folders: tuple[str, ...] = ()) -> Path:
    """``tmp_path/Pictures`` holding ``files``: name -> (a photo's path to copy, or a ``str`` written as the file's
    text -- a file that is no picture; its age in days), and the empty ``folders``."""
    folder = tmp_path / "Pictures"
    folder.mkdir()
    for name in folders:
        (folder / name).mkdir()
    for name, (content, age_days) in files.items():
        if isinstance(content, Path):
            shutil.copy(content, folder / name)
        else:
            (folder / name).write_text(content)
        os.utime(folder / name, (NOW - age_days * DAY, NOW - age_days * DAY))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # no user-dirs.dirs: the variable below counts
    monkeypatch.setenv("XDG_PICTURES_DIR", str(folder))
    return folder
