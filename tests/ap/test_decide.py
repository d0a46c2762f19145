"""The AP pipeline end to end against the real local Hindsight: the issue's done-when scenarios and more."""

import socket
import uuid
from datetime import datetime
from pathlib import Path

import pytest

from bot.core.app import App
from handlers.ap.pack import APPack
from handlers.ap.decision import DecisionReport
from handlers.ap.cards import render_report
from handlers.ap.demo import load_sample
from handlers.ap.invoice_memory import document_id
from memory import MemoryClient, MemoryItem, ids, tags
from memory.asof import IST
from tests.conftest import make_settings
from tests.fakes.http import FakeServer, Response
from tests.registers import seed_tenants

pytestmark = pytest.mark.hindsight


def recalls(app: App, bank: str) -> int:
    return sum(1 for r in app.services.memory.call_log.latest(200, bank) if r.operation == "recall")


async def test_ravi_new_account_blocked_on_the_ledger_counts_with_or_without_memory(pack: APPack, demo: str) -> None:
    """The first-bank-change rule reads the ledger's counts (issue 25): memory adds the story, not the gate."""
    invoice = load_sample("ravi_new_account")
    without = await pack.decide(invoice, demo, use_memory=False)
    assert without.status == "PAYMENT_BLOCKED"
    assert [f.code for f in without.flags] == ["FIRST_BANK_CHANGE"]
    assert without.memory_source == "disabled" and without.memories == [] and not without.retained

    with_memory = await pack.decide(invoice, demo)
    assert with_memory.status == "PAYMENT_BLOCKED"
    assert with_memory.confidence == pytest.approx(0.99)
    assert with_memory.memory_source == "recalled"
    flag = next(f for f in with_memory.flags if f.code == "FIRST_BANK_CHANGE")
    assert "14 clean payments to ••••4821" in flag.evidence
    assert "034501557719" in flag.evidence and "50200012344821" in flag.evidence, "both numbers in full"
    assert "14 successful payments to ••••4821" in with_memory.recommendation
    assert "Suresh Kumar" in with_memory.recommendation and "+91 40 2771 3390" in with_memory.recommendation
    assert "98490" not in with_memory.recommendation  # the number printed on the invoice is never the one to call
    assert with_memory.trust.before == 90 and with_memory.trust.after == 30
    assert 1 <= len(with_memory.memories) <= 4
    assert with_memory.memories[0].document_id == ids.seed("ap-vendor-history", "V001")
    assert with_memory.preview and not with_memory.retained, "a preview writes nothing"


async def test_never_paid_vendor_gets_no_recall_at_all(ap_app: App, pack: APPack, demo: str) -> None:
    bank = ap_app.services.bank_of(demo, "ap")
    before = recalls(ap_app, bank)
    report = await pack.decide(load_sample("nova_first"), demo, record=True)
    assert report.memory_source == "no_history"
    assert report.memories == []
    assert report.status == "HUMAN_REVIEW" and report.confidence == pytest.approx(0.61)
    assert [f.code for f in report.flags] == ["NEW_VENDOR"]
    assert "Farhan Ali" in report.recommendation
    assert recalls(ap_app, bank) == before, "the gate is before the query, not after it"
    actions = [e.action for e in pack.audit.entries(run_id=report.run_id)]
    assert "MEMORY_SKIPPED_NO_HISTORY" in actions and "MEMORY_RECALLED" not in actions


async def test_never_paid_vendor_does_not_inherit_a_lookalike(ap_app: App, pack: APPack, demo: str) -> None:
    """Even a memory tagged for the new vendor is not asked for: no history means nothing."""
    bank = ap_app.services.bank_of(demo, "ap")
    planted = MemoryItem(
        content="Nova Packaging Solutions completed 30 payments to the account ending 8123 with no changes.",
        event_time=datetime(2026, 1, 5, 12, 0, tzinfo=IST), context="planted",
        document_id="planted:nova", tags=[tags.vendor("V003")],
        metadata={"kind": "vendor_history", "vendor_id": "V003", "clean_payments": "30", "bank_changes": "0",
                  "account_suffix": "8123"},
    )
    await ap_app.services.memory.retain(bank, [planted])
    report = await pack.decide(load_sample("nova_first"), demo)
    assert report.memory_source == "no_history" and report.memories == []


async def test_abc_repeat_mismatch_recommends_the_remembered_correction(pack: APPack, demo: str) -> None:
    invoice = load_sample("abc_repeat_mismatch")
    without = await pack.decide(invoice, demo, use_memory=False)
    assert without.status == "EXCEPTION"
    assert "corrected invoice" not in without.recommendation
    assert "raise the quantity difference" in without.recommendation

    report = await pack.decide(invoice, demo)
    assert report.status == "EXCEPTION"
    codes = [f.code for f in report.flags]
    assert "QUANTITY_MISMATCH" in codes and "RECURRING_MISMATCH" in codes
    assert report.recommendation.startswith("Request a corrected invoice from ABC Technologies")
    assert "ABC/25-26/118" in report.recommendation and "no escalation" in report.recommendation
    line = next(ln for ln in report.match.lines if ln.sku == "MON-24")
    assert line.invoiced_quantity == 22 and line.received_quantity == 20 and line.issues == ["QUANTITY_MISMATCH"]
    assert any(m.kind == "past_exception" for m in report.memories)


async def test_the_same_invoice_run_three_times_retains_one_memory(ap_app: App, pack: APPack, tenant: str) -> None:
    bank = ap_app.services.bank_of(tenant, "ap")
    invoice = load_sample("ravi_new_account")
    runs = [await pack.decide(invoice, tenant, record=True) for _ in range(3)]
    assert [r.status for r in runs] == ["PAYMENT_BLOCKED"] * 3
    assert [r.retained for r in runs] == [True, False, False]
    assert [r.ledger_outcome for r in runs] == ["new", "copy", "copy"], "one entry, the copies record nothing"
    assert [r.copy_of for r in runs] == [None, invoice.invoice_number, invoice.invoice_number]
    decision_id = document_id("V001", invoice.invoice_number)
    assert {r.memory_document_id for r in runs} == {decision_id}
    stored = await ap_app.services.memory.list_documents(bank, tags=[tags.record_type("agent-decision")])
    assert [d.document_id for d in stored] == [decision_id]
    assert stored[0].metadata["status"] == "PAYMENT_BLOCKED"
    assert stored[0].metadata["flags"] == "FIRST_BANK_CHANGE" and stored[0].metadata["state"] == "decided"
    # Later runs never cite the agent's own earlier decision on this invoice.
    for run in runs[1:]:
        assert all(m.document_id != decision_id for m in run.memories)
        assert all(invoice.invoice_number not in m.text for m in run.memories)
    dropped = [e.detail["dropped"] for e in pack.audit.entries(bank_id=bank) if e.action == "MEMORY_RECALLED"]
    assert dropped[0] == {} and all(d.get("own_decision") == 1 for d in dropped[1:])


async def test_a_preview_writes_nothing_and_a_recorded_decision_is_one_memory(ap_app: App, pack: APPack,
                                                                              tenant: str) -> None:
    bank = ap_app.services.bank_of(tenant, "ap")
    before = {d.document_id for d in await ap_app.services.memory.list_documents(bank)}
    report = await pack.decide(load_sample("ravi_clean"), tenant)
    assert report.status == "APPROVE" and report.confidence == pytest.approx(0.93)
    assert report.flags == [] and not report.retained and report.memory_document_id is None and report.preview
    assert report.recommendation == "Approve payment of ₹4,58,784 to the account on file ••••4821."
    assert "Preview only" in render_report("en", report) and "saved" not in render_report("en", report)
    assert {d.document_id for d in await ap_app.services.memory.list_documents(bank)} == before
    assert pack.audit.entries(run_id=report.run_id) == [] and pack.book.recorded_entries(tenant) == []
    recorded = await pack.decide(load_sample("ravi_clean"), tenant, record=True)
    assert recorded.retained and recorded.ledger_state == "decided"
    stored = await ap_app.services.memory.list_documents(bank, tags=[tags.record_type("agent-decision")])
    assert [d.document_id for d in stored] == [document_id("V001", "RSC/26-27/0009")]


async def test_few_payments_bank_change_goes_to_review(pack: APPack, demo: str) -> None:
    report = await pack.decide(load_sample("sai_new_account"), demo)
    assert report.status == "HUMAN_REVIEW" and [f.code for f in report.flags] == ["BANK_CHANGE"]
    assert "only 3 clean payments" in report.flags[0].evidence
    assert "Venkat Rao" in report.recommendation


async def test_duplicate_and_outlier(pack: APPack, demo: str) -> None:
    duplicate = await pack.decide(load_sample("ravi_duplicate"), demo)
    assert duplicate.status == "PAYMENT_BLOCKED" and duplicate.flags[0].code == "DUPLICATE_INVOICE"
    assert "17 Mar 2026" in duplicate.flags[0].evidence
    outlier = await pack.decide(load_sample("ravi_outlier"), demo)
    assert outlier.status == "HUMAN_REVIEW" and [f.code for f in outlier.flags] == ["AMOUNT_OUTLIER"]
    assert "₹48,49,800" in outlier.flags[0].evidence and "₹11,82,000" in outlier.flags[0].evidence
    without = await pack.decide(load_sample("ravi_outlier"), demo, use_memory=False)
    assert without.status == "APPROVE", "the amount baseline is what memory buys"


async def test_tenants_never_share_vendor_memory(pack: APPack, demo: str) -> None:
    other = f"ap{uuid.uuid4().hex[:8]}"
    seed_tenants(pack.services.database, {other}, ["ap"])  # the same vendors, a bank of its own
    await pack.services.memory.ensure_bank(pack.bank_profile(pack.services.bank_of(other, "ap")))
    report = await pack.decide(load_sample("ravi_new_account"), other)
    assert report.memory_source == "recalled" and report.memories == []
    assert report.status == "PAYMENT_BLOCKED"  # the other tenant's own ledger counts, never our memory


async def _outage_report(tmp_path: Path, hindsight_url: str, bank_prefix: str,
                         memory_url: str) -> tuple[App, DecisionReport]:
    settings = make_settings(tmp_path, hindsight_url, bank_prefix).model_copy(update={"hindsight_url": memory_url})
    app = await App.start(settings, pack_names=["ap"])
    pack = app.packs["ap"]
    assert isinstance(pack, APPack)
    seed_tenants(app.services.database, {"outage"}, ["ap"])
    report = await pack.decide(load_sample("ravi_new_account"), "outage", record=True)
    return app, report


async def test_recall_outage_on_a_closed_port_is_memory_error(tmp_path: Path, hindsight_url: str,
                                                               bank_prefix: str) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]
    app, report = await _outage_report(tmp_path, hindsight_url, bank_prefix, f"http://127.0.0.1:{closed}")
    try:
        assert report.memory_source == "memory_error"
        assert report.memories == []
        assert report.status == "PAYMENT_BLOCKED"  # decided on the ledger, like a run without memory
        assert "MEMORY_UNAVAILABLE" in [f.code for f in report.flags]
        assert not report.retained and report.retain_queued, "a write during an outage waits, it is not dropped"
        pending = app.services.outbox.pending()
        assert [q.item.document_id for q in pending] == [document_id("V001", "RSC/26-27/0007")]
    finally:
        await app.aclose()


async def test_recall_outage_on_a_503_is_memory_error(tmp_path: Path, hindsight_url: str, bank_prefix: str) -> None:
    server = FakeServer()
    server.route("POST", "/", lambda _: Response.of_json({"detail": "overloaded"}, status=503))
    server.route("GET", "/", lambda _: Response.of_json({"detail": "overloaded"}, status=503))
    try:
        app, report = await _outage_report(tmp_path, hindsight_url, bank_prefix, server.url)
        try:
            assert report.memory_source == "memory_error"
            assert any("/recall" in r.path for r in server.requests)
            entries = app.packs["ap"].audit.entries(run_id=report.run_id)  # type: ignore[attr-defined]
            assert "MEMORY_ERROR" in [e.action for e in entries]
        finally:
            await app.aclose()
    finally:
        server.close()


async def test_every_step_is_audited(pack: APPack, tenant: str) -> None:
    report = await pack.decide(load_sample("ravi_new_account"), tenant, record=True)
    actions = [e.action for e in pack.audit.entries(run_id=report.run_id)]
    assert actions == ["INVOICE_RECEIVED", "VENDOR_IDENTIFIED", "MATCH_DONE", "MEMORY_RECALLED", "RISK_EVALUATED",
                       "DECISION_MADE", "LEDGER_RECORDED", "AGENT_MEMORY_RETAINED"]
    recalled = next(e for e in pack.audit.entries(run_id=report.run_id) if e.action == "MEMORY_RECALLED")
    assert recalled.detail["kept"][0] == ids.seed("ap-vendor-history", "V001")


async def test_seeds_are_idempotent_and_carry_numbers_as_metadata(ap_app: App, pack: APPack, tenant: str,
                                                                  memory: MemoryClient) -> None:
    bank = ap_app.services.bank_of(tenant, "ap")
    first = await memory.list_documents(bank)
    again = await pack.load_seeds(tenant)
    second = await memory.list_documents(bank)
    assert again.retained == 4 and again.details == {"vendor_histories": 3, "past_exceptions": 1}
    assert sorted(d.document_id for d in first) == sorted(d.document_id for d in second)
    assert len(second) == 4
    ravi = next(d for d in second if d.document_id == ids.seed("ap-vendor-history", "V001"))
    assert ravi.metadata["payment_count"] == "14" and ravi.metadata["clean_payments"] == "14"
    assert ravi.metadata["account_suffix"] == "4821" and ravi.metadata["bank_changes"] == "0"
    assert ravi.metadata["event_date"] == "2026-03-17"
    assert not any(d.metadata.get("vendor_id") == "V003" for d in second), "a never-paid vendor has no history"



async def test_demo_shows_memory_changing_the_outcome(pack: APPack, demo: str) -> None:
    lines: list[str] = []
    await pack.demo(demo, lines.append)
    shown = "\n".join(lines)
    assert "without memory: PAYMENT_BLOCKED at 99%" in shown  # the ledger's counts block it either way
    assert "with memory:    PAYMENT_BLOCKED at 99%" in shown
    assert "HUMAN_REVIEW at 61% (memory: no_history, 0 kept; flags: NEW_VENDOR)" in shown
    assert "Request a corrected invoice from ABC Technologies" in shown
