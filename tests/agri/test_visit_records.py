"""Saved visits are records in the database, written with their memory from the confirmed card only: the record
and the memory agree (one function builds the memory), a visit's document id follows its saved date (an edited
date re-keys and leaves one memory), and the brief's last visit and the insights' counts come from the records."""

from datetime import date

import pytest

from bot.core.app import App
from bot.core.messages import Reply
from handlers.agri.pack import AgriPack
from tests.agri.conftest import CAPTURE_TENANT, button, say

pytestmark = pytest.mark.hindsight

NOTE = "Raju Yadav cotton whitefly 30 percent, advised Proclaim, farmer accepted"


async def _edit(app: App, card: Reply, label: str, value: str) -> Reply:
    [menu] = await app.conversation.handle(say("ravi", callback=button(card, "Edit")))
    await app.conversation.handle(say("ravi", callback=button(menu, label)))
    [shown] = await app.conversation.handle(say("ravi", value))
    return shown


async def _bank_visits(app: App, farmer_tag: str) -> list[str]:
    bank = app.services.bank_of(CAPTURE_TENANT, "agri")
    documents = await app.services.memory.list_documents(bank, tags=[farmer_tag, "kind:visit"])
    return sorted(d.document_id for d in documents)


def _pack(app: App) -> AgriPack:
    found = app.packs["agri"]
    assert isinstance(found, AgriPack)
    return found


async def test_nothing_is_recorded_before_save_and_save_writes_record_and_memory_alike(
        own_bank_app: App) -> None:
    pack = _pack(own_bank_app)
    [card] = await own_bank_app.conversation.handle(say("ravi", NOTE))
    assert pack.records.visits(CAPTURE_TENANT) == []
    await own_bank_app.conversation.handle(say("ravi", callback=button(card, "Save")))
    [saved] = pack.records.visits(CAPTURE_TENANT)
    assert saved.visit.farmer_id == "F011" and saved.source == "card" and saved.transcript == NOTE
    [item] = pack.memory_records(own_bank_app.services, CAPTURE_TENANT)
    assert item.document_id == saved.document_id == f"visit:{saved.visit.id}"
    assert f"{saved.visit.date:%Y%m%d}" in item.document_id
    assert await _bank_visits(own_bank_app, "farmer:f011") == [item.document_id]
    assert pack.records.unanswered(CAPTURE_TENANT, "O01")[0].visit.id == saved.visit.id


async def test_an_edited_date_rekeys_the_visit_and_one_memory_remains(own_bank_app: App) -> None:
    pack = _pack(own_bank_app)
    [card] = await own_bank_app.conversation.handle(say("ravi", NOTE))
    await own_bank_app.conversation.handle(say("ravi", callback=button(card, "Save")))
    [first] = pack.records.visits(CAPTURE_TENANT)
    # The same note again, now dated: it is the same visit, re-keyed by its new date, never a second one.
    [again] = await own_bank_app.conversation.handle(say("ravi", NOTE))
    edited = await _edit(own_bank_app, again, "Date", "2026-09-03")
    assert "3 Sep 2026" in edited.text
    await own_bank_app.conversation.handle(say("ravi", callback=button(edited, "Save")))
    [saved] = pack.records.visits(CAPTURE_TENANT)
    assert saved.visit.date == date(2026, 9, 3) and saved.visit.id != first.visit.id
    assert saved.document_id.startswith("visit:F011-20260903-")
    assert await _bank_visits(own_bank_app, "farmer:f011") == [saved.document_id]
    followups = own_bank_app.services.scheduler.pending("ravi", "agri")
    assert [f.followup_id for f in followups] == [f"agri-{saved.visit.id}"]


async def test_brief_names_the_last_visit_from_records_and_as_of_sees_nothing_after(
        own_bank_app: App) -> None:
    pack = _pack(own_bank_app)
    for day, note in (("2026-08-02", "Raju Yadav cotton whitefly 20 percent, advised Proclaim, he refused, too costly"),
                      ("2026-08-20", "Raju Yadav cotton pink bollworm 15 percent, Proclaim accepted")):
        [card] = await own_bank_app.conversation.handle(say("ravi", note))
        edited = await _edit(own_bank_app, card, "Date", day)
        await own_bank_app.conversation.handle(say("ravi", callback=button(edited, "Save")))
    farmer = pack.book_for(CAPTURE_TENANT).farmers["F011"]
    brief = await pack.brief_for(CAPTURE_TENANT, farmer, date(2026, 9, 1), True, "en")
    assert brief.claims[0].source_date == date(2026, 8, 20)
    assert brief.claims[0].document_id is not None and "20260820" in brief.claims[0].document_id
    early = await pack.brief_for(CAPTURE_TENANT, farmer, date(2026, 8, 10), True, "en")
    assert {c.source_date for c in early.claims if c.document_id and "F011" in c.document_id} == {date(2026, 8, 2)}
    insights = await pack.insights_for(CAPTURE_TENANT, "moinabad", date(2026, 9, 1), "en", date(2026, 9, 1))
    counted = sum(row.advised for row in insights.counts)
    assert counted == 2


async def test_forgetting_a_farmer_erases_his_records_and_memories_only(own_bank_app: App) -> None:
    pack = _pack(own_bank_app)
    from bot.cli.subjects import export, forget
    from memory.subjects import Subject

    for note in (NOTE, "Bhaskar Rao cotton whitefly, Proclaim accepted"):
        [card] = await own_bank_app.conversation.handle(say("ravi", note))
        await own_bank_app.conversation.handle(say("ravi", callback=button(card, "Save")))
    subject = Subject(tenant=CAPTURE_TENANT, kind="farmer", subject_id="f011")  # as an admin types it
    exported = await export(own_bank_app, subject, by="test")
    [visit] = exported["stores"]["agri visit records"]["visits"]
    assert visit["visit"]["farmer_id"] == "F011" and visit["transcript"] == NOTE
    assert await forget(own_bank_app, subject, lambda _: True, by="test") == 0
    assert [v.visit.farmer_id for v in pack.records.visits(CAPTURE_TENANT)] == ["F013"]
    assert await _bank_visits(own_bank_app, "farmer:f011") == []
    assert [i.metadata["farmer_id"] for i in pack.memory_records(own_bank_app.services, CAPTURE_TENANT)] == ["F013"]
