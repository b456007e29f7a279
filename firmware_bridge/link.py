"""The serial link to a dice box: open by name or URL, find the box, notice when it vanishes.

Knows bytes, not messages (apart from the identify probe used to recognise a box).  Built on
pyserial: ``serial_for_url`` opens a device path (``/dev/ttyACM0``, ``COM3``) or any pyserial URL
(``loop://``, ``socket://host:port``, ``rfc2217://``).  A USB port that disappears makes pyserial
raise on read or write while ``is_open`` stays True, so every failure here becomes
:class:`LinkLost` naming the port, and the caller closes and reopens (:func:`backoff_delays`).
"""

from __future__ import annotations

import time
from typing import Iterator

import serial

from . import android_usb, codec

BAUDRATE = 115200

# USB ids of boxes running the reference firmware (Raspberry Pi Pico / RP2040 MicroPython CDC).
BOX_USB_IDS = {(0x2E8A, 0x0005): "RP2040 MicroPython"}
# USB-serial bridges a home-built box may use: probed with identify, never assumed to be a box.
BRIDGE_USB_IDS = {(0x1A86, 0x7523): "CH340", (0x10C4, 0xEA60): "CP210x", (0x0403, 0x6001): "FT232R",
                  (0x2341, 0x0043): "Arduino Uno", (0x239A, None): "Adafruit"}


class LinkError(Exception):
    """Opening, reading or writing a port failed; ``port`` names it."""

    def __init__(self, port: str, what: str) -> None:
        super().__init__(f"{port}: {what}")
        self.port = port


class LinkLost(LinkError):
    """The port was open and went away (unplugged, reset, driver gone)."""


class SerialLink:
    """One open serial port, with every pyserial and OS failure turned into LinkError/LinkLost."""

    def __init__(self, port: str, baudrate: int = BAUDRATE, read_timeout: float = 0.05) -> None:
        self.port = port
        try:
            if port.startswith(android_usb.PREFIX):  # a tablet's USB port (no /dev/tty* on Android)
                self._serial = android_usb.open_port(port, baudrate, read_timeout, 1.0)
            else:
                self._serial = serial.serial_for_url(port, baudrate=baudrate, timeout=read_timeout,
                                                     write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as error:
            raise LinkError(port, f"cannot open: {error}") from error

    def read(self) -> bytes:
        """What has arrived (waits up to ``read_timeout`` for the first byte); b"" on a timeout."""
        try:
            waiting = self._serial.in_waiting
            return self._serial.read(waiting or 1)
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            # TypeError/AttributeError: pyserial's fd went to None under a concurrent close.
            raise LinkLost(self.port, f"vanished while reading ({error})") from error

    def write(self, data: bytes) -> None:
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError, TypeError, AttributeError) as error:
            raise LinkLost(self.port, f"vanished while writing ({error})") from error

    def close(self) -> None:
        try:
            self._serial.close()
        except (serial.SerialException, OSError):
            pass  # the port is already gone; closing only frees our file descriptor


def backoff_delays(first: float = 0.05, cap: float = 2.0) -> Iterator[float]:
    """0.05, 0.1, 0.2 ... seconds, doubling up to ``cap``: retrying a pulled cable without spinning."""
    delay = first
    while True:
        yield delay
        delay = min(delay * 2, cap)


def usb_ports() -> list[tuple[str, int, int]]:
    """``(device, vendor id, product id)`` of every USB serial port; LinkError when this system cannot
    list them (pyserial's listing reads /sys on Linux, which Android does not let an app read: there
    the USB host API lists them instead)."""
    if android_usb.on_android():
        return android_usb.usb_ports()
    try:
        import serial.tools.list_ports  # imported here: a missing back end must not stop the app

        listed = serial.tools.list_ports.comports()
    except (ImportError, OSError) as error:
        raise LinkError("serial ports", f"cannot list them here ({error})") from error
    # not USB (vid None): a built-in UART never is a dice box
    return [(info.device, info.vid, info.pid) for info in listed if info.vid is not None]


def candidate_ports() -> list[tuple[str, str]]:
    """Serial ports that may be a box, most likely first: ``(device, why)``; [] when none can be listed."""
    ours, bridges = [], []
    try:
        ports = usb_ports()
    except LinkError:
        return []
    for device, vid, pid in ports:
        if (vid, pid) in BOX_USB_IDS:
            ours.append((device, BOX_USB_IDS[(vid, pid)]))
        else:
            name = BRIDGE_USB_IDS.get((vid, pid)) or BRIDGE_USB_IDS.get((vid, None))
            if name:
                bridges.append((device, name))
    return ours + bridges


def probe(port: str, timeout: float = 0.5, baudrate: int = BAUDRATE) -> codec.Identify | None:
    """Ask ``port`` who it is; the box's Identify, or None when it does not answer as a box."""
    try:
        link = SerialLink(port, baudrate, read_timeout=0.05)
    except LinkError:
        return None
    try:
        link.write(codec.encode(codec.IdentifyRequest(req=1)))
        decoder = codec.Decoder()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for message in decoder.feed(link.read()):
                if isinstance(message, codec.Identify):
                    return message
    except LinkError:
        return None
    finally:
        link.close()
    return None


def find_box(timeout: float = 0.5) -> str | None:
    """The first USB serial port whose device answers identify like a dice box, or None."""
    for device, _why in candidate_ports():
        if probe(device, timeout) is not None:
            return device
    return None
