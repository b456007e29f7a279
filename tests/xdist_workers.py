"""Each pytest-xdist worker (``./dev test`` runs two, ``-n 2``) gets a screen and a Kivy home of its own.

What two test processes on one machine would otherwise share, and how each is kept apart:

- the X display: ``xvfb-run`` starts one Xvfb for the whole run, and every Kivy window of both workers would
  open on it, all at (0, 0) with no window manager -- a window shown over another takes its focus, and the
  pixels read back from an obscured window are the other's.  The controller (the pytest process that starts the
  workers) starts one Xvfb per worker (``-displayfd``: the server picks a free display number itself, so two
  never race for one) and hands the worker its ``DISPLAY``; the worker sets it before any test module imports
  Kivy.  The Xvfbs are stopped when the run ends, after the workers have exited.
- Kivy's home (``KIVY_HOME``, else ``~/.kivy``): Kivy writes its ``config.ini`` there on the first import and its
  log files under it; two first imports at once write the same file.  Each worker gets a folder of its own in its
  temp dir, and the child processes tests start inherit it.

Everything else the tests start is already kept apart per test or per process: temp folders (``tmp_path``),
servers on port 0, the ALSA tests' ``.asoundrc`` in a temporary HOME of the child process, desk events with
names unique per run (mDNS), one PostgreSQL server per worker (``postgres_server``: a session fixture, on a Unix
socket in a folder of its own).

Without xdist (one process, e.g. ``./dev test tests/test_board.py``) none of this runs: the one Xvfb of
``xvfb-run`` and the user's ``~/.kivy`` are used as before.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import pytest

#: The screen each worker's Xvfb has: ./dev gives xvfb-run the same (``CATAN_TEST_SCREEN``), so a test sees one
#: screen whether the run is split over workers or not.
DEFAULT_SCREEN = "1280x800x24"

_servers: list[subprocess.Popen] = []


def _end_with_the_controller() -> None:
    """In the Xvfb's process before it runs: Linux ends it when the controller ends, however that ends (killed by a
    signal, with no ``pytest_unconfigure``), so no Xvfb outlives the run (PR_SET_PDEATHSIG)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: pytest_unconfigure still stops it at a normal end
        pass


def start_xvfb(screen: str) -> tuple[subprocess.Popen, str]:
    """An Xvfb on a free display number (it chooses it and writes it to a pipe); the process and ``:N``."""
    read, write = os.pipe()
    try:
        server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp",
                                   "-noreset"], pass_fds=(write,), stdin=subprocess.DEVNULL,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  preexec_fn=_end_with_the_controller)
    finally:
        os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()  # written once the server accepts connections; "" if it died
    if not number.isdigit():
        server.kill()
        server.wait()
        raise RuntimeError(f"Xvfb did not start (screen {screen!r}, exit status {server.poll()})")
    return server, f":{number}"


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node) -> None:
    """In the controller, for each worker before it starts: its own Xvfb, when the run has a display at all."""
    if os.environ.get("DISPLAY") and shutil.which("Xvfb"):
        server, display = start_xvfb(os.environ.get("CATAN_TEST_SCREEN", DEFAULT_SCREEN))
        _servers.append(server)
        node.workerinput["catan_display"] = display


def pytest_configure(config) -> None:
    """In a worker, before any test module is imported (and so before Kivy reads its environment)."""
    workerinput = getattr(config, "workerinput", None)
    if workerinput is None:
        return
    if "catan_display" in workerinput:
        os.environ["DISPLAY"] = workerinput["catan_display"]
    worker = workerinput.get("workerid", "gw")
    os.environ["KIVY_HOME"] = tempfile.mkdtemp(prefix=f"kivy-home-{worker}-")
    config._catan_kivy_home = os.environ["KIVY_HOME"]


def pytest_unconfigure(config) -> None:
    """Controller: the workers have exited (xdist waits for them at the session's end), so their Xvfbs can go.
    Worker: its Kivy home goes."""
    kivy_home = getattr(config, "_catan_kivy_home", None)
    if kivy_home:
        shutil.rmtree(kivy_home, ignore_errors=True)
    while _servers:
        server = _servers.pop()
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()
