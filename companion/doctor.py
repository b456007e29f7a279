"""``catan-companion doctor``: what this machine offers the app, on one screen.

When the box is not heard, the voice is silent or Japanese shows as boxes, a person should not need a
developer: this prints, one line each, what the app's settings choose (dice source, box port, camera),
the audio output the announcer would use, the serial ports and which of them answer the dice box's
identify (the port the settings name included), the cameras, the journal (path, size, games, health) and
the bundled files (font, voices, camera models).  ``--json`` gives the same as one object.

Each line has a mark: ``ok``, ``--`` (nothing there, which may be fine: no box plugged in) or ``!!``
(something the app needs is broken).  Exit 1 when any line is ``!!``, else 0.  Nothing is changed:
the journal is opened read-only, ports are only asked to identify.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sqlite3
import sys
from pathlib import Path

from . import __version__, assets

OK, NOTHING, BROKEN = "ok", "--", "!!"


def _platform() -> str:
    return "android" if "ANDROID_ARGUMENT" in os.environ else sys.platform


def audio_output() -> list[tuple[str, str]]:
    """The output the announcer's ``auto`` player would open, without playing anything."""
    if _platform() == "android":
        return [(OK, "Kivy SoundLoader (Android's media player)")]
    try:
        import sounddevice as sd
    except (ImportError, OSError) as error:
        return [(NOTHING, f"PortAudio/sounddevice not available ({error}); the app speaks through Kivy's "
                          "SoundLoader (SDL2), the command line stays silent")]
    try:
        info = sd.query_devices(kind="output")
        api = sd.query_hostapis(info["hostapi"])["name"]
    except (ValueError, sd.PortAudioError) as error:
        return [(NOTHING, f"no audio output device ({error}): captions only")]
    return [(OK, f"{info['name']} ({api}, {int(info['default_samplerate'])} Hz default)")]


def _ports_probed(timeout: float, named: list[str]) -> tuple[list[tuple[str, int | None, int | None, object]], str]:
    """The USB serial ports with their USB ids, then the ``named`` ones, each with the box's Identify it
    answered (None for no answer); and why the list is short, if it is.  The one place that asks ports, for
    the doctor's lines and the Settings screen alike.  Opens the ports: never while the app's own box source is
    reading one (the two would share its bytes)."""
    from firmware_bridge.link import LinkError, probe, usb_ports

    try:
        ports, why = list(usb_ports()), ""
    except LinkError as error:
        ports, why = [], str(error)
    listed = {device for device, _vid, _pid in ports}
    ports += [(port, None, None) for port in named if port not in listed]
    return [(device, vid, pid, probe(device, timeout)) for device, vid, pid in ports], why


def boxes_answering(timeout: float, named: list[str] = ()) -> list[tuple[str, object]]:
    """Each port asked (USB serial ports and ``named``) with the box's Identify, or None for no answer."""
    return [(device, box) for device, _vid, _pid, box in _ports_probed(timeout, list(named))[0]]


def camera_pictures() -> list[tuple[str, tuple[int, int] | None]]:
    """Each camera device (Linux: /dev/video*) with the size of the picture it gave, or None; empty where
    OpenCV cannot capture.  Opens the cameras: never while the app's own camera source is reading one."""
    try:
        import cv2

        capture = cv2.VideoCapture
    except (ImportError, AttributeError):
        return []
    found = []
    for device in sorted(Path("/dev").glob("video*"), key=lambda p: (len(p.name), p.name)):
        cap = capture(str(device))
        try:
            ok, frame = cap.read() if cap.isOpened() else (False, None)
        finally:
            cap.release()
        found.append((str(device), (frame.shape[1], frame.shape[0]) if ok and frame is not None else None))
    return found


def dice_boxes(timeout: float, named: list[str]) -> list[tuple[str, str]]:
    """Every USB serial port and every port ``named``, and whether each answers identify like a dice box."""
    from firmware_bridge.link import BOX_USB_IDS, BRIDGE_USB_IDS

    ports, why = _ports_probed(timeout, named)
    lines = [(NOTHING, f"{why}; a box can still be named: box:///dev/ttyACM0")] if why else []
    if not ports and not lines:
        return [(NOTHING, "no USB serial port (plug the box in; docs/dice-box-protocol.md)")]
    for device, vid, pid, box in ports:
        kind = BOX_USB_IDS.get((vid, pid)) or BRIDGE_USB_IDS.get((vid, pid)) or BRIDGE_USB_IDS.get((vid, None))
        usb = f" [{vid:04x}:{pid:04x}{' ' + kind if kind else ''}]" if vid is not None else ""
        ident = f"{device}{usb}"
        if box is not None:
            lines.append((OK, f"{ident}: dice box {box.model}, firmware {'.'.join(map(str, box.firmware))}, "
                              f"{box.dice} dice"))
        else:
            lines.append((NOTHING, f"{ident}: no answer to identify (not a box, busy, or no permission: "
                                   "the 'dialout' group on Linux)"))
    return lines


def cameras() -> list[tuple[str, str]]:
    """The cameras OpenCV can open (Linux: each /dev/video*), or how the app reaches one otherwise."""
    if _platform() in ("android", "ios"):
        return [(OK, "through Kivy's camera provider (permission asked at the first use)")]
    try:
        import cv2

        cv2.VideoCapture
    except (ImportError, AttributeError) as error:
        return [(NOTHING, f"OpenCV capture not available ({error}); camera://0?via=kivy reads through Kivy")]
    found = camera_pictures()
    if not found:
        return [(NOTHING, "no camera found (/dev/video*); a phone's stream or a video file still works")]
    return [(OK, f"{device}: {size[0]}x{size[1]} (camera://{Path(device).name[5:]})") if size else
            (NOTHING, f"{device}: gives no picture (a metadata node, busy, or no permission)")
            for device, size in found]


def settings(folder: Path) -> tuple[list[tuple[str, str]], dict]:
    """What the app's settings choose (dice source, box port, camera, language, voice), read without the app's
    loader (which sets a damaged file aside: the doctor changes nothing); and the settings themselves."""
    path = folder / "settings.json"
    try:
        chosen = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(chosen, dict):
            raise ValueError("not an object")
    except FileNotFoundError:
        return [(NOTHING, f"{path}: none yet (the defaults: dice tapped in, English, voice on)")], {}
    except (OSError, ValueError) as error:
        return [(NOTHING, f"{path}: cannot be read ({error}); the app starts with the defaults")], {}
    parts = [f"dice from {chosen.get('dice_source', 'manual:')}"]
    if str(chosen.get("dice_source", "")).startswith("box://"):
        parts.append(f"box port {chosen.get('box_port', 'auto')}")
    if chosen.get("camera"):
        parts.append(f"camera {chosen['camera']}")
    parts.append(f"language {chosen.get('lang', 'en')}, voice {'on' if chosen.get('voice', True) else 'off'}")
    return [(OK, f"{path}: " + ", ".join(parts))], chosen


def journal(path: Path) -> list[tuple[str, str]]:
    """The journal's path, size, games and SQLite's quick check, opened read-only."""
    if not path.exists():
        return [(NOTHING, f"{path}: not there yet (made at the app's first start)")]
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            check = [row[0] for row in db.execute("PRAGMA quick_check").fetchall()]
            (games,) = db.execute("SELECT count(*) FROM games").fetchone()
            (version,) = db.execute("PRAGMA user_version").fetchone()
        finally:
            db.close()
    except sqlite3.Error as error:
        return [(BROKEN, f"{path}: cannot be read ({error}); the app starts a fresh one beside it")]
    size = path.stat().st_size / 1e6
    if check != ["ok"]:
        return [(BROKEN, f"{path}: damaged ({'; '.join(check[:3])}); {games} games, {size:.1f} MB")]
    return [(OK, f"{path}: {games} games, {size:.1f} MB, version {version}, quick check ok")]


def bundled() -> list[tuple[str, str]]:
    """The font, the voices and the camera's models the package ships (a broken install shows here)."""
    lines = []
    font = assets.path("fonts", "NotoSansCJKjp-Regular-subset.otf")
    try:
        with open(font, "rb") as f:
            magic = f.read(4)
        lines.append((OK if magic == b"OTTO" else BROKEN,
                      f"font {font} ({font.stat().st_size / 1e6:.1f} MB, Latin and Japanese)"
                      if magic == b"OTTO" else f"font {font}: not an OpenType font"))
    except OSError as error:
        lines.append((BROKEN, f"font {font}: {error.strerror or error}"))
    from .announce.clips import ClipError, ClipLibrary

    for lang in ("en", "ja"):
        try:
            lines.append((OK, f"voice {lang}: {len(ClipLibrary(lang).clips)} clips"))
        except ClipError as error:
            lines.append((BROKEN, f"voice {lang}: {error}"))
    try:
        from vision.reader import DEFAULT_MODEL_DIR
    except ImportError as error:  # OpenCV itself missing
        lines.append((BROKEN, f"camera dice reader: {error}"))
    else:
        for name in ("detector.onnx", "faces.onnx"):
            model = DEFAULT_MODEL_DIR / name
            lines.append((OK, f"camera model {model}") if model.is_file()
                         else (BROKEN, f"camera model {model}: missing (reinstall catan-companion)"))
    return lines


def gather(journal_path: Path, timeout: float, ports: list[str] = ()) -> dict:
    chosen_lines, chosen = settings(journal_path.parent)
    ports = list(ports)
    box_port = str(chosen.get("box_port", "auto"))
    if str(chosen.get("dice_source", "")).startswith("box://") and box_port not in ("", "auto", *ports):
        ports.append(box_port)  # the port the settings name is asked too, listed or not
    sections = {
        "settings": chosen_lines,
        "audio output": audio_output(),
        "dice boxes": dice_boxes(timeout, ports),
        "cameras": cameras(),
        "journal": journal(journal_path),
        "bundled files": bundled(),
    }
    return {"version": __version__, "python": platform.python_version(), "platform": _platform(),
            "installed_at": str(Path(__file__).resolve().parent),
            "sections": {name: [{"mark": mark, "text": text} for mark, text in lines]
                         for name, lines in sections.items()}}


def main(argv: list[str]) -> int:
    from .record.journal import default_path

    parser = argparse.ArgumentParser(prog="catan-companion doctor",
                                     description="What this machine offers the app: audio, dice boxes, cameras, "
                                                 "journal, bundled files.")
    parser.add_argument("--journal", type=Path, default=None, help="journal file (default: the app's)")
    parser.add_argument("--timeout", type=float, default=0.5, help="seconds each port has to answer identify")
    parser.add_argument("--port", action="append", default=[], metavar="PORT",
                        help="also ask this port (a path or pyserial URL) to identify; repeatable")
    parser.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = parser.parse_args(argv)
    report = gather(args.journal or default_path(), args.timeout, args.port)
    if args.json:
        print(json.dumps(report, indent=1, ensure_ascii=False))
    else:
        print(f"catan-companion {report['version']} (Python {report['python']}, {report['platform']}, "
              f"installed at {report['installed_at']})")
        for name, lines in report["sections"].items():
            for i, line in enumerate(lines):
                print(f"{name if i == 0 else '':<14} {line['mark']}  {line['text']}")
    broken = any(line["mark"] == BROKEN for lines in report["sections"].values() for line in lines)
    return 1 if broken else 0
