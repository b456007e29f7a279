"""The desk says where it is on the venue's network: an mDNS/DNS-SD service (zeroconf), ``_catan-desk._tcp``.

A tablet's "Tournament table" screen looks for it (:mod:`companion.desk_discovery`) so nobody types an address;
the address printed by ``tournament serve`` stays the fallback (a venue network that drops multicast, a desk on
another subnet). Nothing leaves the LAN: mDNS is link-local multicast.

Registering probes the network for a name clash (about two seconds), so it runs on a thread of its own and the
server answers meanwhile; a clash (two desks of one event) gets a numbered name.
"""

from __future__ import annotations

import logging
import socket
import threading

log = logging.getLogger(__name__)

SERVICE_TYPE = "_catan-desk._tcp.local."
MAX_LABEL = 60  # a DNS label holds 63 bytes: the event's name is cut to fit (the TXT record keeps it whole-ish)


def instance_name(event: str) -> str:
    """The service's instance name: the event's name (cut to whole characters that fit a DNS label)."""
    label = f"{event} desk".replace(".", " ")
    while len(label.encode("utf-8")) > MAX_LABEL:
        label = label[:-1]
    return f"{label.strip()}.{SERVICE_TYPE}"


class Advertisement:
    """The desk's service on the network while the server runs: :meth:`start`, then :meth:`stop`."""

    def __init__(self, event: str, port: int, addresses: list[str]):
        self.event, self.port, self.addresses = event, port, addresses
        self.registered = threading.Event()
        self.error: str | None = None
        self._zeroconf = None
        self._info = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> "Advertisement":
        self._thread = threading.Thread(target=self._register, name="desk-mdns", daemon=True)
        self._thread.start()
        return self

    def _register(self) -> None:
        try:
            from zeroconf import IPVersion, ServiceInfo, Zeroconf
        except ImportError:
            self.error = "zeroconf is not installed: tablets type the desk's address"
            return
        try:
            packed = [socket.inet_aton(a) for a in self.addresses]
            self._info = ServiceInfo(
                SERVICE_TYPE, instance_name(self.event), port=self.port, addresses=packed,
                properties={"event": self.event.encode("utf-8")[:200], "path": "/", "v": "1"},
                server=f"{socket.gethostname().split('.')[0] or 'desk'}.local.")
            self._zeroconf = Zeroconf(ip_version=IPVersion.V4Only)
            if self._stopping.is_set():
                return
            self._zeroconf.register_service(self._info, allow_name_change=True)
            self.registered.set()
        except Exception as error:  # noqa: BLE001 -- a network without multicast: the typed address still works
            self.error = f"the desk could not announce itself on the network ({error}): tablets type its address"
            log.warning(self.error)

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(10)
        if self._zeroconf is not None:
            try:
                if self.registered.is_set():
                    self._zeroconf.unregister_service(self._info)
            finally:
                self._zeroconf.close()
                self._zeroconf = None
