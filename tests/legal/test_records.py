"""Hearing records in the database: written with their memory from the confirmed card, the truth for exact
questions (a cause list complete at 10,000 hearings), rebuilt into the same memories, and read in from a bank
that predates the table."""

import random
import time
from datetime import date, datetime, timedelta

import pytest

from bot.core.app import App
from bot.core.memory_records import check_pack
from handlers.legal.casebook import CaseBook
from handlers.legal.entries import EntryStore
from handlers.legal.models import HearingRecord, ProposedEntry, Upload
from handlers.legal.pack import LegalPack
from handlers.legal.records import hearing_memory, memory_item
from handlers.legal.today import cause_list
from memory import EVENT_DATE_KEY
from memory.asof import IST
from tests.legal.helpers import button, say

pytestmark = pytest.mark.hindsight

TENANT = "demo"


def _pack(app: App) -> LegalPack:
    pack = app.packs["legal"]
    assert isinstance(pack, LegalPack)
    return pack


async def test_save_writes_the_record_and_its_memory_which_say_the_same(app: App) -> None:
    [_, card] = await app.conversation.handle(
        say("divya", "21/11 Gorle partition - plaintiff's arguments heard in part. N.D. 4/12"))
    store = EntryStore(app.services.database)
    assert store.all(TENANT) == []  # a card is a preview: no record before Save
    await app.conversation.handle(say("divya", callback=button(card, "Save")))
    [record] = [r for r in store.all(TENANT) if r.case_id == "gorle"]
    assert (record.kind, record.hearing_date, record.next_date) == ("hearing", date(2026, 11, 21), date(2026, 12, 4))
    assert "arguments heard in part" in record.text and record.author_id == "divya" and record.state == "saved"
    assert [a.action for a in store.audit(TENANT, record.document_id)] == ["save"]
    bank = app.services.bank_of(TENANT, "legal")
    [stored] = [d for d in await app.services.memory.list_documents(bank) if d.document_id == record.document_id]
    rebuilt = {i.document_id: i for i in _pack(app).memory_records(app.services, TENANT)}
    # The rebuild writes what Save wrote (the memory layer adds its own event_date key).
    assert rebuilt[record.document_id].metadata == {k: v for k, v in stored.metadata.items() if k != EVENT_DATE_KEY}
    assert stored.event_date == date(2026, 11, 21)
    # What is said in chat is a record too, so `smriti memory check` finds every memory of the pack's records.
    await app.conversation.handle(say("divya", "/remember Gorle: the client will not accept a half share"))
    [said] = [r for r in store.all(TENANT) if r.kind == "chat_memory"]
    assert said.case_id == "gorle" and "half share" in said.text
    check = await check_pack(_pack(app), app.services, TENANT)
    assert check.records_without_memory == []
    assert not {record.document_id, said.document_id} & set(check.memory_without_records)


def _chain(rng: random.Random, case_id: str, start: date, hearings: int) -> list[HearingRecord]:
    """A case's hearings, each on the next date the one before it set."""
    records, day = [], start
    for n in range(hearings):
        nxt = day + timedelta(days=rng.randint(7, 40))
        records.append(HearingRecord(document_id=f"u{n}:{case_id}:{day.isoformat()}", case_id=case_id,
                                     kind="hearing", hearing_date=day, next_date=nxt, source_file=f"{case_id}.txt",
                                     author="clerk", text=f"hearing {n}", upload_kind="note",
                                     uploaded_at=datetime.combine(day, datetime.min.time(), IST)))
        day = nxt
    return records


async def test_a_cause_list_is_complete_at_ten_thousand_hearings(app: App) -> None:
    rng = random.Random(7)
    cases = {f"case-{n:03d}": _chain(rng, f"case-{n:03d}", date(2024, 1, 1) + timedelta(days=rng.randint(0, 300)),
                                     40) for n in range(250)}
    store = EntryStore(app.services.database)
    assert store.add_missing("scale", [r for chain in cases.values() for r in chain]) == 10_000
    store.mark_backfilled("scale", 0)  # a bank made after the table: nothing to read in
    book = CaseBook(app.services, "scale")
    days = sorted({r.next_date for chain in cases.values() for r in chain if r.next_date is not None})
    checked = 0
    started = time.perf_counter()
    for day in rng.sample(days, 60):
        expected = {case_id for case_id, chain in cases.items() if any(r.next_date == day for r in chain)}
        listed = await book.listed_on(day)
        assert set(listed) == expected
        for case_id, found in listed.items():
            assert found.source.next_date == day and (found.last is None or found.last.hearing_date < day)
        checked += len(expected)
    assert checked > 60
    assert (time.perf_counter() - started) / 60 < 0.5  # read by index: a day's candidates, not the whole bank


async def test_an_older_bank_is_read_into_the_records_once(app: App) -> None:
    tenant = "olderbank"
    bank = app.services.bank_of(tenant, "legal")
    pack = _pack(app)
    register = pack.register_for(TENANT)
    pack.registers.add(tenant, register.cases)
    await app.services.memory.ensure_bank(pack.bank_profile(bank))
    case = register.get("seabreeze")
    assert case is not None
    upload = Upload(upload_id="uold1", source_file="old_note.txt", author="Divya", author_id="divya",
                    uploaded_at=datetime(2026, 9, 25, 21, 0, tzinfo=IST))
    items = [hearing_memory(ProposedEntry(case_id="seabreeze", hearing_date=day, date_source="text", next_date=nxt,
                                          text=words, confidence=0.85), case, upload)
             for day, nxt, words in ((date(2026, 8, 27), date(2026, 9, 24), "objections not ready"),
                                     (date(2026, 9, 24), date(2026, 10, 15), "objections draft 60% done"))]
    await app.services.memory.retain(bank, items)
    store = EntryStore(app.services.database)
    assert store.count(tenant) == 0
    listing = await cause_list(app.services, bank, pack.register_for(tenant), date(2026, 10, 15))
    assert [i.case_id for i in listing.items] == ["seabreeze"]
    assert store.count(tenant) == 2 and store.backfilled(tenant)
    assert {memory_item(r, case).document_id for r in store.all(tenant)} == {i.document_id for i in items}
