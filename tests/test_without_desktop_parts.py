"""The app as an Android build has it: no sounddevice (so no PortAudio), no pyserial port listing (its
Linux back end reads /sys, which Android closes to apps) and an OpenCV that cannot open a camera.

The APK cannot be built here (no Android SDK/NDK); this is the nearest proof on this machine that the
fallbacks are real code paths: a child process where those imports fail as they do in an APK starts the
app, plays a game's set-up and a roll from the dice-box simulator, hears the announcer through Kivy's
SoundLoader, and ``doctor`` says what is missing instead of failing (docs/android.md).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.timeout(180)

# Imported first in the child: the parts an Android build lacks fail to import, as there.
WITHOUT_DESKTOP_PARTS = r"""
import importlib.abc, sys

GONE = ("sounddevice", "_sounddevice", "_sounddevice_data", "serial.tools.list_ports",
        "serial.tools.list_ports_linux", "serial.tools.list_ports_posix")


class NotInThisBuild(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name in GONE:
            raise ModuleNotFoundError(f"No module named {name!r} (not in this build)", name=name)
        return None


sys.meta_path.insert(0, NotInThisBuild())
import cv2

del cv2.VideoCapture  # python-for-android's OpenCV opens no camera: nothing may depend on it
"""

PLAY = WITHOUT_DESKTOP_PARTS + r"""
import json
from companion.ui import driver as d

app = d.start_app(sys.argv[1], demo=True, source_url="sim://?seed=9&every=0&profile=fast", player="auto")
try:
    d.new_game(app)
    d.place_setup(app)
    rolled = d.wait_until(lambda: len(app.table.record.events) == 13, timeout=30)
    heard = d.wait_until(lambda: bool(app.caption), timeout=10)
    from companion.dice.camera import capture_spec

    print(json.dumps({"camera": capture_spec("camera://0")[0], "rolled": rolled, "event": app.table.record.events[-1],
                      "caption": app.caption,
                      "player": app.announcer.player_name, "notice": app.announcer.audio_notice,
                      "gone": sorted(m for m in ("sounddevice", "serial.tools.list_ports") if m in sys.modules)}))
finally:
    d.stop_app(app)
"""

DOCTOR = WITHOUT_DESKTOP_PARTS + r"""
from companion.doctor import main
sys.exit(main(sys.argv[1:]))
"""


def child(script: str, *args: str, tmp_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, HOME=str(tmp_path), CATAN_COMPANION_HOME=str(tmp_path / "data"))
    return subprocess.run([sys.executable, "-c", script, *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=150)


def test_the_app_plays_without_portaudio_port_listing_or_opencv_capture(tmp_path):
    # a sound device that plays into nothing (ALSA's null device): with none at all, Kivy's player is rightly
    # given up for captions only (test_ui_no_sound_notice), and this test is about speaking without PortAudio
    (tmp_path / ".asoundrc").write_text("pcm.!default { type null }\n")
    done = child(PLAY, str(tmp_path / "app"), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr[-4000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["rolled"], seen
    assert seen["event"]["type"] == "roll" and seen["event"]["source"] == "box"
    assert seen["caption"], seen
    assert seen["camera"] == "kivy:0"  # the tablet's camera through Kivy's provider
    assert seen["player"] == "kivy" and seen["notice"] is None  # spoken through SoundLoader, not silenced
    assert seen["gone"] == []


def test_doctor_says_what_is_missing_and_how_the_app_copes(tmp_path):
    done = child(DOCTOR, tmp_path=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    audio = next(line for line in lines if line.startswith("audio output"))
    assert "--" in audio and "Kivy's SoundLoader" in audio
    boxes = next(line for line in lines if line.startswith("dice boxes"))
    assert "cannot list them here" in boxes and "box:///dev/ttyACM0" in boxes
    cameras = next(line for line in lines if line.startswith("cameras"))
    assert "OpenCV capture not available" in cameras and "via=kivy" in cameras
