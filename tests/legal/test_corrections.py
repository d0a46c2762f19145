"""Corrections through the real conversation core and the real local Hindsight: Edit and Delete of a saved entry,
"did you mean" for a number one keystroke from a registered one, every card's buttons in the console, and a
step that never erases a case's next date."""

from datetime import date

import pytest

from bot.core.app import App
from bot.transports.console.session import ConsoleSession
from handlers.legal.entries import EntryStore
from handlers.legal.pack import LegalPack
from tests.legal.helpers import button, fresh_practice, say
from memory import tags

pytestmark = pytest.mark.hindsight

TENANT = "demo"


@pytest.fixture(autouse=True)
async def practice(app: App) -> None:
    await fresh_practice(app, TENANT)


async def _memories(app: App, case_id: str) -> dict[str, dict[str, str]]:
    found = await app.services.memory.list_documents(app.services.bank_of(TENANT, "legal"), tags=[tags.case(case_id)])
    return {d.document_id: {**d.metadata, "event": str(d.event_date)} for d in found}


async def test_edit_a_saved_entry_replaces_its_one_memory_re_dated_and_audited(app: App) -> None:
    [_, card] = await app.conversation.handle(say("aditya", "21/11 Pendyala suit - PW1 chief over. N.D. 4/12"))
    [saved] = await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    assert [b.label for b in saved.flat_buttons()] == ["Edit", "Delete"]
    [first] = (await _memories(app, "os-231-2024")).keys()
    opened, fields = await app.conversation.handle(say("aditya", callback=button(saved, "Edit")))
    assert "Editing a saved entry" in opened.text and "21 Nov 2026" in opened.text
    await app.conversation.handle(say("aditya", callback=button(fields, "Hearing date")))
    [shown] = await app.conversation.handle(say("aditya", "20.11.2026"))
    await app.conversation.handle(say("aditya", callback=button(shown, "Edit")))
    [fields] = (await app.conversation.handle(say("aditya", callback=button(shown, "Edit"))))
    await app.conversation.handle(say("aditya", callback=button(fields, "Next date")))
    [shown] = await app.conversation.handle(say("aditya", "none"))
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    memories = await _memories(app, "os-231-2024")
    assert list(memories) == [first]  # one memory, the same document, re-dated
    assert memories[first]["hearing_date"] == "2026-11-20" and memories[first]["event"] == "2026-11-20"
    assert memories[first]["next_date"] == ""
    store = EntryStore(app.services.database)
    record = store.get(TENANT, first)
    assert record is not None and record.hearing_date == date(2026, 11, 20) and record.next_date is None
    audit = store.audit(TENANT, first)
    assert [(a.action, a.by) for a in audit] == [("save", "aditya"), ("edit", "aditya")]
    assert audit[1].before is not None and audit[1].before["hearing_date"] == "2026-11-21"


async def test_delete_one_saved_entry_removes_its_memory_and_record_and_a_resend_files_it_again(app: App) -> None:
    note = "22/11 Durga cheque case - accused absent, NBW issued. N.D. 20/12"
    [_, card] = await app.conversation.handle(say("divya", note))
    [saved] = await app.conversation.handle(say("divya", callback=button(card, "Save")))
    [document_id] = (await _memories(app, "cc-77-2025")).keys()
    [confirm] = await app.conversation.handle(say("divya", callback=button(saved, "Delete")))
    assert "cannot be undone" in confirm.text
    [kept] = await app.conversation.handle(say("divya", callback=button(confirm, "Keep")))
    assert document_id in await _memories(app, "cc-77-2025")
    [done] = await app.conversation.handle(say("divya", callback=button(confirm, "Yes, delete")))
    assert "Deleted" in done.text and await _memories(app, "cc-77-2025") == {}
    store = EntryStore(app.services.database)
    assert store.get(TENANT, document_id) is None and store.audit(TENANT, document_id)[-1].action == "delete"
    [again] = await app.conversation.handle(say("divya", callback=button(confirm, "Yes, delete")))
    assert "no longer" in again.text or "no longer available" in again.text
    [_, card] = await app.conversation.handle(say("divya", note))
    await app.conversation.handle(say("divya", callback=button(card, "Save")))
    assert list(await _memories(app, "cc-77-2025")) == [document_id] and store.get(TENANT, document_id) is not None


async def test_a_number_one_keystroke_from_a_registered_one_asks_did_you_mean(app: App) -> None:
    replies = await app.conversation.handle(say("aditya", "23/11 OS 231/2025 - DW1 cross over. N.D. 9/12"))
    card, asked = replies[1], replies[2]
    assert "Did you mean O.S. 231/2024" in card.text and "Did you mean O.S. 231/2024" in asked.text
    refused = await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    assert "Answer the question first" in refused[0].text
    [shown] = await app.conversation.handle(say("aditya", callback=button(asked, "Yes")))
    assert shown.text.startswith("Pendyala suit") and "not in your register" not in shown.text
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    assert pack.register_for(TENANT).get("os-231-2025") is None  # no stray case made
    assert any(m["hearing_date"] == "2026-11-23" for m in (await _memories(app, "os-231-2024")).values())
    # Answering "no" keeps the typed number as a new case.
    replies = await app.conversation.handle(say("aditya", "24/11 CC 78/2025 Lakshmi Traders v. Gopi - summons. N.D. 9/1"))
    [shown] = await app.conversation.handle(say("aditya", callback=button(replies[2], "No")))
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    assert pack.register_for(TENANT).get("cc-78-2025") is not None


async def test_every_card_of_a_note_answers_its_buttons_in_the_console(app: App) -> None:
    session = ConsoleSession(app.conversation, "aditya")
    replies = await session.send(
        "Today: Pendyala suit - PW2 chief over, N.D. 15/12; Durga cheque case - complainant cross, N.D. 18/12")
    printed = "\n".join(session.printed(replies))
    assert "[1] Save" in printed and "[4] Save" in printed and "[7] Save all" in printed
    await session.send("4")  # Save on the second card (cards come by date, then case: Durga, then Pendyala)
    assert len(await _memories(app, "os-231-2024")) == 1 and await _memories(app, "cc-77-2025") == {}
    # The saved card's Edit and Delete take the lowest numbers free; the first card, still open, keeps its own.
    printed = "\n".join(session.printed(session.last))
    assert "[4] Edit" in printed and "(still open) Durga cheque case" in printed and "[1] Save" in printed
    await session.send("1")
    assert len(await _memories(app, "cc-77-2025")) == 1


async def test_an_office_step_never_erases_the_next_date(app: App) -> None:
    [_, card] = await app.conversation.handle(say("divya", "25/11 Durga cheque case - accused examined u/s 313. N.D. 16/12"))
    await app.conversation.handle(say("divya", callback=button(card, "Save")))
    [_, step] = await app.conversation.handle(
        say("divya", "Durga cheque case: GP served counter copy on us today in office. Reply to be filed before 7/1"))
    assert "step" in step.text and "not a hearing" in step.text
    await app.conversation.handle(say("divya", callback=button(step, "Save")))
    [answer] = await app.conversation.handle(say("divya", "when is the next date in Durga cheque case?"))
    assert "16 Dec 2026" in answer.text
    [listing] = await app.conversation.handle(say("divya", "/today 16.12.2026"))
    assert "Durga cheque case" in listing.text
