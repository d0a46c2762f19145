"""Outcome follow-ups: scheduled on Save, persisted by APScheduler's SQLAlchemy store, surviving a restart,
firing through Outbound, and the officer's answer retained as kind:outcome linked to its visit."""

import asyncio
from collections.abc import Callable
from datetime import date, datetime, timedelta, timezone

import pytest

from bot.core.app import App
from bot.core.messages import Reply
from bot.core.outbound import Outbound
from bot.core.registry import Registry
from bot.core.scheduler import FollowUp, FollowUpScheduler
from bot.store.state import StateStore
from bot.store import Database
from handlers.agri.cards import followup_id
from handlers.agri.models import Advice, Visit
from memory import RecallRequest
from tests.agri.conftest import CAPTURE_TENANT, RecordingNotifier, agri_users, button, say

pytestmark = pytest.mark.hindsight


def _visit() -> Visit:
    return Visit(id="F011-20260901-abc123", date=date(2026, 9, 1), officer_id="O01", farmer_id="F011",
                 village="moinabad", crop="cotton", issue="pink-bollworm",
                 products=[Advice(product_id="P007", reaction="accepted")])


async def test_followup_survives_a_restart_and_fires_when_the_bot_is_back(database: Database) -> None:
    registry = Registry(agri_users())
    state = StateStore(database)
    asked: list[str] = []

    def composer(followup: FollowUp, user: object) -> list[Reply]:
        asked.append(followup.followup_id)
        return [Reply(text=f"how did {followup.subject['farmer']} do?")]

    first = FollowUpScheduler(database, registry, Outbound(state))
    first.register("agri", composer)
    await first.start()
    due = datetime.now(timezone.utc) + timedelta(seconds=1.5)
    first.schedule(FollowUp(followup_id="agri-V1", pack="agri", user_id="ravi", due_at=due,
                            subject={"farmer": "Raju Yadav"}))
    assert first.job_ids() == ["agri-V1"]
    await first.shutdown()  # the bot goes down before the job is due
    await asyncio.sleep(2.0)
    assert asked == []

    outbound = Outbound(state)
    recorder = RecordingNotifier()
    outbound.register("console", recorder)
    second = FollowUpScheduler(database, registry, outbound)
    second.register("agri", composer)
    assert [f.followup_id for f in second.pending("ravi")] == ["agri-V1"]
    await second.start()  # the missed job is within the grace period, so it runs now
    for _ in range(50):
        if recorder.sent:
            break
        await asyncio.sleep(0.1)
    await second.shutdown()
    state.close()
    assert asked == ["agri-V1"]
    [(user_id, replies, purpose)] = recorder.sent
    assert (user_id, purpose, replies[0].text) == ("ravi", "followup", "how did Raju Yadav do?")
    third = FollowUpScheduler(database, registry, Outbound(StateStore(database)))
    assert third.get("agri-V1").status == "asked" and third.job_ids() == []
    await third.shutdown()


async def _until(condition: Callable[[], bool], timeout_s: float = 10.0) -> None:
    for _ in range(int(timeout_s / 0.05)):
        if condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the condition never held")


async def test_two_schedulers_on_one_database_ask_each_follow_up_once(database: Database) -> None:
    registry = Registry(agri_users())
    recorders = [RecordingNotifier(), RecordingNotifier()]
    schedulers = []
    for i, recorder in enumerate(recorders):
        outbound = Outbound(StateStore(database))
        outbound.register("console", recorder)
        scheduler = FollowUpScheduler(database, registry, outbound, rescan_every=timedelta(seconds=0.3),
                                      lease_retry_every=timedelta(seconds=0.2))
        scheduler.register("agri", lambda f, u: [Reply(text=f"how did {f.subject['farmer']} do?")])
        schedulers.append(scheduler)
    running, other = schedulers
    await running.start()
    await other.start()
    assert running.runs_jobs and not other.runs_jobs
    soon = datetime.now(timezone.utc) + timedelta(seconds=0.5)
    other.schedule(FollowUp(followup_id="agri-A", pack="agri", user_id="ravi", due_at=soon,
                            subject={"farmer": "Raju Yadav"}))  # scheduled where jobs do not run
    await _until(lambda: bool(recorders[0].sent))
    await asyncio.sleep(1.0)
    assert [r[1][0].text for r in recorders[0].sent] == ["how did Raju Yadav do?"] and recorders[1].sent == []

    await running.shutdown()  # the process running jobs stops: the other takes over
    await _until(lambda: other.runs_jobs)
    other.schedule(FollowUp(followup_id="agri-B", pack="agri", user_id="ravi",
                            due_at=datetime.now(timezone.utc) + timedelta(seconds=0.3), subject={"farmer": "Lalitha"}))
    await _until(lambda: bool(recorders[1].sent))
    await other.shutdown()
    assert [r[1][0].text for r in recorders[1].sent] == ["how did Lalitha do?"] and len(recorders[0].sent) == 1


async def test_job_missed_beyond_the_grace_period_is_not_run(database: Database) -> None:
    state = StateStore(database)
    outbound = Outbound(state)
    recorder = RecordingNotifier()
    outbound.register("console", recorder)
    scheduler = FollowUpScheduler(database, Registry(agri_users()), outbound, grace=timedelta(seconds=1))
    scheduler.register("agri", lambda f, u: [])
    scheduler.schedule(FollowUp(followup_id="agri-old", pack="agri", user_id="ravi",
                                due_at=datetime.now(timezone.utc) - timedelta(minutes=5), subject={}))
    await scheduler.start()
    await asyncio.sleep(0.5)
    await scheduler.shutdown()
    state.close()
    assert recorder.sent == []


async def test_save_schedules_then_answer_becomes_a_linked_outcome(agri_app: App, notifier: RecordingNotifier) -> None:
    conv, scheduler = agri_app.conversation, agri_app.services.scheduler
    [card] = await conv.handle(say("ravi", "Visited Raju Yadav on 2026-09-01, cotton pink bollworm 12%, Proclaim accepted."))
    replies = await conv.handle(say("ravi", callback=button(card, "Save")))
    assert "in 10 days" in replies[1].text  # pink bollworm follow-ups come sooner than the 21-day default
    [pending] = scheduler.pending("ravi", "agri")
    visit = Visit.model_validate_json(pending.subject["visit"])
    assert pending.followup_id == followup_id(visit.id) and pending.followup_id in scheduler.job_ids()
    assert pending.due_at > datetime.now(timezone.utc)  # a date already past is asked a minute after saving

    [listed] = await conv.handle(say("ravi", "/followups"))
    assert "Raju Yadav, cotton" in listed.text and "scheduled" in listed.text

    assert await scheduler.fire(pending.followup_id)
    [(user_id, [question], purpose)] = notifier.sent
    assert user_id == "ravi" and purpose == "followup"
    assert "Raju Yadav" in question.text and "Proclaim" in question.text and "1 Sep 2026" in question.text

    [outcome_card] = await conv.handle(say("ravi", "Proclaim worked, pink bollworm controlled after two sprays."))
    assert "Result: controlled" in outcome_card.text and "Proclaim (P007)" in outcome_card.text
    saved = await conv.handle(say("ravi", callback=button(outcome_card, "Save")))
    assert "Saved to memory" in saved[0].text
    assert scheduler.pending("ravi", "agri") == [] and scheduler.get(pending.followup_id).status == "answered"

    bank = agri_app.services.bank_of(CAPTURE_TENANT, "agri")
    found = await agri_app.services.memory.recall(
        bank, RecallRequest(query="Raju Yadav outcome", tags=["farmer:f011", "kind:outcome"], tags_match="all_strict"))
    [memory] = found
    assert memory.document_id == f"outcome:{visit.id}" and memory.metadata["visit_id"] == visit.id
    assert memory.metadata["result"] == "controlled" and "kind:outcome" in memory.tags


async def test_answer_button_and_telugu_voice_free_text_answer(agri_app: App, notifier: RecordingNotifier) -> None:
    scheduler = agri_app.services.scheduler
    visit = _visit()
    scheduler.schedule(FollowUp(followup_id=followup_id(visit.id), pack="agri", user_id="sita",
                                due_at=datetime.now(timezone.utc) + timedelta(days=5),
                                subject={"visit": visit.model_dump_json()}))
    [listed] = await agri_app.conversation.handle(say("sita", "/followups"))
    assert "రాజు యాదవ్" in listed.text
    [ask] = await agri_app.conversation.handle(say("sita", callback=listed.flat_buttons()[0].data))
    assert "రాజు యాదవ్" in ask.text and "Proclaim" in ask.text
    [card] = await agri_app.conversation.handle(say("sita", "కొంచెం తగ్గింది"))
    assert "కొంతవరకు తగ్గింది" in card.text
    [foreign] = await agri_app.conversation.handle(say("ravi", callback=listed.flat_buttons()[0].data))
    assert "no longer available" in foreign.text
