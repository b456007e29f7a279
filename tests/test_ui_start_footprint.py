"""The app's start stays light: the camera part (OpenCV, numpy: ~40 MB resident) loads only when the user
opens the camera calibration or picks the camera as the dice source, not for the start screen.

A tablet beside the board starts the app many times an evening; issue 7's budget is < 3 s and < 250 MB
(bench/bench_app_start.py measures both; this test only guards the one thing that broke it once).
"""

from __future__ import annotations

import os
import subprocess
import sys

PROBE = """
import atexit, runpy, sys
atexit.register(lambda: print("LOADED", sorted(m for m in ("cv2", "numpy", "vision") if m in sys.modules)))
sys.argv = ["companion", "app", "--quit-when-ready"]
runpy.run_module("companion", run_name="__main__")
"""


def test_the_start_screen_does_not_load_the_camera_part(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"), KIVY_NO_ARGS="1",
               KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(tmp_path / "kivy"))
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True, text=True, timeout=120)
    loaded = [line for line in done.stdout.splitlines() if line.startswith("LOADED")]
    assert loaded, f"the app did not reach its start screen:\n{done.stdout}\n{done.stderr[-2000:]}"
    assert loaded[-1] == "LOADED []", loaded[-1]
