"""Every Android permission the app asks for at run time is declared in buildozer.spec.

Android grants a run-time request only for a permission the manifest declares; an undeclared one is refused
without a dialog, so the feature (the camera, the microphone, the scan's picture list) silently stays empty on
the tablet.  Nothing here can run Android, so the check is the one a build would need: the code's requests
against the spec's list.
"""
import configparser
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def declared() -> set[str]:
    spec = configparser.ConfigParser()
    spec.read(ROOT / "buildozer.spec", encoding="utf-8")
    return {name.strip() for name in spec["app"]["android.permissions"].split(",") if name.strip()}


def requested() -> dict[str, list[str]]:
    """Permission names the code asks for, with the files asking: ``Permission.CAMERA`` and
    ``"android.permission.READ_MEDIA_IMAGES"`` alike."""
    found: dict[str, list[str]] = {}
    for path in sorted((ROOT / "companion").rglob("*.py")) + sorted((ROOT / "firmware_bridge").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        names = re.findall(r"\bPermission\.([A-Z_]+)", text) + re.findall(r"android\.permission\.([A-Z_]+)", text)
        for name in names:
            found.setdefault(name, []).append(str(path.relative_to(ROOT)))
    return found


def test_the_code_asks_for_permissions():
    asked = requested()
    assert {"CAMERA", "RECORD_AUDIO", "READ_MEDIA_IMAGES"} <= set(asked), asked


def test_every_permission_asked_for_is_declared():
    missing = {name: files for name, files in requested().items() if name not in declared()}
    assert not missing, f"asked for at run time but not in buildozer.spec's android.permissions: {missing}"
