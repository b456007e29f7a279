"""The host as a third-party box meets it: a box written from docs/dice-box-protocol.md alone, played here by
the test on the master end of a real pseudo-terminal, frame by frame.

A result that breaks the document (roll id 0, more dice than the box's Identify said, a die colour outside
0-7) is said as a box error, acked (so the box goes on) and never delivered; a result that comes before the box
identified itself waits (unacked, the box resends it) until it has.
"""

import os
import select
import time
import tty

import pytest

from firmware_bridge import codec
from firmware_bridge.client import ERROR, BoxClient

BOOT = 0x5EED0001


class ThirdPartyBox:
    """The master end of a pty: what the host writes is decoded, frames are written as a box would."""

    def __init__(self):
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.decoder = codec.Decoder()
        self.heard = []

    def send(self, *messages):
        os.write(self.master, b"".join(codec.encode(m) for m in messages))

    def hear(self, predicate, timeout=10.0):
        """Wait for the host to send a message for which ``predicate`` holds (returns it; None on timeout)."""
        end = time.monotonic() + timeout
        while True:
            for message in self.heard:
                if predicate(message):
                    self.heard.remove(message)
                    return message
            left = end - time.monotonic()
            if left <= 0:
                return None
            if select.select([self.master], [], [], min(left, 0.1))[0]:
                self.heard += self.decoder.feed(os.read(self.master, 4096))

    def close(self):
        for fd in (self.master, self.slave):
            os.close(fd)


@pytest.fixture
def box_and_host():
    box = ThirdPartyBox()
    delivered, statuses = [], []
    host = BoxClient(box.path, lambda result, at: delivered.append(result),
                     lambda state, detail: statuses.append((state, detail)), heartbeat_timeout=60)
    host.start()
    try:
        asked = box.hear(lambda m: isinstance(m, codec.IdentifyRequest))
        assert asked is not None
        box.send(codec.Identify("ThirdParty", (0, 1, 0), BOOT, 2, 0, req=asked.req))
        yield box, host, delivered, statuses
    finally:
        host.stop()
        box.close()


def _acked(box, roll_id):
    return box.hear(lambda m: isinstance(m, codec.Ack) and m.roll_id == roll_id) is not None


BROKEN = [
    ("roll id 0", codec.RollResult(BOOT, 0, (3, 4), (1, 2), 0), "roll id 0 (roll ids start at 1)"),
    ("three dice from a 2-dice box", codec.RollResult(BOOT, 1, (3, 4, 5), (1, 2, 3), 0),
     "3 dice from a box that said it has 2"),
    ("one die", codec.RollResult(BOOT, 1, (6,), (1,), 0), "1 dice from a box that said it has 2"),
    ("colour 9", codec.RollResult(BOOT, 1, (3, 4), (1, 9), 0), "die colour 9 (colours are 0-7)"),
]


@pytest.mark.parametrize("what, result, said", BROKEN, ids=[b[0] for b in BROKEN])
def test_a_result_that_breaks_the_protocol_is_said_acked_and_not_delivered(box_and_host, what, result, said):
    box, host, delivered, statuses = box_and_host
    box.send(result)
    assert _acked(box, result.roll_id)  # acked: the box goes on to its next result
    assert delivered == [] and host.refused == 1
    assert statuses[-1][0] == ERROR and said in statuses[-1][1], statuses
    good = codec.RollResult(BOOT, 2, (5, 6), (1, 2), 0)  # the next good one is delivered as ever
    box.send(good)
    assert _acked(box, 2)
    assert delivered == [good]


def test_a_result_before_the_box_identified_waits_for_its_identify():
    box = ThirdPartyBox()
    delivered, statuses = [], []
    host = BoxClient(box.path, lambda result, at: delivered.append(result),
                     lambda state, detail: statuses.append(detail), heartbeat_timeout=60)
    host.start()
    try:
        assert box.hear(lambda m: isinstance(m, codec.IdentifyRequest)) is not None
        early = codec.RollResult(BOOT, 1, (2, 2), (0, 0), 0)
        box.send(early)
        # (an absence: the host's ack would follow the result at once)
        assert box.hear(lambda m: isinstance(m, codec.Ack), timeout=0.5) is None
        assert delivered == []
        assert any("a roll came before the box said what it is (Identify)" in detail for detail in statuses)
        box.send(codec.Identify("ThirdParty", (0, 1, 0), BOOT, 2, 0), early)  # as a box resends it
        assert _acked(box, 1)
        assert delivered == [early]
    finally:
        host.stop()
        box.close()
