"""The field pack in LLM mode: Save answers before extraction, the memory lands once, and an as-of brief or
as-of insights never show what a later visit taught memory (facts, observations or reflect)."""

from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from bot.core.app import App
from bot.core.registry import Registry
from bot.core.worker import IntakeWorker
from handlers.agri.brief import build_brief
from handlers.agri.insights import insights_text, mental_model_id, village_insights
from handlers.agri.pack import AgriPack
from memory import MemoryClient, RecallRequest
from tests.agri.conftest import (
    CAPTURE_TENANT,
    RecordingNotifier,
    agri_users,
    button,
    say,
)
from tests.conftest import make_settings
from tests.fakes.llm import FakeLLM
from tests.llm_mode.conftest import eventually, settled

APRIL_NOTE = ("Ravinder's maize on 2026-04-14: fall armyworm in the whorls, maybe 15%. "
              "Coragen accepted, Delegate refused, too costly.")
SEPTEMBER_NOTE = "2026-09-08 Ravinder cotton, pink bollworm about 20 percent. He took Proclaim."
AS_OF = date(2026, 6, 1)


@pytest.fixture
async def llm_app(tmp_path: Path, llm_hindsight_url: str, bank_prefix: str) -> AsyncIterator[App]:
    settings = make_settings(tmp_path, llm_hindsight_url, bank_prefix, memory_llm=True)
    app = await App.start(settings, registry=Registry(agri_users()), pack_names=["agri"])
    yield app
    await app.aclose()


@pytest.fixture(scope="module")
async def cleanup(llm_memory: MemoryClient, bank_prefix: str) -> AsyncIterator[None]:
    yield
    for bank in await llm_memory.bank_ids():
        if bank.startswith(f"{bank_prefix}-"):
            await llm_memory.delete_bank(bank)


async def save_note(app: App, note: str) -> list[str]:
    """Send a typed note as officer Ravi and press Save; return the replies' texts."""
    [card] = await app.conversation.handle(say("ravi", note))
    replies = await app.conversation.handle(say("ravi", callback=button(card, "Save")))
    return [r.text for r in replies]


async def confirmed(app: App) -> None:
    """Run the intake worker until the outbox has nothing left to confirm."""
    worker = IntakeWorker(app.conversation)

    async def empty() -> bool:
        await worker.run_once()
        return not app.services.outbox.pending()

    await eventually(empty, 90, "the outbox to confirm every save")


async def test_save_answers_before_extraction_and_the_memory_lands_once(
        llm_app: App, fake_llm: FakeLLM, cleanup: None) -> None:
    services = llm_app.services
    notifier = RecordingNotifier()
    services.outbound.register("console", notifier)
    bank = services.bank_of(CAPTURE_TENANT, "agri")
    fake_llm.delay_s = 3.0
    extracted_before = fake_llm.count("extract")
    texts = await save_note(llm_app, APRIL_NOTE)
    assert "Saving to memory" in texts[0]
    assert fake_llm.count("extract") == extracted_before, "Save waited for the model"
    [waiting] = services.outbox.pending(bank)
    assert waiting.saving and waiting.item.document_id.startswith("visit:F017-20260414")
    [status] = await llm_app.conversation.handle(say("ravi", "/memory"))
    assert "1 saving" in status.text
    fake_llm.delay_s = 0.0
    await confirmed(llm_app)
    [(_, [flipped], _)] = [sent for sent in notifier.sent if sent[1][0].replaces_card]
    assert "Saved to memory." in flipped.text and flipped.card_id  # the card turns from "saving" to "saved"
    await settled(services.memory, bank)
    # A lost acknowledgement resent: the same operation id, so no second operation and no second copy.
    again = await services.memory.retain_async(bank, [waiting.item])
    assert again.operation_id == waiting.operation_id
    await settled(services.memory, bank)
    documents = await services.memory.list_documents(bank, tags=["farmer:f017"])
    assert [d.document_id for d in documents] == [waiting.item.document_id]
    facts = [m for m in await services.memory.list_memories(bank, "farmer:f017") if m.type == "world"]
    assert facts and all(f.document_id == waiting.item.document_id for f in facts)
    assert len({f.text for f in facts}) == len(facts), "a fact was stored twice"


async def test_as_of_brief_and_insights_show_nothing_from_a_later_visit(
        llm_app: App, fake_llm: FakeLLM, cleanup: None) -> None:
    services = llm_app.services
    bank = services.bank_of(CAPTURE_TENANT, "agri")
    memory = services.memory
    await save_note(llm_app, APRIL_NOTE)
    await save_note(llm_app, SEPTEMBER_NOTE)
    await confirmed(llm_app)
    await settled(memory, bank)
    units = await memory.list_memories(bank, "farmer:f017")
    dated = {u.memory_id: u.event_date for u in units if u.type == "world"}
    spanning = [u for u in units if u.type == "observation"
                and {dated.get(s) for s in u.source_memory_ids} >= {date(2026, 4, 14), date(2026, 9, 8)}]
    assert spanning, "the trap is not set: no observation rests on both the April and the September visit"
    everything = await memory.recall(bank, RecallRequest(query="Ravinder maize cotton pests", tags=["farmer:f017"]))
    observations = [m for m in everything if m.type == "observation"]
    assert observations and all(m.event_date is not None for m in observations)
    assert max(m.event_date for m in observations) == date(2026, 9, 8)  # dated by the latest source

    as_of = await memory.recall(bank, RecallRequest(query="Ravinder maize cotton pests", tags=["farmer:f017"],
                                                    as_of=AS_OF))
    assert as_of and all(m.type != "observation" and m.event_date <= AS_OF for m in as_of)
    pack = llm_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    brief = await build_brief(memory, bank, pack.book_for(CAPTURE_TENANT), pack.book_for(CAPTURE_TENANT).farmers["F017"], AS_OF, True)
    assert brief.recalled.farmer >= 1
    shown = brief.model_dump_json().lower()
    assert "bollworm" not in shown and "proclaim" not in shown and "2026-09" not in shown

    reflects_before = fake_llm.count("reflect")
    insights = await village_insights(memory, bank, pack.book_for(CAPTURE_TENANT), "moinabad", AS_OF, llm=True, today=date(2026, 12, 1))
    assert fake_llm.count("reflect") > reflects_before  # it did ask the model, with the as-of facts in context
    # The fake's agent cites everything its searches reached, September included, so the answer is refused.
    assert insights.source == "aggregate"
    said = insights_text(pack.book_for(CAPTURE_TENANT), insights, "en").lower()
    assert "bollworm" not in said and "proclaim" not in said and "2026-09" not in said and "8 sep" not in said


async def test_current_insights_read_the_village_mental_model_in_one_call(
        llm_app: App, fake_llm: FakeLLM, cleanup: None) -> None:
    services = llm_app.services
    bank = services.bank_of(CAPTURE_TENANT, "agri")
    pack = llm_app.packs["agri"]
    assert isinstance(pack, AgriPack)
    today = date(2026, 12, 1)
    await save_note(llm_app, APRIL_NOTE)
    await confirmed(llm_app)
    first = await village_insights(services.memory, bank, pack.book_for(CAPTURE_TENANT), "moinabad", today, llm=True, today=today)
    assert first.source == "aggregate"  # the model did not exist yet: the bot created it, counting meanwhile
    await settled(services.memory, bank)
    model = await services.memory.mental_model(bank, mental_model_id("moinabad"))
    assert model is not None and model.content and model.tags == ["village:moinabad"]
    calls_before = dict(fake_llm.calls)
    second = await village_insights(services.memory, bank, pack.book_for(CAPTURE_TENANT), "moinabad", today, llm=True, today=today)
    assert second.source == "mental_model" and any("armyworm" in line.lower() for line in second.works)
    assert fake_llm.calls == calls_before, "reading insights should not make the model answer anything"
