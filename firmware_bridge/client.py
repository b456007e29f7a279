"""The host's side of the protocol: one thread that keeps a box connected and hands over its rolls.

:class:`BoxClient` opens the port (or finds the box), asks it to identify, delivers each
:class:`~firmware_bridge.codec.RollResult` exactly once to ``on_result`` and then acks it, reports
its condition to ``on_status`` (``searching``, ``connected``, ``rolling``, ``disconnected``,
``error`` -- the names of ``companion.dice.SourceState``), and when the port vanishes or the box
falls silent for ``heartbeat_timeout`` seconds, closes it and reopens with back-off.

Exactly once: the box resends a result until acked and may reboot with unacked results, so the
same result can arrive many times.  A result is delivered only when its roll id is above the last
one delivered for its boot id; the box sends one result at a time, oldest first, so this keeps
them in order too.  The ack goes out after ``on_result`` returns: a crash in between means a
resend, never a lost roll.
"""

from __future__ import annotations

import itertools
import logging
import threading
import time
from typing import Callable

from . import codec
from .link import LinkError, LinkLost, SerialLink, backoff_delays, find_box

log = logging.getLogger(__name__)

SEARCHING, CONNECTED, ROLLING, DISCONNECTED, ERROR = "searching", "connected", "rolling", "disconnected", "error"


class ExactlyOnce:
    """Which results to hand over: each (boot id, roll id) once, and never one older than the last.

    Kept apart from the thread and the port so that the property tests can drive it with the
    firmware through any schedule of faults.
    """

    def __init__(self) -> None:
        self.last: dict[int, int] = {}   # boot id -> last roll id handed over
        self.duplicates = 0

    def offer(self, result: codec.RollResult) -> bool:
        """True if ``result`` is new and must be delivered; either way the box must be acked."""
        if result.roll_id > self.last.get(result.boot_id, 0):
            self.last[result.boot_id] = result.roll_id
            return True
        self.duplicates += 1
        return False


class BoxClient:
    """Keeps one dice box connected; ``port=None`` finds it among the USB serial ports."""

    def __init__(self, port: str | None, on_result: Callable[[codec.RollResult, float], None],
                 on_status: Callable[[str, str], None] | None = None,
                 on_message: Callable[[codec.Message], None] | None = None,
                 heartbeat_timeout: float = 3.0, backoff: tuple[float, float] = (0.05, 2.0),
                 read_timeout: float = 0.05, identify_every: float = 1.0) -> None:
        self.port = port
        self.on_result = on_result
        self.on_status = on_status
        self.on_message = on_message
        self.heartbeat_timeout = heartbeat_timeout
        self.backoff = backoff
        self.read_timeout = read_timeout
        self.identify_every = identify_every
        self.box: codec.Identify | None = None
        self.exactly_once = ExactlyOnce()
        self.refused = 0  # results that break the protocol (roll id 0, a wrong dice count or colour): said, not used
        self.connections = 0
        self.decode_stats: dict[str, int] = {}
        self.status = (SEARCHING, "")
        self._link: SerialLink | None = None
        self._write_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._req = itertools.count(1)

    # --- control --------------------------------------------------------------------------------

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name=f"dicebox-{self.port or 'auto'}", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
            self._thread = None

    def send(self, message: codec.Message) -> bool:
        """Send a request now; False when no box is connected (nothing is queued for later)."""
        with self._write_lock:
            link = self._link
            if link is None:
                return False
            try:
                link.write(codec.encode(message))
            except LinkError:
                return False  # the reader thread notices the loss and reconnects
        return True

    @property
    def duplicates(self) -> int:
        """Results received again (resends, duplicated frames, replays after a reboot) and dropped."""
        return self.exactly_once.duplicates

    def _next_req(self) -> int:
        return next(self._req) % 0xFFFF + 1

    def request_roll(self) -> bool:
        """Ask a box with a shaker to roll (the reply, Done or Error, reaches on_message/status)."""
        return self.send(codec.RollRequest(req=self._next_req()))

    def show(self, values, colour) -> bool:
        return self.send(codec.Show(tuple(values), tuple(colour), req=self._next_req()))

    def ping(self) -> bool:
        return self.send(codec.Ping(int(time.monotonic() * 1000) & 0xFFFFFFFF, req=self._next_req()))

    # --- the thread -----------------------------------------------------------------------------

    def _set_status(self, state: str, detail: str = "") -> None:
        if self.status == (state, detail):
            return
        self.status = (state, detail)
        if self.on_status is not None:
            try:
                self.on_status(state, detail)
            except Exception:  # a listener's bug must not stop the dice
                log.exception("dice box status listener failed")

    def _run(self) -> None:
        delays = backoff_delays(*self.backoff)
        lost = False
        self._set_status(SEARCHING, f"looking for {self.port or 'a dice box'}")
        while not self._stop.is_set():
            port = self.port or find_box()
            if port is None:
                self._stop.wait(next(delays))
                continue
            try:
                link = SerialLink(port, read_timeout=self.read_timeout)
            except LinkError as error:
                self._set_status(DISCONNECTED if lost else SEARCHING, f"{error}; retrying")
                self._stop.wait(next(delays))
                continue
            delays = backoff_delays(*self.backoff)
            self.connections += 1
            with self._write_lock:
                self._link = link
            try:
                reason = self._session(link, port)
            finally:
                with self._write_lock:
                    self._link = None
                link.close()
            if reason is not None:
                lost = True
                self.box = None
                self._set_status(DISCONNECTED, reason)
                self._stop.wait(next(delays))

    def _session(self, link: SerialLink, port: str) -> str | None:
        """Talk to the box until the link fails (returns why) or stop() (returns None)."""
        decoder = codec.Decoder(on_error=lambda error: self._frame_error(error, port))
        self._identified = False
        last_heard = time.monotonic()
        asked_at = 0.0
        try:
            while not self._stop.is_set():
                now = time.monotonic()
                if not self._identified and now - asked_at >= self.identify_every:
                    asked_at = now
                    self.send(codec.IdentifyRequest(req=self._next_req()))
                data = link.read()
                if data:
                    messages = decoder.feed(data)
                    if messages:
                        last_heard = time.monotonic()
                    for message in messages:
                        self._handle(message, link, port)
                if time.monotonic() - last_heard > self.heartbeat_timeout:
                    return f"no heartbeat from {port} for {self.heartbeat_timeout:g} s; reconnecting"
        except LinkLost as error:
            return f"{error}; reconnecting"
        finally:
            for key, value in decoder.stats.items():
                self.decode_stats[key] = self.decode_stats.get(key, 0) + value
        return None

    def _frame_error(self, error: codec.FrameError, port: str) -> None:
        if error.kind == "version":
            self._set_status(ERROR, f"{port}: the box speaks another protocol ({error.text})")
        else:
            log.debug("dice box %s: dropped frame: %s", port, error.text)

    def _handle(self, message: codec.Message, link: SerialLink, port: str) -> None:
        kind = type(message)
        if kind is codec.RollResult:
            if self.box is None:
                # Not identified yet: how many dice it has is not known.  Unacked, the box sends it again
                # (every 250 ms) and it is taken once the box has said who it is -- said, for a box that never does.
                self._set_status(self.status[0], f"{port}: a roll came before the box said what it is (Identify); "
                                                 "waiting for its Identify")
                if self.on_message is not None:
                    self.on_message(message)
                return
            problem = self._not_a_roll(message)
            if problem is not None:
                # Said, and acked so that the box goes on to its next result rather than resend this one
                # for ever; never delivered (a table must not get 3 dice from a 2-dice box).
                self.refused += 1
                self._set_status(ERROR, f"box on {port} sent a roll that is not one: {problem}; not used")
            else:
                at = time.time() - message.age_ms / 1000
                if self.exactly_once.offer(message):
                    try:
                        self.on_result(message, at)
                    except Exception:  # delivered is delivered: a listener's bug must not replay rolls
                        log.exception("dice box roll listener failed")
                if self.status[0] == ROLLING:
                    self._set_status(CONNECTED, self._connected_detail(port))
            with self._write_lock:
                link.write(codec.encode(codec.Ack(message.boot_id, message.roll_id)))
        elif kind is codec.Identify:
            self._identified = True
            self.box = message
            self._set_status(CONNECTED, self._connected_detail(port))
        elif kind is codec.RollState:
            if message.state in (codec.HANDLING, codec.ROLLING):
                self._set_status(ROLLING, codec.STATE_NAMES[message.state])
            elif message.state == codec.CROOKED:
                self._set_status(CONNECTED, "crooked dice: roll again")
            elif self.status[0] != CONNECTED or self.status[1] != self._connected_detail(port):
                self._set_status(CONNECTED, self._connected_detail(port))
        elif kind is codec.Error:
            name = codec.ERROR_NAMES.get(message.code, f"error {message.code}")
            if message.req:
                # A refused request (no motor, a roll in progress): the box itself is fine.
                self._set_status(self.status[0], f"box on {port} refused: {name}: {message.text}")
            else:
                self._set_status(ERROR, f"box on {port}: {name}: {message.text}")
        elif kind is codec.Heartbeat:
            if self.box is not None and message.boot_id != self.box.boot_id:
                self._identified = False   # rebooted without saying so: ask again
        if self.on_message is not None:
            self.on_message(message)

    def _not_a_roll(self, result: codec.RollResult) -> str | None:
        """Why a result breaks docs/dice-box-protocol.md (None when it does not): roll ids start at 1, the
        dice are as many as the box's Identify said, their colours are codes 0-7."""
        if result.roll_id == 0:
            return "roll id 0 (roll ids start at 1)"
        if len(result.faces) != self.box.dice:
            return f"{len(result.faces)} dice from a box that said it has {self.box.dice}"
        unknown = [c for c in result.colours if c >= len(codec.DIE_COLOURS)]
        if unknown:
            return f"die colour {unknown[0]} (colours are 0-{len(codec.DIE_COLOURS) - 1})"
        return None

    def _connected_detail(self, port: str) -> str:
        box = self.box
        if box is None:
            return port
        return f"{box.model} {'.'.join(map(str, box.firmware))} on {port}"
