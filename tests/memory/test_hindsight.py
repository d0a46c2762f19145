"""The memory layer against the real local Hindsight: tag modes, replace by document id, as-of, reflect fallback,
outages, and the outbox keeping writes that could not be made."""

import uuid
from datetime import date, datetime
from pathlib import Path

import pytest

from memory import BankProfile, MemoryClient, MemoryItem, MemoryUnavailable, Period, RecallRequest
from memory.asof import IST
from memory.outbox import Outbox
from tests.databases import sqlite_database

pytestmark = pytest.mark.hindsight


def visit(doc: str, day: date, text: str, *tag_list: str) -> MemoryItem:
    return MemoryItem(content=text, event_time=datetime(day.year, day.month, day.day, 11, tzinfo=IST),
                      context="field visit", document_id=doc, tags=list(tag_list), metadata={"visit_id": doc})


@pytest.fixture
async def bank(memory: MemoryClient, bank_prefix: str) -> str:
    name = f"{bank_prefix}-m{uuid.uuid4().hex[:6]}-agri"
    await memory.ensure_bank(BankProfile(bank_id=name, mission="Test bank.", directives={"cite": "Cite dates."}))
    await memory.retain(name, [
        visit("visit:V1", date(2026, 4, 8), "Ramesh Goud rejected Amistar Top for chilli blight: too expensive.",
              "farmer:f001", "village:chevella", "crop:chilli", "kind:visit"),
        visit("visit:V2", date(2026, 4, 21), "Ramesh Goud accepted Blitox copper fungicide at Rs 420 for chilli.",
              "farmer:f001", "village:chevella", "crop:chilli", "kind:visit"),
        visit("visit:V3", date(2026, 4, 22), "Suresh in Chevella sprayed Blitox on chilli; blight controlled.",
              "farmer:f002", "village:chevella", "crop:chilli", "kind:visit"),
        visit("visit:V4", date(2026, 8, 14), "Moinabad cotton shows pink bollworm again this August.",
              "farmer:f010", "village:moinabad", "crop:cotton", "kind:visit"),
    ])
    return name


async def test_ensure_bank_is_idempotent(memory: MemoryClient, bank: str) -> None:
    profile = BankProfile(bank_id=bank, mission="Test bank.", directives={"cite": "Cite dates."})
    await memory.ensure_bank(profile)
    await memory.ensure_bank(profile)
    assert (await memory.stats(bank)).documents == 4


async def test_recall_with_any_strict_and_all_strict(memory: MemoryClient, bank: str) -> None:
    farmer = await memory.recall(bank, RecallRequest(query="chilli blight fungicide", tags=["farmer:f001"]))
    assert {m.document_id for m in farmer} == {"visit:V1", "visit:V2"}
    similar = await memory.recall(bank, RecallRequest(
        query="chilli problems", tags=["village:chevella", "crop:chilli"], tags_match="all_strict"))
    assert {m.document_id for m in similar} == {"visit:V1", "visit:V2", "visit:V3"}
    either = await memory.recall(bank, RecallRequest(
        query="cotton bollworm and chilli blight", tags=["village:moinabad", "farmer:f002"], tags_match="any_strict"))
    assert {m.document_id for m in either} == {"visit:V3", "visit:V4"}
    for m in farmer:
        assert m.event_date in (date(2026, 4, 8), date(2026, 4, 21))
        assert m.metadata["event_date"] == m.event_date.isoformat()


async def test_same_document_id_replaces_not_duplicates(memory: MemoryClient, bank: str) -> None:
    again = visit("visit:V1", date(2026, 4, 8), "Ramesh Goud said no to Amistar Top: Rs 1,480 is too much.",
                  "farmer:f001", "village:chevella", "crop:chilli", "kind:visit")
    await memory.retain(bank, [again])
    await memory.retain(bank, [again])
    found = await memory.recall(bank, RecallRequest(query="Ramesh Amistar Top", tags=["farmer:f001"]))
    texts = [m.text for m in found if m.document_id == "visit:V1"]
    assert texts == ["Ramesh Goud said no to Amistar Top: Rs 1,480 is too much."]
    assert (await memory.stats(bank)).documents == 4


async def test_as_of_never_knows_the_future(memory: MemoryClient, bank: str) -> None:
    found = await memory.recall(bank, RecallRequest(
        query="what happened with Ramesh", tags=["farmer:f001"], as_of=date(2026, 4, 20)))
    assert [m.document_id for m in found] == ["visit:V1"]


async def test_a_period_guides_the_server_but_only_as_of_bounds_what_comes_back(memory: MemoryClient,
                                                                                bank: str) -> None:
    until = await memory.recall(bank, RecallRequest(
        query="what happened with Ramesh", tags=["farmer:f001"], as_of=date(2026, 4, 20),
        period=Period.until(date(2026, 4, 20))))
    assert [m.document_id for m in until] == ["visit:V1"]
    # The server's temporal window ranks; it does not filter: an August period still finds April's visits.
    august = await memory.recall(bank, RecallRequest(
        query="chilli blight", tags=["farmer:f001"], period=Period(start=date(2026, 8, 1), end=date(2026, 8, 31))))
    assert {m.document_id for m in august} == {"visit:V1", "visit:V2"}


async def test_list_documents_by_tag(memory: MemoryClient, bank: str) -> None:
    docs = await memory.list_documents(bank, tags=["village:chevella"])
    assert {d.document_id for d in docs} == {"visit:V1", "visit:V2", "visit:V3"}
    assert {d.event_date for d in docs} == {date(2026, 4, 8), date(2026, 4, 21), date(2026, 4, 22)}


async def test_reflect_without_an_llm_falls_back_cleanly(memory: MemoryClient, bank: str) -> None:
    answer = await memory.reflect(bank, "What works for chilli blight in Chevella?", tags=["village:chevella"])
    assert answer.available is False and answer.text is None and answer.reason


async def test_every_call_is_timed_into_the_ring(memory: MemoryClient, bank: str) -> None:
    await memory.recall(bank, RecallRequest(query="cotton", tags=["crop:cotton"]))
    latest = memory.call_log.latest(1, bank)[0]
    assert latest.operation == "recall" and latest.ok and latest.hits == 1 and latest.duration_ms > 0


async def test_outage_raises_unavailable_and_the_outbox_keeps_the_write(
    memory: MemoryClient, bank: str, tmp_path: Path
) -> None:
    item = visit("visit:V9", date(2026, 5, 2), "Ramesh: blight controlled after two Blitox sprays.",
                 "farmer:f001", "kind:outcome")
    down = MemoryClient("http://127.0.0.1:9", read_timeout_s=3, write_timeout_s=3)
    with pytest.raises(MemoryUnavailable):
        await down.recall(bank, RecallRequest(query="x"))
    database = sqlite_database(tmp_path)
    outbox = Outbox(database.engine)
    outcome = await outbox.retain_or_queue(down, bank, [item])
    await down.aclose()
    assert outcome.queued == 1 and not outcome.fully_stored
    database.dispose()
    database = sqlite_database(tmp_path)
    reopened = Outbox(database.engine)  # survives a restart
    assert [q.item.document_id for q in reopened.pending()] == ["visit:V9"]
    report = await reopened.flush(memory)
    assert report.stored == 1 and report.still_queued == 0
    found = await memory.recall(bank, RecallRequest(query="Blitox sprays", tags=["kind:outcome"]))
    assert [(m.document_id, m.event_date) for m in found] == [("visit:V9", date(2026, 5, 2))]
