"""Benchmark of the dice box link (issue 4): last byte of a result frame on the pty -> DiceRolled.

    .venv/bin/python bench/bench_dice_box.py [--rolls 1000] [--repeat 5] [--e2e 3]

The bench plays the box on the master side of a real pseudo-terminal (``os.openpty``); the app's
own dice source (``box://<pty>``: pyserial, the client thread, the decoder, dedup, DiceRolled)
reads the slave side.  For each roll it writes a RollResult frame all but its last byte, notes
the time, writes the last byte, and waits for the ``on_roll`` callback, which notes its time;
then it reads the host's ack off the pty before the next roll.  Prints the median, p99 and
maximum of each run and over all runs; the figures go into docs/performance.md.  Timings are
for reading, never pass/fail: this machine is shared and noisy.

``--e2e N`` also times N runs of the end-to-end scenario of tests/test_firmware_end_to_end.py
(10,000 rolls from the simulator, 1 % corrupted and 1 % duplicated frames, five unplugs).
"""

from __future__ import annotations

import argparse
import os
import platform
import select
import statistics
import threading
import time
import tty

from companion.dice import open_source
from firmware_bridge import codec

BOOT = 0x0BE4C400


def one_run(rolls: int) -> list[float]:
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    arrived = threading.Event()
    stamp = [0]

    def on_roll(roll):
        stamp[0] = time.perf_counter_ns()
        arrived.set()

    source = open_source(f"box://{path}?heartbeat=60")
    source.start(on_roll)
    decoder = codec.Decoder()
    latencies = []
    try:
        # Answer the host's identify so it is connected, as a box would.
        _wait_for(master, decoder, codec.IdentifyRequest)
        os.write(master, codec.encode(codec.Identify("bench", (1, 0, 0), BOOT, 2, 0)))
        for roll_id in range(1, rolls + 1):
            frame = codec.encode(codec.RollResult(BOOT, roll_id, (roll_id % 6 + 1, roll_id % 5 + 1), (1, 2), 0))
            arrived.clear()
            os.write(master, frame[:-1])
            start = time.perf_counter_ns()
            os.write(master, frame[-1:])
            if not arrived.wait(5):
                raise RuntimeError(f"roll {roll_id} never arrived")
            latencies.append((stamp[0] - start) / 1e6)
            ack = _wait_for(master, decoder, codec.Ack)
            assert ack.roll_id == roll_id
    finally:
        source.stop()
        os.close(master)
        os.close(slave)
    return latencies


def _wait_for(fd: int, decoder: codec.Decoder, kind, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            for message in decoder.feed(os.read(fd, 4096)):
                if isinstance(message, kind):
                    return message
    raise RuntimeError(f"no {kind.__name__} from the host")


def end_to_end(rolls: int = 10_000) -> float:
    """Wall time of the end-to-end scenario: simulator on a pty -> SerialBoxSource, all rolls delivered."""
    from companion.dice.serial_box import SerialBoxSource
    from firmware_bridge.simulator import Faults, Simulator

    step = rolls // 6
    sim = Simulator(seed=11, faults=Faults(corrupt=0.01, duplicate=0.01, garbage=0.002, unplug_ms=30),
                    profile="fast", rolls=rolls, unplug_after=tuple(step * i for i in range(1, 6)))
    source = SerialBoxSource(simulator=sim, heartbeat=2.0, backoff=0.02)
    got = []
    done = threading.Condition()

    def on_roll(roll):
        with done:
            got.append(roll)
            done.notify_all()

    start = time.perf_counter()
    source.start(on_roll)
    with done:
        done.wait_for(lambda: len(got) >= rolls, 300)
    took = time.perf_counter() - start
    source.stop()
    if [r.roll_id for r in got] != [f"{r.boot_id:08x}-{r.roll_id}" for r in sim.generated]:
        raise RuntimeError("end-to-end run lost, repeated or reordered rolls")
    return took


def p99(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=100, method="inclusive")[98]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rolls", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--e2e", type=int, default=0, help="also time N end-to-end runs")
    args = parser.parse_args()
    print(f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
          f"{os.cpu_count()} cores, {platform.platform()}")
    every = []
    print("| run | rolls | median | p99 | max |")
    print("|---|---|---|---|---|")
    for run in range(1, args.repeat + 1):
        lat = one_run(args.rolls)
        every += lat
        print(f"| {run} | {len(lat)} | {statistics.median(lat):.3f} ms | {p99(lat):.3f} ms | {max(lat):.3f} ms |")
    print(f"| all | {len(every)} | {statistics.median(every):.3f} ms | {p99(every):.3f} ms | {max(every):.3f} ms |")
    if args.e2e:
        times = [end_to_end() for _ in range(args.e2e)]
        print(f"end to end, 10,000 rolls: median {statistics.median(times):.1f} s, "
              f"range {min(times):.1f}-{max(times):.1f} s over {len(times)} runs")


if __name__ == "__main__":
    main()
