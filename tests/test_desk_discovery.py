"""A tablet finds the desk on the network (mDNS/DNS-SD through zeroconf) and joins it without typing an address.

Real parts: the desk server announcing ``_catan-desk._tcp`` on this machine's interfaces, and the tablet's
``find_desks`` in a process of its own (its own multicast socket), then a real join over HTTP. Event names are
made unique per run so desks of other runs on this machine are never mistaken for ours.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from companion.desk_link import join, request
from companion.tournament.server import DeskServer
from companion.tournament.server_mdns import MAX_LABEL, instance_name
from companion.tournament.store import Desk

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "desk-pw"


def make_event(db: Path, name: str) -> None:
    with Desk(db) as desk:
        ev = desk.create_event(name, seed=3)
        for player in ("Aki", "Ben", "Chie", "Dan"):
            desk.add_player(ev.id, player)
        desk.seat_round(ev.id)


def find_in_another_process(event: str, timeout: float) -> list[dict]:
    code = ("import json, sys; from companion.desk_discovery import find_desks; "
            f"print(json.dumps([d.__dict__ for d in find_desks({timeout}, event=sys.argv[1])]))")
    proc = subprocess.run([sys.executable, "-c", code, event], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def announcing(db: Path, name: str) -> DeskServer:
    server = DeskServer(name, db, host="0.0.0.0", port=0, password=PASSWORD, announce=True).start()
    if not server.advertisement.registered.wait(15):
        error = server.advertisement.error
        server.stop()
        pytest.skip(f"no multicast on this machine's network: {error}")
    return server


def test_a_tablet_finds_its_event_s_desk_and_joins_without_typing_an_address(tmp_path):
    ours, other = f"Kobe Open {uuid.uuid4().hex[:6]}", f"Osaka Cup {uuid.uuid4().hex[:6]}"
    make_event(tmp_path / "ours.sqlite3", ours)
    make_event(tmp_path / "other.sqlite3", other)
    first = announcing(tmp_path / "ours.sqlite3", ours)
    second = announcing(tmp_path / "other.sqlite3", other)
    try:
        found = find_in_another_process(ours, timeout=10)
        assert [d["event"] for d in found] == [ours]  # the other event's desk is not offered
        assert found[0]["address"].endswith(f":{first.port}")
        code = request(first.url, "POST", "/api/admin/pair", {"table": 1}, token=PASSWORD)["code"]
        assignment = join(found[0]["address"], code)
        assert assignment.event == ours and assignment.table == 1
    finally:
        second.stop()
        first.stop()
    # gone from the network with the desk
    assert find_in_another_process(ours, timeout=1.5) == []


def test_the_service_name_fits_a_dns_label_whatever_the_event_is_called():
    for event in ("Open", "第12回 カタン日本選手権 関西予選 (スイスドロー) 2026年秋", "A.B.C " * 30):
        label = instance_name(event).removesuffix("._catan-desk._tcp.local.")
        assert 0 < len(label.encode("utf-8")) <= MAX_LABEL and "." not in label
        assert label.startswith(event.replace(".", " ")[:5].strip()[:3])


def test_serve_announces_unless_told_not_to(tmp_path):
    event = f"Nara Open {uuid.uuid4().hex[:6]}"
    make_event(tmp_path / "t.sqlite3", event)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "tournament", "serve", event, "--db",
                             str(tmp_path / "t.sqlite3"), "--port", "0", "--password", PASSWORD],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = []
        while not lines or not lines[-1].startswith("Ctrl-C"):
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            lines.append(line)
        assert any("find this desk on the network" in line for line in lines)
        found = find_in_another_process(event, timeout=10)
        assert [d["event"] for d in found] == [event]
    finally:
        proc.terminate()
        proc.wait(30)
