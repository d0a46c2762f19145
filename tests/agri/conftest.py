"""Fixtures for the field pack: the seeded season in the real local Hindsight (loaded once per session),
a running App, users of a separate tenant for tests that save, and a notifier that records follow-ups."""

import uuid
from collections.abc import AsyncIterator, Callable
from datetime import date, datetime, time, timezone
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.messages import Incoming, Reply
from bot.core.outbound import Purpose
from bot.paths import SEEDS_DIR
from bot.core.registry import Registry, User
from bot.settings import Settings
from handlers.agri.pack import AgriPack
from handlers.agri.register import FieldBook
from bot.core.pack import SeedReport
from memory.asof import IST
from tests.conftest import make_settings
from tests.registers import seed_book

CAPTURE_TENANT = "agritest"


class RecordingNotifier:
    """A transport that records what the bot sends unprompted."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, list[Reply], Purpose]] = []

    async def notify(self, user: User, replies: list[Reply], purpose: Purpose) -> bool:
        self.sent.append((user.user_id, replies, purpose))
        return True


def agri_users() -> list[User]:
    """The seeded users plus two officers in a tenant of their own, so saving never touches the seeded bank."""
    seeded = Registry.load(SEEDS_DIR / "users.json").users
    extra = [
        User(user_id="ravi", name="Ravi", role="officer", pack="agri", tenant=CAPTURE_TENANT, lang="en",
             officer_id="O01", territories=["chevella", "moinabad", "shankarpally"]),
        User(user_id="sita", name="Sita", role="officer", pack="agri", tenant=CAPTURE_TENANT, lang="te",
             officer_id="O02", territories=["chevella", "vikarabad", "tandur"]),
    ]
    return seeded + extra


def say(sender: str, text: str | None = None, callback: str | None = None, media: object = None) -> Incoming:
    return Incoming(transport="console", sender=sender, delivery_id=uuid.uuid4().hex, text=text,
                    callback=callback, media=media)


def button(reply: Reply, label: str) -> str:
    return next(b.data for b in reply.flat_buttons() if b.label == label)


def fixed_clock(day: date) -> Callable[[], datetime]:
    return lambda: datetime.combine(day, time(11, 0), IST).astimezone(timezone.utc)


@pytest.fixture(scope="session")
def book() -> FieldBook:
    return seed_book()


@pytest.fixture(scope="session")
async def seeded(hindsight_url: str, bank_prefix: str, tmp_path_factory: pytest.TempPathFactory,
                 session_memory: object) -> SeedReport:
    """Load the agri seeds once into tenant demo's bank, through the pack's own load_seeds."""
    settings = make_settings(tmp_path_factory.mktemp("agri-seed"), hindsight_url, bank_prefix)
    app = await App.start(settings, pack_names=["agri"])
    try:
        return await app.packs["agri"].load_seeds("demo")
    finally:
        await app.aclose()


@pytest.fixture
async def agri_app(settings: Settings) -> AsyncIterator[App]:
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    # The database is new for every test but the bank lives for the session: start the capture tenant's bank
    # empty too, so one test's saved visits are never another's.
    try:
        await app.services.memory.delete_bank(app.services.bank_of(CAPTURE_TENANT, "agri"))
    except Exception:  # noqa: BLE001 - a bank never made is nothing to delete
        pass
    yield app
    await app.aclose()


@pytest.fixture
def own_bank_settings(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> Settings:
    """Settings whose bank is this test's alone (tests that count what a bank holds)."""
    return make_settings(tmp_path, hindsight_url, f"{bank_prefix}-{uuid.uuid4().hex[:8]}")


@pytest.fixture
async def own_bank_app(own_bank_settings: Settings) -> AsyncIterator[App]:
    app = await App.start(own_bank_settings, registry=Registry(agri_users()), pack_names=["agri"])
    yield app
    await app.aclose()


@pytest.fixture
def pack(agri_app: App) -> AgriPack:
    found = agri_app.packs["agri"]
    assert isinstance(found, AgriPack)
    return found


@pytest.fixture
def notifier(agri_app: App) -> RecordingNotifier:
    recorder = RecordingNotifier()
    agri_app.services.outbound.register("console", recorder)
    return recorder


def settings_with_groq(tmp_path: Path, hindsight_url: str, bank_prefix: str, groq_url: str) -> Settings:
    from pydantic import SecretStr
    return make_settings(tmp_path, hindsight_url, bank_prefix, groq_api_key=SecretStr("k"), groq_base_url=groq_url)
