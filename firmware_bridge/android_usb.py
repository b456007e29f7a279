"""The dice box on an Android tablet's USB port (USB host API through usbserial4a).

Android gives apps no ``/dev/ttyACM*`` and pyserial's port listing cannot read ``/sys`` there, so a box
is listed and opened through the USB host API: ``usb4a`` lists the devices and asks the user's
permission, ``usbserial4a`` opens one (CDC-ACM, CH34x, CP210x, FTDI) as an object with pyserial's
``read``/``write``/``in_waiting``/``close``, which :class:`~firmware_bridge.link.SerialLink` uses as it
uses pyserial's.  Ports are named ``android-usb:<device name>`` (e.g. ``android-usb:/dev/bus/usb/001/002``)
so that a settings file or a ``box://`` URL can name one.

Both packages exist only inside an APK built with the ``usbserial4a`` recipe (buildozer.spec); this
module was never run on a device (docs/android.md says what was and was not tried).
"""

from __future__ import annotations

import os

PREFIX = "android-usb:"


def on_android() -> bool:
    """python-for-android sets ANDROID_ARGUMENT in every app it starts (Kivy tells Android the same way)."""
    return "ANDROID_ARGUMENT" in os.environ


def usb_ports() -> list[tuple[str, int, int]]:
    """``(port name, vendor id, product id)`` of each USB device the tablet sees; [] off Android."""
    if not on_android():
        return []
    from usb4a import usb  # pragma: no cover - exists only in the APK

    return [(PREFIX + d.getDeviceName(), d.getVendorId(), d.getProductId())  # pragma: no cover
            for d in usb.get_usb_device_list()]


def open_port(port: str, baudrate: int, timeout: float, write_timeout: float):  # pragma: no cover - device only
    """The pyserial-like port ``android-usb:<device>``; asks the user's USB permission the first time
    (Android shows a dialog and the open fails until it is granted: the link's reconnect loop retries)."""
    from usb4a import usb
    from usbserial4a import serial4a

    name = port[len(PREFIX):]
    device = usb.get_usb_device(name)
    if device is None:
        raise OSError(f"no USB device {name} (unplugged?)")
    if not usb.has_usb_permission(device):
        usb.request_usb_permission(device)
        raise OSError("waiting for the permission to use the USB device (answer the tablet's question)")
    return serial4a.get_serial_port(name, baudrate, 8, "N", 1, timeout=timeout, write_timeout=write_timeout)
