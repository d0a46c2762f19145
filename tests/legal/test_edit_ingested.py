"""An entry filed by the backlog ingest is corrected from chat as a chat-saved one is: `/edit CASE DATE` opens it
on a card, Save replaces its record and its one memory (same document, audited). Pages written for this test."""

import os
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from bot.core.app import App
from handlers.legal.entries import EntryStore
from handlers.legal.pack import LegalPack
from memory import tags
from memory.asof import IST
from tests.legal.helpers import button, fresh_practice, say

pytestmark = pytest.mark.hindsight

TENANT = "demo"


async def _memories(app: App, case_id: str) -> dict[str, dict[str, str]]:
    found = await app.services.memory.list_documents(app.services.bank_of(TENANT, "legal"), tags=[tags.case(case_id)])
    return {d.document_id: {**d.metadata, "event": str(d.event_date)} for d in found}


async def _ingest(app: App, tmp_path: Path) -> str:
    await fresh_practice(app, TENANT)
    folder = tmp_path / "backlog"
    folder.mkdir()
    page = folder / "durga_28nov.txt"
    page.write_text("28/11 Durga cheque case - complainant cross over. N.D. 11/12", encoding="utf-8")
    written = datetime(2026, 11, 28, 19, 0, tzinfo=IST).timestamp()
    os.utime(page, (written, written))
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    report = await pack.ingest_dir(TENANT, folder, yes=True, author="aditya")
    [document_id] = report.stored_ids
    return document_id


async def test_an_ingested_entry_is_edited_from_chat_and_keeps_one_memory(app: App, tmp_path: Path) -> None:
    document_id = await _ingest(app, tmp_path)
    assert list(await _memories(app, "cc-77-2025")) == [document_id]
    [opened] = await app.conversation.handle(say("aditya", "/edit Durga cheque case 28.11.2026"))
    assert "Editing" in opened.text and "28 Nov 2026" in opened.text and "11 Dec 2026" in opened.text
    [fields] = await app.conversation.handle(say("aditya", callback=button(opened, "Edit")))
    await app.conversation.handle(say("aditya", callback=button(fields, "Next date")))
    [shown] = await app.conversation.handle(say("aditya", "18.12.2026"))
    assert "18 Dec 2026" in shown.text
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    memories = await _memories(app, "cc-77-2025")
    assert list(memories) == [document_id] and memories[document_id]["next_date"] == "2026-12-18"
    store = EntryStore(app.services.database)
    record = store.get(TENANT, document_id)
    assert record is not None and record.next_date == date(2026, 12, 18) and record.source_file == "durga_28nov.txt"
    assert [a.action for a in store.audit(TENANT, document_id)][-1] == "edit"


async def test_edit_without_a_date_names_the_dates_to_choose_and_an_unknown_case_is_said(app: App,
                                                                                          tmp_path: Path) -> None:
    await _ingest(app, tmp_path)
    [which] = await app.conversation.handle(say("aditya", "/edit C.C. 77/2025"))
    assert "28 Nov 2026" in which.text and not which.flat_buttons()
    [unknown] = await app.conversation.handle(say("aditya", "/edit Nobody suit 28.11.2026"))
    assert "Nobody suit" in unknown.text
    [usage] = await app.conversation.handle(say("aditya", "/edit"))
    assert "/edit" in usage.text


async def test_a_case_export_keeps_only_its_own_line_of_a_register_wide_reply(app: App) -> None:
    from bot.cli.subjects import export
    from bot.store.reply_outbox import outgoing
    from memory.subjects import Subject

    await fresh_practice(app, TENANT)
    [listed] = await app.conversation.handle(say("aditya", "/cases"))
    assert listed.lists_many and "Pendyala" in listed.text and "Durga" in listed.text
    app.services.replies.outbox.keep(outgoing("intake:aditya-cases", "aditya", "telegram", "1", [listed]),
                                     owner="test", lease=timedelta(minutes=1))
    exported = await export(app, Subject(tenant=TENANT, kind="case", subject_id="cc-77-2025"), by="test")
    texts = [r["text"] for store in exported["stores"].values() for r in store.get("replies", [])]
    assert texts and all("Durga" in t and "Pendyala" not in t and "Mothe" not in t for t in texts)


async def test_editing_a_hearing_date_moves_a_next_date_written_as_a_span_and_the_cases_next_date(app: App) -> None:
    from handlers.legal.case_dates import next_date

    await fresh_practice(app, TENANT)
    [_, card] = await app.conversation.handle(say("aditya", "23.10.2026 Pendyala suit - WS filed. Call after four weeks."))
    assert "20 Nov 2026" in card.text
    [saved] = await app.conversation.handle(say("aditya", callback=button(card, "Save")))
    opened, fields = await app.conversation.handle(say("aditya", callback=button(saved, "Edit")))
    await app.conversation.handle(say("aditya", callback=button(fields, "Hearing date")))
    [shown] = await app.conversation.handle(say("aditya", "24.10.2026"))
    assert "24 Oct 2026" in shown.text and "21 Nov 2026" in shown.text
    await app.conversation.handle(say("aditya", callback=button(shown, "Save")))
    records = EntryStore(app.services.database).of_case(TENANT, "os-231-2024")
    assert [(r.hearing_date, r.next_date) for r in records] == [(date(2026, 10, 24), date(2026, 11, 21))]
    found = next_date(records)
    assert found is not None and found.day == date(2026, 11, 21)


def test_a_next_date_written_as_a_date_stays_when_the_hearing_date_is_corrected() -> None:
    from handlers.legal.cards import edit_field
    from handlers.legal.segment import segment
    from tests.legal.kinds_corpus import REGISTER, upload

    at = upload("2026-10-24T10:00")
    [written] = segment("23.10.2026 Pendyala suit - WS filed. Posted to 20.11.2026.", REGISTER, at)
    assert edit_field(written, "hearing_date", "22.10.2026", at).next_date == date(2026, 11, 20)


async def test_a_whole_note_sent_while_the_case_field_waits_is_read_as_a_note_and_moves_nothing(
        app: App, tmp_path: Path) -> None:
    """An Edit left open on the Case field must not take the next hearing note as the case (walk: a saved entry
    was re-filed under the note's case and the note itself was never filed)."""
    document_id = await _ingest(app, tmp_path)
    [opened] = await app.conversation.handle(say("aditya", "/edit Durga cheque case 28.11.2026"))
    [fields] = await app.conversation.handle(say("aditya", callback=button(opened, "Edit")))
    [asked] = await app.conversation.handle(say("aditya", callback=button(fields, "Case")))
    note = "A.S. 112/2023 - 02.12.2026 appellant's arguments heard in part, further arguments. N.D. 16.12.2026"
    replies = await app.conversation.handle(say("aditya", note))
    assert "Case" in replies[0].text and not replies[0].card_id  # the edit stays open and says so
    card = next(r for r in replies if r.card_id and "A.S. 112/2023" in r.text)
    assert "2 Dec 2026" in card.text and "16 Dec 2026" in card.text  # the note got its own card
    record = EntryStore(app.services.database).get(TENANT, document_id)
    assert record is not None and record.case_id == "cc-77-2025"  # the saved entry was not moved
    [short] = await app.conversation.handle(say("aditya", "O.S. 231/2024"))  # a case named as a value is taken
    assert short.card_id == opened.card_id and short.text.startswith("Pendyala")
