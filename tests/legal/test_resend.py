"""The same page sent again after a person corrected its entry, through the real conversation core and the real
local Hindsight: the page is recognised as the same entry and says so, the corrected fields win, and the entry
keeps exactly one record and one memory; a backlog re-run keeps the corrections too."""

from datetime import date

import pytest

from bot.core.app import App
from handlers.legal.entries import EntryStore
from handlers.legal.models import HearingRecord
from tests.legal.helpers import button, fresh_practice, say
from tests.legal.kinds_corpus import CASES

pytestmark = pytest.mark.hindsight

TENANT = "demo"
NOTE = "24/11 Mothe appeal - arguments of appellant heard in part. N.D. 9/12"


@pytest.fixture(autouse=True)
async def practice(app: App) -> None:
    await fresh_practice(app, TENANT)


async def _memories(app: App) -> dict[str, dict[str, str]]:
    found = await app.services.memory.list_documents(app.services.bank_of(TENANT, "legal"))
    ours = {c.case_id for c in CASES}  # the bank outlives a test: other tests' matters may be in it
    return {d.document_id: {**d.metadata, "event": str(d.event_date)} for d in found
            if d.metadata.get("case_id") in ours and d.metadata.get("kind") != "chat_memory"}


async def _set(app: App, card_reply, field: str, value: str):  # type: ignore[no-untyped-def]
    [fields] = await app.conversation.handle(say("aditya", callback=button(card_reply, "Edit")))
    await app.conversation.handle(say("aditya", callback=button(fields, field)))
    [shown] = await app.conversation.handle(say("aditya", value))
    return shown


def _live(app: App) -> list[HearingRecord]:
    return EntryStore(app.services.database).all(TENANT)


async def _save_and_correct(app: App, field: str, value: str):  # type: ignore[no-untyped-def]
    """Send the note, save its card, open the saved entry and set one field; return the edited card."""
    [_, card] = await app.conversation.handle(say("aditya", NOTE))
    [saved] = await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    _, fields = await app.conversation.handle(say("aditya", callback=button(saved, "Edit")))
    await app.conversation.handle(say("aditya", callback=button(fields, field)))
    [shown] = await app.conversation.handle(say("aditya", value))
    return shown


async def test_a_page_sent_again_after_its_saved_entry_was_corrected_keeps_the_correction(app: App) -> None:
    shown = await _save_and_correct(app, "Next date", "16.12.2026")
    shown = await _set(app, shown, "Hearing date", "23.11.2026")
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))

    replies = await app.conversation.handle(say("aditya", NOTE))
    assert not any(r.card_id for r in replies), "no second card for the same page"
    assert "already saved" in replies[-1].text and "corrected" in replies[-1].text
    [record] = _live(app)
    assert (record.hearing_date, record.next_date) == (date(2026, 11, 23), date(2026, 12, 16))
    memories = await _memories(app)
    assert list(memories) == [record.document_id]
    assert memories[record.document_id]["next_date"] == "2026-12-16"
    assert memories[record.document_id]["event"] == "2026-11-23"


async def test_a_page_corrected_on_its_card_before_save_is_the_same_entry_when_sent_again(app: App) -> None:
    [_, card] = await app.conversation.handle(say("aditya", NOTE))
    shown = await _set(app, card, "Next date", "10.12.2026")
    shown = await _set(app, shown, "Hearing date", "25.11.2026")
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    replies = await app.conversation.handle(say("aditya", NOTE))
    assert not any(r.card_id for r in replies) and "already saved" in replies[-1].text
    [record] = _live(app)
    assert (record.hearing_date, record.next_date) == (date(2026, 11, 25), date(2026, 12, 10))
    assert list(await _memories(app)) == [record.document_id]


async def test_a_page_sent_again_unchanged_files_nothing_twice_and_a_deleted_one_can_be_filed_again(app: App) -> None:
    [_, card] = await app.conversation.handle(say("aditya", NOTE))
    [saved] = await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    replies = await app.conversation.handle(say("aditya", NOTE))
    assert not any(r.card_id for r in replies) and "already saved" in replies[-1].text
    assert "corrected" not in replies[-1].text
    [confirm] = await app.conversation.handle(say("aditya", callback=button(saved, "Delete")))
    await app.conversation.handle(say("aditya", callback=button(confirm, "Yes, delete")))
    assert _live(app) == []
    replies = await app.conversation.handle(say("aditya", NOTE))
    assert any(r.card_id for r in replies)  # deleted: the page is offered again


async def test_a_re_read_of_the_same_page_keeps_the_corrected_fields_and_takes_the_rest(app: App) -> None:
    from handlers.legal.casebook import CaseBook

    shown = await _save_and_correct(app, "Case", "Pendyala suit")
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    [record] = _live(app)
    # the same page read again (a backlog re-run): another reading of its text, its case as the page says
    again = record.model_copy(update={"case_id": "as-112-2023", "text": "re-read text"})
    case = next(c for c in CASES if c.case_id == "as-112-2023")
    await CaseBook(app.services, TENANT).file([(again, case)], by="backlog")
    [after] = _live(app)
    assert after.case_id == "os-231-2024" and after.text == "re-read text"
    memories = await _memories(app)
    assert list(memories) == [after.document_id] and memories[after.document_id]["case_id"] == "os-231-2024"
