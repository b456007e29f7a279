"""``python -m companion tournament serve EVENT``: start the desk server and say where to find it."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import sys

from ..plain_text import terminal_safe
from .store import TournamentError, database_errors


def lan_addresses() -> list[str]:
    """This machine's addresses a tablet on the venue's network can reach (best effort, no internet needed: a
    UDP socket "connected" to a private address only picks the outgoing interface, nothing is sent)."""
    found = []
    for probe in ("10.255.255.255", "192.168.255.255", "172.31.255.255"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 1))
                address = s.getsockname()[0]
        except OSError:
            continue
        if address not in found and not address.startswith("127."):
            found.append(address)
    return found


def serve_main(args) -> int:
    from .server import DeskServer

    password = args.password or os.environ.get("CATAN_DESK_PASSWORD")
    if args.dsn and args.db:
        print("tournament serve: give --db FILE or --dsn DSN, not both", file=sys.stderr)
        return 2
    try:
        server = DeskServer(args.event, args.db, host=args.host, port=args.port, password=password, dsn=args.dsn,
                            announce=not args.no_announce, own_process=True)
    except (TournamentError, *database_errors()) as error:
        print(terminal_safe(f"tournament serve: {error}"), file=sys.stderr)
        return 2
    except OSError as error:
        print(terminal_safe(f"tournament serve: cannot listen on {args.host}:{args.port} ({error.strerror or error}); "
                            "is another desk server running? choose another --port"), file=sys.stderr)
        return 2
    hosts = lan_addresses() if args.host in ("0.0.0.0", "::", "") else [args.host]
    where = [f"http://{h}:{server.port}" for h in hosts] or [server.url]
    print(terminal_safe(f"desk server for {server.floor.event.name!r} on port {server.port}"))
    for url in where:
        print(terminal_safe(f"  live display:  {url}/"))
        print(terminal_safe(f"  desk page:     {url}/desk   (any user name, password below)"))
        print(terminal_safe(f"  tablets type:  {url.removeprefix('http://')}"))
    if not args.no_announce:
        print("  tablets find this desk on the network (mDNS); the address above is the fallback")
    if not password:
        print(terminal_safe(f"  desk password: {server.password}   (set --password or $CATAN_DESK_PASSWORD to choose)"))
    print("Ctrl-C stops the server; everything the desk acknowledged is in the desk file.", flush=True)
    # SIGTERM (kill, a service manager, the machine shutting down) stops it as Ctrl-C does: uvicorn, having shut
    # down, raises the signal again with the handler found before it started, and SIGTERM's default ended the
    # process there -- the desk file not closed, the mDNS announcement not withdrawn (session 19's floor trial)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        server.serve_forever()
    except KeyboardInterrupt:  # uvicorn, having shut down cleanly, passes Ctrl-C on
        pass
    print("desk server stopped", flush=True)
    return 0
