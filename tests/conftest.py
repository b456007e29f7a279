"""Checks every test gets for free."""

# Every test: the threads it started have ended and the captures it opened are closed (tests/threads_and_captures.py).
from threads_and_captures import threads_and_captures_end_with_the_test  # noqa: E402,F401
