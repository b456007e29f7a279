"""The set-up's "Say your name", end to end by touches: a player taps the button beside her name and says it
(ALSA captures it from a file), the game starts, and the roll that pays her is said with her own voice where her
colour was (ALSA plays it into a file); after a restart -- a new process -- the resumed game still says it.

Each app runs in a child process whose HOME holds the ``.asoundrc``: PortAudio reads the ALSA configuration
once, when sounddevice is first imported, so the device cannot be changed inside the test process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np
import pytest

from test_name_recording import as_said_at_the_table, fit, spoken_name

from companion.announce.clips import RATE

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.timeout(300)

CHILD = r"""
import json, sys
from dataclasses import replace
spec = json.loads(sys.argv[1])
from companion.ui.app import configure_kivy
configure_kivy()
from kivy.uix.button import Button
from companion.ui import driver as d

app = d.start_app(spec["data"], player="sounddevice")
report = {"announcer": None}
try:
    start = app.root.get_screen("start")
    if spec["step"] == "new game":
        d.tap(start.ids.new_game)
        ng = app.root.get_screen("new_game")
        d.tap(ng.ids.g_base)
        d.tap(ng.ids.n3)
        first_row = ng.ids.players.children[-1]  # children are stored last-first
        say = next(w for w in first_row.children if isinstance(w, Button) and w.text == "Say your name")
        d.tap(say)
        report["listening"] = say.text
        report["recorded"] = d.wait_until(lambda: ng.voices.state(0) == "recorded", timeout=60)
        report["button"] = say.text
        report["layout"] = d.layout_problems(ng)  # every state's text fits its button, nothing moved over
        app.apply_settings(replace(app.settings, lang="ja"))
        ng.refresh()  # as entering the screen does
        ja_say = next(w for w in ng.ids.players.children[-1].children if isinstance(w, Button) and w.width == say.width)
        report["button_ja"] = ja_say.text
        report["layout_ja"] = d.layout_problems(ng)
        app.apply_settings(replace(app.settings, lang="en"))
        ng.refresh()
        d.tap(ng.ids.start)
        report["screen"] = app.root.current
        d.place_setup(app)
    else:  # the restart: the unfinished game from the start screen's list
        d.tap(next(w for w in d.walk(start) if isinstance(w, Button) and "Aki" in w.text))
    report["announcer"] = app.announcer.player_name
    play = app.root.get_screen("play")
    if app.table.game.state.phase != "roll":  # resumed after the roll: the next player rolls
        d.tap(play.ids.end_turn)
    d.tap_dice(play, d.producing_number(app.table.game, 0))
    roll = len(app.table.record.events) - 1
    said = lambda: [a for a in app.announcer.captions if a.event_index == roll]
    report["played"] = d.wait_until(lambda: bool(said()) and said()[0].status == "played", timeout=60)
    if not report["played"]:  # what was said instead, for the failure's message
        report["said"] = [(a.event_index, a.status, a.caption) for a in app.announcer.captions]
        report["last_event"] = app.table.record.events[-1]
        raise SystemExit(json.dumps(report))
    report["caption"] = said()[0].caption
    report["voices"] = sorted(app.announcer.voices)
finally:
    d.stop_app(app)
print(json.dumps(report))
"""


def run_app(tmp_path: Path, step: str, microphone: Path | None, speaker: Path) -> dict:
    home = tmp_path / f"home-{speaker.stem}"
    home.mkdir()
    capture = (f'capture.pcm {{ type file; slave.pcm "null"; file "/dev/null"; infile "{microphone}"; '
               f'format "raw" }}') if microphone else 'capture.pcm "null"'
    (home / ".asoundrc").write_text(f"""pcm.!default {{
 type asym
 playback.pcm {{ type file; slave.pcm "null"; file "{speaker}"; format "wav" }}
 {capture}
}}
""")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALSA")}
    env.update(HOME=str(home), PYTHONPATH=str(ROOT), KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1",
               KIVY_HOME=str(home / ".kivy"))
    spec = {"data": str(tmp_path / "data"), "step": step}
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(spec)], env=env, cwd=home,
                          capture_output=True, text=True, timeout=240)
    (tmp_path / f"stderr-{speaker.stem}.txt").write_text(done.stderr)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def heard(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as speaker:
        assert (speaker.getnchannels(), speaker.getsampwidth(), speaker.getframerate()) == (1, 2, RATE)
        return np.frombuffer(speaker.readframes(speaker.getnframes()), dtype=np.int16)


def test_a_name_said_at_set_up_is_heard_in_the_game_and_after_a_restart(tmp_path):
    name = spoken_name()
    microphone = tmp_path / "microphone.raw"
    as_said_at_the_table(name, loudness=0.1, after=2.0).astype("<i2").tofile(microphone)

    first = run_app(tmp_path, "new game", microphone, tmp_path / "speaker-1.wav")
    assert first["listening"] == "Listening… tap to stop"
    assert first["recorded"] and first["button"] == "Name recorded (again?)"
    assert first["button_ja"] == "録音済み（録り直す）"
    assert first["layout"] == [] and first["layout_ja"] == []
    assert first["screen"] == "play" and first["announcer"] == "sounddevice" and first["played"]
    assert first["voices"] == [0]
    assert " Aki takes " in first["caption"] and "red" not in first["caption"].lower()
    kept = list((tmp_path / "data" / "name-voices").glob("game-1-*/seat-0.wav"))
    assert len(kept) == 1, "the recorded name is not kept with the game"
    _, how_well = fit(heard(tmp_path / "speaker-1.wav"), name)
    assert how_well > 0.98, f"Aki's recorded name was not said (best fit {how_well:.3f})"

    again = run_app(tmp_path, "resume", None, tmp_path / "speaker-2.wav")
    assert again["played"] and again["voices"] == [0] and " Aki takes " in again["caption"]
    _, how_well = fit(heard(tmp_path / "speaker-2.wav"), name)
    assert how_well > 0.98, f"after the restart Aki's name was not said (best fit {how_well:.3f})"
