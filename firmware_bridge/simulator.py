"""A dice box on a pseudo-terminal: the real firmware logic behind a simulated HAL, with faults.

:class:`Simulator` opens a pty (``os.openpty``), points a stable symlink at its slave end (like
udev's ``/dev/serial/by-id`` names, so the host can reopen the "same" port after a replug), and
runs :class:`~firmware_bridge.firmware.dicebox.DiceBox` in a thread.  A simulated player rolls the
box (``roll()``, or by itself every ``every`` seconds, or back to back until the box has made
``rolls`` results -- rolling again after a crooked or lost roll), and
:class:`Faults` spoils the link: garbage, dropped, duplicated and corrupted frames in both
directions, a slow link, crooked dice, reboots mid-roll and unplugging (the box loses power; on
replug it boots again with a new boot id and the results it had not got acked, kept in "flash").

``generated`` lists every result the firmware made -- the ground truth the end-to-end test holds
the host to.  ``profile="fast"`` shortens the firmware's timings (settle at once, resend 25 ms,
heartbeat 200 ms) and the player's moves so that thousands of rolls take seconds.
"""

from __future__ import annotations

import os
import random
import select
import tempfile
import threading
import time
import tty
from collections import deque
from dataclasses import dataclass, fields
from typing import Callable

from . import codec
from .firmware import dicebox
from .firmware.hal import Hal
from .roll_generators import BalancedDeck, SeededDice

_BOOT_IDS = random.SystemRandom()  # the operating system's randomness, as a box's hardware RNG

PROFILES = {
    # DiceBox timings, and the simulated player's (moved ms, shaken ms) per roll.
    "real": ({"settle_ms": 400, "min_roll_ms": 150, "resend_ms": 250, "heartbeat_ms": 1000}, (300, 900)),
    "fast": ({"settle_ms": 0, "min_roll_ms": 0, "resend_ms": 25, "heartbeat_ms": 200}, (0, 0)),
}


@dataclass
class Faults:
    """Probabilities of each fault (per frame, per roll for ``crooked``/``reboot``/``unplug``)."""

    garbage: float = 0.0     # random bytes before a frame (box -> host)
    drop: float = 0.0        # a frame lost (both directions)
    duplicate: float = 0.0   # a frame sent twice (box -> host)
    corrupt: float = 0.0     # one bit flipped in a frame (both directions)
    crooked: float = 0.0     # a roll lands with a die on its edge
    reboot: float = 0.0      # the box resets while the dice roll
    unplug: float = 0.0      # the cable is pulled after a roll
    unplug_ms: float = 300.0 # how long it stays out
    slow: bool = False       # frames dribble out a few bytes at a time

    @classmethod
    def preset(cls) -> "Faults":
        """What ``faults=1`` means: a bad cable and a clumsy table, all at once."""
        return cls(garbage=0.005, drop=0.005, duplicate=0.01, corrupt=0.01, crooked=0.02,
                   reboot=0.005, unplug=0.005)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


class SimHal(Hal):
    """The firmware's view of the simulated box: a pty for the USB port, a scripted sensor."""

    def __init__(self, sim: "Simulator") -> None:
        self.sim = sim
        self.fd: int | None = None          # pty master, None while unplugged
        self.script: deque[list] = deque()  # [motion level, ms, started_at or None]
        self.shown: tuple = ()
        self.colour: tuple = (0, 0, 0)
        self.flash = b""
        self.frames_dropped_full = 0

    def ticks_ms(self) -> int:
        return int(time.monotonic() * 1000)

    def boot_id(self) -> int:
        # New at every boot, seeded or not: a box restarted with the same seed (the app's demo box, after the
        # app restarts) must not name its rolls as the last run did, or a table holding those drops them all.
        # Not drawn from the seeded generator, so a seed still gives the same dice and faults.
        return _BOOT_IDS.getrandbits(32) or 1

    def read(self) -> bytes:
        if self.fd is None:
            return b""
        try:
            data = os.read(self.fd, 4096)
        except (BlockingIOError, InterruptedError):
            return b""
        except OSError:
            return b""
        return self.sim._spoil_inbound(data)

    def write(self, data: bytes) -> None:
        sim = self.sim
        if self.fd is None:
            return
        for frame in sim._spoil_outbound(data):
            self._write_raw(frame)

    def _write_raw(self, data: bytes) -> None:
        if self.sim.faults.slow:
            chunks = [data[i:i + 3] for i in range(0, len(data), 3)]
        else:
            chunks = [data]
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                try:
                    n = os.write(self.fd, view)
                except BlockingIOError:
                    # Nobody is reading: a USB CDC port drops what the host does not take.
                    self.frames_dropped_full += 1
                    return
                except OSError:
                    return
                view = view[n:]
            if self.sim.faults.slow:
                time.sleep(0.0005)

    def motion(self) -> int:
        now = self.ticks_ms()
        while self.script:
            entry = self.script[0]
            if entry[2] is None:
                entry[2] = now
                return entry[0]
            if now - entry[2] < entry[1]:
                return entry[0]
            self.script.popleft()
        return dicebox.STILL

    def script_wait(self) -> float:
        """Seconds until the motion script changes (inf when it is empty)."""
        if not self.script:
            return float("inf")
        entry = self.script[0]
        if entry[2] is None:
            return 0.0
        return max(0.0, (entry[2] + entry[1] - self.ticks_ms()) / 1000)

    def read_dice(self, n: int):
        sim = self.sim
        faces = list(sim.generator.next())[:n]
        if sim.rng.random() < sim.faults.crooked:
            faces[sim.rng.randrange(n)] = None
        return faces

    def display(self, values) -> None:
        self.shown = tuple(values)

    def led(self, colour) -> None:
        self.colour = tuple(colour)

    def has_motor(self) -> bool:
        return True

    def shake(self, ms: int) -> None:
        # The motor shakes like a player would (the profile's shake time, not the firmware's).
        self.script.append([dicebox.SHAKEN, self.sim._moves[1], None])

    def save_pending(self, blob: bytes) -> None:
        self.flash = blob

    def load_pending(self) -> bytes:
        return self.flash


class Simulator:
    """The simulated box on a pty, in its own thread; ``start()`` returns the port's path."""

    def __init__(self, seed: int | None = None, deck: bool = False, faults: Faults | None = None,
                 profile: str = "real", every: float | None = None, rolls: int = 0,
                 max_pending: int = 4, link: str | None = None, dice: int = 2,
                 unplug_after: tuple[int, ...] = ()) -> None:
        if profile not in PROFILES:
            raise ValueError(f"unknown simulator profile {profile!r} (known: {', '.join(PROFILES)})")
        self.rng = random.Random(seed)
        self.generator = BalancedDeck(seed) if deck else SeededDice(seed, dice)
        self.faults = faults or Faults()
        self._timings, self._moves = PROFILES[profile]
        self.every = every
        self.rolls_to_make = rolls
        self.max_pending = max_pending
        self.dice = dice
        self.unplug_after = sorted(unplug_after)   # unplug when this many results were generated
        self._own_dir = None
        if link is None:
            self._own_dir = tempfile.mkdtemp(prefix="dicebox-sim-")
            link = os.path.join(self._own_dir, "dicebox")
        self.path = link
        self.hal = SimHal(self)
        self.box: dicebox.DiceBox | None = None
        self.generated: list[codec.RollResult] = []
        self.boots = 0
        self.unplugs = 0
        self.reboots = 0
        self.faults_done = {name: 0 for name in ("garbage", "drop", "duplicate", "corrupt", "reboot")}
        self._slave: int | None = None
        self._replug_at: float | None = None
        self._reboot_armed = False
        self._hung_until = 0.0
        self._last_roll_at = 0.0
        self._cond = threading.Condition()
        self._stop = False
        self._commands: deque[Callable[[], None]] = deque()
        self._wake_r, self._wake_w = os.pipe()
        self._thread: threading.Thread | None = None
        self.error: BaseException | None = None

    # --- control (any thread) -------------------------------------------------------------------

    def start(self) -> str:
        self._plug()
        self._thread = threading.Thread(target=self._run, name="dicebox-sim", daemon=True)
        self._thread.start()
        return self.path

    def stop(self) -> None:
        with self._cond:
            self._stop = True
        self._wake()
        if self._thread is not None:
            self._thread.join()
            self._thread = None
        self._unplug(replug_ms=None, shutdown=True)
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        if self._own_dir is not None:
            try:
                os.rmdir(self._own_dir)
            except OSError:
                pass

    def roll(self) -> None:
        """The player picks the box up and shakes it once."""
        self._command(self._script_roll)

    def unplug(self, replug_ms: float | None = None) -> None:
        """Pull the cable; put it back after ``replug_ms`` (never, if None, until ``replug()``)."""
        self._command(lambda: self._unplug(replug_ms))

    def hang(self, ms: float) -> None:
        """The firmware freezes for ``ms`` (the port stays open, nothing is sent or read)."""
        self._command(lambda: setattr(self, "_hung_until", time.monotonic() + ms / 1000))

    def replug(self) -> None:
        self._command(self._plug)

    def wait_for(self, predicate: Callable[["Simulator"], bool], timeout: float) -> bool:
        """Block until ``predicate(self)`` holds (checked after every loop pass) or timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: predicate(self) or self.error is not None, timeout)

    @property
    def plugged(self) -> bool:
        return self.hal.fd is not None

    def _command(self, fn: Callable[[], None]) -> None:
        self._commands.append(fn)
        self._wake()

    def _wake(self) -> None:
        try:
            os.write(self._wake_w, b"!")
        except OSError:
            pass

    # --- the cable ------------------------------------------------------------------------------

    def _plug(self) -> None:
        if self.hal.fd is not None:
            return
        master, slave = os.openpty()
        # Raw at once: an echoing line discipline would hand the box its own frames back.
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._slave = slave
        tmp = self.path + ".new"
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.path)
        self.hal.fd = master
        self._replug_at = None
        self._boot()

    def _unplug(self, replug_ms: float | None, shutdown: bool = False) -> None:
        if self.hal.fd is None:
            return
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass
        for fd in (self.hal.fd, self._slave):
            try:
                os.close(fd)
            except OSError:
                pass
        self.hal.fd = None
        self._slave = None
        self.box = None            # USB-powered: the box loses power with the cable
        self.hal.script.clear()
        self.unplugs += not shutdown
        self._replug_at = None if replug_ms is None else time.monotonic() + replug_ms / 1000

    def _boot(self) -> None:
        self.box = dicebox.DiceBox(self.hal, dice=self.dice, **self._timings)
        self.box.on_result = self._on_result
        self.boots += 1
        self._reboot_armed = False

    def _on_result(self, result: codec.RollResult) -> None:
        self.generated.append(codec.RollResult(*result.field_values()))
        if self.faults.unplug and self.rng.random() < self.faults.unplug:
            self._unplug(self.faults.unplug_ms)
        elif self.unplug_after and len(self.generated) >= self.unplug_after[0]:
            self.unplug_after.pop(0)
            self._unplug(self.faults.unplug_ms)

    # --- faults ---------------------------------------------------------------------------------

    def _spoil_outbound(self, frame: bytes) -> list[bytes]:
        f, rng = self.faults, self.rng
        if rng.random() < f.drop:
            self.faults_done["drop"] += 1
            return []
        if rng.random() < f.corrupt:
            self.faults_done["corrupt"] += 1
            frame = self._flip(frame)
        out = [frame]
        if rng.random() < f.duplicate:
            self.faults_done["duplicate"] += 1
            out.append(frame)
        if rng.random() < f.garbage:
            self.faults_done["garbage"] += 1
            out.insert(0, bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 40))))
        return out

    def _spoil_inbound(self, data: bytes) -> bytes:
        f, rng = self.faults, self.rng
        if data and rng.random() < f.drop:
            self.faults_done["drop"] += 1
            return b""
        if data and rng.random() < f.corrupt:
            self.faults_done["corrupt"] += 1
            return self._flip(data)
        return data

    def _flip(self, data: bytes) -> bytes:
        spoilt = bytearray(data)
        i = self.rng.randrange(len(spoilt))
        spoilt[i] ^= 1 << self.rng.randrange(8)
        return bytes(spoilt)

    # --- the player -----------------------------------------------------------------------------

    def _script_roll(self) -> None:
        if self.box is None:
            return
        moved, shaken = self._moves
        self.hal.script.extend([[dicebox.MOVED, moved, None], [dicebox.SHAKEN, shaken, None]])
        self._last_roll_at = time.monotonic()
        if self.faults.reboot and self.rng.random() < self.faults.reboot:
            self._reboot_armed = True

    def _player_wait(self) -> float:
        """Seconds until the player rolls by itself (inf if not now); rolls when it is time."""
        box = self.box
        wants = len(self.generated) < self.rolls_to_make or self.every
        if box is None or not wants or self.hal.script or box.state in (codec.HANDLING, codec.ROLLING):
            return float("inf")
        if len(box.pending) >= self.max_pending:
            return float("inf")   # the player waits for the app to catch up (woken by the ack)
        if self.every:
            wait = self._last_roll_at + self.every - time.monotonic()
            if wait > 0:
                return wait
        self._script_roll()
        return 0.0

    # --- the loop -------------------------------------------------------------------------------

    def _run(self) -> None:
        try:
            self._loop()
        except BaseException as error:  # surfaced to tests through wait_for / error
            self.error = error
            with self._cond:
                self._cond.notify_all()
            raise

    def _loop(self) -> None:
        while True:
            with self._cond:
                if self._stop:
                    return
            while self._commands:
                self._commands.popleft()()
            if self.box is None and self._replug_at is not None and time.monotonic() >= self._replug_at:
                self._plug()
            timeout = 0.5
            hung = time.monotonic() < self._hung_until
            if hung:
                timeout = self._hung_until - time.monotonic()
            elif self.box is not None:
                box = self.box
                box.step()
                if self._reboot_armed and self.box is not None and box.state == codec.ROLLING:
                    self.reboots += 1
                    self.faults_done["reboot"] += 1
                    self.hal.script.clear()     # the roll in the air is lost with the reset
                    self._boot()
                    box = self.box
                if self.box is not None:
                    timeout = min(timeout, box.idle_ms() / 1000, self.hal.script_wait(), self._player_wait())
            if self._replug_at is not None:
                timeout = min(timeout, max(0.0, self._replug_at - time.monotonic()))
            with self._cond:
                self._cond.notify_all()
            fds = [self._wake_r] + ([self.hal.fd] if self.hal.fd is not None and not hung else [])
            if timeout > 0:
                ready, _, _ = select.select(fds, [], [], timeout)
                if self._wake_r in ready:
                    os.read(self._wake_r, 4096)
