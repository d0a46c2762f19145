"""The new law practice and the new AP team (tests/corpus/legal/neworg, tests/corpus/ap/neworg: their own case ids,
Petitioner/Respondent columns, vendor codes like VND/017, a vendor named only in Telugu) over the Telegram fake,
in Telugu: every command of each pack answers without a crash and names the registers' words as written."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.services.registers.importer import import_file
from bot.store.people import load_people
from bot.store.people_table import import_people_table
from handlers import INSTALLED
from tests.onboarding.test_chat_import import Bot, start_with_fake, stop_with_fake

pytestmark = [pytest.mark.own_registers, pytest.mark.hindsight]
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
KINDS = all_kinds(INSTALLED.packages())
LAWYER, CLERK = 7700441, 7700442


@pytest.fixture
async def bot(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> AsyncIterator[Bot]:
    running = await start_with_fake(tmp_path, hindsight_url, bank_prefix)
    database = running.app.services.database
    for tenant, pack, kinds, staff in (
            ("huzurnagar-law", "legal", ("cases",),
             f"Name,Designation,Telegram ID,Language\nSmt. Padmaja,Jr. Adv.,{LAWYER},Telugu\n"),
            ("aqua-pumps", "ap", ("vendors", "purchase-orders", "goods-receipts"),
             f"Name,Designation,Telegram ID,Language\nKavitha garu,A/c Asst,{CLERK},Telugu\n")):
        for kind in kinds:
            report = import_file(database, KINDS, kind, tenant, CORPUS / pack / "neworg" / f"{kind}.csv", apply=True)
            assert not report.rejected, report.render()
        sheet = tmp_path / f"{pack}-staff.csv"
        sheet.write_text(staff, encoding="utf-8")
        people = import_people_table(database, sheet, tenant, load_people(database),
                                     designations={"A/c Asst": "clerk:ap"})
        assert not people.rejected, people
    running.app.services.registry.refresh()
    yield running
    await stop_with_fake(running)


async def _walk(bot: Bot, chat: int, commands: list[str]) -> str:
    for count, command in enumerate(commands, start=1):
        bot.fake.send_text(chat, command)
        await bot.replies(chat, count)
    shown = "\n".join(bot.texts_to(chat))
    assert "Traceback" not in shown and "legal." not in shown and "ap." not in shown, shown
    return shown


async def test_a_new_practice_over_telegram_in_telugu(bot: Bot) -> None:
    shown = await _walk(bot, LAWYER, ["/cases", "/today", "/history HX-OS-311-2024", "/history రాధమ్మ",
                                      "/timeline OS-45-2025", "/help"])
    for word in ("Hanumaiah v. Kistamma", "రాధమ్మ v. వెంకటేశ్వర్లు", "కేసు"):
        assert word in shown, (word, shown)


async def test_a_new_ap_team_over_telegram_in_telugu(bot: Bot) -> None:
    shown = await _walk(bot, CLERK, ["/vendors", "/audit", "/pending", "/help"])
    for word in ("VND/017", "Kaveri Castings", "శ్రీ లక్ష్మి ట్రేడర్స్", "చెల్లింపులు"):
        assert word in shown, (word, shown)
