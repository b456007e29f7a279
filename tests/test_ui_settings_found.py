"""Settings say which dice boxes and cameras this device has (issue 28: "the app's own settings say which port
and camera it found"), so a player sees what to choose without a terminal.  Real parts: the dice-box simulator
answers identify on a pseudo-terminal; this machine has no camera, which is said too."""

from __future__ import annotations

import json
import threading
from dataclasses import replace

import pytest

from companion import doctor
from companion.ui import driver as d
from firmware_bridge.simulator import Simulator

pytestmark = pytest.mark.timeout(180)


def _open_settings(app):
    d.tap(app.root.get_screen("start").ids.settings)
    return app.root.get_screen("settings")


def test_settings_name_the_box_answering_on_its_port_and_say_there_is_no_camera(tmp_path):
    sim = Simulator(seed=1, profile="fast")
    port = sim.start()
    (tmp_path / "settings.json").write_text(json.dumps({"dice_source": "box://auto", "box_port": port}))
    app = d.start_app(tmp_path)
    try:
        settings = _open_settings(app)
        assert d.wait_until(lambda: settings.found.startswith("Found here:"), timeout=30), settings.found
        assert f"dice box DiceBox-2040 on {port}" in settings.found
        cameras = [device for device, size in doctor.camera_pictures() if size is not None]
        assert settings.found.endswith("; no built-in or USB camera") == (not cameras), settings.found  # none on CI
        assert d.find_label(settings, settings.found)  # on the screen, not only in a property
        assert d.layout_problems(app.root) == []

        # The same in Japanese, once the language is saved and Settings opened again.
        app.apply_settings(replace(app.settings, lang="ja"))
        d.tap(d.find(settings, app.tr("back")))
        settings = _open_settings(app)
        assert d.wait_until(lambda: settings.found.startswith("この端末で"), timeout=30), settings.found
        assert f"ダイスボックス DiceBox-2040（{port}）" in settings.found
        assert d.layout_problems(app.root) == []
    finally:
        d.stop_app(app)
        sim.stop()
    assert not [t for t in threading.enumerate() if t.name == "settings-device-finder"], "the finder ended"


def test_settings_never_ask_the_ports_while_the_open_game_reads_its_box(tmp_path):
    """Two readers of one serial port would share its bytes (a roll could go to the wrong one): with a game
    open on the box, Settings say its source is in use and ask nothing."""
    record, _game = d.base_game_after_setup(("Aki", "Ben", "Chie"))
    game_id = d.journal(tmp_path, record)
    app = d.start_app(tmp_path, source_url="sim://?seed=5&every=0&profile=fast")
    try:
        d.tap(d.find(app.root.get_screen("start").ids.games, f"#{game_id} ", startswith=True))
        assert d.wait_until(lambda: app.source_state == "connected", timeout=15), app.source_status
        play = app.root.get_screen("play")
        d.tap(play.ids.menu)
        settings = _open_settings(app)
        assert settings.found.startswith("Found here: the dice source of the open game is in use")
        assert not [t for t in threading.enumerate() if t.name == "settings-device-finder"]
    finally:
        d.stop_app(app)
