"""Tenancy: a command acts inside its tenant only, a refusal names nothing the asker may not see, and a pack's
admin imports only that pack's registers. Each test is an attack from issue 31 that worked on main before.
"""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.cli.subjects import forget
from bot.core.app import App
from bot.core.chat_import import ChatImportRow
from bot.core.messages import Incoming, Media
from bot.core.registry import Registry, User
from bot.settings import Settings
from bot.store.people import ChannelRow, PersonRow, TerritoryRow, import_people
from memory.subjects import Subject
from tests.legal.helpers import say

USERS = [
    User(user_id="tenant-a-officer", name="Bhargavi", role="officer", pack="agri", tenant="alpha",
         officer_id="A01", territories=["kothur"], telegram_ids=[770001]),
    User(user_id="tenant-a-admin", name="Sailu", role="admin", pack="agri", tenant="alpha", telegram_ids=[770002]),
]


@pytest.fixture
async def two_tenants(settings: Settings) -> AsyncIterator[App]:
    running = await App.start(settings, registry=Registry(USERS))
    import_people(running.services.database, USERS)
    yield running
    await running.aclose()


def by_telegram(user_id: str, text: str | None = None, media: Media | None = None) -> Incoming:
    telegram = next(u.telegram_ids[0] for u in USERS if u.user_id == user_id)
    return Incoming(transport="telegram", sender=str(telegram), delivery_id=uuid.uuid4().hex, text=text, media=media)


def rows_of(app: App, person_id: str) -> dict[str, int]:
    with app.services.database.session() as s:
        return {"person": len(list(s.scalars(select(PersonRow).where(PersonRow.person_id == person_id)))),
                "channels": len(list(s.scalars(select(ChannelRow).where(ChannelRow.person_id == person_id)))),
                "territories": len(list(s.scalars(select(TerritoryRow).where(TerritoryRow.person_id == person_id))))}


async def test_forget_in_tenant_b_does_not_remove_channels_and_territories_of_tenant_a(two_tenants: App) -> None:
    before = rows_of(two_tenants, "tenant-a-officer")
    assert before == {"person": 1, "channels": 1, "territories": 1}
    subject = Subject(tenant="bravo", kind="person", subject_id="tenant-a-officer")
    assert await forget(two_tenants, subject, lambda _: True, by="attacker") == 0
    assert rows_of(two_tenants, "tenant-a-officer") == before
    assert two_tenants.services.registry.lookup("telegram", "770001") is not None  # still signs in


async def test_forget_in_the_persons_own_tenant_still_removes_them(two_tenants: App) -> None:
    subject = Subject(tenant="alpha", kind="person", subject_id="tenant-a-officer")
    assert await forget(two_tenants, subject, lambda _: True, by="admin") == 0
    assert rows_of(two_tenants, "tenant-a-officer") == {"person": 0, "channels": 0, "territories": 0}


@pytest.mark.hindsight
async def test_brief_for_a_farmer_outside_the_officers_territory_does_not_name_the_farmer(app: App) -> None:
    book = app.packs["agri"].book_for("demo")  # type: ignore[attr-defined]
    srinivas = app.services.registry.by_id("srinivas")
    assert srinivas is not None
    outside = [f for f in book.farmers.values() if f.village not in srinivas.territories]
    assert outside, "the seeds need a farmer outside srinivas's villages"
    for farmer in outside[:3]:
        [reply] = await app.conversation.handle(say("srinivas", f"/brief {farmer.id}"))
        assert farmer.name not in reply.text and farmer.village not in reply.text.lower()
        assert farmer.id in reply.text  # only what the officer typed is echoed


async def test_an_agri_admin_cannot_import_ap_vendors(two_tenants: App, tmp_path: Path) -> None:
    conversation = two_tenants.conversation
    [refused] = await conversation.handle(by_telegram("tenant-a-admin", "/import vendors"))
    assert "vendors" not in refused.text and "farmers" in refused.text
    path = tmp_path / "vendors.csv"
    path.write_text("Vendor ID,Vendor Name,GSTIN\nV-1,Evil Traders,36AAKFS4821M1Z3\n", encoding="utf-8")
    media = Media(kind="document", path=path, file_name="vendors.csv", mime_type="text/csv",
                  size_bytes=path.stat().st_size)
    [captioned] = await conversation.handle(by_telegram("tenant-a-admin", "/import vendors", media=media))
    assert not captioned.buttons
    with two_tenants.services.database.session() as s:
        assert list(s.scalars(select(ChatImportRow).where(ChatImportRow.kind == "vendors"))) == []
