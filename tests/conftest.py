"""Shared fixtures: a guard that fails any test reaching beyond loopback, the real local Hindsight,
per-session bank isolation, and a ready App wired to fakes."""

import ipaddress
import os
import socket
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# In CI the generated examples are the same on every run, so a landing is never decided by a lucky draw;
# developers keep random draws, which is how new failing inputs are found.
hypothesis_settings.register_profile("ci", derandomize=True)
if os.environ.get("CI"):
    hypothesis_settings.load_profile("ci")

from bot.core.app import App, open_database
from bot.paths import SEEDS_DIR
from bot.store.people import import_people_file
from bot.settings import Settings, load_settings
from bot.store import Database
from memory import MemoryClient
from memory import local as local_memory
from tests.databases import empty_tables, fresh_postgres_database, postgres_reachable, sqlite_database
from tests.fakes.groq import FakeGroq
from tests.registers import seed_tenants

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _allowed(address: object) -> bool:
    if isinstance(address, (str, bytes)):
        return True  # AF_UNIX
    host = address[0] if isinstance(address, tuple) else address
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _guarded_connect(self: socket.socket, address: object) -> None:
    if not _allowed(address):
        raise AssertionError(f"test tried to reach the network: {address!r}")
    return _real_connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    if not _allowed(address):
        raise AssertionError(f"test tried to reach the network: {address!r}")
    return _real_connect_ex(self, address)


@pytest.fixture(autouse=True)
def no_internet(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test that opens a connection to anything but loopback."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)


@pytest.fixture(autouse=True)
def seed_registers_at_start(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Most tests lean on the demo's registers in tenants of their own: every App a test starts gets the seed
    registers imported into each of its registry's tenants, through the import path (a few ms). Tests marked
    own_registers give their tenants registers themselves."""
    if request.node.get_closest_marker("own_registers"):
        return
    real_start = App.start.__func__  # type: ignore[attr-defined]

    async def start(cls: type[App], settings: Settings, *args: object, **kwargs: object) -> App:
        app = await real_start(cls, settings, *args, **kwargs)
        tenants = {u.tenant for u in app.services.registry.users} | {settings.default_tenant}
        seed_tenants(app.services.database, tenants)
        return app

    monkeypatch.setattr(App, "start", classmethod(start))


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database on the embedded pg0 server for this session, dropped at the end."""
    if not postgres_reachable():
        pytest.skip("the embedded PostgreSQL (127.0.0.1:55433) is not running: `smriti memory up`")
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """The one database, migrated and empty: on SQLite and on a real PostgreSQL."""
    if request.param == "sqlite":
        db = sqlite_database(tmp_path)
        yield db
        db.dispose()
        return
    db = Database(request.getfixturevalue("postgres_url"))
    empty_tables(db)
    yield db
    db.dispose()


@pytest.fixture(scope="session")
def hindsight_url() -> str:
    """The real local Hindsight: the one .ci/run started, or started here if none answers."""
    explicit = os.environ.get("SMRITI_TEST_HINDSIGHT_URL")
    if explicit:
        return explicit
    config = load_settings().local_server
    if not local_memory.answering(config.url):
        local_memory.start(config)
    return config.url


@pytest.fixture(scope="session")
def bank_prefix() -> str:
    """A prefix unique to this test session, so runs never see each other's memories."""
    return f"t{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
async def session_memory(hindsight_url: str, bank_prefix: str) -> AsyncIterator[MemoryClient]:
    client = MemoryClient(hindsight_url)
    yield client
    for bank in await client.bank_ids():
        if bank.startswith(f"{bank_prefix}-"):
            await client.delete_bank(bank)
    await client.aclose()


@pytest.fixture
async def memory(session_memory: MemoryClient) -> MemoryClient:
    return session_memory


@pytest.fixture
def fake_groq() -> Iterator[FakeGroq]:
    fake = FakeGroq()
    yield fake
    fake.close()


def make_settings(tmp_path: Path, hindsight_url: str, bank_prefix: str, **overrides: object) -> Settings:
    """Settings for a test: its own state directory, the real local Hindsight, a session-unique bank prefix,
    the packaged Whisper tiny.en for local speech (a named model would be fetched from a hub),
    and a database holding the seed registry's people (tenant demo), as `smriti seed` leaves it."""
    overrides.setdefault("whisper_model", "packaged")
    settings = Settings(data_dir=tmp_path, hindsight_url=hindsight_url, bank_prefix=bank_prefix, **overrides)
    database = open_database(settings)
    try:
        import_people_file(database, SEEDS_DIR / "users.json")
    finally:
        database.dispose()
    return settings


@pytest.fixture
def settings(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> Settings:
    return make_settings(tmp_path, hindsight_url, bank_prefix)


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[App]:
    """A running App without a Groq key: the deterministic, keyless path."""
    running = await App.start(settings)
    yield running
    await running.aclose()
