"""A per-request time line of the desk server, for bench/bench_desk_floor.py (``CATAN_DESK_TRACE=FILE``).

Where a slow event spends its time can only be seen from both ends at once: the tablets' side writes when it sent
and heard back, the desk writes here when each batch arrived, got the desk's lock and was committed, when the
display's stream sent each table's line, when the event loop was late (something held it) and when Python's
garbage collector paused the process. One JSON array per line, ``time.time()`` (one clock for every process on the
machine). Off (``None``) unless the variable is set: the desk pays nothing for it then.
"""

from __future__ import annotations

import asyncio
import atexit
import gc
import json
import os
import threading
import time

LOOP_TICK_S = 0.005  # the loop's watcher wakes this often ...
LOOP_LATE_S = 0.02  # ... and writes a line when it woke this much later than asked (the loop was held)
CPU_EVERY_S = 0.1  # the process's CPU seconds so far, written this often: did the desk run while an event waited?


class Trace:
    def __init__(self, path: str):
        self._file = open(path, "a", encoding="utf-8", buffering=1 << 16)  # noqa: SIM115 -- closed at exit
        self._gc_began = self._gc_cpu = 0.0
        # one line at a time: the collector's callback runs on whichever thread set it off (the desk's, the
        # backlog check's, the loop's), and two threads writing the buffered file at once mixed their lines
        self._writing = threading.RLock()  # (re-entered if a collection starts inside a write: never waits on itself)
        gc.callbacks.append(self._gc)
        atexit.register(self.close)

    def write(self, *fields) -> None:
        line = json.dumps(fields) + "\n"
        with self._writing:
            if not self._file.closed:
                self._file.write(line)

    def close(self) -> None:
        if self._gc in gc.callbacks:
            gc.callbacks.remove(self._gc)
        with self._writing:
            if not self._file.closed:
                self._file.close()

    def _gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self._gc_began, self._gc_cpu = time.time(), time.process_time()
        else:
            ended = time.time()
            if ended - self._gc_began > 0.002 or info.get("generation") == 2:
                self.write("gc", self._gc_began, ended, info.get("generation"), info.get("collected"),
                           time.process_time() - self._gc_cpu)

    async def watch_loop(self, should_stop) -> None:
        """A line each time the event loop came back late (with the process's CPU seconds meanwhile: near the
        lateness, the process itself held the loop -- a sync call, the collector, another thread holding the GIL;
        near 0, the machine did not run it), and the process's CPU seconds every :data:`CPU_EVERY_S`."""
        last_cpu = 0.0
        while not should_stop():
            asked, cpu = time.time(), time.process_time()
            await asyncio.sleep(LOOP_TICK_S)
            now, cpu_now = time.time(), time.process_time()
            late = now - asked - LOOP_TICK_S
            if late > LOOP_LATE_S:
                self.write("loop", asked + LOOP_TICK_S, late, cpu_now - cpu)
            if now - last_cpu >= CPU_EVERY_S:
                last_cpu = now
                self.write("cpu", now, cpu_now, _waited_to_run())


def _waited_to_run() -> float | None:
    """Seconds this thread (the event loop's: ``tournament serve`` runs it on the main thread) has spent ready to
    run but waiting for a CPU (Linux's schedstat): grown by as much as an event waited, the machine was the cause."""
    try:
        with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as f:
            return int(f.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def from_environment() -> Trace | None:
    path = os.environ.get("CATAN_DESK_TRACE")
    return Trace(path) if path else None
