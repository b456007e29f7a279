"""``catan-companion doctor``: one screen that says why the box, the voice, the camera or the journal is not working."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from companion import assets
from companion.record import load_record
from companion.record.journal import Journal
from firmware_bridge.simulator import Simulator

ROOT = Path(__file__).resolve().parents[1]


def doctor(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    # ALSA's file plugin as the default output: a machine with a sound output, whatever this one has.
    (home / ".asoundrc").write_text(f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{tmp_path / "out.wav"}"\n'
                                    ' format "wav"\n}\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("ALSA")}
    env.update(HOME=str(home), CATAN_COMPANION_HOME=str(tmp_path / "data"))
    return subprocess.run([sys.executable, "-m", "companion", "doctor", *args], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)


def test_doctor_names_the_box_answering_identify_and_a_healthy_journal(tmp_path):
    journal_path = tmp_path / "data" / "journal.sqlite3"
    journal_path.parent.mkdir()
    with Journal(journal_path) as journal:
        journal.create_game(load_record(assets.path("games", "example-base.json")), "Friday")
    sim = Simulator(seed=1, profile="fast")
    port = sim.start()
    # The settings name the box's port (as Settings' "Box port" does): the doctor asks it without being told.
    (tmp_path / "data" / "settings.json").write_text(json.dumps({"dice_source": "box://auto", "box_port": port,
                                                                "lang": "ja"}))
    try:
        done = doctor(tmp_path, "--port", str(tmp_path / "no-such-port"), "--json")
    finally:
        sim.stop()
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout)
    sections = {name: [(line["mark"], line["text"]) for line in lines] for name, lines in report["sections"].items()}
    assert report["version"] == __import__("companion").__version__
    assert ("ok", f"{port}: dice box DiceBox-2040, firmware 1.0.0, 2 dice") in sections["dice boxes"]
    assert any(mark == "--" and text.startswith(f"{tmp_path / 'no-such-port'}: no answer to identify")
               for mark, text in sections["dice boxes"])
    [(mark, text)] = sections["settings"]
    assert mark == "ok" and f"dice from box://auto, box port {port}, language ja, voice on" in text
    [(mark, text)] = sections["journal"]
    assert mark == "ok" and text.startswith(f"{journal_path}: 1 games,") and "quick check ok" in text
    [(mark, text)] = sections["audio output"]
    assert mark == "ok" and "ALSA" in text
    assert all(mark == "ok" for mark, _ in sections["bundled files"])
    assert any(text.startswith("voice ja: ") for _, text in sections["bundled files"])


def test_a_damaged_journal_is_named_and_left_as_it_was(tmp_path):
    journal_path = tmp_path / "data" / "journal.sqlite3"
    journal_path.parent.mkdir()
    damage = b"SQLite format 3\x00" + bytes(range(256)) * 8
    journal_path.write_bytes(damage)
    done = doctor(tmp_path)
    assert done.returncode == 1
    line = next(line for line in done.stdout.splitlines() if line.startswith("journal"))
    assert "!!" in line and str(journal_path) in line
    assert journal_path.read_bytes() == damage
    assert done.stdout.splitlines()[0].startswith("catan-companion ")
