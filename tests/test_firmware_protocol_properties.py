"""Exactly once, in order, whatever the cable does: the firmware logic and the host's duplicate filter
driven through hypothesis-chosen schedules of faults.

No threads, no port: the box (``DiceBox`` on a HAL whose serial port is an in-memory wire) and the
host side (the codec's decoder, :class:`firmware_bridge.client.ExactlyOnce`, acks) exchange bytes
step by step, one millisecond per step.  Hypothesis picks how many rolls the player makes and which
frames are dropped, duplicated, corrupted or preceded by garbage in either direction, and when the
box reboots.  After the faults stop, every result the box made must have been delivered once, in
the order made, and nothing else.
"""

from hypothesis import given, settings, strategies as st

from firmware_bridge import codec
from firmware_bridge.client import ExactlyOnce
from firmware_bridge.firmware import dicebox
from firmware_bridge.firmware.hal import Hal

TIMINGS = {"settle_ms": 5, "min_roll_ms": 2, "resend_ms": 20, "heartbeat_ms": 100}
ROLL = [dicebox.MOVED] * 3 + [dicebox.SHAKEN] * 10 + [dicebox.STILL] * 8
ACTIONS = ("drop", "duplicate", "corrupt", "garbage")
BOX_ACTIONS = ACTIONS + ("reboot", "drop+reboot")   # reboot right after this frame left (or was lost)


class WireHal(Hal):
    """The box's side of an in-memory cable; faults are applied by frame number."""

    def __init__(self, faults_out, seed):
        self.now = 0
        self.to_host = bytearray()
        self.to_box = bytearray()
        self.faults_out = faults_out
        self.frames_out = 0
        self.motion_plan = []
        self.flash = b""
        self.boots = seed * 1000
        self.face = 0
        self.reboot = False

    def ticks_ms(self):
        return self.now

    def boot_id(self):
        self.boots += 1
        return self.boots

    def read(self):
        data, self.to_box = bytes(self.to_box), bytearray()
        return data

    def write(self, data):
        self.frames_out += 1
        action = self.faults_out.get(self.frames_out)
        if action in ("reboot", "drop+reboot"):
            self.reboot = True
            action = "drop" if action == "drop+reboot" else None
        self.to_host += spoil(data, action)

    def motion(self):
        return self.motion_plan.pop(0) if self.motion_plan else dicebox.STILL

    def read_dice(self, n):
        self.face += 1
        return [self.face % 6 + 1, (self.face // 6) % 6 + 1]

    def save_pending(self, blob):
        self.flash = blob

    def load_pending(self):
        return self.flash


def spoil(frame, action):
    if action == "drop":
        return b""
    if action == "duplicate":
        return frame + frame
    if action == "corrupt":
        spoilt = bytearray(frame)
        spoilt[len(spoilt) // 2] ^= 0x10
        return bytes(spoilt)
    if action == "garbage":
        return b"\x17\x2a\xff\x03" + frame
    return frame


schedules = st.dictionaries(st.integers(1, 400), st.sampled_from(ACTIONS), max_size=40)
box_schedules = st.dictionaries(st.integers(1, 400), st.sampled_from(BOX_ACTIONS), max_size=40)


@settings(max_examples=120, deadline=None)
@given(rolls=st.integers(1, 8), faults_out=box_schedules, faults_in=schedules,
       reboots=st.sets(st.integers(0, 250), max_size=4), seed=st.integers(0, 9))
def test_every_result_is_delivered_once_in_order_whatever_the_faults(rolls, faults_out, faults_in, reboots, seed):
    hal = WireHal(faults_out, seed)
    made, delivered = [], []

    def boot():
        box = dicebox.DiceBox(hal, **TIMINGS)
        box.on_result = lambda result: made.append((result.boot_id, result.roll_id, result.faces))
        return box

    box = boot()
    decoder, once, acks = codec.Decoder(), ExactlyOnce(), 0
    for _ in range(rolls):
        hal.motion_plan += ROLL + [dicebox.STILL] * 10
    step = 0
    while step < 5000:
        if step in reboots or hal.reboot:    # power cut: the roll in the air is lost, the queue is in flash
            hal.reboot = False
            hal.motion_plan = hal.motion_plan[len(hal.motion_plan) % len(ROLL):]
            box = boot()
        box.step()
        for message in decoder.feed(bytes(hal.to_host)):
            if isinstance(message, codec.RollResult):
                if once.offer(message):
                    delivered.append((message.boot_id, message.roll_id, message.faces))
                acks += 1
                hal.to_box += spoil(codec.encode(codec.Ack(message.boot_id, message.roll_id)), faults_in.get(acks))
        hal.to_host.clear()
        hal.now += 1
        step += 1
        if not hal.motion_plan and not box.pending and step > max(reboots, default=0):
            break
    assert not box.pending, "the box still waits for acks after the faults stopped"
    assert delivered == made
