"""Words a new practice reads: counts with their noun in the right number ("1 entry", "1 matter", never
"entr(y/ies)" or "(1 matters)"), /cases writing a case's title once, and /help and usage hints naming the
practice's own cases (or a generic placeholder), never the demo's (walk: a new practice's register)."""

import re
import uuid
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.messages import Incoming
from bot.services.i18n import catalogue, counted, in_number, text
from bot.settings import Settings
from bot.store.people import load_people
from bot.store.people_table import import_people_table
from handlers.legal.models import CaseRecord, CauseList, CauseListItem
from handlers.legal.pack import LegalPack
from handlers.legal.register import CaseRegister
from handlers.legal.today import render_cause_list

TENANT = "nalgonda-chambers"
CASES = [
    CaseRecord(case_id="ng-4", code="NG-4", title="Kotha Sailu v. Kotha Mallesh", numbers=["O.P. 61/2026"],
               court="Family Court, Nalgonda"),
    CaseRecord(case_id="ng-9", code="NG-9", title="Thirumala Stores v. Ganji Narsimha", numbers=["C.C. 402/2025"],
               aliases=["Thirumala cheque"], court="JFCM, Nalgonda"),
]
DEMO_WORDS = re.compile(r"Seabreeze|Gorle|Mahesh|Lakshmi Textiles|Dwaraka|15\.10\.2026")
SHARED = ("legal", "core", "subjects", "web", "people")


def test_counts_take_their_noun_in_the_right_number() -> None:
    assert text("en", "legal.upload_found", count=1, file="note").startswith("I found 1 entry in note")
    assert text("en", "legal.upload_found", count=3, file="note").startswith("I found 3 entries in note")
    assert text("en", "legal.save_all_hint", ready=1, held=1) == \
        "1 entry ready to save; 1 entry needs a date or case from you first."
    assert text("en", "legal.month_header", case="X", month="May 2026", count=1) == "X in May 2026: 1 hearing."
    assert "(1 item)" in text("en", "legal.today_due_header", date="7 Dec 2026", count=1)
    assert text("en", "core.memory_operations", count=1, kinds="retain") == \
        "Memory is working on 1 background operation: retain."
    assert text("te", "legal.month_header", case="X", month="మే 2026", count=2).endswith("2 విచారణలు.")
    assert (counted(1, "entry", "entries"), counted(0, "entry", "entries")) == ("1 entry", "0 entries")
    assert [in_number(2, k) for k in ("hearing entry", "pending follow-up", "sent reply (its lines only)",
                                      "waiting to be stored", "card messages", "box")] == [
        "hearing entries", "pending follow-ups", "sent replies (its lines only)", "waiting to be stored",
        "card messages", "boxes"]
    assert in_number(1, "hearing entry") == "hearing entry"


@pytest.mark.parametrize("lang", ["en", "te"])
def test_no_message_of_the_legal_pack_or_the_core_writes_a_plural_in_brackets(lang: str) -> None:
    bracketed = re.compile(r"\w\((?:s|es|y/ies|లు)\)|\(y/ies\)")
    found = [k for k, v in catalogue(lang).items() if k.split(".")[0] in SHARED and bracketed.search(v)]
    assert found == []


def test_a_days_cause_list_of_one_matter_says_one_matter() -> None:
    register = CaseRegister(CASES)
    listing = CauseList(day=date(2026, 12, 7), items=[CauseListItem(case_id="ng-4", title=CASES[0].title,
                                                                    court=CASES[0].court, previous=None)])
    shown = render_cause_list("en", listing, register)
    assert shown.startswith("Cause list for 7 Dec 2026 (1 matter):"), shown


@pytest.fixture
async def practice(settings: Settings, tmp_path: Path) -> AsyncIterator[App]:
    running = await App.start(settings)
    staff = tmp_path / "staff.csv"
    staff.write_text("Name,Designation,Mobile\nAdv. P. Sujatha,Advocate,09848 330011\n", encoding="utf-8")
    people = import_people_table(running.services.database, staff, TENANT, load_people(running.services.database))
    assert not people.rejected, people
    running.services.registry.refresh()
    yield running
    await running.aclose()


async def _say(app: App, text_: str) -> str:
    replies = await app.conversation.handle(Incoming(transport="console", sender="p-sujatha",
                                                     delivery_id=uuid.uuid4().hex, text=text_))
    return "\n".join(r.text for r in replies)


async def test_help_and_usage_name_the_practices_own_cases_and_cases_writes_a_title_once(practice: App) -> None:
    shown = await _say(practice, "/help")
    assert not DEMO_WORDS.search(shown) and "/case add" in shown, shown
    pack = practice.packs["legal"]
    assert isinstance(pack, LegalPack)
    pack.registers.add(TENANT, CASES)
    shown = await _say(practice, "/help")
    assert not DEMO_WORDS.search(shown), shown
    assert "/history Thirumala cheque" in shown or "/history O.P. 61/2026" in shown, shown
    numbers = {n for c in CASES for n in c.numbers}
    assert all(n in numbers for n in re.findall(r"\b[A-Z]{1,4}\.?\s?[A-Z]?\.?\s?(?:No\.\s*)?\d+\s*/\s*\d{4}", shown)), \
        "every case number /help writes is one of the practice's"
    for command in ("/ask", "/history", "/timeline", "/edit"):
        usage = await _say(practice, command)
        assert not DEMO_WORDS.search(usage) and ("Thirumala cheque" in usage or "61/2026" in usage), usage
    listed = await _say(practice, "/cases")
    assert listed.count("Kotha Sailu v. Kotha Mallesh") == 1, listed
    assert "Thirumala cheque" in listed and listed.count("Thirumala Stores v. Ganji Narsimha") == 1, listed
