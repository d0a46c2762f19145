"""A new law practice (Huzurnagar) and a pump maker's AP team, with registers of their own (tests/corpus/legal/neworg,
tests/corpus/ap/neworg: case ids like HX-OS-311-2024 and OS-45-2025, Petitioner and Respondent columns, parties in
Telugu script, vendor codes like VND/017, a vendor named only in Telugu, Indian dates, rupees and units, title rows,
designations): imported, then the packs' commands walked on the console in English and Telugu without a crash,
naming the registers' words."""

import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.core.app import App
from bot.core.messages import Incoming, Reply
from bot.services.registers.importer import import_file
from bot.settings import Settings
from bot.store.people import load_people
from bot.store.people_table import import_people_table
from handlers import INSTALLED

pytestmark = [pytest.mark.own_registers, pytest.mark.hindsight]
CORPUS = Path(__file__).resolve().parents[1] / "corpus"
KINDS = all_kinds(INSTALLED.packages())


@pytest.fixture
async def app(settings: Settings) -> AsyncIterator[App]:
    running = await App.start(settings)
    database = running.services.database
    for tenant, pack, kinds in (("huzurnagar-law", "legal", ("cases",)),
                                ("aqua-pumps", "ap", ("vendors", "purchase-orders", "goods-receipts"))):
        for kind in kinds:
            report = import_file(database, KINDS, kind, tenant, CORPUS / pack / "neworg" / f"{kind}.csv", apply=True)
            assert not report.rejected, report.render()
        people = import_people_table(database, CORPUS / pack / "neworg" / "staff.csv", tenant, load_people(database))
        assert not people.rejected, people
    running.services.registry.refresh()
    yield running
    await running.aclose()


async def ask(app: App, user: str, text: str) -> list[Reply]:
    replies = await app.conversation.handle(Incoming(transport="console", sender=user, delivery_id=uuid.uuid4().hex,
                                                     text=text))
    assert replies, text
    for reply in replies:
        assert "Traceback" not in reply.text and "legal." not in reply.text and "ap." not in reply.text, reply.text
    return replies


async def test_a_new_practice_walks_its_cases_in_both_languages(app: App) -> None:
    people = {u.name: u for u in load_people(app.services.database) if u.tenant == "huzurnagar-law"}
    assert {n: (u.role, u.pack) for n, u in people.items()} == {
        "Srinivasa Rao": ("lawyer", "legal"), "Padmaja": ("lawyer", "legal"), "Yadagiri": ("clerk", "legal")}
    for user in ("srinivasa-rao", "padmaja"):
        [cases] = await ask(app, user, "/cases")
        for title in ("Hanumaiah v. Kistamma", "Venkanna v. Mallaiah", "రాధమ్మ v. వెంకటేశ్వర్లు"):
            assert title in cases.text, cases.text
        for command in ("/today", "/history HX-OS-311-2024", "/history hx os 311 2024", "/history OS 45/2025",
                        "/timeline OS-45-2025", "/history రాధమ్మ"):
            await ask(app, user, command)
    replies = await ask(app, "srinivasa-rao", "OS 45/2025 on 02-12-2026: evidence of PW1 recorded, "
                                              "adjourned to 15-01-2027 for cross.")
    shown = "\n".join(r.text for r in replies)
    assert "Venkanna v. Mallaiah" in shown and "2 Dec 2026" in shown, shown


async def test_a_new_ap_team_lists_its_vendors_in_both_languages(app: App) -> None:
    people = {u.name: u for u in load_people(app.services.database) if u.tenant == "aqua-pumps"}
    assert (people["Kavitha"].role, people["Kavitha"].pack, people["Kavitha"].whatsapp_numbers) == (
        "clerk", "ap", ["+919100300001"])
    assert (people["Rajesh"].role, people["Rajesh"].pack) == ("admin", "ap")
    ledger = app.packs["ap"].ledger_for("aqua-pumps")  # type: ignore[attr-defined]
    po = ledger.purchase_order("PO/24-25/118")
    assert po is not None and [(line.quantity, line.unit_price) for line in po.lines] == [(40, 1250), (20, 2100)]
    assert [g.grn_number for g in ledger.receipts_for("PO/24-25/118")] == ["GRN-0451"]
    for user in ("kavitha", "rajesh"):
        [vendors] = await ask(app, user, "/vendors")
        assert "Kaveri Castings" in vendors.text and "శ్రీ లక్ష్మి ట్రేడర్స్" in vendors.text, vendors.text
        await ask(app, user, "/audit")
