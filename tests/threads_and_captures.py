"""What a test starts, it stops: every thread it started has ended and every capture it opened is closed when
it is over (tests/conftest.py gives each test this check).

A thread left running is how a suite fails by chance on a busy machine: it goes on inside OpenCV or a serial
link while later tests run, and at the interpreter's exit a daemon thread still inside C++ code is unwound by
``pthread_exit`` and aborts the process ("terminate called without an active exception").  A capture left open
holds the camera, which the next opener then cannot have.

A thread told to stop may still be on its way out (its last frame read, its last message sent), so the check
waits for the test's leftover threads to end, at most LEFT_RUNNING_GRACE seconds (of the wall clock: a leftover
thread is mostly asleep, so the process's CPU time would not move), and only then reports:

- a capture still open, or a non-daemon thread still running (the interpreter would wait for it at exit):
  the test fails;
- a daemon thread still running: a warning naming it (pytest's warnings summary), until every part of the
  program stops its threads.
"""

from __future__ import annotations

import sys
import threading
import time
import warnings

import pytest

#: How long a test's leftover threads are waited for before they are reported (only spent when some are left).
LEFT_RUNNING_GRACE = 10.0


class ThreadLeftRunning(UserWarning):
    """A daemon thread a test started was still running after it."""


def _open_captures() -> list:
    capture = sys.modules.get("vision.capture")  # nothing opened a capture when it was never imported
    return capture.open_sources() if capture is not None else []


def _describe(thread: threading.Thread) -> str:
    """The thread's name, what it runs and where it is now (its innermost Python frame)."""
    target = getattr(thread, "_target", None)
    runs = f" running {getattr(target, '__qualname__', target)}" if target is not None else ""
    frame = sys._current_frames().get(thread.ident)
    where = f" at {frame.f_code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno} ({frame.f_code.co_name})" if frame else ""
    return f"{thread.name!r}{runs}{where}"


def leftovers(before: set[threading.Thread], captures_before: list) -> tuple[list, list, list]:
    """Threads started since ``before`` still running after the grace (non-daemon, daemon) and captures opened
    since ``captures_before`` still open."""
    end = time.monotonic() + LEFT_RUNNING_GRACE
    while True:
        left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
        opened = [c for c in _open_captures() if c not in captures_before]
        if not (left or opened) or time.monotonic() >= end:
            break
        if left:
            left[0].join(0.05)
        else:
            time.sleep(0.05)
    return [t for t in left if not t.daemon], [t for t in left if t.daemon], opened


@pytest.fixture(autouse=True)
def threads_and_captures_end_with_the_test():
    before = set(threading.enumerate())
    captures_before = _open_captures()
    yield
    non_daemon, daemon, opened = leftovers(before, captures_before)
    for thread in daemon:
        warnings.warn(ThreadLeftRunning(f"a daemon thread the test started is still running: {_describe(thread)}"))
    problems = [f"thread {_describe(t)} still running (the interpreter waits for it at exit)" for t in non_daemon]
    problems += [f"capture {getattr(c, 'name', c)!r} still open" for c in opened]
    if problems:
        pytest.fail("the test left running what it started: " + "; ".join(problems), pytrace=False)
