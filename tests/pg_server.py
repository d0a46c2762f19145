"""A PostgreSQL server a test starts, stops and starts again itself: Debian's postgresql (setup.sh installs it)
in a temporary folder on a port of its own. Never the embedded pg0 on 55433 that the shared Hindsight uses.
As root the server runs as an unprivileged account (PostgreSQL refuses root)."""

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

ACCOUNTS = ("smriti-pg", "postgres", "nobody")


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def available() -> bool:
    return _binaries() is not None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class PgServer:
    """initdb into a temporary folder; start(), stop() and start() again on the same port and data."""

    def __init__(self, port: int | None = None) -> None:
        binaries = _binaries()
        if binaries is None:
            raise RuntimeError("no PostgreSQL server binaries (initdb): run ./setup.sh")
        self.bin = binaries
        self.port = port or free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="smriti-pg-"))
        self.data = self.folder / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:
            account = next(a for a in ACCOUNTS if _exists(a))
            shutil.chown(self.folder, user=account)
            os.chmod(self.folder, 0o700)
            self._as = ["runuser", "-u", account, "--"]
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}"

    def _run(self, tool: str, *args: str) -> None:
        result = subprocess.run([*self._as, str(self.bin / tool), *args], capture_output=True, text=True, timeout=60)
        if result.returncode != 0:
            raise RuntimeError(f"{tool} failed: {(result.stderr or result.stdout)[-1500:]}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-o", options, "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def close(self) -> None:
        try:
            self.stop("immediate")
        except RuntimeError:
            pass
        shutil.rmtree(self.folder, ignore_errors=True)


def _exists(account: str) -> bool:
    try:
        pwd.getpwnam(account)
    except KeyError:
        return False
    return True
