"""The app's settings: language, voice, volume, dice source, box port, camera rolls' OK -- a small JSON file.

Kept beside the journal in the user data directory (``settings.json``), so one directory holds
everything a tablet needs to come back exactly as it was.  A damaged file is reported and replaced
by the defaults, never a reason not to start at a table.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass, fields
from pathlib import Path

log = logging.getLogger(__name__)

FILE_NAME = "settings.json"
DICE_SOURCES = ("manual:", "box://auto", "camera://0", "sim://?seed=1")


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

    def source_url(self) -> str:
        """The dice source to open: a named box port replaces ``box://auto``."""
        if self.dice_source.startswith("box://") and self.box_port not in ("", "auto"):
            return f"box://{self.box_port}"
        return self.dice_source

    @classmethod
    def load(cls, directory: Path) -> "Settings":
        path = Path(directory) / FILE_NAME
        if not path.exists():
            return cls()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            known = {f.name for f in fields(cls)}
            settings = cls(**{k: v for k, v in data.items() if k in known})
        except (OSError, ValueError, TypeError) as error:
            log.warning("%s cannot be read (%s); using the default settings", path, error)
            return cls()
        if settings.lang not in ("en", "ja"):
            settings.lang = "en"
        settings.volume = min(1.0, max(0.0, float(settings.volume)))
        return settings

    def save(self, directory: Path) -> None:
        path = Path(directory) / FILE_NAME
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=1), encoding="utf-8")
        tmp.replace(path)
