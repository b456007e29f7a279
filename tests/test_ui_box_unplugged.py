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


def port_error(port: str, errno: int | None, words: str) -> str:
    """The box client's status detail for a port that would not open, as SerialLink words pyserial's error (its
    "could not open port PORT: [Errno N] WORDS: 'PORT'") or android_usb's (an OSError of plain words)."""
    import serial

    from firmware_bridge.link import LinkError

    error = (serial.SerialException(errno, f"could not open port {port}: [Errno {errno}] {words}: '{port}'")
             if errno is not None else OSError(words))
    return f"{LinkError(port, f'cannot open: {error}')}; retrying"


@pytest.mark.parametrize("errno, words, en, ja", [
    (2, "No such file or directory", "/dev/ttyACM0 not found: is the cable in?", "/dev/ttyACM0 が見つかりません"),
    (13, "Permission denied", "no permission to open /dev/ttyACM0: on Linux, add yourself to the dialout group",
     "/dev/ttyACM0 を開く権限がありません"),
    (16, "Device or resource busy", "/dev/ttyACM0 is in use by another program: close it",
     "/dev/ttyACM0 は別のプログラムが使用中です"),
    (None, "waiting for the permission to use the USB device (answer the tablet's question)",
     "answer the tablet's question: may the app use the USB device?", "タブレットの質問に答えて"),
    (None, "no USB device /dev/ttyACM0 (unplugged?)", "/dev/ttyACM0 not found: is the cable in?",
     "/dev/ttyACM0 が見つかりません"),
])
def test_a_port_that_would_not_open_is_said_as_what_its_error_says(tmp_path, errno, words, en, ja):
    """Each way a box's port fails to open is said in plain words for what it is, in English and Japanese: a
    port there but refused (no access, another program on it), or a tablet still asking whether the app may use
    the USB device, was said "not found: is the cable in?" as a pulled cable is (session 19's review of af760e8),
    sending the players to a cable that was in.  The port's own error text goes to the log, as before."""
    from dataclasses import replace

    from companion.dice.serial_box import SerialBoxSource

    source = SerialBoxSource("/dev/ttyACM0")  # (not started: it is told the client's status as the client tells it)
    source._status("searching", port_error("/dev/ttyACM0", errno, words))
    seen = [source.status]
    app = d.start_app(tmp_path, source_url="manual:")  # (no box of its own saying its port's state meanwhile)
    try:
        app._show_status(seen[-1])
        assert en in app.source_status and "Errno" not in app.source_status, app.source_status
        app.apply_settings(replace(app.settings, lang="ja"))
        d.settle()
        app._show_status(seen[-1])
        assert ja in app.source_status and "Errno" not in app.source_status, app.source_status
    finally:
        d.stop_app(app)
