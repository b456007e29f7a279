"""How long after the dice come to rest the camera's roll arrives (issue 5: "the moment the dice settle").

    xvfb-run -a .venv/bin/python bench/bench_camera_latency.py [--runs 5]

A synthetic throw (real die crops thrown onto a real tray, ``vision.synthetic.SequenceBuilder``) is written as a
30 fps video and played at its own pace: through OpenCV (``camera://video?realtime=1``, a webcam's route) and
through Kivy's camera (its OpenCV provider playing the file, as a tablet's camera shows pictures; frames copied
at most 15 or 30 times a second).  The time from the first frame of the dice at rest to the ``DiceRolled``
reaching the app's callback is the figure; the roll detector waits for 4 still frames and agrees over 5 more,
so it is mostly frames, not reading.  Prints every run and the medians.  A measurement, not a pass/fail test.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")

import cv2  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "dice" / "nell-byler-dice_detection"
FPS = 30.0


def throw_video(out: Path) -> tuple[Path, int]:
    """The video and the index of its first frame with the dice at rest."""
    from vision import dataset
    from vision.reader import DiceReader
    from vision.synthetic import SequenceBuilder, studio_tray_and_crops

    tray, crops = studio_tray_and_crops(DiceReader(), dataset.list_images(DATA)[:40])
    by_face = {f: [c for c in crops if c.face == f] for f in range(1, 7)}
    builder = SequenceBuilder(tray, seed=3).still(15).throw(by_face, (3, 5), [(250, 300), (390, 330)])
    settled = len(builder.frames)
    frames = builder.still(45).frames
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (tray.shape[1], tray.shape[0]))
    for frame in frames:
        writer.write(frame)
    writer.release()
    return out, settled


def through_opencv(video: Path, settled: int, data_dir: Path) -> float:
    from companion.dice import open_source

    source = open_source(f"camera://{video}?realtime=1")
    source.data_dir = data_dir
    started, rolled = [], threading.Event()
    arrived = []

    def on_status(status):
        if status.reason.startswith("watching") and not started:
            started.append(time.monotonic())

    source.start(lambda roll: (arrived.append(time.monotonic()), rolled.set()), on_status)
    rolled.wait(30)
    source.stop()
    return arrived[0] - (started[0] + settled / FPS)


def through_kivy(video: Path, settled: int, data_dir: Path, fps: float) -> float:
    from kivy.base import EventLoop

    from companion.dice.camera import CameraSource
    from companion.dice.kivy_camera import open_kivy_camera
    from vision.calibration import Calibration

    frames = open_kivy_camera(str(video), fps=fps)  # Kivy's provider starts playing now
    opened = time.monotonic()
    source = CameraSource(frames=frames, calibration=Calibration(), data_dir=data_dir)
    arrived = []
    source.start(lambda roll: arrived.append(time.monotonic()))
    deadline = time.monotonic() + 30
    while not arrived and time.monotonic() < deadline:
        EventLoop.idle()  # the UI thread: Kivy's clock shows the pictures
    source.stop()
    return arrived[0] - (opened + settled / FPS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from kivy.base import EventLoop
    from kivy.core.window import Window

    Window.size = (320, 240)
    EventLoop.ensure_window()
    with tempfile.TemporaryDirectory() as tmp:
        video, settled = throw_video(Path(tmp) / "throw.avi")
        print(f"# {platform.platform()}, Python {platform.python_version()}, OpenCV {cv2.__version__}, "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; dice at rest from frame {settled} of a "
              f"{FPS:g} fps video; {args.runs} runs each")
        routes = {"OpenCV (webcam route)": lambda: through_opencv(video, settled, Path(tmp)),
                  "Kivy, 15 pictures/s": lambda: through_kivy(video, settled, Path(tmp), 15.0),
                  "Kivy, 30 pictures/s": lambda: through_kivy(video, settled, Path(tmp), 30.0)}
        for name, run in routes.items():
            times = [run() * 1000 for _ in range(args.runs)]
            print(f"{name:24s}: median {statistics.median(times):6.0f} ms after the dice came to rest "
                  f"(runs {', '.join(f'{t:.0f}' for t in times)})")


if __name__ == "__main__":
    main()
