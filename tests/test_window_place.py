"""The window fills a touch screen whatever its shape, and elsewhere opens as big as it was left (issue 28)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.ui import window_place

ROOT = Path(__file__).resolve().parents[1]

# /proc/bus/input/devices blocks as the kernel writes them (a Goodix touchscreen, a Synaptics touchpad).
TOUCHSCREEN = """I: Bus=0018 Vendor=27c6 Product=0111 Version=0100
N: Name="Goodix Capacitive TouchScreen"
H: Handlers=event5
B: PROP=2
B: EV=b
B: ABS=2658000 3
"""
TOUCHPAD = """I: Bus=0018 Vendor=06cb Product=7e7e Version=0100
N: Name="SYNA7DB5:01 06CB:7E7E Touchpad"
H: Handlers=mouse1 event9
B: PROP=5
B: EV=1b
"""
KEYBOARD = """I: Bus=0011 Vendor=0001 Product=0001 Version=ab83
N: Name="AT Translated Set 2 keyboard"
B: PROP=0
B: EV=120013
"""


@pytest.mark.parametrize("blocks,touch", [([KEYBOARD, TOUCHPAD], False), ([KEYBOARD, TOUCHSCREEN, TOUCHPAD], True),
                                          (["B: PROP=zz\n"], False), ([], False)])
def test_a_touch_screen_is_told_by_the_kernels_direct_input_property(tmp_path, blocks, touch):
    devices = tmp_path / "devices"
    devices.write_text("\n".join(blocks))
    assert window_place.touch_screen(devices) is touch
    place = window_place.choose(tmp_path, devices=devices)
    assert place.fullscreen is touch


def test_the_size_left_is_the_size_opened_and_flags_decide_over_it(tmp_path):
    nothing = tmp_path / "none"
    assert window_place.choose(tmp_path, devices=nothing).size == (1280, 800)
    window_place.remember(tmp_path, (900, 1200))
    assert window_place.choose(tmp_path, devices=nothing) == window_place.Placement(False, (900, 1200),
                                                                                    "as it was left (window.json)")
    assert window_place.choose(tmp_path, portrait=True, devices=nothing).size == (800, 1280)
    assert window_place.choose(tmp_path, fullscreen=True, devices=nothing).fullscreen
    for broken in ("{", '{"size": [10, 10]}', '{"size": "big"}', "[]"):
        (tmp_path / "window.json").write_text(broken)
        assert window_place.choose(tmp_path, devices=nothing).size == (1280, 800), broken


def start(tmp_path: Path, screen: str, *args: str) -> dict[str, str]:
    """The app started on its own virtual screen of ``screen`` pixels, until its first frame; what it reports."""
    env = dict(os.environ, HOME=str(tmp_path), KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1")
    done = subprocess.run(["xvfb-run", "-a", "-s", f"-screen 0 {screen}x24", sys.executable, "-m", "companion", "app",
                           "--data-dir", str(tmp_path / "data"), "--quit-when-ready", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(re.findall(r"(\w+)=(\S+)", done.stdout))


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs xvfb-run for a screen of another shape")
def test_on_a_portrait_screen_the_app_fills_it_and_a_window_keeps_its_size(tmp_path):
    filled = start(tmp_path, "800x1280", "--fullscreen")
    assert (filled["window"], filled["fullscreen"]) == ("800x1280", "1")
    window_place.remember(tmp_path / "data", (1000, 700))
    kept = start(tmp_path, "1280x800")
    assert (kept["window"], kept["fullscreen"]) == ("1000x700", "0")
    assert json.loads((tmp_path / "data" / "window.json").read_text()) == {"size": [1000, 700]}
