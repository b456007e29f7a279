"""The serial link over a real pty: what pyserial does when a port vanishes, and how the link says so."""

import time

import pytest

from firmware_bridge import codec
from firmware_bridge.link import LinkError, LinkLost, SerialLink, backoff_delays
from firmware_bridge.simulator import Simulator


def test_a_vanished_port_raises_naming_it_although_pyserial_still_says_open():
    sim = Simulator(seed=1, profile="fast")
    path = sim.start()
    link = SerialLink(path, read_timeout=0.05)
    try:
        decoder = codec.Decoder()
        deadline = time.monotonic() + 5
        seen = []
        while not seen and time.monotonic() < deadline:
            link.write(codec.encode(codec.Ping(42, req=7)))
            seen = [m for m in decoder.feed(link.read()) if isinstance(m, codec.Pong)]
        # Under load a ping may have been resent before the first reply came: every reply must match it.
        assert seen and all(m == codec.Pong(42, req=7) for m in seen)
        sim.unplug()
        assert sim.wait_for(lambda s: not s.plugged, 5)
        with pytest.raises(LinkLost, match=path) as caught:
            for _ in range(100):
                link.read()
                link.write(b"\x00")
        assert link._serial.is_open               # pyserial's view: still open -- hence LinkLost
        assert "vanished" in str(caught.value)
    finally:
        link.close()
        sim.stop()
    with pytest.raises(LinkError, match=f"{path}: cannot open"):
        SerialLink(path)                         # unplugged: the symlink is gone, like the device node


def test_backoff_doubles_up_to_its_cap():
    delays = backoff_delays(0.05, 0.3)
    assert [round(next(delays), 3) for _ in range(6)] == [0.05, 0.1, 0.2, 0.3, 0.3, 0.3]
