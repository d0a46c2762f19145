"""What every section shares: a running App on fresh, uniquely named banks that are deleted afterwards."""

import shutil
import sys
import tempfile
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.core.app import App, open_database
from bot.store import Database
from handlers import INSTALLED
from bot.paths import SEEDS_DIR
from bot.services.registers.seed import import_seed_registers
from bot.store.people import import_people_file
from bot.core.registry import Registry
from bot.settings import Settings
from memory import MemoryClient, MemoryLayerError


def fresh_prefix(section: str) -> str:
    """Return a bank prefix no other run (or test session) uses."""
    return f"bench{uuid.uuid4().hex[:8]}-{section}"


async def delete_banks(memory: MemoryClient, banks: list[str]) -> None:
    """Delete each named bank, saying so on stderr when one cannot go (it would be left behind)."""
    for bank in banks:
        try:
            await memory.delete_bank(bank)
        except MemoryLayerError as exc:
            print(f"could not delete bank {bank}: {exc}", file=sys.stderr)


def seed_registers(database: Database, tenants: list[str], pack_names: list[str]) -> None:
    """Import the packs' seed registers into each bench tenant through the customer import path: every
    tenant owns its registers, so a fresh tenant has none until they are imported."""
    packages = INSTALLED.packages()
    for tenant in tenants:
        for pack in pack_names:
            import_seed_registers(database, tenant, pack, packages[pack])


@asynccontextmanager
async def bench_app(url: str, section: str, pack_names: list[str], tenants: list[str],
                    registry: Registry | None = None, database_url: str | None = None,
                    **settings_overrides: object) -> AsyncIterator[App]:
    """Yield a keyless App (like the tests' make_settings) with its own state dir and bank prefix.

    Afterwards every bank of `tenants` x `pack_names` is deleted by name: MemoryClient.bank_ids() returns only
    the server's first page of banks, so a prefix scan could miss ours on a busy server.
    """
    home = Path(tempfile.mkdtemp(prefix=f"smriti-{section}-"))
    settings = Settings(data_dir=home, hindsight_url=url, bank_prefix=fresh_prefix(section),
                        database_url_override=database_url, **settings_overrides)  # type: ignore[arg-type]
    database = open_database(settings)
    try:
        if registry is None:  # the seed registry's people, as `smriti seed` leaves them
            import_people_file(database, SEEDS_DIR / "users.json")
        seed_registers(database, tenants, pack_names)
    finally:
        database.dispose()
    app = await App.start(settings, registry=registry, pack_names=pack_names)
    try:
        yield app
    finally:
        try:
            await delete_banks(app.services.memory, [app.services.bank_of(t, p) for t in tenants for p in pack_names])
        finally:
            await app.aclose()
            shutil.rmtree(home, ignore_errors=True)
