"""The tier itself: with the fake model, Hindsight really extracts facts, consolidates and reflects."""

import uuid
from datetime import datetime

from memory import MemoryClient, MemoryItem, RecallRequest
from memory.asof import IST
from tests.fakes.llm import FakeLLM
from tests.llm_mode.conftest import settled


async def test_facts_observations_and_reflect_happen(llm_memory: MemoryClient, fake_llm: FakeLLM) -> None:
    bank = f"llm-tier-{uuid.uuid4().hex[:8]}"
    item = MemoryItem(content="Ravi Teja sowed maize in Kothur. Fall armyworm was seen on young plants.",
                      event_time=datetime(2026, 5, 3, 10, tzinfo=IST), context="farm visit",
                      document_id="visit:T1", tags=["farmer:t1", "village:kothur"])
    await llm_memory.retain(bank, [item])
    await settled(llm_memory, bank)
    found = await llm_memory.recall(bank, RecallRequest(query="maize armyworm Kothur", tags=["village:kothur"],
                                                        tags_match="any_strict"))
    kinds = {m.type for m in found}
    assert "world" in kinds and "observation" in kinds, kinds
    facts = [m for m in found if m.type == "world"]
    assert all(m.document_id == "visit:T1" and m.event_date == item.event_time.date() for m in facts)
    assert fake_llm.count("extract") >= 1 and fake_llm.count("consolidate") >= 1
    answer = await llm_memory.reflect(bank, "What was seen on the maize?", tags=["village:kothur"])
    assert answer.available and answer.text and "armyworm" in answer.text
    assert any(m.document_id == "visit:T1" for m in answer.based_on)
    await llm_memory.delete_bank(bank)
