"""The firmware's files under a real MicroPython: the same transcript as under CPython, byte for byte.

The box runs MicroPython, so ``codec.py``, ``dicebox.py`` and ``hal.py`` must behave identically
there.  This runs one script -- a scripted session with the firmware (rolls, a crooked die,
resends, acks, requests, garbage) and the golden vectors -- under CPython and under MicroPython
1.27 (its WebAssembly build, from npm, run by node), and compares the two transcripts.  Where
MicroPython's ``binascii`` lacks ``crc_hqx`` the firmware's table CRC is the one exercised.

Needs ``node`` and the npm package ``@micropython/micropython-webassembly-pyscript`` (1.27.0) in
``$MICROPYTHON_WASM_DIR/node_modules`` (default ``/work/venvs/mpy``); skipped without them:
``npm install --prefix /work/venvs/mpy @micropython/micropython-webassembly-pyscript@1.27.0``.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from firmware_bridge import codec
from firmware_bridge.firmware import dicebox

from test_firmware_codec import GOLDEN

WASM_DIR = pathlib.Path(os.environ.get("MICROPYTHON_WASM_DIR", "/work/venvs/mpy"))
PACKAGE = WASM_DIR / "node_modules" / "@micropython" / "micropython-webassembly-pyscript" / "micropython.mjs"
FILES = {"codec.py": pathlib.Path(codec.__file__), "dicebox.py": pathlib.Path(dicebox.__file__),
         "hal.py": pathlib.Path(dicebox.__file__).parent / "hal.py"}

TRANSCRIPT = r"""import binascii
import codec
import dicebox
from hal import Hal


class ClockHal(Hal):
    def __init__(self):
        self.now = 5000
        self.inbox = b""
        self.out = []
        self.level = 0
        self.faces = [[3, 4], [6, None], [1, 2]]
        self.flash = b""

    def ticks_ms(self):
        return self.now

    def boot_id(self):
        return 0x1A2B3C4D

    def read(self):
        data = self.inbox
        self.inbox = b""
        return data

    def write(self, data):
        self.out.append(data)

    def motion(self):
        return self.level

    def read_dice(self, n):
        return self.faces.pop(0)

    def save_pending(self, blob):
        self.flash = blob

    def load_pending(self):
        return self.flash


def hx(data):
    return binascii.hexlify(data).decode()


hal = ClockHal()
box = dicebox.DiceBox(hal)
plan = [(100, 1), (300, 2), (450, 0), (100, 1), (300, 2), (450, 0), (100, 2), (300, 2), (450, 0)]
for ms, level in plan:
    hal.level = level
    for _ in range(ms):
        box.step()
        hal.now += 1
hal.inbox = codec.encode(codec.Ack(0x1A2B3C4D, 1)) + codec.encode(codec.Ping(77, req=3)) + b"\x01\x02garbage"
box.step()
hal.inbox = codec.encode(codec.Show((5, 6), (1, 2, 3), req=4))
box.step()
for frame in hal.out:
    print(hx(frame))
dec = codec.Decoder()
msgs = dec.feed(b"".join(hal.out) + b"\x00\x07\x00" + hal.out[0][:-3] + b"\x00")
for m in msgs:
    print(repr(m))
print(sorted(dec.stats.items()))
print(hx(hal.flash))
print(codec.crc16(b"123456789"), codec.crc16_table(b"123456789"))

for wire in VECTORS:
    data = binascii.unhexlify(wire.replace(" ", ""))
    got = codec.Decoder().feed(data)
    print(len(got), repr(got[0]), codec.encode(got[0]) == data)


def frame(version, kind, req, body):
    data = bytes([version, kind, req >> 8, req & 255]) + body
    crc = codec.crc16(data)
    return b"\x00" + codec.cobs_encode(data + bytes([crc >> 8, crc & 255])) + b"\x00"


class MotorHal(ClockHal):
    def has_motor(self):
        return True

    def shake(self, ms):
        self.level = 2


# Whole frames the box does not understand (an unknown type, a short Ping, a Show of no values and of 20,
# another version) get Error replies with their request ids; a second RollRequest while the motor rolls: busy.
motor = MotorHal()
box = dicebox.DiceBox(motor)
motor.out = []
motor.inbox = (frame(1, 9, 5, b"") + frame(1, 5, 6, b"\xca\xfe") + frame(1, 4, 7, bytes([0, 1, 2, 3]))
               + frame(1, 4, 8, bytes([20] + [1] * 20 + [0, 0, 0])) + frame(2, 1, 9, b"")
               + codec.encode(codec.RollRequest(req=10)) + codec.encode(codec.RollRequest(req=11)))
box.step()
print("motor box:")
for m in codec.Decoder().feed(b"".join(motor.out)):
    print(repr(m))
"""

RUNNER = r"""import { loadMicroPython } from "PACKAGE_URL";
import { readFileSync } from "node:fs";
const [dir, ...files] = process.argv.slice(2);
let out = "";
const mp = await loadMicroPython({stdout: (s) => { out += s + "\n"; }, stderr: (s) => { out += s + "\n"; }});
for (const f of files) mp.FS.writeFile("/" + f, readFileSync(dir + "/" + f));
try { mp.runPython("import sys\nsys.path.insert(0, '/')\n" + readFileSync(dir + "/transcript.py", "utf8")); }
catch (e) { out += "EXCEPTION " + e + "\n"; }
process.stdout.write(out);
"""


@pytest.mark.skipif(shutil.which("node") is None or not PACKAGE.exists(),
                    reason=f"needs node and the MicroPython WebAssembly npm package in {WASM_DIR}")
def test_firmware_runs_the_same_under_micropython(tmp_path):
    for name, source in FILES.items():
        shutil.copy(source, tmp_path / name)
    vectors = "VECTORS = %r\n" % [wire for _, wire in GOLDEN]
    (tmp_path / "transcript.py").write_text(vectors + TRANSCRIPT)
    (tmp_path / "run.mjs").write_text(RUNNER.replace("PACKAGE_URL", PACKAGE.as_uri()))
    cpython = subprocess.run([sys.executable, "transcript.py"], cwd=tmp_path, capture_output=True, text=True,
                             timeout=60, env={**os.environ, "PYTHONPATH": str(tmp_path)})
    assert cpython.returncode == 0, cpython.stderr
    micro = subprocess.run(["node", str(tmp_path / "run.mjs"), str(tmp_path), *FILES],
                           capture_output=True, text=True, timeout=120)
    assert micro.returncode == 0 and "EXCEPTION" not in micro.stdout, micro.stdout + micro.stderr
    assert micro.stdout.splitlines() == cpython.stdout.splitlines()
    assert len(cpython.stdout.splitlines()) > 40 + len(GOLDEN)
    answers = cpython.stdout.split("motor box:")[1]
    assert re.findall(r"Error\(code=(\d+), text='[^']*', req=(\d+)\)", answers) == [
        ("1", "5"), ("1", "6"), ("1", "7"), ("1", "8"), ("6", "9"), ("5", "11")]
    assert "Done(req=10)" in answers
