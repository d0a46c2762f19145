"""Invite walks over the real transports with the real packs: an admin makes a code in chat, a new person joins with
it (Telegram deep link `/start CODE`, WhatsApp `join CODE`) and is served at once in the invite's tenant, pack and
role; reused, expired, mistyped and other-tenant codes are refused and nothing of the sender is kept (database
tables and every file under SMRITI_HOME); a non-admin cannot /invite."""

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import uvicorn
from pydantic import SecretStr
from sqlalchemy import func, select

from bot.core.app import App
from bot.store.invites import InviteRequest, InviteStore
from bot.store.people import ChannelRow, PersonRow, import_people
from bot.core.registry import User
from bot.store.state import InboxRow
from bot.store import Base, Database
from bot.transports.telegram.app import TelegramTransport
from bot.transports.whatsapp.webhook import create_app
from bot.transports.whatsapp.transport import WhatsAppTransport
from handlers.legal.registers import CaseRegisters
from tests.conftest import make_settings
from tests.fakes.telegram import TOKEN, FakeTelegram
from tests.fakes.twilio import FakeTwilio
from tests.registers import seed_tenants
from tests.transports.test_strangers import files_holding
from tests.transports.test_whatsapp import Clock, WhatsApp, stop_whatsapp, whatsapp_settings

pytestmark = pytest.mark.hindsight

INTAKE = Base.metadata.tables["intake_items"]

ANITA_TG, SRINIVAS_WA = 3001, "+919800000001"  # registered in tenant demo (seeds/users.json)
MEENA_TG, NEW_CLERK_TG, LATE_TG, OLD_CODE_TG = 731904561, 730218847, 739955120, 736610293
SUDHA_WA, NEW_LAWYER_WA, SECOND_WA, TYPO_WA = "+919845012001", "+919845077002", "+919845033003", "+919845044004"


def tables(database: Database) -> tuple[int, int, int, int]:
    """People, channels, intake items and raw inbox rows."""
    with database.session() as s:
        return tuple(s.scalar(select(func.count()).select_from(t)) or 0  # type: ignore[return-value]
                     for t in (PersonRow.__table__, ChannelRow.__table__, INTAKE, InboxRow.__table__))


def person_on(database: Database, channel: str, address: str) -> PersonRow | None:
    with database.session() as s:
        channel_row = s.get(ChannelRow, (channel, address))
        return s.get(PersonRow, channel_row.person_id) if channel_row else None


def expired_code(database: Database, tenant: str, role: str) -> str:
    issued = InviteStore(database).create(InviteRequest(tenant=tenant, role=role, pack="legal" if role == "lawyer"
                                                        else "ap", hours=1),  # type: ignore[arg-type]
                                          now=datetime.now(timezone.utc) - timedelta(hours=2))
    return issued.code


# --- Telegram --------------------------------------------------------------------------------------------------


class TelegramBot:
    def __init__(self, app: App, fake: FakeTelegram, transport: TelegramTransport) -> None:
        self.app, self.fake, self.transport = app, fake, transport
        self.running = True

    async def stop(self) -> None:
        if self.running:
            self.running = False
            await self.transport.stop()
            await self.app.aclose()

    def texts_to(self, chat_id: int) -> list[str]:
        return [c.params["text"] for c in self.fake.sent("sendMessage") if c.params["chat_id"] == chat_id]

    async def say(self, chat_id: int, body: str, replies: int = 1) -> list[str]:
        before = len(self.texts_to(chat_id))
        self.fake.send_text(chat_id, body)
        while len(self.texts_to(chat_id)) < before + replies:
            await self.fake.wait_for("sendMessage", len(self.fake.sent("sendMessage")) + 1, timeout=60)
        return self.texts_to(chat_id)[before:]


@pytest.fixture
async def telegram(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[TelegramBot]:
    fake = FakeTelegram()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                             telegram_base_url=fake.url)
    app = await App.start(settings)
    import_people(app.services.database, [User(user_id="meena", name="Meena Kumari", role="admin", pack="ap",
                                               tenant="dhan-books", telegram_ids=[MEENA_TG])])
    app.services.registry.refresh()
    seed_tenants(app.services.database, {"dhan-books"}, packs=["ap"])
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    await transport.start_polling()
    bot = TelegramBot(app, fake, transport)
    yield bot
    await bot.stop()
    fake.close()


async def test_telegram_an_admin_invites_a_clerk_who_joins_by_the_deep_link_and_is_served(
        telegram: TelegramBot, tmp_path: Path) -> None:
    database = telegram.app.services.database
    [refused] = await telegram.say(ANITA_TG, "/invite clerk")
    assert refused == "Only an administrator can do that."

    made, link = await telegram.say(MEENA_TG, "/invite clerk Ravi Teja", replies=2)
    assert made.startswith("Invite for an accounts clerk (") and "valid until" in made
    [code] = re.findall(r"https://t\.me/SmritiTestBot\?start=([a-z2-9]{10})$", link)

    before = tables(database)
    [welcome] = await telegram.say(NEW_CLERK_TG, f"/start {code}")
    assert welcome.startswith("Welcome, Ravi Teja. You are in dhan-books as an accounts clerk")
    joined = person_on(database, "telegram", str(NEW_CLERK_TG))
    assert joined is not None and (joined.tenant_id, joined.pack, joined.role) == ("dhan-books", "ap", "clerk")
    [vendors] = await telegram.say(NEW_CLERK_TG, "/vendors")
    assert vendors.startswith("Vendor master:") and "ABC Technologies" in vendors, "served at once by the ap pack"
    menus = [c for c in telegram.fake.sent("setMyCommands") if c.params.get("scope", {}).get("chat_id") == NEW_CLERK_TG]
    assert menus and any(c["command"] == "vendors" for c in menus[-1].params["commands"])

    after_join = tables(database)
    assert after_join[:2] == (before[0] + 1, before[1] + 1)
    [reused] = await telegram.say(LATE_TG, f"/start {code}")
    assert "does not work" in reused and "Nothing you sent was stored" in reused
    [old] = await telegram.say(OLD_CODE_TG, f"/start {expired_code(database, 'dhan-books', 'clerk')}")
    assert "does not work" in old
    [stranger] = await telegram.say(OLD_CODE_TG + 1, "hello, I am new here")
    assert "only for registered users" in stranger
    other = InviteStore(database).create(InviteRequest(tenant="dhan-books", role="clerk", pack="ap"))
    [elsewhere] = await telegram.say(ANITA_TG, f"/start {other.code}")
    assert "for another organisation" in elsewhere
    assert InviteStore(database).find(other.code).used_at is None  # type: ignore[union-attr]
    assert person_on(database, "telegram", str(ANITA_TG)).tenant_id == "demo"  # type: ignore[union-attr]
    assert tables(database)[:2] == after_join[:2]
    assert person_on(database, "telegram", str(LATE_TG)) is None
    with database.session() as s:
        assert s.scalar(select(func.count()).select_from(INTAKE).where(
            INTAKE.c.user_id == joined.person_id)) == 1, "only /vendors was taken in, not the code"
    await telegram.stop()
    refused_ids = [str(i).encode() for i in (LATE_TG, OLD_CODE_TG, OLD_CODE_TG + 1)]
    assert files_holding(tmp_path, *refused_ids, code.encode(), other.code.encode()) == []


# --- WhatsApp --------------------------------------------------------------------------------------------------


@pytest.fixture
async def whatsapp(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[WhatsApp]:
    fake = FakeTwilio()
    settings = whatsapp_settings(tmp_path, hindsight_url, bank_prefix, fake)
    app = await App.start(settings)
    transport = WhatsAppTransport(app.conversation, clock=Clock())
    server = uvicorn.Server(uvicorn.Config(create_app(transport), host="127.0.0.1", port=0, log_level="warning"))
    task = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    wa = WhatsApp(app, transport, fake, None, server, task, Clock(), iter(range(1, 10**6)))  # type: ignore[arg-type]
    import_people(wa.app.services.database, [User(user_id="sudha", name="Sudha Rao", role="admin", pack="legal",
                                                  tenant="nyaya", whatsapp_numbers=[SUDHA_WA])])
    app.services.registry.refresh()
    yield wa
    if not wa.server.should_exit:
        await stop_whatsapp(wa)
    fake.close()


async def say(wa: WhatsApp, number: str, body: str, replies: int = 1) -> list[str]:
    before = len(wa.fake.bodies_to(number))
    await wa.say(number, body)
    while len(wa.fake.bodies_to(number)) < before + replies:
        await wa.fake.wait_sent(len(wa.fake.sent()) + 1, timeout=60)
    return wa.fake.bodies_to(number)[before:]


async def test_whatsapp_an_admin_invites_a_lawyer_who_joins_with_join_code_and_is_served(
        whatsapp: WhatsApp, tmp_path: Path) -> None:
    database = whatsapp.app.services.database
    [refused] = await say(whatsapp, SRINIVAS_WA, "/invite lawyer")
    assert refused == "Only an administrator can do that."
    [usage] = await say(whatsapp, SUDHA_WA, "/invite judge")
    assert usage.startswith("Send /invite and a role")

    made, forward = await say(whatsapp, SUDHA_WA, "/invite lawyer Farhana Begum", replies=2)
    assert "a lawyer" in made
    [code] = re.findall(r"join ([a-z2-9]{10})", forward)
    assert f"https://wa.me/14155238886?text=join%20{code}" in forward

    before = tables(database)
    [welcome] = await say(whatsapp, NEW_LAWYER_WA, f"JOIN {code.upper()}")
    assert welcome.startswith("Welcome, Farhana Begum. You are in nyaya as a lawyer")
    joined = person_on(database, "whatsapp", NEW_LAWYER_WA)
    assert joined is not None and (joined.tenant_id, joined.pack, joined.role) == ("nyaya", "legal", "lawyer")
    [help_text] = await say(whatsapp, NEW_LAWYER_WA, "/help")
    assert "/cases" in help_text and "/vendors" not in help_text, "served at once by the legal pack"
    user = whatsapp.app.services.registry.lookup("whatsapp", f"whatsapp:{NEW_LAWYER_WA}")
    assert user is not None and whatsapp.app.services.bank_for(user).endswith("-nyaya-legal")

    after_join = tables(database)
    assert after_join[:2] == (before[0] + 1, before[1] + 1)
    [reused] = await say(whatsapp, SECOND_WA, f"join {code}")
    assert "does not work" in reused
    [typo] = await say(whatsapp, TYPO_WA, f"join {code[:-1]}{'b' if code[-1] != 'b' else 'c'}")
    assert "does not work" in typo
    [old] = await say(whatsapp, TYPO_WA + "9", f"join {expired_code(database, 'nyaya', 'lawyer')}")
    assert "does not work" in old
    other = InviteStore(database).create(InviteRequest(tenant="nyaya", role="lawyer", pack="legal"))
    [elsewhere] = await say(whatsapp, SRINIVAS_WA, f"join {other.code}")
    assert "for another organisation" in elsewhere
    assert InviteStore(database).find(other.code).used_at is None  # type: ignore[union-attr]
    assert tables(database)[:2] == after_join[:2]
    assert [person_on(database, "whatsapp", n) for n in (SECOND_WA, TYPO_WA)] == [None, None]
    await whatsapp.transport.drain()
    await stop_whatsapp(whatsapp)
    refused_numbers = [n.lstrip("+").encode() for n in (SECOND_WA, TYPO_WA, TYPO_WA + "9")]
    assert files_holding(tmp_path, *refused_numbers, code.encode(), other.code.encode()) == []


@pytest.mark.own_registers
async def test_whatsapp_an_admin_imports_cases_by_numbered_apply(whatsapp: WhatsApp) -> None:
    [help_text] = await say(whatsapp, SUDHA_WA, "/help")
    assert "/invite - invite someone" in help_text and "/import - import a register" in help_text
    [officer_help] = await say(whatsapp, SRINIVAS_WA, "/help")
    assert "/invite" not in officer_help and "/import" not in officer_help

    cases = ("Cause Title,Case No,Court,Our Ref\n"
             "Gaddam Narsimha v Bollam Yellaiah,O.S. 57/2023,Principal Junior Civil Judge Shadnagar,GN-57\n"
             "Boya Lingamma v State of Telangana,W.P. 2231/2025,High Court,\n"
             ",,,\n"
             ",A.S. 12/2024,District Court Mahabubnagar,\n").encode("utf-8")
    url = whatsapp.fake.add_media(cases, "text/csv")
    before = len(whatsapp.fake.bodies_to(SUDHA_WA))
    await whatsapp.say(SUDHA_WA, "/import cases", media=[(url, "text/csv")])
    while len(whatsapp.fake.bodies_to(SUDHA_WA)) <= before:
        await whatsapp.fake.wait_sent(len(whatsapp.fake.sent()) + 1, timeout=60)
    dry = whatsapp.fake.bodies_to(SUDHA_WA)[-1]
    assert dry.startswith("Import of cases: what Apply would do") and "add 2," in dry
    assert "row 5: missing Title" in dry and dry.endswith("1. Apply\n2. Discard")
    register = CaseRegisters(whatsapp.app.services.database)
    assert len(register.for_tenant("nyaya")) == 0

    [applied] = await say(whatsapp, SUDHA_WA, "1")
    assert applied.startswith("Imported cases:") and "add 2" in applied
    case = register.for_tenant("nyaya").get("gn-57")
    assert case is not None and case.numbers == ["O.S. 57/2023"]
    mention = register.for_tenant("nyaya").only("hearing in WP 2231/25 adjourned to next month")
    assert mention is not None and "Boya Lingamma" in register.for_tenant("nyaya").get(mention.case_id).title  # type: ignore[union-attr]
