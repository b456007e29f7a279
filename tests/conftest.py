"""Checks every UI test gets for free: no screen state reached by a tap shows a coordinate.

Players say places ("the 6 hills", "Ben's settlement") and the board rings them; a coordinate as the record
writes it ("[0, -1]") on any screen a UI test reaches by touch fails that test (``driver.coordinate_texts``,
run after every tap through ``driver.STEP_CHECKS``: a walk over the window's widgets, 0.8 ms a tap on the play
screen, bench/bench_ui_checks.py)."""

from __future__ import annotations

import sys

import pytest


@pytest.fixture(autouse=True)
def no_coordinates_on_screen():
    driver = sys.modules.get("companion.ui.driver")
    if driver is None:  # not a UI test: nothing is shown
        yield
        return
    seen: list[str] = []

    def scan() -> None:
        for text in driver.coordinate_texts():
            if text not in seen:
                seen.append(text)

    driver.STEP_CHECKS.append(scan)
    try:
        yield
    finally:
        driver.STEP_CHECKS.remove(scan)
    if seen:
        pytest.fail("coordinates on screen (say the place, ring it on the board): " + " | ".join(seen[:5]),
                    pytrace=False)


# Every test: the threads it started have ended and the captures it opened are closed (tests/threads_and_captures.py).
from threads_and_captures import threads_and_captures_end_with_the_test  # noqa: E402,F401

# Every test: pytest-timeout's limit is a hang guard, at least MIN_HANG_GUARD seconds (tests/hang_guard.py).
from hang_guard import pytest_collection_modifyitems  # noqa: E402,F401

# The session's PostgreSQL server, one for the whole run: a session fixture imported into each test module would be
# one fixture per module to pytest, and so one server per module, all kept until the run ends (nine at once).
from postgres_server import postgres, postgres_dsn  # noqa: E402,F401

# Each pytest-xdist worker: an Xvfb and a Kivy home of its own (tests/xdist_workers.py).
from xdist_workers import pytest_configure, pytest_configure_node, pytest_unconfigure  # noqa: E402,F401
