"""A real PostgreSQL server for the tests (issue 28): Debian's binaries
(/usr/lib/postgresql/*/bin), a cluster made by initdb in a temporary
directory, started by pg_ctl on a free loopback port, stopped at the end.

initdb refuses to run as root, and the tests (and CI) run as root: then the
cluster belongs to the `postgres` user (Debian's package makes it) or to
`nobody`, and its programs run as that user; otherwise as the test's user.
Each test gets a database of its own (`new_database`), so tests never see
each other's rows. The cluster uses the C locale, trust authentication on
loopback only, and fsync on (as a club would run it)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def postgresql_bin() -> str | None:
    """The newest installed PostgreSQL's bin directory, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return os.path.dirname(found[-1]) if found else None


INITDB = os.path.join(postgresql_bin() or "/usr/lib/postgresql/none/bin", "initdb")
WHAT = "PostgreSQL (apt-get install postgresql)"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _server_user() -> pwd.struct_passwd | None:
    """The user the server runs as when the tests are root (None: as ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError("running as root, with neither a postgres nor a nobody user to run PostgreSQL as")


class PostgresServer:
    def __init__(self) -> None:
        bin_dir = postgresql_bin()
        assert bin_dir is not None, "no PostgreSQL binaries"
        self.bin = Path(bin_dir)
        self.user = _server_user()
        self.root = Path(tempfile.mkdtemp(prefix="sekigahara-pg-"))
        os.chmod(self.root, 0o755)  # the server's user walks into it
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self.port = _free_port()
        self._databases = 0
        self.data.mkdir(mode=0o700)
        self.log.touch()
        if self.user is not None:
            for path in (self.data, self.log):
                os.chown(path, self.user.pw_uid, self.user.pw_gid)
        self._run("initdb", "-D", str(self.data), "-U", "sekigahara", "--auth=trust", "--no-locale", "-E", "UTF8",
                  "--no-instructions")
        self._options = f"-p {self.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=300"
        self.start()

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-o", self._options, "-l", str(self.log), "-w", "-t", "60", "start")

    def restart(self) -> None:
        """As an administrator restarts it: every connection is ended (fast shutdown), the server back at once."""
        self._run("pg_ctl", "-D", str(self.data), "-o", self._options, "-l", str(self.log), "-w", "-t", "60", "-m", "fast", "restart")

    def pause(self) -> None:
        """Stopped (fast shutdown), its data kept: start() brings it back on the same port."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def _run(self, program: str, *arguments: str) -> None:
        user = {} if self.user is None else {"user": self.user.pw_uid, "group": self.user.pw_gid, "extra_groups": []}
        done = subprocess.run([str(self.bin / program), *arguments], capture_output=True, text=True, cwd=self.root, **user)
        if done.returncode != 0:
            raise RuntimeError(f"{program} failed: {done.stderr.strip() or done.stdout.strip()}\n{self.log.read_text()[-2000:]}")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://sekigahara@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A new empty database's URL."""
        import psycopg

        self._databases += 1
        name = f"club_{os.getpid()}_{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
