"""The companion as a user installs it: the wheel built from this tree, installed into a fresh virtual
environment outside the checkout, and every command run there as in the checkout.

How the environment is made, and why it is honest:

- an sdist is made from a copy of the packages (builds write into the source tree, and this tree is shared),
  and the wheel is built from that sdist by ``pip wheel``, with build isolation as a user's pip builds it;
- ``python -m venv --without-pip`` makes the environment in a temporary folder, and the checkout's pip
  installs the wheel into it (``pip --python VENV install --no-deps``): the companion, vision and
  firmware_bridge packages and their data come from the wheel only;
- the pinned dependencies (Kivy, OpenCV, NumPy, ...) are the checkout venv's own, reached by one ``.pth`` line
  naming its site-packages: installing 150 MB of wheels again would take minutes and prove nothing about
  this project.  That folder holds no project code (the checkout is reached there only through an editable
  finder that a plain path entry never runs), and the first test checks that no module or file of the
  project resolves into the checkout and no ``sys.path`` entry points into it;
- every command runs with a temporary HOME, a working directory outside the checkout and no PYTHONPATH.

The fresh-install timing with real dependency downloads is bench/bench_install.py (docs/performance.md).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import wave
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

import companion
from companion.announce import library, phrase_for_outcome
from companion.record import load_record, replay

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("base", "base56", "seafarers", "high-tide", "starfarers", "card-game")
DICE_PHOTOS = Path(os.environ.get("CATAN_SHARED", ROOT.parent / "shared")) / "data" / "dice"
if not DICE_PHOTOS.exists():
    DICE_PHOTOS = Path("/work/shared/data/dice")


@dataclass
class Installed:
    wheel: Path
    venv: Path
    python: Path
    work: Path  # the working directory of every command: outside the checkout
    env: dict[str, str]

    def run(self, *args: str, timeout: float = 120, **kwargs) -> subprocess.CompletedProcess:
        """A console script or ``python`` of the environment (by name), run as a user would."""
        return subprocess.run([str(self.venv / "bin" / args[0]), *args[1:]], cwd=self.work, env=self.env,
                              capture_output=True, text=True, timeout=timeout, **kwargs)


def checkout(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The same command in the checkout (the editable install the developers run)."""
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def _copy_sources(target: Path) -> None:
    """What the wheel is built from: the packages as they are in the working tree, the project file, the README."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for package in ("companion", "firmware_bridge", "vision"):
        shutil.copytree(ROOT / package, target / package, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, target / name)


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    base = tmp_path_factory.mktemp("installed")
    assert ROOT not in base.parents
    source, dist, venv, work, home = (base / name for name in ("source", "dist", "venv", "work", "home"))
    _copy_sources(source)
    # sdist first, then the wheel from the sdist (as ``python -m build`` does): both must carry the data.
    sdist = subprocess.run([sys.executable, "-c", "import sys; from setuptools import build_meta; "
                            "print(build_meta.build_sdist(sys.argv[1]))", str(dist)], cwd=source,
                           capture_output=True, text=True, timeout=300)
    assert sdist.returncode == 0, sdist.stderr
    [archive] = dist.glob("catan_companion-*.tar.gz")  # setuptools >= 69.3 names it as PEP 625 says
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(archive)],
                           capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    [wheel] = dist.glob("catan_companion-*.whl")
    made = subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], capture_output=True,
                          text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    python = venv / "bin" / "python"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index",
                           "-q", str(wheel)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    (Path(site) / "checkout-venv-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    work.mkdir()
    home.mkdir()
    # ALSA's file plugin as the default output: whatever PortAudio plays lands in a WAV file.
    (home / ".asoundrc").write_text(f'pcm.!default {{\n type file\n slave.pcm "null"\n file "{base / "said.wav"}"\n'
                                    ' format "wav"\n}\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "ALSA", "KIVY_HOME", "VIRTUAL_ENV"))}
    env.update(HOME=str(home), CATAN_COMPANION_HOME=str(base / "data"), PATH=f"{venv / 'bin'}{os.pathsep}"
               f"{env.get('PATH', '')}")
    return Installed(wheel, venv, python, work, env)


def test_the_wheel_holds_every_file_read_at_run_time_and_no_development_tool(installed):
    names = set(zipfile.ZipFile(installed.wheel).namelist())
    tracked = subprocess.run(["git", "ls-files", "companion/assets", "vision/models", "companion/ui"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    wanted = {name for name in tracked if not name.endswith(".py") or name.endswith("__init__.py")}
    assert wanted and not wanted - names, sorted(wanted - names)[:10]
    assert {"companion/assets/voice/en/manifest.json", "companion/assets/fonts/OFL.txt",
            "vision/models/faces.onnx", "companion/ui/companion.kv"} <= names
    assert not [n for n in names if n.startswith(("tools/", "tests/", "bench/", "vision/training/", "assets/"))]


def test_the_wheel_states_its_licence_as_an_spdx_expression(installed):
    """PEP 639 (setuptools >= 77): ``License-Expression: MIT`` in metadata 2.4, not the deprecated free-text field."""
    with zipfile.ZipFile(installed.wheel) as wheel:
        [metadata] = [n for n in wheel.namelist() if n.endswith(".dist-info/METADATA")]
        headers = wheel.read(metadata).decode("utf-8").split("\n\n", 1)[0].splitlines()
    assert "Metadata-Version: 2.4" in headers and "License-Expression: MIT" in headers
    assert not [h for h in headers if h.startswith("License:")]


def test_the_project_comes_from_the_wheel_and_nothing_from_the_checkout(installed):
    probe = ("import json, sys, companion, vision, firmware_bridge\n"
             "from companion import assets\nfrom vision.reader import DEFAULT_MODEL_DIR\n"
             "print(json.dumps({'files': [companion.__file__, vision.__file__, firmware_bridge.__file__,"
             " str(assets.path('voice')), str(DEFAULT_MODEL_DIR)], 'path': sys.path}))")
    done = installed.run("python", "-c", probe)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    for file in found["files"]:
        assert Path(file).resolve().is_relative_to(installed.venv.resolve()), file
    for entry in found["path"]:  # "" is the working directory
        folder = (installed.work / entry).resolve()
        if not folder.is_relative_to(installed.venv.resolve()):  # the interpreter's own, the dependencies
            assert folder != ROOT
            assert not [p for p in ("companion", "vision", "firmware_bridge") if (folder / p).exists()], folder
    version = installed.run("catan-companion", "--version")
    assert (version.returncode, version.stdout) == (0, f"catan-companion {companion.__version__}\n")


# Runs in one process per environment (a process per command would take half a minute): every game's example
# record and its replay, as the command line prints them.
EXAMPLES_AND_REPLAYS = r"""
import contextlib, io, json, sys
from pathlib import Path
from companion.__main__ import main
folder, printed = Path(sys.argv[1]), {}
for game in sys.argv[2:]:
    for command in (["example", "--game", game, "--seed", "3"], ["replay", str(folder / f"{game}.json")]):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(command)
        printed[f"{command[0]} {game}"] = [code, out.getvalue()]
        if command[0] == "example":
            (folder / f"{game}.json").write_text(out.getvalue())
print(json.dumps(printed))
"""


def test_example_and_replay_print_what_the_checkout_prints_for_every_game(installed, tmp_path):
    mine, theirs = installed.work / "examples", tmp_path / "examples"
    mine.mkdir()
    theirs.mkdir()
    done = installed.run("python", "-c", EXAMPLES_AND_REPLAYS, str(mine), *GAMES)
    assert done.returncode == 0, done.stderr
    reference = subprocess.run([sys.executable, "-c", EXAMPLES_AND_REPLAYS, str(theirs), *GAMES], cwd=ROOT,
                               capture_output=True, text=True, timeout=300)
    assert reference.returncode == 0, reference.stderr
    printed, expected = json.loads(done.stdout), json.loads(reference.stdout)
    assert set(printed) == {f"{c} {g}" for c in ("example", "replay") for g in GAMES}
    for key in expected:
        assert printed[key] == expected[key], key
        assert printed[key][0] == 0 and printed[key][1].startswith("{"), key
    # and once through the console script a user types
    script = installed.run("catan-companion", "replay", str(mine / "high-tide.json"))
    assert (script.returncode, script.stdout) == (0, expected["replay high-tide"][1])


def test_announce_says_the_last_outcome_through_alsa(installed):
    bundled = installed.run("python", "-c", "from companion import assets; "
                                            "print(assets.path('games', 'example-high-tide.json'))").stdout.strip()
    assert Path(bundled).is_relative_to(installed.venv)
    done = installed.run("catan-companion", "announce", bundled, "--lang", "ja")
    assert done.returncode == 0, done.stderr
    record = load_record(ROOT / "companion" / "assets" / "games" / "example-high-tide.json")
    last = replay(record).outcomes[-1]
    phrase = phrase_for_outcome(last, [p["color"] for p in record.players], "ja")
    assert done.stdout == f"#{last.index} {phrase.caption}\n"
    with wave.open(str(installed.work.parent / "said.wav"), "rb") as said:
        captured = np.frombuffer(said.readframes(said.getnframes()), dtype=np.int16)
    expected = library("ja").render(phrase.tokens)
    # The phrase, sample for sample, somewhere in what ALSA was given (silence around it).
    starts = np.flatnonzero(captured[:len(captured) - len(expected) + 1] == expected[0])
    assert any(np.array_equal(captured[s:s + len(expected)], expected) for s in starts)


@pytest.mark.skipif(not DICE_PHOTOS.exists(), reason=f"dice photos not found at {DICE_PHOTOS}")
def test_vision_evaluate_scores_a_labelled_set_as_the_checkout_does(installed, tmp_path):
    folder = DICE_PHOTOS / "matteop65-Dice_Detection_Recognition"
    for sub in ("images", "labels"):
        (tmp_path / sub).mkdir()
    for image in sorted((folder / "images").iterdir())[:6]:
        (tmp_path / "images" / image.name).symlink_to(image)
        label = folder / "labels" / f"{image.stem}.txt"
        (tmp_path / "labels" / label.name).symlink_to(label)
    done = installed.run("python", "-m", "vision", "evaluate", str(tmp_path), "--json")
    assert done.returncode == 0, done.stderr
    mine = json.loads(done.stdout)
    theirs = json.loads(checkout("vision", "evaluate", str(tmp_path), "--json").stdout)
    assert mine["dice"] > 0
    assert {k: v for k, v in mine.items() if not k.startswith("ms_")} == \
        {k: v for k, v in theirs.items() if not k.startswith("ms_")}


def test_the_tournament_desk_runs_an_event(installed):
    db = str(installed.work / "desk.sqlite3")

    def desk(*args: str) -> dict | list:
        done = installed.run("catan-companion", "tournament", *args, "--db", db, "--json")
        assert done.returncode == 0, (args, done.stderr)
        return json.loads(done.stdout)

    desk("new", "Club night", "--seed", "7")
    for name in ("Aki", "Ben", "Chie", "Dan"):
        desk("add", "Club night", name)
    [table] = desk("seat", "Club night")["tables"]
    seats = table["seats"]
    desk("result", "Club night", "1", str(table["table"]), *[f"{n}={v}" for n, v in zip(seats, [10, 7, 5, 3])],
         "--winner", seats[0])
    standings = desk("standings", "Club night")["standings"]
    assert standings[0]["rank"] == 1 and standings[0]["vp"] == 10


def test_the_simulated_dice_box_answers_the_installed_monitor(installed):
    box = subprocess.Popen([str(installed.venv / "bin" / "python"), "-m", "firmware_bridge", "simulate", "--seed", "3",
                            "--profile", "fast", "--every", "0.05", "--duration", "5"], cwd=installed.work,
                           env=installed.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        port = box.stdout.readline().strip()
        heard = installed.run("python", "-m", "firmware_bridge", "monitor", port, "--identify", "--ack",
                              "--count", "10")  # identify, then a few rolls' states and results
        out, err = box.communicate(timeout=30)
    finally:
        box.kill()
        box.wait()
    assert heard.returncode == 0, heard.stderr
    assert "Identify model=DiceBox-2040" in heard.stdout and "RollResult" in heard.stdout
    assert box.returncode == 0 and "simulate: rolled" in err


def test_the_app_starts_its_demo_and_quits_cleanly(installed):
    data = installed.work / "app-data"
    done = installed.run("catan-companion", "app", "--demo", "--data-dir", str(data), "--quit-when-ready",
                         timeout=180)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "ready_seconds=" in done.stdout  # the start screen was drawn: the main loop ran
    assert (data / "journal.sqlite3").exists()
    doctor = installed.run("catan-companion", "doctor", "--journal", str(data / "journal.sqlite3"))
    assert doctor.returncode == 0, doctor.stdout
    assert str(installed.venv) in doctor.stdout and str(ROOT) not in doctor.stdout
