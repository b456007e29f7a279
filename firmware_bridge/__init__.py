"""The electronic dice box: its protocol, the serial link, a simulator and the reference firmware.

- ``codec``: messages, COBS framing, CRC-16 (pure; shared with the firmware)
- ``link``: pyserial transport, discovery by USB id and identify, failures naming the port
- ``client``: the host's protocol session (exactly-once delivery, acks, heartbeat, reconnection)
- ``simulator``: the firmware on a pseudo-terminal with fault injection
- ``firmware``: the box's logic behind a HAL, and the RP2040 board's HAL

``python -m firmware_bridge simulate|monitor``; docs/dice-box-protocol.md, docs/dice-box-hardware.md.
"""
