"""``python -m firmware_bridge COMMAND``: tools for the dice box.

    simulate [--seed N] [--deck] [--faults] [--every S] [--link PATH] ...
        run a simulated box on a pseudo-terminal and print its path; Ctrl-C stops it
    monitor PORT [--ack] [--identify] [--count N] [--duration S]
        print every message a box sends (and every damaged frame), for people building one
"""

from __future__ import annotations

import argparse
import sys
import time

from . import codec


def describe(message: codec.Message) -> str:
    """One line per message, in the words of docs/dice-box-protocol.md."""
    kind = type(message).__name__
    if isinstance(message, codec.Identify):
        caps = [name for bit, name in ((codec.CAP_AUTO_ROLL, "auto-roll"), (codec.CAP_DISPLAY, "display"),
                                       (codec.CAP_COLOUR_LED, "colour-led"), (codec.CAP_DIE_COLOURS, "die-colours"))
                if message.caps & bit]
        text = (f"model={message.model} firmware={'.'.join(map(str, message.firmware))} "
                f"boot={message.boot_id:08x} dice={message.dice} caps={','.join(caps) or 'none'}")
    elif isinstance(message, codec.RollState):
        text = f"boot={message.boot_id:08x} roll={message.roll_id} {codec.STATE_NAMES[message.state]}"
    elif isinstance(message, codec.RollResult):
        colours = ",".join(codec.DIE_COLOURS[c] if c < len(codec.DIE_COLOURS) else str(c) for c in message.colours)
        text = (f"boot={message.boot_id:08x} roll={message.roll_id} faces={'+'.join(map(str, message.faces))}"
                f"={sum(message.faces)} colours={colours} age={message.age_ms}ms")
    elif isinstance(message, codec.Heartbeat):
        text = (f"boot={message.boot_id:08x} up={message.uptime_ms / 1000:.1f}s pending={message.pending} "
                f"{codec.STATE_NAMES[message.state] if message.state < len(codec.STATE_NAMES) else message.state}")
    elif isinstance(message, codec.Error):
        text = f"{codec.ERROR_NAMES.get(message.code, message.code)}: {message.text}"
    else:
        text = " ".join(f"{name}={getattr(message, name)!r}" for name in message.FIELDS)
    req = f" req={message.req}" if message.req else ""
    return f"{kind} {text}".rstrip() + req


def simulate_main(argv: list[str]) -> int:
    from .simulator import PROFILES, Faults, Simulator

    parser = argparse.ArgumentParser(prog="python -m firmware_bridge simulate",
                                     description="A dice box on a pseudo-terminal, running the reference firmware.")
    parser.add_argument("--seed", type=int, help="seed of the dice (and of the faults)")
    parser.add_argument("--deck", action="store_true", help="deal from a balanced deck instead of random dice")
    parser.add_argument("--every", type=float, default=5.0, help="the player rolls every S seconds (0: never)")
    parser.add_argument("--rolls", type=int, default=0, help="roll back to back until N results were made")
    parser.add_argument("--profile", choices=sorted(PROFILES), default="real",
                        help="firmware timings: real, or fast for tests")
    parser.add_argument("--link", help="path of the symlink to the pty (default: in a new temp dir)")
    parser.add_argument("--duration", type=float, help="stop after S seconds")
    parser.add_argument("--faults", action="store_true", help="the preset of faults: " + ", ".join(
        f"{k}={v}" for k, v in vars(Faults.preset()).items() if v))
    for name in Faults.names():
        if name == "slow":
            parser.add_argument("--slow", action="store_true", help="frames dribble out 3 bytes at a time")
        else:
            parser.add_argument(f"--{name.replace('_', '-')}", type=float, metavar="P",
                                help="milliseconds" if name == "unplug_ms" else "probability 0..1")
    args = parser.parse_args(argv)
    faults = Faults.preset() if args.faults else Faults()
    for name in Faults.names():
        value = getattr(args, name)
        if value not in (None, False):
            if name not in ("unplug_ms", "slow") and not 0 <= value <= 1:
                parser.error(f"--{name.replace('_', '-')} is a probability, 0..1; got {value}")
            setattr(faults, name, value)
    sim = Simulator(seed=args.seed, deck=args.deck, faults=faults, profile=args.profile,
                    every=args.every or None, rolls=args.rolls, link=args.link)
    seen = 0
    try:
        path = sim.start()
        print(path, flush=True)
        print(f"simulate: dice box on {path}; Ctrl-C to stop", file=sys.stderr, flush=True)
        deadline = None if args.duration is None else time.monotonic() + args.duration
        while deadline is None or time.monotonic() < deadline:
            sim.wait_for(lambda s: len(s.generated) > seen, 0.2 if deadline is None else
                         max(0.0, min(0.2, deadline - time.monotonic())))
            made = sim.generated[seen:]  # (the simulator's thread may add more while these are printed)
            for result in made:
                print(f"simulate: rolled {'+'.join(map(str, result.faces))} "
                      f"(boot {result.boot_id:08x}, roll {result.roll_id})", file=sys.stderr, flush=True)
            seen += len(made)
            if sim.error is not None:
                print(f"simulate: the simulator failed: {sim.error!r}", file=sys.stderr)
                return 1
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0


def monitor_main(argv: list[str]) -> int:
    from .link import LinkError, LinkLost, SerialLink, backoff_delays

    parser = argparse.ArgumentParser(prog="python -m firmware_bridge monitor",
                                     description="Print every message a dice box sends.")
    parser.add_argument("port", help="serial port or pyserial URL, e.g. /dev/ttyACM0")
    parser.add_argument("--ack", action="store_true", help="acknowledge results (else the box keeps resending)")
    parser.add_argument("--identify", action="store_true", help="ask the box to identify itself first")
    parser.add_argument("--count", type=int, help="exit after N messages")
    parser.add_argument("--duration", type=float, help="exit after S seconds")
    args = parser.parse_args(argv)
    start = time.monotonic()
    count = 0

    def line(text: str) -> None:
        print(f"{time.monotonic() - start:9.3f}  {text}", flush=True)

    decoder = codec.Decoder(on_error=lambda error: line(f"! dropped frame ({error.kind}): {error.text}"))
    delays = backoff_delays(0.1, 2.0)
    link = None
    try:
        while True:
            if args.duration is not None and time.monotonic() - start >= args.duration:
                return 0
            if link is None:
                try:
                    link = SerialLink(args.port, read_timeout=0.1)
                except LinkError as error:
                    if count == 0 and time.monotonic() - start < 0.5:
                        print(f"monitor: {error}", file=sys.stderr)
                        return 2
                    time.sleep(next(delays))
                    continue
                delays = backoff_delays(0.1, 2.0)
                if args.identify:
                    link.write(codec.encode(codec.IdentifyRequest(req=1)))
            try:
                for message in decoder.feed(link.read()):
                    line(describe(message))
                    count += 1
                    if args.ack and isinstance(message, codec.RollResult):
                        link.write(codec.encode(codec.Ack(message.boot_id, message.roll_id)))
                    if args.count is not None and count >= args.count:
                        return 0
            except LinkLost as error:
                line(f"! {error}; reopening")
                link.close()
                link = None
    except KeyboardInterrupt:
        return 0
    finally:
        if link is not None:
            link.close()


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(__doc__.strip())
        return 0 if argv else 2
    command, rest = argv[0], argv[1:]
    if command == "simulate":
        return simulate_main(rest)
    if command == "monitor":
        return monitor_main(rest)
    print(f"unknown command {command!r}\n\n{__doc__.strip()}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
