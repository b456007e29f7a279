"""What reading the camera through Kivy costs the UI thread (``camera://0?via=kivy``, the tablet's route).

    xvfb-run -a .venv/bin/python bench/bench_kivy_camera.py [--repeat 200]

Each picture a Kivy camera shows is copied out of its texture on the UI thread
(``companion.dice.kivy_camera.frame_of``: a GPU read-back, RGBA to BGR) at most 30 times a second; this
times that copy for a texture of each common camera size holding a real photo, and prints the median and the
90th percentile.  Under Xvfb the "GPU" is Mesa's software renderer on this machine's CPU: a tablet's GPU reads
back differently (and Android's provider hands over its preview buffer instead: an NV21 to BGR conversion,
timed as well).  Also timed: one look of the play screen's *Camera view* (on the UI thread twice a second while it
is open): the picture drawn with the tray and the dice read (``CameraSource.view``: shrunk to 960 px) and put in
its texture.  A measurement, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")

import cv2  # noqa: E402
import numpy as np  # noqa: E402

PHOTO = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice" / "nell-byler-dice_detection" / "images" \
    / "IMG_20191208_111328.jpg"
SIZES = ((640, 480), (1280, 720), (1920, 1080))


class TextureCamera:
    """A Kivy camera's face as frame_of sees it: the texture a provider uploads the camera's picture to."""

    def __init__(self, picture: np.ndarray) -> None:
        from kivy.graphics.texture import Texture

        height, width = picture.shape[:2]
        self.texture = Texture.create(size=(width, height), colorfmt="rgb")
        self.texture.blit_buffer(cv2.cvtColor(picture, cv2.COLOR_BGR2RGB).tobytes(), colorfmt="rgb",
                                 bufferfmt="ubyte")
        self.texture.flip_vertical()  # as Kivy's OpenCV provider does: top row uploaded first


class PreviewCamera:
    """Android's provider as frame_of sees it: the preview buffer in NV21."""

    def __init__(self, picture: np.ndarray) -> None:
        from vision.synthetic import nv21

        self.resolution = (picture.shape[1], picture.shape[0])
        self._buffer = nv21(picture)

    def grab_frame(self) -> bytes:
        return self._buffer


def timed(camera, repeat: int) -> list[float]:
    from companion.dice.kivy_camera import frame_of

    frame_of(camera)  # warm up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        frame_of(camera)
        times.append((time.perf_counter() - started) * 1000)
    return times


def timed_look(picture: np.ndarray, repeat: int) -> list[float]:
    """One look of the camera view: the picture drawn as the reader sees it, then into the view's texture."""
    from companion.ui.camera_picture import bgr_texture
    from vision.calibration import Calibration
    from vision.reader import DiceReader
    from vision.watch import tray_and_dice

    dice, calibration = DiceReader().read(picture), Calibration()
    texture = bgr_texture(tray_and_dice(picture, dice, calibration, 960))
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        bgr_texture(tray_and_dice(picture, dice, calibration, 960), texture)
        times.append((time.perf_counter() - started) * 1000)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    from kivy.core.window import Window  # a GL context

    Window.size = (320, 240)
    photo = cv2.imread(str(PHOTO))
    print(f"# {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}, "
          f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {args.repeat} copies each")
    for width, height in SIZES:
        picture = cv2.resize(photo, (width, height), interpolation=cv2.INTER_AREA)
        for name, camera in (("texture read-back", TextureCamera(picture)), ("NV21 buffer", PreviewCamera(picture))):
            times = sorted(timed(camera, args.repeat))
            print(f"{width}x{height} {name:17s}: median {statistics.median(times):6.2f} ms, "
                  f"90th percentile {times[int(0.9 * len(times))]:6.2f} ms")
        times = sorted(timed_look(picture, args.repeat))
        print(f"{width}x{height} {'camera view look':17s}: median {statistics.median(times):6.2f} ms, "
              f"90th percentile {times[int(0.9 * len(times))]:6.2f} ms")


if __name__ == "__main__":
    main()
