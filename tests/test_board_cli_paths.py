"""``python -m vision board`` given what is not a photo -- a path that is not there, a folder, random bytes named
.jpg -- says what is wrong with each in one line naming it, with no traceback, and still reads the real photo
given beside them (exit 1: something could not be read). A folder was said to be "no such file"."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

PHOTO = Path(__file__).parent / "data" / "boards" / "catanai" / "photos" / "test4_1.jpg"


def test_what_is_not_a_photo_is_named_and_the_photo_beside_it_still_read(tmp_path):
    folder = tmp_path / "photos"
    folder.mkdir()
    noise = tmp_path / "noise.jpg"
    noise.write_bytes(os.urandom(5000))
    missing = tmp_path / "gone.jpg"
    done = subprocess.run([sys.executable, "-m", "vision", "board", "--json", str(missing), str(folder), str(noise),
                           str(PHOTO)], capture_output=True, text=True, timeout=180)
    assert done.returncode == 1
    said = done.stderr.strip().splitlines()
    assert said[:2] == [f"{missing}: no such file", f"{folder}: a folder, not a photo"], said
    assert len(said) == 3 and said[2].startswith(f"vision board: {noise}: not a readable image"), said
    (line,) = done.stdout.strip().splitlines()
    assert json.loads(line)["image"] == PHOTO.name
