"""Test help: the seed registers imported into a test's tenants through the customer import path."""

import tempfile
from functools import cache
from pathlib import Path

from bot.services.registers.seed import import_seed_registers
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.agri.register import FieldBook
from handlers.agri.registers import FieldBooks
from handlers.ap.registers import Ledgers, TenantLedger


def seed_tenants(database: Database, tenants: set[str], packs: list[str] | None = None) -> None:
    """Import every pack's seed registers (or the named packs') into each tenant (idempotent)."""
    for tenant in sorted(tenants):
        for pack, module in INSTALLED.packages().items():
            if packs is None or pack in packs:
                import_seed_registers(database, tenant, pack, module)


@cache
def seed_database() -> Database:
    """A database of its own holding the seed registers in tenant demo (made once per test session)."""
    folder = Path(tempfile.mkdtemp(prefix="smriti-seed-registers-"))
    database = Database(f"sqlite:///{folder / 'seed.db'}")
    upgrade(database, INSTALLED.migrations())
    seed_tenants(database, {"demo"})
    return database


def seed_book() -> FieldBook:
    """The demo's FieldBook, as the pack reads it from the database."""
    return FieldBooks(seed_database()).for_tenant("demo")




def seed_ledger() -> TenantLedger:
    """The demo's AP ledger and policy, as the pack reads them from the database."""
    return Ledgers(seed_database()).for_tenant("demo")
