"""How the app's window opens: full screen on a touch screen, else as big as it was left.

A tablet beside a board has one screen and a finger: the app fills it at the screen's own resolution
(Kivy's ``fullscreen = auto``), so an 800x1280 portrait tablet shows a portrait app rather than the middle
of a landscape window, and a rotation of the screen reaches the app as a resize, after which the screens
lay themselves out again.  A laptop or a desk PC gets a window, at the size it had when the app last
closed (``window.json`` beside the settings; its shape is the orientation), else 1280x800 (800x1280 with
``--portrait``).  ``--fullscreen`` and ``--window`` decide it either way.

A touch screen is told by the operating system: Android always; Linux by an input device with the
"direct" property (``INPUT_PROP_DIRECT``, what the kernel sets for touchscreens, not for touchpads) in
``/proc/bus/input/devices``; Windows by the digitizer metrics.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "window.json"
LANDSCAPE, PORTRAIT = (1280, 800), (800, 1280)
INPUT_PROP_DIRECT = 0x2
#: Smaller than this is a window someone shrank by accident (or a broken file): the default instead.
SMALLEST = (480, 360)


@dataclass(frozen=True)
class Placement:
    fullscreen: bool
    size: tuple[int, int]
    why: str


def touch_screen(devices: Path = Path("/proc/bus/input/devices")) -> bool:
    """Whether this machine's screen takes touches (see the module's docstring)."""
    if "ANDROID_ARGUMENT" in os.environ:
        return True
    if sys.platform == "win32":  # pragma: no cover - Windows only
        import ctypes

        SM_DIGITIZER, NID_INTEGRATED_TOUCH, NID_READY = 94, 0x01, 0x80
        flags = ctypes.windll.user32.GetSystemMetrics(SM_DIGITIZER)
        return bool(flags & NID_INTEGRATED_TOUCH and flags & NID_READY)
    try:
        text = devices.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    for line in text.splitlines():
        if line.startswith("B: PROP="):
            try:
                if int(line.split("=", 1)[1].split()[0], 16) & INPUT_PROP_DIRECT:
                    return True
            except (ValueError, IndexError):
                continue
    return False


def remembered_size(data_dir: Path) -> tuple[int, int] | None:
    """The window size saved at the last close, or None (no file, or one that makes no sense)."""
    try:
        width, height = json.loads((Path(data_dir) / FILE_NAME).read_text(encoding="utf-8"))["size"]
        width, height = int(width), int(height)
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if width < SMALLEST[0] and height < SMALLEST[0] or min(width, height) < SMALLEST[1]:
        return None
    return width, height


def choose(data_dir: Path, *, portrait: bool = False, fullscreen: bool | None = None,
           devices: Path = Path("/proc/bus/input/devices")) -> Placement:
    """How to open the window (``fullscreen`` None: decide by the screen)."""
    if fullscreen is None:
        fullscreen = touch_screen(devices)
        why = "a touch screen" if fullscreen else ""
    else:
        why = "--fullscreen" if fullscreen else "--window"
    if portrait:
        return Placement(fullscreen, PORTRAIT, why or "--portrait")
    if fullscreen:
        return Placement(True, LANDSCAPE, why)
    size = remembered_size(data_dir)
    if size is not None:
        return Placement(False, size, why or f"as it was left ({FILE_NAME})")
    return Placement(False, LANDSCAPE, why or "the default")


def remember(data_dir: Path, size: tuple[int, int]) -> None:
    """Save the window's size for the next start (best effort: a read-only disk only loses the size)."""
    try:
        Path(data_dir).mkdir(parents=True, exist_ok=True)
        (Path(data_dir) / FILE_NAME).write_text(json.dumps({"size": [int(size[0]), int(size[1])]}) + "\n",
                                               encoding="utf-8")
    except OSError:
        pass
