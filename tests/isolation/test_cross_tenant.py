"""Nobody reaches another tenant's bank: an officer of another distributor, a lawyer of another practice and
a clerk of another company ask about what tenant demo holds, and get nothing of it. Each test first shows
that demo's own user does get the memories, so the test fails if they were never there."""

import re
from datetime import datetime, timezone

import pytest

from bot.core.app import App
from bot.services.i18n import text
from handlers.ap.pack import APPack
from handlers.ap.demo import SAMPLES, load_sample
from handlers.ap.vendor_memory import recall_vendor_memory
from bot.core.pack import SeedReport
from handlers.legal.backlog import CASES_FILE
from handlers.legal.register import CaseRegister
from handlers.legal.registers import CaseRegisters
from tests.isolation.conftest import SEABREEZE_HEARINGS, press, say

pytestmark = pytest.mark.hindsight

_DOC_ID = re.compile(r"\b(?:visit|outcome):V\d{3}\b")

pytestmark = pytest.mark.own_registers


def _calls_since(app: App, since: datetime) -> set[str]:
    """The banks the memory calls since `since` touched; a health check ("-", as /memory makes) touches none."""
    return {c.bank_id for c in app.services.memory.call_log.latest(200) if c.at >= since and c.bank_id != "-"}


async def test_an_officer_of_another_distributor_gets_nothing_of_demos_farmers(seeded: SeedReport,
                                                                              seeded_app: App) -> None:
    conversation, memory = seeded_app.conversation, seeded_app.services.memory
    demo_bank, greenfield_bank = seeded.bank_id, seeded_app.services.bank_of("greenfield", "agri")
    [own] = await conversation.handle(say("srinivas", "/brief Ramesh Goud 2026-09-28"))
    assert "8 Apr 2026 · visit to Ramesh Goud" in own.text and "18 Apr 2026 · follow-up of Ramesh Goud" in own.text, \
        "demo's officer sees the history, cited by date and name"
    assert not _DOC_ID.search(own.text), "never by a record's id"
    [own_insights] = await conversation.handle(say("srinivas", "/insights chevella"))
    assert own_insights.image is not None

    started = datetime.now(timezone.utc)
    [brief] = await conversation.handle(say("kiran", "/brief Ramesh Goud 2026-09-28"))
    assert "Ramesh Goud (F001)" in brief.text and "No history with this farmer yet." in brief.text
    assert not _DOC_ID.search(brief.text) and "Amistar Top" not in brief.text and "40%" not in brief.text
    [insights] = await conversation.handle(say("kiran", "/insights chevella"))
    assert insights.image is None
    [memory_calls] = await conversation.handle(say("kiran", "/memory"))
    assert greenfield_bank in memory_calls.text and demo_bank not in memory_calls.text
    assert _calls_since(seeded_app, started) == {greenfield_bank}, "every call went to kiran's own bank"

    demo_docs = {d.document_id for d in await memory.list_documents(demo_bank)}
    card = (await conversation.handle(say("kiran", "Ramesh Goud chilli leaf blight 20%, Blitox accepted")))[-1]
    await conversation.handle(say("kiran", callback=press(card, "Save")))
    saved = [d for d in await memory.list_documents(greenfield_bank) if d.document_id.startswith("visit:F001-")]
    assert len(saved) == 1 and saved[0].metadata["officer_id"] == "G01"
    assert {d.document_id for d in await memory.list_documents(demo_bank)} == demo_docs


async def test_a_lawyer_of_another_practice_cannot_reach_demos_cases(legal_demo: str, seeded_app: App) -> None:
    conversation = seeded_app.conversation
    [own] = await conversation.handle(say("aditya", "What happened last time in Seabreeze?"))
    assert SEABREEZE_HEARINGS[-1][1] in own.text and "Sources" in own.text

    [unknown] = await conversation.handle(say("meera", "What happened last time in Seabreeze?"))
    assert "Seabreeze" in unknown.text and "Sources" not in unknown.text and "isolation check" not in unknown.text
    [history] = await conversation.handle(say("meera", "/history Seabreeze"))
    assert "Sources" not in history.text and "isolation check" not in history.text
    [cases] = await conversation.handle(say("meera", "/cases"))
    assert "Seabreeze" not in cases.text

    # Even with the very same case in her own register, her answers come from her practice's bank alone.
    CaseRegisters(seeded_app.services.database).add("iyer-chambers", CaseRegister.load(CASES_FILE).cases)
    started = datetime.now(timezone.utc)
    for question in ("What happened last time in Seabreeze?", "/history Seabreeze", "/today 24.09.2026"):
        [answer] = await conversation.handle(say("meera", question))
        assert "Sources" not in answer.text and "isolation check" not in answer.text, question
    assert _calls_since(seeded_app, started) == {seeded_app.services.bank_of("iyer-chambers", "legal")}


async def test_a_clerk_of_another_company_gets_no_vendor_memories_of_demo(ap_demo: str, seeded_app: App) -> None:
    pack = seeded_app.packs["ap"]
    assert isinstance(pack, APPack)
    memory = seeded_app.services.memory
    invoice = load_sample("ravi_new_account")
    vendor = pack.ledger_for("demo").identify(invoice).vendor
    found = await recall_vendor_memory(memory, ap_demo, vendor, invoice, True, pack.policy_for("demo").max_memories)
    assert found.source == "recalled" and found.kept, "demo's bank holds this vendor's history"

    demo_docs = {d.document_id for d in await memory.list_documents(ap_demo)}
    started = datetime.now(timezone.utc)
    [card] = await seeded_app.conversation.handle(
        say("rahul", (SAMPLES / "ravi_new_account.json").read_text(encoding="utf-8")))
    assert text("en", "ap.memory_recalled", count=0) in card.text, "recalled from othercorp's bank: nothing"
    assert _calls_since(seeded_app, started) == {seeded_app.services.bank_of("othercorp", "ap")}
    assert {d.document_id for d in await memory.list_documents(ap_demo)} == demo_docs
    [audit] = await seeded_app.conversation.handle(say("rahul", f"/audit {invoice.invoice_number}"))
    assert "DECISION_MADE" in audit.text
    [anita_audit] = await seeded_app.conversation.handle(say("anita", f"/audit {invoice.invoice_number}"))
    assert anita_audit.text == text("en", "ap.audit_empty"), "the audit trail is kept per bank too"
