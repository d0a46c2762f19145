"""Fixtures for the AP pack: an App with only the ap pack, fresh seeded tenants, and the sample invoices."""

import uuid
from collections.abc import AsyncIterator

import pytest

from bot.core.app import App
from bot.core.registry import User
from bot.store.people import add_person
from bot.settings import Settings
from handlers.ap.pack import APPack, seed_bank
from handlers.ap.ledger import Ledger
from handlers.ap.models import Policy
from memory import MemoryClient, bank_id
from tests.registers import seed_ledger


@pytest.fixture
async def ap_app(settings: Settings) -> AsyncIterator[App]:
    """A running App (no Groq key) with just the accounts-payable pack."""
    running = await App.start(settings, pack_names=["ap"])
    yield running
    await running.aclose()


@pytest.fixture
def pack(ap_app: App) -> APPack:
    found = ap_app.packs["ap"]
    assert isinstance(found, APPack)
    return found


@pytest.fixture
async def tenant(pack: APPack) -> str:
    """A tenant of its own with the AP seeds retained, so tests never see each other's decisions."""
    name = f"ap{uuid.uuid4().hex[:8]}"
    await pack.load_seeds(name)
    # Its AP clerk, whom `--as anita` names on the command line (people ids are one per tenant).
    add_person(pack.services.database, User(user_id=f"{name}-anita", name="Anita Sharma", role="clerk", pack="ap",
                                            tenant=name))
    return name


@pytest.fixture(scope="session")
async def demo(session_memory: MemoryClient, bank_prefix: str) -> str:
    """The demo tenant (Anita's), seeded once per session; tests may add decisions but never rely on none."""
    await seed_bank(session_memory, bank_id("demo", "ap", prefix=bank_prefix), seed_ledger().ledger)
    return "demo"


@pytest.fixture(scope="session")
def ledger() -> Ledger:
    return seed_ledger().ledger


@pytest.fixture(scope="session")
def policy() -> Policy:
    return seed_ledger().policy
