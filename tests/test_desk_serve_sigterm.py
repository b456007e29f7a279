"""``tournament serve`` stopped by SIGTERM (``kill``, a service manager, the desk machine shutting down) stops as
Ctrl-C stops it: the desk file closed, the mDNS announcement withdrawn, "desk server stopped" said. Session 19's
floor trial stopped the desk with ``kill``: uvicorn, having shut down, raised SIGTERM again with its default
action, and the process ended there -- nothing said, the desk file's -wal left beside it, the desk never
withdrawing its announcement (a tablet's "Find the desk" could still list a desk that was gone)."""

import signal

from test_desk_kill import serve
from test_desk_server import make_event


def test_sigterm_stops_the_desk_as_ctrl_c_does(tmp_path):
    db = tmp_path / "desk.sqlite3"
    make_event(db)
    process, _port = serve(db, 0)
    try:
        for line in process.stdout:  # the server is up and has said where it is
            if line.startswith("Ctrl-C stops the server"):
                break
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, err
    assert out.strip().endswith("desk server stopped"), out + err
    assert not (tmp_path / "desk.sqlite3-wal").exists()  # the desk file closed (its last connection checkpointed)
