"""HAL for the reference box: Raspberry Pi Pico (RP2040) running MicroPython.

Parts and wiring are in docs/dice-box-hardware.md: an MPU-6050 accelerometer on I2C0 (GP4 SDA,
GP5 SCL), two 7-segment digits behind two chained 74HC595 (GP10 data, GP11 clock, GP12 latch),
a roll button on GP15 (to ground, internal pull-up), a vibration motor through a logic-level
MOSFET on GP16, a WS2812 colour LED on GP22.  The host link is the Pico's USB CDC port (the
MicroPython console, so ``main.py`` must not print).

The reference box is an electronic shaker: the faces are drawn from the RP2040's hardware entropy
(``os.urandom``) when the shaking stops, and a box left lying tilted more than ~30 degrees reports
its dice as crooked (they would lean on the wall of a real tray).  A box with real dice replaces
``read_dice`` with its die readers and keeps everything else.

Only runs on the board (machine, rp2, neopixel); the simulator's SimHal stands in for it here.
"""

import math
import os
import select
import sys
import time

import machine
import neopixel

from hal import Hal

# 7-segment patterns (bits a..g = 0..6), index = digit; 10 = blank, 11 = dash.
_SEGMENTS = (0x3F, 0x06, 0x5B, 0x4F, 0x66, 0x6D, 0x7D, 0x07, 0x7F, 0x6F, 0x00, 0x40)
_MPU_ADDR = 0x68
_STILL_G = 0.08     # |a| - 1 g below this (over the last 50 ms) is still
_SHAKEN_G = 0.5     # above this is rolling
_PENDING_FILE = "pending.bin"


class Rp2040Hal(Hal):
    def __init__(self):
        self._i2c = machine.I2C(0, sda=machine.Pin(4), scl=machine.Pin(5), freq=400000)
        self._i2c.writeto_mem(_MPU_ADDR, 0x6B, b"\x00")     # wake the MPU-6050
        self._data = machine.Pin(10, machine.Pin.OUT)
        self._clock = machine.Pin(11, machine.Pin.OUT)
        self._latch = machine.Pin(12, machine.Pin.OUT)
        self._button = machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP)
        self._motor = machine.Pin(16, machine.Pin.OUT, value=0)
        self._pixel = neopixel.NeoPixel(machine.Pin(22), 1)
        self._poll = select.poll()
        self._poll.register(sys.stdin, select.POLLIN)
        self._motor_until = None
        self._button_was = 1
        self._peak = 0.0
        self._peak_at = time.ticks_ms()
        self._tilt = 0.0

    def ticks_ms(self):
        return time.ticks_ms()

    def ticks_diff(self, new, old):
        return time.ticks_diff(new, old)

    def boot_id(self):
        value = 0
        while value == 0:
            value = int.from_bytes(os.urandom(4), "big")
        return value

    def read(self):
        out = b""
        while self._poll.poll(0):
            out += sys.stdin.buffer.read(1)
        return out

    def write(self, data):
        sys.stdout.buffer.write(data)

    def _accel(self):
        raw = self._i2c.readfrom_mem(_MPU_ADDR, 0x3B, 6)
        axes = []
        for i in (0, 2, 4):
            v = (raw[i] << 8) | raw[i + 1]
            if v & 0x8000:
                v -= 0x10000
            axes.append(v / 16384.0)           # +-2 g range
        return axes

    def motion(self):
        x, y, z = self._accel()                # OSError if the sensor is gone: the logic reports it
        g = math.sqrt(x * x + y * y + z * z)
        self._tilt = math.degrees(math.acos(max(-1.0, min(1.0, z / g)))) if g else 90.0
        now = time.ticks_ms()
        dev = abs(g - 1.0)
        if dev > self._peak or time.ticks_diff(now, self._peak_at) > 50:
            self._peak, self._peak_at = dev, now
        if self._motor_until is not None and time.ticks_diff(now, self._motor_until) >= 0:
            self._motor.value(0)
            self._motor_until = None
        if self._peak >= _SHAKEN_G:
            return 2
        return 1 if self._peak >= _STILL_G else 0

    def read_dice(self, n):
        if self._tilt > 30:
            return [None] * n
        faces = []
        while len(faces) < n:
            b = os.urandom(1)[0]
            if b < 252:                        # 252 = 42 * 6: no bias toward low faces
                faces.append(b % 6 + 1)
        return faces

    def _shift(self, byte):
        for bit in range(7, -1, -1):
            self._data.value((byte >> bit) & 1)
            self._clock.value(1)
            self._clock.value(0)

    def display(self, values):
        values = tuple(values) + (0, 0)
        self._latch.value(0)
        for v in (values[1], values[0]):      # the second digit's register is last in the chain
            self._shift(_SEGMENTS[v if 0 < v < 10 else 10])
        self._latch.value(1)

    def led(self, colour):
        self._pixel[0] = tuple(colour)
        self._pixel.write()

    def button_pressed(self):
        now = self._button.value()
        pressed = self._button_was == 1 and now == 0
        self._button_was = now
        return pressed

    def has_motor(self):
        return True

    def shake(self, ms):
        self._motor.value(1)
        self._motor_until = time.ticks_add(time.ticks_ms(), ms)

    def save_pending(self, blob):
        # Write a new file and rename it over the old one: a power cut mid-write leaves the old.
        with open(_PENDING_FILE + ".new", "wb") as f:
            f.write(blob)
        os.rename(_PENDING_FILE + ".new", _PENDING_FILE)

    def load_pending(self):
        try:
            with open(_PENDING_FILE, "rb") as f:
                return f.read()
        except OSError:
            return b""
