"""Honest degraded replies: when memory cannot be reached, nothing says "no history" or "memory ON"; the reply
says memory is unreachable and shows what the register knows."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.app import App
from bot.services.i18n import text
from bot.core.messages import Incoming
from handlers.agri.pack import AgriPack
from handlers.legal.models import CaseRecord
from handlers.legal.registers import CaseRegisters
from tests.conftest import make_settings
from tests.core.notes_pack import registry_in_tenant
from tests.fakes.proxy import SwitchableProxy

pytestmark = pytest.mark.hindsight
TENANT = "core-degraded"
CASE = CaseRecord(case_id="pydimarri", title="Pydimarri Constructions v. Bheemili Municipal Council",
                  numbers=["O.S. 77/2025"], aliases=["Pydimarri"],
                  court="Principal Junior Civil Judge, Bheemunipatnam")


@pytest.fixture
async def down(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[tuple[App, SwitchableProxy]]:
    """The full App with every pack, its memory reached through a proxy the test cuts."""
    host, port = hindsight_url.removeprefix("http://").split(":")
    proxy = SwitchableProxy(host, int(port))
    await proxy.up()
    settings = make_settings(tmp_path, proxy.url, bank_prefix)
    app = await App.start(settings, registry=registry_in_tenant(TENANT))
    CaseRegisters(app.services.database).add(TENANT, [CASE])
    await proxy.down()
    yield app, proxy
    await app.aclose()
    await proxy.down()


async def ask(app: App, user: str, body: str) -> str:
    replies = await app.conversation.handle(
        Incoming(transport="console", sender=user, delivery_id=uuid.uuid4().hex, text=body))
    return "\n".join(r.text for r in replies)


async def test_memory_command_says_unreachable_then_recovers(down: tuple[App, SwitchableProxy]) -> None:
    app, proxy = down
    assert await ask(app, "srinivas", "/memory") == text("en", "core.memory_unreachable")
    await proxy.up()
    assert await ask(app, "srinivas", "/memory") != text("en", "core.memory_unreachable")


async def test_brief_says_unreachable_and_shows_the_register(down: tuple[App, SwitchableProxy]) -> None:
    app, _ = down
    pack = app.packs["agri"]
    assert isinstance(pack, AgriPack)
    officer = app.services.registry.by_id("srinivas")
    assert officer is not None
    farmer = next(f for f in pack.book_for(TENANT).farmers.values() if f.village in officer.territories)
    reply = await ask(app, "srinivas", f"/brief {farmer.name}")
    assert "memory UNREACHABLE" in reply and "memory ON" not in reply
    assert text("en", "agri.memory_unavailable") in reply
    assert text("en", "agri.no_history") not in reply and "has no history" not in reply
    assert f"{farmer.acres:g} acres" in reply and text("en", f"agri.crop_{farmer.crops[0]}") in reply
    assert text("en", "agri.brief_confidence", confidence=text("en", "agri.confidence_low")) in reply


async def test_legal_reads_say_unreachable_and_show_the_register(down: tuple[App, SwitchableProxy]) -> None:
    app, _ = down
    answer = await ask(app, "aditya", "/ask what happened last time in Pydimarri?")
    assert answer.startswith("Memory is unreachable right now, so I cannot see the hearings of Pydimarri.")
    assert "O.S. 77/2025" in answer and CASE.court in answer and CASE.title in answer
    today = await ask(app, "aditya", "/today")
    assert today.startswith("Memory is unreachable right now, so I cannot build the cause list for ")
    cases = len(CaseRegisters(app.services.database).for_tenant(TENANT).cases)
    assert "not the same as an empty day" in today and f"{cases} cases" in today
