"""The USB dice box as a dice source, and its simulator for demos and tests.

``box://auto`` finds the box among the USB serial ports (by USB id, confirmed with identify);
``box:///dev/ttyACM0`` (or ``box://COM3``) uses that port.  ``sim://?seed=4&faults=1`` starts the
dice-box simulator on a pseudo-terminal in this process and connects to it exactly as to a real
box -- what ``--demo`` uses.  All deliver :class:`~companion.dice.DiceRolled` with
``source="box"``, ``roll_id="<boot id>-<roll id>"`` and ``at`` = when the dice settled.

Options (query string): ``heartbeat=S`` (seconds of silence before "disconnected", default 3),
``backoff=S`` (longest wait between reconnection attempts, default 2).  ``sim:`` also takes
``seed=N``, ``deck=1`` (balanced deck), ``faults=1`` (the simulator's preset of faults) or single
faults (``corrupt=0.01``, ``drop=``, ``duplicate=``, ``garbage=``, ``crooked=``, ``reboot=``,
``unplug=``), ``every=S`` (the simulated player rolls every S seconds; default 5, 0 = only on
``request_roll()``) and ``profile=real|fast``.
"""

from __future__ import annotations

from urllib.parse import parse_qs, unquote, urlsplit

from firmware_bridge import codec
from firmware_bridge.client import BoxClient

from . import DiceRolled, DiceSource, SourceState, register_scheme

_BOX_OPTIONS = {"heartbeat", "backoff"}


#: Why the box's port would not open, by the words of the link's error (pyserial's and the OS's, or
#: firmware_bridge.android_usb's), each said in plain words (i18n ``why_box_*``): the port gone (the cable out);
#: the tablet still asking whether the app may use the USB device; the port there but not ours to open (Linux:
#: not in the dialout group); another program holding it.  Any other error is said as the link words it.
UNOPENED = (("box_unreachable", ("No such file or directory", "[Errno 2]", "no USB device")),
            ("box_permission_asked", ("waiting for the permission",)),
            ("box_no_access", ("Permission denied", "[Errno 13]")),
            ("box_busy", ("Device or resource busy", "[Errno 16]", "could not exclusively lock")))


class SerialBoxSource(DiceSource):
    """A dice box on a serial port (``port=None``: find it), or on an in-process simulator."""

    name = "box"
    rolls_on_request = True

    def __init__(self, port: str | None = None, simulator=None, heartbeat: float = 3.0,
                 backoff: float = 2.0) -> None:
        super().__init__()
        self.port = port
        self.simulator = simulator
        self.heartbeat = heartbeat
        self.backoff = backoff
        self.client: BoxClient | None = None

    def start(self, on_roll, on_status=None) -> None:
        super().start(on_roll, on_status)
        port = self.port
        if self.simulator is not None:
            port = self.simulator.start()
        self.client = BoxClient(port, self._result, self._status, heartbeat_timeout=self.heartbeat,
                                backoff=(min(0.05, self.backoff), self.backoff))
        self.client.on_message = self._message
        self.client.start()

    def stop(self) -> None:
        if self.client is not None:
            self.client.stop()
            self.client = None
        if self.simulator is not None:
            self.simulator.stop()
        self._set_status(SourceState.IDLE)

    def request_roll(self) -> bool:
        return self.client is not None and self.client.request_roll()

    def show(self, values, colour) -> None:
        if self.client is not None:
            self.client.show(values, colour)

    def _result(self, result: codec.RollResult, at: float) -> None:
        self._emit_roll(DiceRolled(tuple(result.faces), self.name, 1.0, at,
                                   f"{result.boot_id:08x}-{result.roll_id}"))

    def _status(self, state: str, detail: str) -> None:
        # The link's detail is English; what a table sees most (the box connected, rolling) also goes as a reason
        # with its facts, for the app to say in its user's language (i18n ``why_box_*``).
        reason, params = "", ()
        box = self.client.box if self.client is not None else None
        if state == "connected" and box is not None and " on " in detail:
            reason = "box_connected"
            params = (("model", box.model), ("firmware", ".".join(map(str, box.firmware))),
                      ("port", detail.rsplit(" on ", 1)[1]))
        elif state == "rolling" and detail in codec.STATE_NAMES:
            reason = f"box_{detail}"
        elif state in ("searching", "disconnected") and ": cannot open" in detail:
            # (the link's error, "PORT: cannot open: [Errno 2] could not open port PORT: [Errno 2] No such file...",
            # stays in the detail for the log and the doctor; a table is told the port and what to do -- what the
            # error says, not "is the cable in?" for every one: session 19's review)
            reason = next((r for r, words in UNOPENED if any(w in detail for w in words)), "")
            params = (("port", detail.split(": cannot open", 1)[0]),) if reason else ()
        self._set_status(SourceState(state), detail, reason=reason, params=params)

    def _message(self, message) -> None:
        # The box saw its dice settle crooked: no result comes, the players roll again.
        if type(message) is codec.RollState and message.state == codec.CROOKED:
            self._set_status(self.status.state, "crooked dice", reroll=True, reason="crooked_dice")


def _options(url: str, allowed: set[str]) -> dict[str, str]:
    query = {k: v[-1] for k, v in parse_qs(urlsplit(url).query, keep_blank_values=True).items()}
    unknown = set(query) - allowed
    if unknown:
        raise ValueError(f"dice source {url!r}: unknown option {sorted(unknown)[0]!r} "
                         f"(known: {', '.join(sorted(allowed))})")
    return query


def _float(query: dict[str, str], key: str, default: float, url: str) -> float:
    if key not in query:
        return default
    try:
        value = float(query[key])
    except ValueError:
        value = -1.0
    if value < 0:
        raise ValueError(f"dice source {url!r}: {key}={query[key]!r} is not a non-negative number")
    return value


def open_box(url: str) -> SerialBoxSource:
    """``box://auto`` or ``box://PORT`` (``box:///dev/ttyACM0``)."""
    parts = urlsplit(url)
    query = _options(url, _BOX_OPTIONS)
    port = unquote(parts.netloc + parts.path)
    if not port:
        raise ValueError(f"dice source {url!r}: name a port (box:///dev/ttyACM0) or say box://auto")
    return SerialBoxSource(None if port == "auto" else port,
                           heartbeat=_float(query, "heartbeat", 3.0, url),
                           backoff=_float(query, "backoff", 2.0, url))


def open_sim(url: str) -> SerialBoxSource:
    """``sim://?seed=N&faults=1``: the simulator on a pty in this process, connected as a box."""
    from firmware_bridge.simulator import Faults, Simulator

    fault_names = set(Faults.names()) - {"slow"}
    query = _options(url, _BOX_OPTIONS | fault_names | {"seed", "deck", "faults", "every", "profile"})
    faults = Faults.preset() if query.get("faults", "0") not in ("", "0") else Faults()
    for name in fault_names & set(query):
        value = _float(query, name, 0.0, url)
        if name != "unplug_ms" and value > 1:
            raise ValueError(f"dice source {url!r}: {name}={query[name]!r} is a probability, 0..1")
        setattr(faults, name, value)
    try:
        seed = int(query["seed"]) if "seed" in query else None
    except ValueError:
        raise ValueError(f"dice source {url!r}: seed={query['seed']!r} is not an integer") from None
    simulator = Simulator(seed=seed, deck=query.get("deck", "0") not in ("", "0"), faults=faults,
                          profile=query.get("profile", "real"),
                          every=_float(query, "every", 5.0, url) or None)
    return SerialBoxSource(simulator=simulator, heartbeat=_float(query, "heartbeat", 3.0, url),
                           backoff=_float(query, "backoff", 0.5, url))


register_scheme("box", open_box)
register_scheme("sim", open_sim)
