"""The memory layer's pure parts: models, tags, document ids, as-of filtering, the call log, bank names."""

from datetime import date, datetime, timedelta, timezone

import pytest
from pydantic import ValidationError

from memory import CallLog, CallRecord, MemoryItem, Period, Recalled, bank_id, ids, tags
from memory.asof import IST, event_date_of, not_after, query_timestamp, temporal_window


def recalled(day: date | None, doc: str = "d") -> Recalled:
    return Recalled(text="t", event_date=day, document_id=doc)


def test_memory_item_needs_an_aware_time_and_puts_the_date_in_metadata() -> None:
    with pytest.raises(ValidationError):
        MemoryItem(content="x", event_time=datetime(2026, 4, 8, 11), context="c", document_id="d")
    item = MemoryItem(content="x", event_time=datetime(2026, 4, 8, 23, 30, tzinfo=IST), context="c",
                      document_id="visit:V1", metadata={"farmer_id": "F001"})
    assert item.metadata_with_event_date() == {"farmer_id": "F001", "event_date": "2026-04-08"}


def test_a_period_runs_whole_days_in_india_and_cannot_run_backwards() -> None:
    window = temporal_window(Period(start=date(2026, 4, 1), end=date(2026, 4, 30)))
    assert datetime.fromisoformat(window["start"]) == datetime(2026, 3, 31, 18, 30, tzinfo=timezone.utc)
    assert datetime.fromisoformat(window["end"]) == datetime(2026, 4, 30, 18, 29, 59, tzinfo=timezone.utc)
    assert Period.until(date(2026, 4, 30)).end == date(2026, 4, 30)
    assert Period.until(date(2026, 4, 30)).start < date(2020, 1, 1)
    with pytest.raises(ValidationError):
        Period(start=date(2026, 5, 1), end=date(2026, 4, 30))


def test_tags_are_one_schema() -> None:
    assert tags.farmer("F001") == "farmer:f001"
    assert tags.village("Chevella ") == "village:chevella"
    assert tags.case("OS 112/2024") == "case:os-112-2024"
    assert tags.values_with_prefix(["farmer:f001", "crop:chilli", "crop:cotton"], tags.TagPrefix.CROP) == [
        "chilli", "cotton"]
    with pytest.raises(ValueError):
        tags.crop("  ")


def test_document_ids_are_deterministic_and_carry_the_date() -> None:
    assert ids.visit("V002") == "visit:V002"
    assert ids.outcome("V002") == "outcome:V002"
    assert ids.hearing("up-7", "seabreeze", date(2026, 9, 24)) == "up-7:seabreeze:2026-09-24"
    assert ids.chat_memory("aditya", "2026-09-30T10:00:00+05:30", "insist on 18%") == ids.chat_memory(
        "aditya", "2026-09-30T10:00:00+05:30", "insist on 18%")
    with pytest.raises(ValueError):
        ids.visit("a:b")


def test_event_date_prefers_metadata_then_reads_server_times_in_india() -> None:
    assert event_date_of({"event_date": "2026-04-08"}, None, "2026-04-09T00:00:00+00:00") == date(2026, 4, 8)
    # 20:00 UTC on 7 April is 01:30 on 8 April in India.
    assert event_date_of({}, None, "2026-04-07T20:00:00+00:00") == date(2026, 4, 8)
    assert event_date_of(None, None, None) is None


def test_as_of_drops_later_and_undated_memories() -> None:
    kept = not_after([recalled(date(2026, 4, 8), "a"), recalled(date(2026, 4, 21), "b"), recalled(None, "c"),
                      recalled(date(2026, 4, 20), "d")], date(2026, 4, 20))
    assert [m.document_id for m in kept] == ["a", "d"]
    assert query_timestamp(date(2026, 4, 20)) == "2026-04-20T23:59:59+05:30"


def test_call_log_is_a_bounded_ring_newest_first() -> None:
    log = CallLog(capacity=3)
    for i in range(5):
        log.push(CallRecord(operation="recall", bank_id=f"b{i % 2}", duration_ms=float(i), hits=i))
    assert len(log) == 3
    assert [r.hits for r in log.latest(10)] == [4, 3, 2]
    assert [r.hits for r in log.latest(10, bank_id="b0")] == [4, 2]
    assert "recall b0" in log.render(1)


def test_bank_ids_keep_tenants_apart_and_refuse_odd_names() -> None:
    assert bank_id("demo", "agri") == "smriti-demo-agri"
    assert bank_id("demo", "agri") != bank_id("greenfield", "agri")
    for bad in ("Demo", "a/b", "", "x" * 70):
        with pytest.raises(ValueError):
            bank_id(bad, "agri")


def test_ist_timestamp_round_trip() -> None:
    moment = datetime(2026, 4, 8, 10, 30, tzinfo=IST)
    assert moment.astimezone(timezone.utc) == datetime(2026, 4, 8, 5, 0, tzinfo=timezone.utc)
    assert IST.utcoffset(None) == timedelta(hours=5, minutes=30)


def test_an_observation_is_dated_by_its_latest_source_not_its_earliest() -> None:
    from types import SimpleNamespace

    from memory.convert import to_recalled
    april = SimpleNamespace(id="a", text="April", type="world", metadata={"event_date": "2026-04-14"},
                            occurred_start="2026-04-14T00:00:00+00:00", occurred_end=None, mentioned_at=None)
    september = SimpleNamespace(id="s", text="September", type="world", metadata={"event_date": "2026-09-08"},
                                occurred_start="2026-09-08T00:00:00+00:00", occurred_end=None, mentioned_at=None)
    observation = SimpleNamespace(id="o", text="Ravinder: armyworm, later bollworm", type="observation",
                                  metadata=None, occurred_start="2026-04-14T00:00:00+00:00",
                                  occurred_end=None, mentioned_at=None, source_fact_ids=["a", "s"], tags=[],
                                  document_id=None, scores=None)
    dated = to_recalled(observation, {"a": april, "s": september})
    assert dated.event_date == date(2026, 9, 8)
    assert not_after([dated], date(2026, 6, 1)) == []
    # Without its sources, the observation's own latest time still wins over its earliest start.
    alone = SimpleNamespace(**{**vars(observation), "occurred_end": "2026-09-08T00:00:00+00:00"})
    assert to_recalled(alone, {}).event_date == date(2026, 9, 8)


def test_as_of_recalls_ask_for_raw_facts_only() -> None:
    from memory import RecallRequest
    assert RecallRequest(query="q", as_of=date(2026, 6, 1)).effective_types() == ["world", "experience"]
    assert RecallRequest(query="q").effective_types() is None
    assert RecallRequest(query="q", types=("observation",)).effective_types() == ["observation"]


def test_operation_ids_are_stable_for_a_save_and_change_with_its_content_or_a_resubmission() -> None:
    from memory.convert import operation_id_for
    item = MemoryItem(content="x", event_time=datetime(2026, 4, 8, 11, tzinfo=IST), context="c", document_id="visit:V1")
    edited = item.model_copy(update={"content": "y"})
    assert operation_id_for("b", [item]) == operation_id_for("b", [item])
    assert operation_id_for("b", [item]) != operation_id_for("b", [edited])
    assert operation_id_for("b", [item]) != operation_id_for("b", [item], attempt=1)
    assert operation_id_for("b", [item]) != operation_id_for("other", [item])
