"""Entry point on the box: MicroPython runs this file at power-up."""

import time

import machine
import micropython

from dicebox import DiceBox
from hal_rp2040 import Rp2040Hal


def run():
    if machine.Pin(15, machine.Pin.IN, machine.Pin.PULL_UP).value() == 0:
        return                 # button held at power-up: stay in the REPL, for maintenance
    micropython.kbd_intr(-1)   # 0x03 is protocol data here, not Ctrl-C
    box = DiceBox(Rp2040Hal())
    while True:
        box.step()
        # The accelerometer is polled every millisecond while the dice move, else up to 20 ms.
        time.sleep_ms(min(box.idle_ms(), 20))


run()
