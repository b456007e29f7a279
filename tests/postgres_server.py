"""A real PostgreSQL server for the tests, from Debian's packages (``postgresql``, installed by ./dev), in a temp dir.

``initdb`` makes a fresh cluster in a directory of its own, ``pg_ctl`` starts it listening only on a Unix socket in
that directory (no TCP port to clash with anything), and each test gets a fresh database. As root (CI here) the
server runs as the ``postgres`` user the package creates, since PostgreSQL refuses to run as root.

Without ``initdb`` the tests that need it are skipped with the reason -- except on CI (``CI`` set), which must run
them: there its absence fails them.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest


def _binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                      key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    return Path(versions[-1]).parent if versions else None


class PostgresCluster:
    def __init__(self, root: Path, bin_dir: Path, as_user: list[str]):
        self.root, self.bin, self.as_user = root, bin_dir, as_user
        self.data = root / "data"
        self._names = itertools.count(1)

    def _run(self, *args: str) -> None:
        result = subprocess.run([*self.as_user, *args], capture_output=True, text=True, timeout=120)
        if result.returncode:
            raise RuntimeError(f"{' '.join(args[:2])} failed: {result.stderr.strip() or result.stdout.strip()}")

    def start(self) -> "PostgresCluster":
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "--encoding=UTF8", "--locale=C.UTF-8", "-N")  # -N: no fsync (a test cluster, thrown away)
        options = f"-c listen_addresses='' -c unix_socket_directories='{self.root}' -c fsync=off " \
                  "-c full_page_writes=off -c max_connections=200"
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", str(self.root / "log"),
                  "-w", "-t", "60", "start")
        return self

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def dsn(self, schema: str | None = None) -> str:
        search = f" options='-csearch_path={schema}'" if schema else ""
        return f"host={self.root} user=postgres dbname=postgres{search}"

    def new_database(self) -> str:
        """A fresh, empty place for a desk (a schema of its own: a whole database takes a second to make); its
        DSN."""
        import psycopg
        name = f"desk_{os.getpid()}_{next(self._names)}"
        with psycopg.connect(self.dsn(), autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return self.dsn(name)


@pytest.fixture(scope="session")
def postgres():
    """The session's PostgreSQL server (skipped, with the reason, only where ``initdb`` is absent and not on CI)."""
    bin_dir = _binaries()
    if bin_dir is None:
        reason = "PostgreSQL's initdb is not installed (Debian package postgresql; ./dev installs it)"
        if os.environ.get("CI"):
            pytest.fail(f"{reason}: CI must run the PostgreSQL tests")
        pytest.skip(reason)
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e '.[test,postgres]')")
    root = Path(tempfile.mkdtemp(prefix="pg-"))  # short: a Unix socket's path must fit in 107 bytes
    as_user: list[str] = []
    if os.geteuid() == 0:  # PostgreSQL will not run as root: as the package's postgres user
        shutil.chown(root, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    cluster = PostgresCluster(root, bin_dir, as_user).start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def postgres_dsn(postgres) -> str:
    return postgres.new_database()
