"""The hardware abstraction the firmware logic (``dicebox.py``) talks to.

A HAL is any object with these methods; ``hal_rp2040.py`` drives the real board, the simulator's
``SimHal`` drives a pseudo-terminal and a scripted motion sensor.  This class documents the
interface and is a usable base: every method raises until a subclass provides it.

Times are milliseconds from a free-running counter (``time.ticks_ms`` on MicroPython), compared
only with ``ticks_diff`` because the counter wraps.
"""


class Hal:
    def ticks_ms(self):
        """Milliseconds from a monotonic counter."""
        raise NotImplementedError

    def ticks_diff(self, new, old):
        """``new - old`` in milliseconds, correct across the counter's wrap."""
        return new - old

    def boot_id(self):
        """A random, non-zero 32-bit number, new at every power-up."""
        raise NotImplementedError

    def read(self):
        """Bytes received from the host since the last call (``b""`` if none); never blocks."""
        raise NotImplementedError

    def write(self, data):
        """Send ``data`` (one whole frame) to the host; drops it if no host is listening."""
        raise NotImplementedError

    def motion(self):
        """Motion level now: 0 still, 1 moved (handled), 2 shaken (rolling). OSError on a fault."""
        raise NotImplementedError

    def read_dice(self, n):
        """The ``n`` faces (1..6) showing now; ``None`` for a die it cannot read (crooked)."""
        raise NotImplementedError

    def display(self, values):
        """Show ``values`` on the digits (0 = blank)."""

    def led(self, colour):
        """Light the colour LED, ``(r, g, b)``."""

    def button_pressed(self):
        """True once per press of the roll button."""
        return False

    def has_motor(self):
        """True when the box can shake its dice by itself."""
        return False

    def shake(self, ms):
        """Run the shaker motor for ``ms`` milliseconds (returns at once)."""

    def save_pending(self, blob):
        """Keep ``blob`` (the results awaiting acks) across a power cycle."""

    def load_pending(self):
        """The blob last saved, or ``b""``."""
        return b""
