"""Finding the tournament desk on the venue's network (mDNS/DNS-SD, zeroconf): what the desk announces with
:mod:`companion.tournament.server_mdns`. Without zeroconf or multicast nothing is found and the players type the
address the desk shows (the fallback).
"""

from __future__ import annotations

import logging
import socket
import threading
import time
from dataclasses import dataclass

log = logging.getLogger(__name__)

SERVICE_TYPE = "_catan-desk._tcp.local."  # as the desk announces (companion.tournament.server_mdns)


@dataclass(frozen=True)
class FoundDesk:
    event: str
    address: str  # "host:port", as a person would type it (companion.desk_link.desk_url takes it)


def find_desks(timeout: float = 3.0, *, event: str | None = None) -> list[FoundDesk]:
    """The desks answering on the local network within ``timeout`` seconds (only ``event``'s, if given), sorted by
    event. Returns as soon as a desk of ``event`` is found. An empty list when none answer or zeroconf is
    missing."""
    try:
        from zeroconf import IPVersion, ServiceBrowser, ServiceInfo, ServiceStateChange, Zeroconf
    except ImportError:
        return []
    names: set[str] = set()
    changed = threading.Event()

    def seen(zeroconf, service_type, name, state_change):  # on the browser's thread: only note the name
        if state_change in (ServiceStateChange.Added, ServiceStateChange.Updated):
            names.add(name)
            changed.set()

    found: dict[str, FoundDesk] = {}
    try:
        zc = Zeroconf(ip_version=IPVersion.V4Only)
    except OSError as error:
        log.info("no mDNS here (%s): the desk's address is typed", error)
        return []
    try:
        browser = ServiceBrowser(zc, SERVICE_TYPE, handlers=[seen])
        end = time.monotonic() + timeout
        resolved: set[str] = set()
        while time.monotonic() < end:
            changed.wait(max(0.0, min(0.2, end - time.monotonic())))
            changed.clear()
            for name in sorted(names - resolved):
                info = ServiceInfo(SERVICE_TYPE, name)
                if not info.request(zc, 1500):
                    continue
                resolved.add(name)
                desk = _desk_of(info)
                if desk is not None:
                    found[name] = desk
            if event is not None and any(d.event == event for d in found.values()):
                break
        browser.cancel()
    finally:
        zc.close()
    desks = sorted(found.values(), key=lambda d: (d.event, d.address))
    return [d for d in desks if event is None or d.event == event]


def _desk_of(info) -> FoundDesk | None:
    addresses = [socket.inet_ntoa(a) for a in info.addresses if len(a) == 4]
    if not addresses or not info.port:
        return None
    props = info.properties or {}
    raw = props.get(b"event") or b""
    event = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    return FoundDesk(event or info.name.removesuffix("." + SERVICE_TYPE), f"{addresses[0]}:{info.port}")
