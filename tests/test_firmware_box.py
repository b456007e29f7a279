"""The box's firmware logic (firmware_bridge/firmware/dicebox.py) on a test HAL with a hand-turned clock.

Each scenario is data: timed motion readings and host messages in, the messages the box must
send (by type and content) out.  The HAL here is a full implementation of the firmware's HAL
interface -- time, serial bytes, motion and dice as the test sets them -- not a mock of the logic.
"""

import ast
import pathlib

import pytest

from firmware_bridge import codec
from firmware_bridge.firmware import dicebox
from firmware_bridge.firmware.hal import Hal

S, M, R = dicebox.STILL, dicebox.MOVED, dicebox.SHAKEN
FIRMWARE_DIR = pathlib.Path(dicebox.__file__).parent


class ClockHal(Hal):
    def __init__(self, motor=False, faces=((3, 4),)):
        self.now = 1000
        self.inbox = b""
        self.sent = codec.Decoder()
        self.out = []
        self.level = S
        self.faces = list(faces)
        self.flash = b""
        self.shown = None
        self.colour = None
        self.shakes = []
        self.motor = motor
        self.boots = 0
        self.sensor_error = None

    def ticks_ms(self):
        return self.now

    def boot_id(self):
        self.boots += 1
        return 0xB0070000 + self.boots

    def read(self):
        data, self.inbox = self.inbox, b""
        return data

    def write(self, data):
        self.out += self.sent.feed(data)

    def motion(self):
        if self.sensor_error:
            raise OSError(self.sensor_error)
        return self.level

    def read_dice(self, n):
        return self.faces.pop(0) if len(self.faces) > 1 else self.faces[0]

    def display(self, values):
        self.shown = tuple(values)

    def led(self, colour):
        self.colour = tuple(colour)

    def has_motor(self):
        return self.motor

    def shake(self, ms):
        self.shakes.append(ms)

    def save_pending(self, blob):
        self.flash = blob

    def load_pending(self):
        return self.flash

    # Test helpers.
    def host(self, *messages):
        self.inbox += b"".join(codec.encode(m) for m in messages)

    def take(self, kind=None):
        out, self.out = self.out, []
        return [m for m in out if kind is None or isinstance(m, kind)]


def run(box, hal, plan):
    """``plan``: (ms, motion level) pairs: hold each level that long, stepping every millisecond."""
    for ms, level in plan:
        hal.level = level
        for _ in range(ms):
            box.step()
            hal.now += 1


def new_box(**kw):
    hal = ClockHal(motor=kw.pop("motor", False), faces=kw.pop("faces", ((3, 4),)))
    box = dicebox.DiceBox(hal, **kw)
    return box, hal


ROLL = [(100, M), (300, R), (450, S)]

# (what happens, motion plan, the roll states sent, results sent)
SCENARIOS = [
    ("a roll: handled, shaken, still for settle_ms", ROLL, ["handling", "rolling", "settled"], 1),
    ("picked up and put down: no rolling phase, no result", [(200, M), (450, S)], ["handling", "idle"], 0),
    ("a bump shorter than min_roll_ms is not a roll", [(50, R), (450, S)], ["rolling", "idle"], 0),
    ("dice still moving: no result before they settle", [(100, M), (300, R), (399, S)], ["handling", "rolling"], 0),
    ("two rolls back to back", ROLL + ROLL, ["handling", "rolling", "settled"] * 2, 2),
    ("a pause mid-roll restarts the settle time", [(300, R), (200, S), (100, R), (399, S)], ["rolling"], 0),
]


@pytest.mark.parametrize("what, plan, states, results", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_roll_detection(what, plan, states, results):
    box, hal = new_box()
    hal.take()
    run(box, hal, plan)
    out = hal.take()
    assert [codec.STATE_NAMES[m.state] for m in out if isinstance(m, codec.RollState)] == states
    assert len(box.pending) == results     # results made (sent one at a time, oldest first)


def test_result_carries_faces_colours_and_is_resent_until_acked_then_the_next_follows():
    box, hal = new_box(faces=((3, 4), (6, 1)))
    hal.take()
    run(box, hal, ROLL + ROLL)
    results = hal.take(codec.RollResult)
    assert {(r.roll_id, r.faces, r.colours) for r in results} == {(1, (3, 4), (1, 2))}
    assert hal.shown == (6, 1)                  # the digits show the latest roll
    run(box, hal, [(1000, S)])
    resent = hal.take(codec.RollResult)
    assert len(resent) == 4 and all(r.roll_id == 1 for r in resent)       # every 250 ms
    assert resent[-1].age_ms >= 1000                                        # says when it settled
    hal.host(codec.Ack(box.boot_id, 1))
    run(box, hal, [(1, S)])
    assert [(r.roll_id, r.faces) for r in hal.take(codec.RollResult)] == [(2, (6, 1))]
    hal.host(codec.Ack(box.boot_id, 2))
    run(box, hal, [(1000, S)])
    assert hal.take(codec.RollResult) == [] and box.pending == []


def test_a_crooked_die_gives_no_result_until_rolled_again():
    box, hal = new_box(faces=((3, None), (5, 5)))
    run(box, hal, ROLL)
    out = hal.take()
    assert codec.STATE_NAMES[[m for m in out if isinstance(m, codec.RollState)][-1].state] == "crooked"
    assert not [m for m in out if isinstance(m, codec.RollResult)]
    run(box, hal, ROLL)
    assert {r.faces for r in hal.take(codec.RollResult)} == {(5, 5)}


def test_a_full_queue_refuses_the_roll_and_says_so():
    box, hal = new_box(queue_max=2)
    run(box, hal, ROLL * 3)
    out = hal.take()
    assert {m.roll_id for m in out if isinstance(m, codec.RollResult)} == {1}
    assert len(box.pending) == 2
    assert [m.code for m in out if isinstance(m, codec.Error)] == [codec.ERR_QUEUE_FULL]


def test_unacked_results_survive_a_reboot_under_their_old_boot_id():
    box, hal = new_box(faces=((2, 2), (5, 6)))
    run(box, hal, ROLL + ROLL)
    old_boot = box.boot_id
    rebooted = dicebox.DiceBox(hal)         # power cut: a new box object on the same flash
    assert rebooted.boot_id != old_boot
    hal.take()
    run(rebooted, hal, [(1, S)])
    first = hal.take(codec.RollResult)
    assert [(r.boot_id, r.roll_id, r.faces) for r in first] == [(old_boot, 1, (2, 2))]
    hal.host(codec.Ack(old_boot, 1))
    run(rebooted, hal, [(1, S)])
    assert [(r.boot_id, r.roll_id) for r in hal.take(codec.RollResult)] == [(old_boot, 2)]
    run(rebooted, hal, ROLL)
    hal.host(codec.Ack(old_boot, 2))
    run(rebooted, hal, [(1, S)])
    assert (rebooted.boot_id, 1) in {(r.boot_id, r.roll_id) for r in hal.take(codec.RollResult)}


def test_a_torn_flash_record_is_skipped():
    box, hal = new_box()
    run(box, hal, ROLL + ROLL)
    hal.flash = hal.flash[:-3]               # power cut during the write of the second record
    rebooted = dicebox.DiceBox(hal)
    assert [r.roll_id for r, _ in rebooted.pending] == [1]


REQUESTS = [
    ("identify", False, codec.IdentifyRequest(req=9), codec.Identify),
    ("ping", False, codec.Ping(77, req=9), codec.Pong),
    ("show", False, codec.Show((5, 6), (0, 0, 255), req=9), codec.Done),
    ("roll request on a box with a motor", True, codec.RollRequest(req=9), codec.Done),
    ("roll request on a box without one", False, codec.RollRequest(req=9), codec.Error),
    ("a box message sent to the box", False, codec.Pong(1, req=9), codec.Error),
]


@pytest.mark.parametrize("what, motor, asked, reply", REQUESTS, ids=[r[0] for r in REQUESTS])
def test_requests_are_answered_with_their_request_id(what, motor, asked, reply):
    box, hal = new_box(motor=motor)
    hal.take()
    hal.host(asked)
    run(box, hal, [(1, S)])
    replies = [m for m in hal.take() if m.req == 9]
    assert [type(m) for m in replies] == [reply]
    if reply is codec.Pong:
        assert replies[0].nonce == 77
    if isinstance(asked, codec.Show):
        assert hal.shown == (5, 6) and hal.colour == (0, 0, 255)
    if motor:
        assert hal.shakes == [box.shake_ms]
    if reply is codec.Error and not motor:
        assert replies[0].code in (codec.ERR_NOT_SUPPORTED, codec.ERR_BAD_REQUEST)


def test_a_host_speaking_another_version_is_told():
    box, hal = new_box()
    hal.take()
    data = bytes([2, 0x01, 0, 1])
    hal.inbox = b"\x00" + codec.cobs_encode(data + codec.crc16(data).to_bytes(2, "big")) + b"\x00"
    run(box, hal, [(1, S)])
    assert [(m.code, m.req) for m in hal.take(codec.Error)] == [(codec.ERR_VERSION, 1)]  # its request id copied


def _frame(version=codec.PROTOCOL_VERSION, kind=0x05, req=0, body=b""):
    """A whole frame (right CRC) of any header and body, as a third-party host might send it."""
    data = bytes([version, kind]) + req.to_bytes(2, "big") + body
    return b"\x00" + codec.cobs_encode(data + codec.crc16(data).to_bytes(2, "big")) + b"\x00"


# (what the host sent, the error code the box answers with): each whole frame it does not understand
NOT_UNDERSTOOD = [
    ("another protocol version", _frame(version=2, kind=0x01, req=7), codec.ERR_VERSION),
    ("an unknown message type", _frame(kind=0x09, req=7), codec.ERR_BAD_REQUEST),
    ("a Ping two bytes short", _frame(kind=0x05, req=7, body=b"\xca\xfe"), codec.ERR_BAD_REQUEST),
    ("a Show of no values", _frame(kind=0x04, req=7, body=bytes([0, 255, 0, 0])), codec.ERR_BAD_REQUEST),
    ("a Show of 20 values", _frame(kind=0x04, req=7, body=bytes([20] + [1] * 20 + [0, 0, 0])),
     codec.ERR_BAD_REQUEST),
    ("an Ack with a body too long", _frame(kind=0x02, req=7, body=bytes(9)), codec.ERR_BAD_REQUEST),
    ("a box's own message", codec.encode(codec.Heartbeat(1, 2, 0, 0, req=7)), codec.ERR_BAD_REQUEST),
]


@pytest.mark.parametrize("what, frame, code", NOT_UNDERSTOOD, ids=[n[0] for n in NOT_UNDERSTOOD])
def test_a_whole_frame_the_box_does_not_understand_gets_an_error_with_its_request_id(what, frame, code):
    box, hal = new_box()
    hal.take()
    hal.inbox = frame
    run(box, hal, [(1, S)])
    errors = hal.take(codec.Error)
    assert [(e.code, e.req) for e in errors] == [(code, 7)], errors
    assert hal.shown == (0, 0)  # nothing was done: the digits still blank


def test_a_damaged_frame_gets_no_answer():
    box, hal = new_box()
    hal.take()
    frame = bytearray(_frame(kind=0x05, req=7, body=b"\x00\x00\xca\xfe"))
    frame[-3] ^= 0x10  # the CRC no longer matches
    hal.inbox = bytes(frame)
    run(box, hal, [(1, S)])
    assert hal.take(codec.Error) == [] and hal.take(codec.Pong) == []


def test_a_second_roll_request_while_the_motor_rolls_is_refused_busy_and_one_roll_comes():
    box, hal = new_box(motor=True)
    hal.take()
    hal.host(codec.RollRequest(req=1), codec.RollRequest(req=2))
    run(box, hal, [(1, S)])
    replies = hal.take()
    assert [(type(m).__name__, m.req) for m in replies if m.req] == [("Done", 1), ("Error", 2)]
    assert [m.code for m in replies if isinstance(m, codec.Error)] == [codec.ERR_BUSY]
    # the motor path: Done, then rolling at once (no handling), then settled
    assert [codec.STATE_NAMES[m.state] for m in replies if isinstance(m, codec.RollState)] == ["rolling"]
    run(box, hal, [(300, R), (450, S)])
    assert [codec.STATE_NAMES[m.state] for m in hal.out if isinstance(m, codec.RollState)] == ["settled"]
    assert hal.shakes == [box.shake_ms] and len(box.pending) == 1


def test_a_roll_request_with_the_queue_full_is_refused_with_its_request_id():
    box, hal = new_box(motor=True, queue_max=1)
    run(box, hal, ROLL)
    hal.take()
    hal.host(codec.RollRequest(req=3))
    run(box, hal, [(1, S)])
    assert [(m.code, m.req) for m in hal.take(codec.Error)] == [(codec.ERR_QUEUE_FULL, 3)]
    assert hal.shakes == []


def test_roll_states_carry_the_id_the_roll_will_get_and_a_crooked_roll_uses_none():
    box, hal = new_box(faces=((6, None), (2, 5)))
    hal.take()
    run(box, hal, ROLL)  # crooked: no result
    run(box, hal, ROLL)
    states = [(codec.STATE_NAMES[m.state], m.roll_id) for m in hal.take(codec.RollState)]
    assert states == [("handling", 1), ("rolling", 1), ("crooked", 1), ("handling", 1), ("rolling", 1),
                      ("settled", 1)]
    assert [r.roll_id for r, _ in box.pending] == [1]  # roll ids start at 1


def test_identify_at_boot_heartbeat_every_second_sensor_faults_reported():
    box, hal = new_box()
    assert [type(m) for m in hal.take()] == [codec.Identify]
    run(box, hal, [(3001, S)])
    beats = hal.take(codec.Heartbeat)
    assert len(beats) == 3 and beats[-1].uptime_ms >= 2999
    hal.sensor_error = "I2C bus error"
    run(box, hal, [(1, S)])
    errors = hal.take(codec.Error)
    assert errors and errors[0].code == codec.ERR_SENSOR and "I2C" in errors[0].text


# --- the box's layer stands alone -----------------------------------------------------------------

def test_the_box_layer_never_imports_the_app():
    # firmware_bridge is the dice box and its simulator; the app (companion) uses it, never the other way
    reaching_up = []
    for path in sorted(FIRMWARE_DIR.parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else [])
            reaching_up += [f"{path.name}:{node.lineno} imports {n}" for n in names if n.split(".")[0] == "companion"]
    assert reaching_up == []


# --- the firmware files stay within what MicroPython runs ---------------------------------------

MICROPYTHON_MODULES = {"struct", "ustruct", "binascii", "codec", "firmware_bridge", "hal", "dicebox",
                       "hal_rp2040", "machine", "neopixel", "micropython", "time", "os", "sys", "select",
                       "math"}
FIRMWARE_FILES = [FIRMWARE_DIR / name for name in ("dicebox.py", "hal.py", "hal_rp2040.py", "main.py")] + [
    FIRMWARE_DIR.parent / "codec.py"]


@pytest.mark.parametrize("path", FIRMWARE_FILES, ids=lambda p: p.name)
def test_firmware_files_use_only_what_micropython_has(path):
    tree = ast.parse(path.read_text(), str(path))
    problems = []
    for node in ast.walk(tree):
        where = f"{path.name}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                if name.split(".")[0] not in MICROPYTHON_MODULES:
                    problems.append(f"{where}: imports {name}")
        elif isinstance(node, ast.FormattedValue) and (node.conversion != -1):
            problems.append(f"{where}: f-string conversion (!r/!s)")
        elif isinstance(node, (ast.AnnAssign, ast.NamedExpr, ast.Match, ast.AsyncFunctionDef)):
            problems.append(f"{where}: {type(node).__name__}")
        elif isinstance(node, (ast.FunctionDef,)) and (node.returns or any(a.annotation for a in node.args.args)):
            problems.append(f"{where}: annotations")
        elif isinstance(node, ast.ClassDef) and node.decorator_list and path.name != "codec.py":
            problems.append(f"{where}: class decorator")
        elif isinstance(node, ast.Attribute) and node.attr in ("to_bytes", "from_bytes") and path.name != "hal_rp2040.py":
            problems.append(f"{where}: int.{node.attr} (needs explicit args on MicroPython)")
    assert problems == []
