"""An admin imports registers in chat over the Telegram fake: "/import farmers" then a messy CSV, or an XLSX with the
caption "/import villages"; the dry run comes back as a card with Apply / Discard, nothing is written before Apply,
Discard drops the file, the card waits in the database across a restart, and non-admins are refused."""

import asyncio
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from openpyxl import Workbook
from pydantic import SecretStr
from sqlalchemy import select

from bot.core.app import App
from bot.core.chat_import import ChatImportRow
from bot.store.people import import_people
from bot.core.registry import User
from bot.settings import Settings
from bot.transports.telegram.app import TelegramTransport
from handlers.agri.registers import FieldBooks
from tests.conftest import make_settings
from tests.fakes.telegram import TOKEN, FakeTelegram

pytestmark = pytest.mark.hindsight

ADMIN, OFFICER = 742200311, 1001  # the officer is Srinivas of tenant demo (seeds/users.json)
TENANT = "rythu-mitra"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def villages_xlsx(path: Path) -> bytes:
    """Villages as a mandal office keeps them: a title-cased header, Telugu names, a blank row, a merged header."""
    book = Workbook()
    sheet = book.active
    sheet.append(["Village Name", "Mandal Name", "Telugu Name", None])
    sheet.merge_cells("C1:D1")
    sheet.append(["Ibrahimpatnam", "Ibrahimpatnam", "ఇబ్రహీంపట్నం", None])
    sheet.append([None, None, None, None])
    sheet.append(["Manchal", "Manchal", "మంచాల", None])
    book.save(path)
    return path.read_bytes()


FARMERS_CSV = ("\ufeffGrower Name,Cell,Village/Mandal,Crops Grown,Area,రైతు పేరు\n"
               "Yadagiri Goud,94401 22334,Ibrahimpatnam,Paddy; వరి,\"3\",యాదగిరి గౌడ్\n"
               ",,,,,\n"
               "Mallamma,,Manchal,కంది,1.5,మల్లమ్మ\n"
               "Yadagiri Goud,94401 22334,Ibrahimpatnam,Paddy; వరి,\"3\",యాదగిరి గౌడ్\n"
               "Chinna Ramulu,,Nowhere Thanda,cotton,2,\n"
               ",9000011111,Manchal,cotton,2,\n").encode("utf-8")


@dataclass
class Bot:
    app: App
    transport: TelegramTransport
    fake: FakeTelegram

    def texts_to(self, chat_id: int) -> list[str]:
        return [c.params["text"] for c in self.fake.sent("sendMessage") if c.params["chat_id"] == chat_id]

    async def replies(self, chat_id: int, count: int = 1) -> list[str]:
        return await self.wait(lambda: len(self.texts_to(chat_id)) >= count, lambda: self.texts_to(chat_id))

    async def wait(self, ready: object, result: object) -> list[str]:
        deadline = time.monotonic() + 60
        while not ready():  # type: ignore[operator]
            assert time.monotonic() < deadline, self.fake.calls[-5:]
            await asyncio.sleep(0.05)
        return result()  # type: ignore[operator,no-any-return]

    async def edited(self, count: int) -> str:
        found = await self.wait(lambda: len(self.fake.sent("editMessageText")) >= count,
                                lambda: [c.params["text"] for c in self.fake.sent("editMessageText")])
        return found[count - 1]


async def start(settings: Settings, fake: FakeTelegram) -> Bot:
    app = await App.start(settings)
    transport = TelegramTransport(app.conversation, poll_timeout_s=1.0)
    await transport.start_polling()
    return Bot(app, transport, fake)


async def stop(bot: Bot) -> None:
    await bot.transport.stop()
    await bot.app.aclose()


async def start_with_fake(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> Bot:
    """A running bot on the Telegram fake of its own (stop it with stop_with_fake)."""
    fake = FakeTelegram()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                             telegram_base_url=fake.url)
    return await start(settings, fake)


async def stop_with_fake(bot: Bot) -> None:
    await stop(bot)
    bot.fake.close()


@pytest.fixture
async def settings_and_fake(tmp_path: Path, hindsight_url: str, bank_prefix: str
                            ) -> AsyncIterator[tuple[Settings, FakeTelegram]]:
    fake = FakeTelegram()
    settings = make_settings(tmp_path, hindsight_url, bank_prefix, telegram_bot_token=SecretStr(TOKEN),
                             telegram_base_url=fake.url)
    yield settings, fake
    fake.close()


def statuses(bot: Bot) -> list[str]:
    with bot.app.services.database.session() as s:
        return [r.status for r in s.scalars(select(ChatImportRow).order_by(ChatImportRow.created_at))]


@pytest.mark.own_registers
async def test_an_admin_imports_villages_and_farmers_in_chat_with_apply_and_discard(
        settings_and_fake: tuple[Settings, FakeTelegram], tmp_path: Path) -> None:
    settings, fake = settings_and_fake
    bot = await start(settings, fake)
    database = bot.app.services.database
    import_people(database, [User(user_id="latha", name="Latha Reddy", role="admin", pack="agri", tenant=TENANT,
                                  telegram_ids=[ADMIN])])
    bot.app.services.registry.refresh()
    book = FieldBooks(database)
    xlsx = villages_xlsx(tmp_path / "villages.xlsx")

    # An XLSX with its caption: the dry run as a card; Discard writes nothing and drops the file.
    fake.push({"message": fake._message(ADMIN, caption="/import villages", document={
        **fake.add_file(xlsx, ".xlsx"), "file_name": "villages.xlsx", "mime_type": XLSX})})
    [dry] = await bot.replies(ADMIN, 1)
    assert dry.startswith("Import of villages: what Apply would do (nothing is written yet).")
    assert "add 2, update 0, unchanged 0, rejected 0" in dry and "ibrahimpatnam, manchal" in dry
    card = fake.last_message_with_buttons(ADMIN)
    buttons = fake.buttons(card)
    assert list(buttons) == ["Apply", "Discard"]
    assert book.for_tenant(TENANT).villages == {}, "a dry run writes nothing"
    fake.press(ADMIN, card, buttons["Discard"])
    assert (await bot.edited(1)) == "Import of villages discarded; nothing was written."
    assert book.for_tenant(TENANT).villages == {} and statuses(bot) == ["discarded"]
    with database.session() as s:
        assert all(r.content is None for r in s.scalars(select(ChatImportRow))), "a discarded file is dropped"

    # The same file again, applied.
    fake.push({"message": fake._message(ADMIN, caption="/import villages", document={
        **fake.add_file(xlsx, ".xlsx"), "file_name": "villages.xlsx", "mime_type": XLSX})})
    await bot.replies(ADMIN, 2)
    card = fake.last_message_with_buttons(ADMIN)
    fake.press(ADMIN, card, fake.buttons(card)["Apply"])
    applied = await bot.edited(2)
    assert applied.startswith("Imported villages:") and "add 2" in applied
    villages = book.for_tenant(TENANT).villages
    assert sorted(villages) == ["ibrahimpatnam", "manchal"] and villages["manchal"].name_te == "మంచాల"

    # "/import farmers", then a messy CSV: the report names each rejected row as the admin sees it.
    fake.send_text(ADMIN, "/import farmers")
    [*_, waiting] = await bot.replies(ADMIN, 3)
    assert waiting.startswith("Send the farmers file now")
    fake.send_document(ADMIN, FARMERS_CSV, "rythulu.csv", "text/csv")
    [*_, dry] = await bot.replies(ADMIN, 4)
    assert "add 3, update 0, unchanged 0, rejected 2" in dry
    assert "row 5: duplicate of row 2" in dry and "villages Nowhere Thanda" in dry
    assert "row 7: missing Farmer Name" in dry
    assert book.for_tenant(TENANT).farmers == {}
    card = fake.last_message_with_buttons(ADMIN)
    apply = fake.buttons(card)["Apply"]

    # The card waits in the database: a restart in between, then Apply (twice: it applies once).
    await stop(bot)
    bot = await start(settings, fake)
    fake.press(ADMIN, card, apply)
    fake.press(ADMIN, card, apply)
    applied = await bot.edited(3)
    assert applied.startswith("Imported farmers:") and "add 3" in applied
    [*_, again] = await bot.replies(ADMIN, 5)
    assert again == "This import is applied already."
    farmers = FieldBooks(bot.app.services.database).for_tenant(TENANT).farmers
    assert sorted(farmers) == ["chinna-ramulu-nowhere-thanda", "mallamma-manchal", "yadagiri-goud-ibrahimpatnam"]
    assert farmers["yadagiri-goud-ibrahimpatnam"].name_te == "యాదగిరి గౌడ్"
    assert statuses(bot) == ["discarded", "applied", "applied"]
    await stop(bot)


async def test_non_admins_cannot_import_in_chat(settings_and_fake: tuple[Settings, FakeTelegram]) -> None:
    settings, fake = settings_and_fake
    bot = await start(settings, fake)
    try:
        fake.send_text(OFFICER, "/import farmers")
        [refused] = await bot.replies(OFFICER, 1)
        assert refused == "Only an administrator can do that."
        fake.push({"message": fake._message(OFFICER, caption="/import farmers", document={
            **fake.add_file(FARMERS_CSV, ".csv"), "file_name": "rythulu.csv", "mime_type": "text/csv"})})
        [_, refused_file] = await bot.replies(OFFICER, 2)
        assert refused_file == "Only an administrator can do that."
        assert statuses(bot) == []
        assert not fake.sent("sendMessage")[-1].params.get("reply_markup")
    finally:
        await stop(bot)
