"""The dice box's reference firmware: logic (``dicebox``), its HAL interface and the RP2040 board.

Copy ``codec.py`` (from ``firmware_bridge``), ``dicebox.py``, ``hal.py``, ``hal_rp2040.py`` and
``main.py`` to the board's flash; docs/dice-box-hardware.md has the wiring.
"""
