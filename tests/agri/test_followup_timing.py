"""Dates and follow-ups (issue 28 B): a backdated visit's follow-up is asked the next morning, never at once; a
follow-up question takes only an answer, and a new note or question sent while it waits is handled as what it
is, the follow-up staying pending; an edited date moves the visit's document id."""

from datetime import datetime, time, timedelta, timezone

import pytest

from bot.core.app import App
from bot.core.scheduler import FollowUp
from handlers.agri.cards import followup_id
from handlers.agri.followup_answer import answers_followup
from handlers.agri.models import Advice, Visit
from handlers.agri.pack import AgriPack
from memory.asof import IST
from tests.agri.conftest import CAPTURE_TENANT, RecordingNotifier, button, say

pytestmark = pytest.mark.hindsight


def _visit() -> Visit:
    return Visit(id="F011-20261101-abc123", date=datetime(2026, 11, 1).date(), officer_id="O01", farmer_id="F011",
                 village="moinabad", crop="cotton", issue="pink-bollworm",
                 products=[Advice(product_id="P007", reaction="accepted")])


async def test_a_backdated_visit_is_followed_up_next_morning_not_at_once(agri_app: App) -> None:
    conv, scheduler = agri_app.conversation, agri_app.services.scheduler
    [card] = await conv.handle(say("ravi", "1/6 Raju Yadav cotton pink bollworm, Proclaim accepted."))
    assert "1 Jun" in card.text
    await conv.handle(say("ravi", callback=button(card, "Save")))
    [pending] = scheduler.pending("ravi", "agri")
    tomorrow = datetime.now(IST).date() + timedelta(days=1)
    assert pending.due_at.astimezone(IST) == datetime.combine(tomorrow, time(9, 30), IST)


async def test_a_new_note_while_a_followup_waits_is_a_note(agri_app: App, notifier: RecordingNotifier) -> None:
    conv, scheduler = agri_app.conversation, agri_app.services.scheduler
    visit = _visit()
    scheduler.schedule(FollowUp(followup_id=followup_id(visit.id), pack="agri", user_id="ravi",
                                due_at=datetime.now(timezone.utc) + timedelta(days=5),
                                subject={"visit": visit.model_dump_json()}))
    assert await scheduler.fire(followup_id(visit.id))
    [card] = await conv.handle(say("ravi", "Ramesh Goud chilli thrips, Ulala accepted, revisit in 7 days"))
    assert "Ramesh Goud" in card.text and "Result" not in card.text
    # The follow-up no longer takes the next message, and stays pending for /followups.
    other, notice, again = await conv.handle(say("ravi", "Kavitha Reddy paddy blast, Tilt suggested"))
    assert "Result" not in other.text
    assert "not saved yet" in notice.text and again.card_id == card.card_id  # the unsaved card stays in sight
    assert [f.followup_id for f in scheduler.pending("ravi", "agri")] == [followup_id(visit.id)]


def test_what_answers_a_followup(agri_app: App) -> None:
    pack = agri_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    reader, visit = pack.reader_for(CAPTURE_TENANT), _visit()
    for answer in ("90% control", "still there", "Proclaim kottadu", "did not spray", "dealer's product used, no use",
                   "ఇంకా ఉంది", "Raju Yadav cotton controlled"):
        assert answers_followup(reader, visit, answer), answer
    for note in ("Ramesh Goud chilli thrips, Ulala accepted", "Kavitha Reddy paddy blast", "tomato leaf curl seen"):
        assert not answers_followup(reader, visit, note), note


async def test_an_edited_date_moves_the_document_id(agri_app: App) -> None:
    conv = agri_app.conversation
    [card] = await conv.handle(say("ravi", "Raju Yadav cotton pink bollworm, Proclaim accepted."))
    edit = await conv.handle(say("ravi", callback=button(card, "Edit")))
    date_field = next(b.data for b in edit[-1].flat_buttons() if b.label.lower().startswith("date"))
    await conv.handle(say("ravi", callback=date_field))
    [edited] = await conv.handle(say("ravi", "3/11/2026"))
    await conv.handle(say("ravi", callback=button(edited, "Save")))
    pack = agri_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    [saved] = [v for v in pack.records.visits(CAPTURE_TENANT, "F011") if v.visit.date.isoformat() == "2026-11-03"]
    assert "-20261103-" in saved.visit.id and saved.document_id.endswith(saved.visit.id)
