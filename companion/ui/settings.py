"""The app's settings: language, voice, volume, dice source, box port, camera, camera rolls' OK -- a small JSON file.

Kept beside the journal in the user data directory (``settings.json``), so one directory holds
everything a tablet needs to come back exactly as it was.  A damaged file is reported and replaced
by the defaults, never a reason not to start at a table; a file that cannot be read at all (not JSON,
nested too deep, too big, a directory) is first moved aside as ``settings.json.bad-<time>``, so the
defaults written later do not overwrite what someone may want to look at.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from companion.dice.camera import camera_entry, camera_url

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"
MAX_BYTES = 64 * 1024  # a settings file is a few hundred bytes; anything this big is not one
#: The dice sources Settings offers, by kind (each named in the player's language: ``source_<kind>``).
SOURCE_KINDS = ("manual", "box", "camera", "sim")
#: A kind's URL when it is chosen afresh (a camera's is built from the camera entry).
FIRST_URLS = {"manual": "manual:", "box": "box://auto", "sim": "sim://?seed=1"}


@dataclass
class Settings:
    lang: str = "en"
    voice: bool = True
    volume: float = 0.8
    dice_source: str = "manual:"
    box_port: str = "auto"
    #: A camera's roll waits for a player's OK before it is recorded and said (a table that wants every roll
    #: checked before cards are handed out); off, it is recorded at once and put right with Undo.
    confirm_camera: bool = False
    #: The camera chosen (a number, a stream address, a video file), remembered while the dice come from elsewhere.
    camera: str = ""
    #: The camera "Scan the board" reads (a number, a stream address, a video file), chosen on that screen;
    #: "" while none was chosen there: the dice camera above.  Choosing it never changes the dice camera.
    scan_camera: str = ""

    def __post_init__(self) -> None:
        if not self.camera or self.source_kind == "camera":
            self.camera = camera_entry(self.dice_source)

    @property
    def source_kind(self) -> str:
        """``manual``, ``box``, ``camera``, ``sim`` (or another scheme, set outside Settings)."""
        return self.dice_source.split(":", 1)[0]

    def choose_source(self, kind: str, camera: str, box_port: str) -> "Settings":
        """These settings with the dice from ``kind``: the camera and the box port as typed.  The URL in use is
        kept when the kind does not change (its options: a simulator's seed, a camera's ``?via=``); a camera
        entry that names no camera raises :class:`companion.dice.camera.CameraChoiceError` (nothing changed)."""
        camera = camera.strip()
        if kind == "camera":
            url = camera_url(camera, self.dice_source)
        elif kind == self.source_kind or kind not in FIRST_URLS:
            url = self.dice_source
        else:
            url = FIRST_URLS[kind]
        return replace(self, dice_source=url, camera=camera or self.camera, box_port=box_port.strip() or "auto")

    def source_url(self) -> str:
        """The dice source to open: a named box port replaces ``box://auto``."""
        if self.dice_source.startswith("box://") and self.box_port not in ("", "auto"):
            return f"box://{self.box_port}"
        return self.dice_source

    @classmethod
    def load(cls, directory: Path) -> "Settings":
        """The settings in ``directory``; a file that cannot be read gives the defaults, and a value of the wrong
        kind (a volume "loud", a language "fr") its own default, the others kept -- each said in the log."""
        path = Path(directory) / FILE_NAME
        if not path.exists() and not path.is_symlink():
            return cls()
        try:
            if not path.is_file():
                raise ValueError("it is not a file")
            if path.stat().st_size > MAX_BYTES:
                raise ValueError(f"{path.stat().st_size} bytes, more than a settings file's {MAX_BYTES}")
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError(f"expected an object of settings, got {type(data).__name__}")
        except (OSError, ValueError, RecursionError) as error:  # RecursionError: JSON nested thousands deep
            kept = _set_aside(path)
            log.warning("%s cannot be read (%s); using the default settings%s", path, error,
                        f", the file kept as {kept.name}" if kept else "")
            return cls()
        defaults, kept = cls(), {}
        for field in fields(cls):
            if field.name not in data:
                continue
            value, default = data[field.name], getattr(defaults, field.name)
            if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if type(value) is not type(default) or (field.name == "lang" and value not in ("en", "ja")):
                log.warning("%s: %s=%r is not a setting (%s kept)", path, field.name, value, default)
                continue
            kept[field.name] = value
        settings = cls(**kept)
        settings.volume = min(1.0, max(0.0, settings.volume))
        return settings

    def save(self, directory: Path) -> None:
        """Write the settings (a new file, then renamed over the old: a crash leaves one or the other whole)."""
        path = Path(directory) / FILE_NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=1), encoding="utf-8")
        tmp.replace(path)


def _set_aside(path: Path) -> Path | None:
    """Rename a settings file that cannot be read to ``settings.json.bad-<time>`` (never deleted); None if even
    that fails (a read-only directory: the defaults are used all the same)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        aside = path.with_name(f"{path.name}.bad-{stamp}" + (f"-{n}" if n else ""))
        if aside.exists() or aside.is_symlink():
            continue
        try:
            path.rename(aside)
        except OSError as error:
            log.warning("%s could not be moved aside (%s)", path, error)
            return None
        return aside
    return None
