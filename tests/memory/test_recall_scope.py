"""Recalls as narrow as the question allows, so a recall costs about the same at 10,000 memories as at 100:
banks are made without the link-graph arm, an open period reaching today is not sent as a temporal window
(it ranks nothing), and a recall returns a bounded amount of text. Against the real local Hindsight."""

import uuid
from datetime import date, datetime, timedelta
from typing import Any

import pytest
from hindsight_client import Hindsight

from memory import BankProfile, MemoryClient, MemoryItem, Period, RecallRequest
from memory.asof import IST, today_in_india


def test_only_a_period_that_leaves_something_out_ranks_anything() -> None:
    today = date(2026, 12, 4)
    assert not Period.until(today).ranks_anything(today)
    assert not Period.until(today + timedelta(days=3)).ranks_anything(today)
    assert Period.until(today - timedelta(days=1)).ranks_anything(today)  # an as-of brief: later memories rank lower
    assert Period(start=date(2026, 8, 1), end=today).ranks_anything(today)


def test_a_recall_returns_a_bounded_amount_of_text_unless_asked_for_more() -> None:
    assert RecallRequest(query="q").max_tokens <= 2048
    assert RecallRequest(query="q", max_tokens=12000).max_tokens == 12000


@pytest.fixture
async def bank(memory: MemoryClient, bank_prefix: str) -> str:
    name = f"{bank_prefix}-scope{uuid.uuid4().hex[:6]}-agri"
    await memory.ensure_bank(BankProfile(bank_id=name, mission="Test bank."))
    day = date(2026, 6, 1)
    await memory.retain(name, [
        MemoryItem(content=f"Visit {i} to Anjaiah: chilli thrips at {10 + i}%; advised Regent.", context="visit",
                   event_time=datetime(day.year, day.month, day.day + i, 11, tzinfo=IST),
                   document_id=f"visit:S{i}", tags=["farmer:f003", "kind:visit"]) for i in range(3)])
    return name


@pytest.mark.hindsight
async def test_banks_are_made_without_the_graph_arm(hindsight_url: str, bank: str) -> None:
    sdk = Hindsight(base_url=hindsight_url)
    try:
        config = await sdk.aget_bank_config(bank)
    finally:
        await sdk.aclose()
    assert config["config"]["enable_graph_retrieval"] is False


@pytest.mark.hindsight
async def test_an_open_period_to_today_is_not_sent_and_a_past_one_is(memory: MemoryClient, bank: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    sent: list[Any] = []
    real = memory._client.arecall

    async def spy(*args: Any, **kwargs: Any) -> Any:
        sent.append(kwargs.get("temporal_window"))
        return await real(*args, **kwargs)

    monkeypatch.setattr(memory._client, "arecall", spy)
    today = today_in_india()
    found = await memory.recall(bank, RecallRequest(query="Anjaiah thrips", tags=["farmer:f003"],
                                                    period=Period.until(today)))
    assert {m.document_id for m in found} == {"visit:S0", "visit:S1", "visit:S2"}
    as_of = date(2026, 6, 2)
    found = await memory.recall(bank, RecallRequest(query="Anjaiah thrips", tags=["farmer:f003"], as_of=as_of,
                                                    period=Period.until(as_of)))
    assert {m.document_id for m in found} == {"visit:S0", "visit:S1"}
    assert sent[0] is None and sent[1] is not None and sent[1]["end"].startswith("2026-06-02")
