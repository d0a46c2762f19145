"""Start and upgrade safely: workers starting together on an empty database all come up (migrations under an
advisory lock on PostgreSQL, a file lock on SQLite); `smriti db current|check|upgrade`; one clear line for a
database that cannot be reached or a URL scheme the bot does not run on; a warning for a silent Hindsight."""

import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from bot.cli.preflight import warn_if_memory_down
from bot.cli.smriti import main
from bot.settings import Settings
from bot.store.db import UnsupportedDatabaseUrl, normalize_database_url
from memory import MemoryClient
from tests import pg_server

ROOT = Path(__file__).resolve().parents[2]
STARTERS = 3
SCRIPT = """
import sys, time
from pathlib import Path
from bot.store import Database, upgrade
from handlers import INSTALLED
go = Path(sys.argv[2])
Path(f"{go}.ready-{sys.argv[3]}").touch()
while not go.exists():
    time.sleep(0.005)
database = Database(sys.argv[1])
upgrade(database, INSTALLED.migrations())
database.dispose()
print("up")
"""


def _start_together(url: str, folder: Path) -> list[subprocess.CompletedProcess[str]]:
    go = folder / "go"
    processes = [subprocess.Popen([sys.executable, "-c", SCRIPT, url, str(go), str(i)], cwd=ROOT, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in range(STARTERS)]
    deadline = time.monotonic() + 120
    while len(list(folder.glob("go.ready-*"))) < STARTERS:
        assert time.monotonic() < deadline, "the starters never got ready"
        time.sleep(0.02)
    go.touch()
    results = []
    for process in processes:
        out, err = process.communicate(timeout=180)
        results.append(subprocess.CompletedProcess(process.args, process.returncode, out, err))
    return results


@pytest.fixture(scope="module")
def postgres() -> pg_server.PgServer:
    if not pg_server.available():
        pytest.fail("PostgreSQL's server binaries are missing: ./setup.sh installs Debian's postgresql")
    server = pg_server.PgServer()
    server.start()
    yield server  # type: ignore[misc]
    server.close()


def _empty_database(server: pg_server.PgServer, name: str) -> str:
    admin = create_engine(f"{server.url}/postgres", isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        db.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return f"postgres://postgres@127.0.0.1:{server.port}/{name}"  # as a hosting provider prints it


def test_workers_starting_together_on_an_empty_postgresql_all_come_up(postgres: pg_server.PgServer,
                                                                      tmp_path: Path) -> None:
    url = _empty_database(postgres, "together")
    for result in _start_together(url, tmp_path):
        assert result.returncode == 0 and result.stdout.strip() == "up", result.stderr[-2000:]


def test_workers_starting_together_on_an_empty_sqlite_all_come_up(tmp_path: Path) -> None:
    for result in _start_together(f"sqlite:///{tmp_path / 'smriti.db'}", tmp_path):
        assert result.returncode == 0 and result.stdout.strip() == "up", result.stderr[-2000:]


def test_db_current_check_upgrade(postgres: pg_server.PgServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path))
    monkeypatch.setenv("SMRITI_DATABASE_URL", _empty_database(postgres, "cli"))
    assert main(["db", "check"]) == 1
    out = capsys.readouterr()
    assert "nothing yet (empty)" in out.out and "smriti db upgrade" in out.err
    assert main(["db", "upgrade"]) == 0
    assert main(["db", "check"]) == 0
    assert main(["db", "current"]) == 0
    shown = capsys.readouterr().out
    assert "core_0" in shown and "Up to date." in shown and "postgres@" in shown


def test_an_unreachable_database_is_one_clear_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path))
    monkeypatch.setenv("SMRITI_DATABASE_URL", f"postgresql://bot:s3cret@127.0.0.1:{pg_server.free_port()}/smriti")
    assert main(["db", "current"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot be reached" in err and "Traceback" not in err
    assert "s3cret" not in err
    monkeypatch.setenv("SMRITI_DATABASE_URL", "mysql://bot@127.0.0.1/smriti")
    assert main(["db", "current"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "mysql://" in err and "postgresql://" in err


def test_url_schemes() -> None:
    assert normalize_database_url("postgres://u:p@h/d") == "postgresql+psycopg://u:p@h/d"
    assert normalize_database_url("postgresql://u@h:5432/d") == "postgresql+psycopg://u@h:5432/d"
    assert normalize_database_url("sqlite:////var/lib/smriti/smriti.db") == "sqlite:////var/lib/smriti/smriti.db"
    with pytest.raises(UnsupportedDatabaseUrl):
        normalize_database_url("oracle://x")


async def test_a_silent_memory_server_is_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(data_dir=tmp_path, hindsight_url="http://127.0.0.1:9")
    async with MemoryClient(settings.memory_url) as memory:
        assert not await warn_if_memory_down(memory, settings)
    assert "does not answer" in capsys.readouterr().err
