"""A dice box unplugged and plugged in again: no stale "Not allowed" left on the screen.

Seen by touch upright in Japanese (the simulator on a pty, its process killed just after "Roll (box)" was tapped,
then started again on the same link): the caption said the box came off and came back and the dice line turned
green, but the red "Not allowed: dice box: disconnected" stayed under the prompt, beside a box ready to roll.
The refusal of a roll on a box that is gone now goes when the box is back.  The box is the firmware simulator in
a process of its own on a real pseudo-terminal, stopped and started again as a cable is pulled and put back."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.ui import driver as d
from test_ui_play import set_up_on_the_simulator

pytestmark = pytest.mark.timeout(150)


def plug_in(link: Path) -> subprocess.Popen:
    """The simulated box on a new pseudo-terminal at ``link`` (the path a udev rule gives a box)."""
    box = subprocess.Popen([sys.executable, "-m", "firmware_bridge", "simulate", "--link", str(link),
                            "--profile", "fast", "--every", "0", "--seed", "5"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    box.stdout.readline()  # the path, printed once the pty is there
    return box


def pull_out(box: subprocess.Popen) -> None:
    box.terminate()
    box.wait(timeout=10)
    box.stdout.close()


def test_the_refused_roll_goes_when_the_box_is_back(tmp_path):
    link = tmp_path / "dicebox"
    box = plug_in(link)
    app = d.start_app(tmp_path, source_url=f"box://{link}")
    try:
        play = set_up_on_the_simulator(app)
        pull_out(box)
        assert d.wait_until(lambda: app.source_state == "disconnected", timeout=20), app.source_status
        d.tap(play.ids.roll_box)  # tapped while it is off: refused, and said why
        assert play.message, "a roll on a box that is gone is refused out loud"
        box = plug_in(link)
        assert d.wait_until(lambda: app.source_state == "connected", timeout=30), app.source_status
        d.settle()
        assert play.message == "", f"still shown with the box back: {play.message!r}"
        assert app.table.game.state.phase == "roll"  # nothing was recorded meanwhile
    finally:
        d.stop_app(app)
        if box.poll() is None:
            pull_out(box)


def test_a_pulled_cable_is_said_in_plain_words_naming_the_port(tmp_path):
    """Session 19's trial: with the cable out the dice line read "disconnected (PORT: cannot open: [Errno 2] could not
    open port PORT: [Errno 2] No such file or directory: 'PORT'; retrying)".  It names the port and says what to do,
    in English and Japanese (in Japanese it said nothing but 切断)."""
    from dataclasses import replace

    link = tmp_path / "dicebox"
    box = plug_in(link)
    app = d.start_app(tmp_path, source_url=f"box://{link}")
    try:
        set_up_on_the_simulator(app)
        pull_out(box)
        said = f"{link} not found: is the cable in? Trying again; tap the dice meanwhile"
        assert d.wait_until(lambda: said in app.source_status, timeout=30), app.source_status
        assert "Errno" not in app.source_status
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        assert f"{link} が見つかりません。ケーブルを確かめてください" in app.source_status, app.source_status
    finally:
        d.stop_app(app)
        if box.poll() is None:
            pull_out(box)
