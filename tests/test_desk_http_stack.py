"""The desk serves on uvicorn's C stack (httptools + uvloop, pinned) where it is installed, and on the pure-Python
one (h11 + asyncio) where it is not -- Windows has no uvloop -- with the same answers to a tablet."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# A desk server in a fresh interpreter, some modules made unimportable first (as on a machine without them); one
# tablet joins, sends two events over a kept connection and asks for its table.
SCRIPT = r"""
import json, sys
for name in sys.argv[2:]:
    sys.modules[name] = None  # import name -> ImportError, as where it is not installed
sys.path.insert(0, "tests")
from test_desk_server import PASSWORD, make_event, pair, played
from companion.desk_link import DeskConnection, join
from companion.tournament.server import DeskServer
from pathlib import Path
folder = Path(sys.argv[1])
make_event(folder / "desk.sqlite3")
with DeskServer("Kobe Open", folder / "desk.sqlite3", host="127.0.0.1", port=0, password=PASSWORD) as server:
    a = join(server.url, pair(server, 1))
    events = played(a, seed=2, budget=2)
    link = DeskConnection(server.url)
    first = link.request("POST", "/api/events", {"round": 1, "table": 1, "game": 1, "rev": 1, "from": 0,
                                                 "events": events[:1], "count": 1, "header": a.header}, token=a.token)
    second = link.request("POST", "/api/events", {"round": 1, "table": 1, "game": 1, "rev": 2, "from": 1,
                                                  "events": events[1:], "count": 2}, token=a.token)
    table = link.request("GET", "/api/table", token=a.token)
    link.close()
    print(json.dumps({"stack": list(server.http_stack), "have": [first["have"], second["have"]],
                      "table": table["table"], "connections": link.opened}))
"""


def serve(tmp_path: Path, *missing: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path), *missing], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("missing, stack", [
    ((), ["httptools", "uvloop"]),
    (("uvloop",), ["httptools", "asyncio"]),  # Windows: no uvloop build
    (("httptools", "uvloop"), ["h11", "asyncio"]),
])
def test_the_desk_serves_on_the_stack_it_finds(tmp_path, missing, stack):
    pytest.importorskip("httptools")
    pytest.importorskip("uvloop")
    got = serve(tmp_path, *missing)
    assert got == {"stack": stack, "have": [1, 2], "table": 1, "connections": 1}
