"""Fixtures for isolation tests: the agri season seeded into tenant demo (the agri suite's own fixture), the
AP seeds in tenant demo, a few Seabreeze hearings in demo's legal bank, and Apps for seeded or extra users."""

import uuid
from collections.abc import AsyncIterator
from datetime import date, datetime
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.core.app import App
from bot.core.messages import Incoming, Reply
from bot.paths import SEEDS_DIR
from bot.core.registry import Registry, User
from handlers.ap.pack import seed_bank
from handlers.legal.backlog import CASES_FILE
from handlers.legal.models import ProposedEntry, Upload
from handlers.legal.records import hearing_memory
from handlers.legal.register import CaseRegister
from memory import MemoryClient, bank_id
from memory.asof import IST
from tests.agri.conftest import seeded  # noqa: F401  (the seeded season in tenant demo, loaded by the pack)
from tests.conftest import make_settings
from tests.fakes.groq import FakeGroq
from tests.registers import seed_ledger, seed_tenants

SEABREEZE_HEARINGS = [
    (date(2026, 8, 27), "isolation check: objections not ready, counsel sought time"),
    (date(2026, 9, 24), "isolation check: objections draft sixty percent done"),
]
"""Two hearings of the demo practice's Seabreeze suit, with words no other test uses."""


def say(sender: str, text: str | None = None, callback: str | None = None, media: object = None) -> Incoming:
    return Incoming(transport="console", sender=sender, delivery_id=uuid.uuid4().hex, text=text,
                    callback=callback, media=media)  # type: ignore[arg-type]


def press(reply: Reply, label_start: str) -> str:
    return next(b.data for b in reply.flat_buttons() if b.label.startswith(label_start))


def seeded_users() -> list[User]:
    return Registry.load(SEEDS_DIR / "users.json").users


async def start_app(tmp_path: Path, hindsight_url: str, bank_prefix: str, users: list[User] | None = None,
                    groq: FakeGroq | None = None, key: str = "k", packs: list[str] | None = None) -> App:
    """Start an App on the real local Hindsight; with `groq`, the key points at the fake Groq."""
    extra: dict[str, object] = {}
    if groq is not None:
        extra = {"groq_api_key": SecretStr(key), "groq_base_url": groq.url}
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, **extra)
    return await App.start(settings, registry=Registry(users or seeded_users()), pack_names=packs)


@pytest.fixture
async def seeded_app(request: pytest.FixtureRequest, tmp_path: Path, hindsight_url: str,
                     bank_prefix: str) -> AsyncIterator[App]:
    """A keyless App with every pack and the registry's own users. Under own_registers each tenant has only its
    own pack's registers: demo all three, greenfield the agri ones, othercorp the AP ones, iyer-chambers none."""
    app = await start_app(tmp_path, hindsight_url, bank_prefix)
    if request.node.get_closest_marker("own_registers"):
        database = app.services.database
        seed_tenants(database, {"demo"})
        seed_tenants(database, {"greenfield"}, ["agri"])
        seed_tenants(database, {"othercorp"}, ["ap"])
    yield app
    await app.aclose()


@pytest.fixture(scope="session")
async def ap_demo(session_memory: MemoryClient, bank_prefix: str) -> str:
    """Tenant demo's AP bank with the seeded vendor histories and past exceptions."""
    bank = bank_id("demo", "ap", prefix=bank_prefix)
    await seed_bank(session_memory, bank, seed_ledger().ledger)
    return bank


@pytest.fixture(scope="session")
async def legal_demo(hindsight_url: str, bank_prefix: str, tmp_path_factory: pytest.TempPathFactory,
                     session_memory: MemoryClient) -> str:
    """Tenant demo's legal bank with two Seabreeze hearings (the demo practice's register has the case)."""
    app = await start_app(tmp_path_factory.mktemp("legal-demo"), hindsight_url, bank_prefix, packs=["legal"])
    try:
        bank = app.services.bank_of("demo", "legal")
        await app.services.memory.ensure_bank(app.packs["legal"].bank_profile(bank))
        case = CaseRegister.load(CASES_FILE).get("seabreeze")
        assert case is not None
        upload = Upload(upload_id="uiso1", source_file="isolation_seabreeze.txt", author="Divya",
                        author_id="divya", uploaded_at=datetime(2026, 9, 25, 21, 0, tzinfo=IST))
        items = [hearing_memory(ProposedEntry(case_id="seabreeze", hearing_date=day, date_source="text",
                                              next_date=None, text=words, confidence=0.85), case, upload)
                 for day, words in SEABREEZE_HEARINGS]
        await app.services.memory.retain(bank, items)
    finally:
        await app.aclose()
    return bank
