"""A practice's case register keeps each matter's next date ("Next Date", "NDOH", "Next Hearing", written the
Indian way): importing it files that date, so /today and "when is the next date" know it from day one; the dry
run says what it files; importing the register twice files nothing twice; a hearing recorded later moves the
date on. The register is written here, for this test."""

import uuid
from collections.abc import AsyncIterator
from datetime import date, datetime, timezone
from pathlib import Path

import pytest

from bot.cli.registers import all_kinds
from bot.core.app import App
from bot.core.messages import Incoming
from bot.services.registers.importer import import_file
from bot.settings import Settings
from bot.store.people import load_people
from bot.store.people_table import import_people_table
from handlers import INSTALLED
from handlers.legal.case_dates import next_date
from handlers.legal.entries import EntryStore
from handlers.legal.models import CaseRecord, HearingRecord
from handlers.legal.register_dates import register_listing

pytestmark = [pytest.mark.own_registers, pytest.mark.hindsight]
KINDS = all_kinds(INSTALLED.packages())
TENANT = "miryalaguda-chambers"
REGISTER = """Chambers of Sri K. Ramakrishna, Advocate - Case Register,,,,,
as on 01-12-2026,,,,,
File No.,Case No.,Petitioner,Respondent,Court,NDOH
MG-17,O.S. No. 88 of 2025,Bollam Yadaiah,Bollam Sattemma,Junior Civil Judge Miryalaguda,18-12-2026
MG-21,E.P. 14/2026,Kasula Venkanna,Gundeboina Ramulu,Senior Civil Judge Miryalaguda,7/1/27
MG-30,C.C. 311/2025,Sai Ram Traders,Nalla Lingaiah,JFCM Miryalaguda,21-Jan-2027
MG-33,M.C. 9/2026,Jangili Sailaja,Jangili Raju,Family Court Nalgonda,
"""


@pytest.fixture
async def app(settings: Settings, tmp_path: Path) -> AsyncIterator[App]:
    running = await App.start(settings)
    staff = tmp_path / "staff.csv"
    staff.write_text("Name,Designation,Mobile\nAdv. K. Ramakrishna,Sr. Advocate,09848 220011\n"
                     "Sri M. Anjaneyulu garu,Munshi,98482 20012\n", encoding="utf-8")
    people = import_people_table(running.services.database, staff, TENANT, load_people(running.services.database))
    assert not people.rejected, people
    running.services.registry.refresh()
    yield running
    await running.aclose()


async def _say(app: App, user: str, text: str) -> str:
    replies = await app.conversation.handle(Incoming(transport="console", sender=user, delivery_id=uuid.uuid4().hex,
                                                     text=text))
    shown = "\n".join(r.text for r in replies)
    assert shown and "Traceback" not in shown and "legal." not in shown, shown
    return shown


async def test_a_registers_next_dates_are_the_cases_next_dates(app: App, tmp_path: Path) -> None:
    database = app.services.database
    register = tmp_path / "register.csv"
    register.write_text(REGISTER, encoding="utf-8")
    dry = import_file(database, KINDS, "cases", TENANT, register)
    assert dry.memories_total == 3 and EntryStore(database).count(TENANT) == 0, dry.render()
    assert "2026-12-18 next date of MG-17" in dry.render() and "NDOH" not in dry.ignored_columns
    applied = import_file(database, KINDS, "cases", TENANT, register, apply=True)
    assert not applied.rejected and len(applied.added) == 4, applied.render()
    again = import_file(database, KINDS, "cases", TENANT, register, apply=True)
    assert (again.added, again.updated, again.memories_total) == ([], [], 0), again.render()
    assert EntryStore(database).count(TENANT) == 3
    app.services.registry.refresh()

    lawyer = "k-ramakrishna"
    shown = await _say(app, lawyer, "/today 18-12-2026")
    assert "Bollam Yadaiah v. Bollam Sattemma" in shown and "case register" in shown, shown
    assert "Kasula Venkanna" not in shown
    shown = await _say(app, lawyer, "/today 07-01-2027")
    assert "Kasula Venkanna v. Gundeboina Ramulu" in shown, shown
    shown = await _say(app, lawyer, "when is the next date in C.C. 311/2025?")
    assert "21 Jan 2027" in shown and "case register" in shown, shown
    shown = await _say(app, "m-anjaneyulu", "when is the next date in M.C. 9/2026?")
    assert "2027" not in shown and "2026-12" not in shown, shown

    # A hearing the register did not know (typed after the import, held before its date) moves the date on.
    replies = await app.conversation.handle(Incoming(
        transport="console", sender=lawyer, delivery_id=uuid.uuid4().hex,
        text="On 03-12-2026 in O.S. No. 88 of 2025 heard, adjourned to 11-01-2027 for evidence."))
    save = next(b.data for r in replies for b in r.flat_buttons() if b.label.startswith("Save"))
    await app.conversation.handle(Incoming(transport="console", sender=lawyer, delivery_id=uuid.uuid4().hex,
                                           callback=save))
    shown = await _say(app, lawyer, "when is the next date in O.S. 88/2025?")
    assert "11 Jan 2027" in shown and "18 Dec 2026" not in shown, shown
    shown = await _say(app, lawyer, "what happened last time in O.S. 88/2025?")
    assert "11 Jan 2027" in shown, shown
    shown = await _say(app, lawyer, "/today 18-12-2026")
    assert "Bollam Yadaiah" not in shown, shown
    shown = await _say(app, lawyer, "/today 11-01-2027")
    assert "Bollam Yadaiah v. Bollam Sattemma" in shown, shown



def test_a_hearing_after_the_register_moves_the_next_date_on() -> None:
    case = CaseRecord(case_id="mg-40", code="MG-40", title="Banoth Lalu v. Banoth Bujji", next_date=date(2026, 12, 18))
    listing = register_listing(case, date(2026, 12, 1), datetime(2026, 12, 1, 10, tzinfo=timezone.utc))
    assert listing is not None and (listing.kind, listing.hearing_date) == ("listing", date(2026, 12, 1))
    found = next_date([listing])
    assert found is not None and found.day == date(2026, 12, 18)
    heard = HearingRecord(document_id="d-1", case_id="mg-40", kind="hearing", hearing_date=date(2026, 12, 4),
                          next_date=date(2027, 2, 5), source_file="diary.jpg", author="clerk")
    found = next_date([listing, heard])
    assert found is not None and found.day == date(2027, 2, 5)
    stale = register_listing(case.model_copy(update={"next_date": date(2026, 11, 20)}), date(2026, 12, 1),
                             datetime(2026, 12, 1, 10, tzinfo=timezone.utc))
    assert stale is not None and stale.hearing_date == date(2026, 11, 20), "a date already past is its own day"
