"""One invoice, one run: match -> gated recall -> risk -> decision -> selective retain, every step audited.

Invoice -> Purchase Order -> Goods Receipt -> Memory Recall -> Risk Evaluation -> Decision -> Memory Retain.
Every run can go with memory or without, so one can see, invoice by invoice, where memory changed the outcome.
"""

import logging
import secrets
from datetime import timedelta

from pydantic import BaseModel

from handlers.ap import narratives
from handlers.ap.audit import Action, AuditLog
from handlers.ap.decision import (
    RETAINED_STATUSES,
    Decision,
    DecisionReport,
    FlagOut,
    OverrideNote,
    decide,
    evidence,
    memories_out,
    recommendation,
)
from handlers.ap.ledger import Ledger
from handlers.ap.ledger_store import DecisionBook, RecordedView
from handlers.ap.ledgerview import (
    FixedView,
    LedgerView,
    entries_from_history,
    entry_for,
)
from handlers.ap.match import MatchResult, three_way_match
from handlers.ap.models import Invoice, Policy
from handlers.ap.risk import evaluate
from handlers.ap.vendor_memory import VendorMemory, recall_vendor_memory
from bot.core.pack import Services
from memory import MemoryItem, MemoryRejected, ids

log = logging.getLogger(__name__)

PACK = "ap"
_OVERRIDES_SHOWN = 2


class DecideRequest(BaseModel):
    tenant: str
    use_memory: bool = True
    user_id: str = "cli"
    lang: str = "en"
    record: bool = False
    """Record the decision in the tenant ledger (chat, `ap decide --record`); False is a pure preview."""


class RetainResult(BaseModel):
    retained: bool = False
    queued: bool = False
    document_id: str | None = None


DECISION_LEASE = timedelta(minutes=5)
"""Longer than the run's longest call (a Hindsight recall or retain); renewed while the run goes on."""


class Trail:
    """The audit steps of one run: same run id, bank, vendor and invoice on every line."""

    def __init__(self, audit: AuditLog, run_id: str, bank_id: str, vendor_id: str, invoice_number: str) -> None:
        self.audit, self.run_id, self.bank_id = audit, run_id, bank_id
        self.vendor_id, self.invoice_number = vendor_id, invoice_number

    def step(self, action: Action, **detail: object) -> None:
        self.audit.record(self.run_id, self.bank_id, action, vendor_id=self.vendor_id,
                          invoice_number=self.invoice_number, **detail)


class Decider:
    """Runs the AP pipeline for one tenant's bank, with the ledger and policy it was built with."""

    def __init__(self, services: Services, ledger: Ledger, policy: Policy, audit: AuditLog,
                 view: LedgerView | None = None, book: DecisionBook | None = None) -> None:
        self.services = services
        self.ledger = ledger
        self.policy = policy
        self.audit = audit
        self.book = book
        # With a book, the view is the seeded history plus every decision recorded for the tenant.
        history = entries_from_history(ledger.data.invoices)
        self.view: LedgerView = view or (RecordedView(book, history) if book is not None else FixedView(history))

    async def decide(self, invoice: Invoice, request: DecideRequest) -> DecisionReport:
        """Decide one invoice and return the report; memory outages degrade the run, never crash it.

        A recorded run holds the lease of its invoice while it runs: a second run of the same invoice (another
        process, a retried message) waits for it and is then decided against the entry the first one made."""
        if not request.record or self.book is None:
            return await self._decide(invoice, request)
        name = f"ap-decide:{request.tenant}:{invoice.invoice_number}"[:64]
        while True:
            async with await self.services.leases.wait_and_keep(name, DECISION_LEASE) as held:
                if held:
                    return await self._decide(invoice, request)

    async def _decide(self, invoice: Invoice, request: DecideRequest) -> DecisionReport:
        run_id = secrets.token_hex(5)
        bank = self.services.bank_of(request.tenant, PACK)
        identity = self.ledger.identify(invoice)
        vendor = identity.vendor
        vendor_id = narratives.vendor_key(vendor, invoice)
        trail = Trail(self.audit, run_id, bank, vendor_id, invoice.invoice_number)
        step = trail.step
        step("INVOICE_RECEIVED", source=invoice.source, lines=len(invoice.lines), total=str(invoice.total),
             use_memory=request.use_memory, user=request.user_id)
        step("VENDOR_IDENTIFIED", by=identity.by, known=vendor is not None,
             gstin_conflict=identity.gstin_conflict)
        earlier = self.view.entries(request.tenant)
        match = three_way_match(invoice, self.ledger, self.policy.tolerances, vendor.vendor_id if vendor else None,
                                earlier)
        step("MATCH_DONE", status=match.status, po=match.po_number, grns=match.grn_numbers,
             issues=match.issues())
        vendor_memory = await recall_vendor_memory(self.services.memory, bank, vendor, invoice, request.use_memory,
                                                   self.policy.max_memories)
        _audit_memory(trail, vendor_memory)
        risk = evaluate(invoice, identity, match, vendor_memory, self.ledger, self.policy, earlier)
        step("RISK_EVALUATED", flags=[f.code for f in risk.flags], trust=risk.trust.model_dump())
        decision = decide(risk, vendor_memory, self.policy)
        step("DECISION_MADE", status=decision.status, confidence=decision.confidence,
             deciding=[f.code for f in decision.deciding])
        if request.record and self.book is not None:
            entry = entry_for(invoice, vendor_id, match.billed, "decided", run_id, self.services.clock())
            pay_to = invoice.bank.account_number if invoice.bank else (vendor.bank_account.account_number
                                                                       if vendor else None)
            first = self.book.claim(request.tenant, entry, decision.status, request.user_id, pay_to)
            if first is not None:
                # Another decision of this invoice (a second clerk, a second tap) claimed it first: decide
                # again with that one in view, so this one is blocked as its duplicate, never a second approval.
                earlier = self.view.entries(request.tenant)
                match = three_way_match(invoice, self.ledger, self.policy.tolerances,
                                        vendor.vendor_id if vendor else None, earlier)
                risk = evaluate(invoice, identity, match, vendor_memory, self.ledger, self.policy, earlier)
                decision = decide(risk, vendor_memory, self.policy)
                step("DECISION_MADE", status=decision.status, confidence=decision.confidence,
                     deciding=[f.code for f in decision.deciding], lost_claim_to=first.decision_id)
            self.book.log(request.tenant, run_id, vendor_id, invoice.invoice_number, "decision", decision.status,
                          request.user_id)
        report = self._report(run_id, invoice, vendor_id, decision, match, vendor_memory, request)
        if self.book is not None:
            report = report.model_copy(update={"overrides": self._earlier_overrides(request.tenant, vendor_id)})
        kept = await self._retain(trail, invoice, decision, report, request)
        report = report.model_copy(update={"retained": kept.retained, "retain_queued": kept.queued,
                                           "memory_document_id": kept.document_id})
        self.audit.save_run(run_id, bank, request.user_id, report.model_dump(mode="json"))
        log.info("ap run %s: %s at %.2f (memory %s)", run_id, report.status, report.confidence,
                 report.memory_source)
        return report

    def _earlier_overrides(self, tenant: str, vendor_id: str) -> list[OverrideNote]:
        """The clerks' latest overrides on this vendor's invoices, with their reasons, newest first."""
        assert self.book is not None
        found = self.book.actions(tenant, vendor_id, action="override")
        return [OverrideNote(invoice_number=a.invoice_number, agent_status=a.agent_status, by_user=a.by_user,
                             on=a.at.date(), reason=a.reason or "-") for a in reversed(found[-_OVERRIDES_SHOWN:])]

    def _report(self, run_id: str, invoice: Invoice, vendor_id: str, decision: Decision, match: MatchResult,
                vendor_memory: VendorMemory, request: DecideRequest) -> DecisionReport:
        vendor = self.ledger.vendor(vendor_id)
        return DecisionReport(
            run_id=run_id, invoice_number=invoice.invoice_number, vendor_id=vendor.vendor_id if vendor else None,
            vendor_name=vendor.name if vendor else invoice.vendor_name, total=invoice.total,
            status=decision.status, confidence=decision.confidence,
            flags=[FlagOut(code=f.code, evidence=evidence(request.lang, f)) for f in decision.flags],
            match=match, memory_source=vendor_memory.source, memories=memories_out(vendor_memory),
            recommendation=recommendation(request.lang, decision, invoice, vendor), retained=False,
            trust=decision.trust, used_memory=request.use_memory,
            tolerance_pct=f"{self.policy.tolerances.unit_price_pct.normalize():f}",
        )

    async def _retain(self, trail: Trail, invoice: Invoice, decision: Decision, report: DecisionReport,
                      request: DecideRequest) -> RetainResult:
        """Retain a block, exception or review route once per invoice; never a clean approval."""
        if not request.use_memory or decision.status not in RETAINED_STATUSES:
            trail.step("RETAIN_NOT_NEEDED", status=decision.status, use_memory=request.use_memory)
            return RetainResult()
        vendor = self.ledger.vendor(trail.vendor_id)
        item = narratives.decision_memory(
            report, invoice, trail.vendor_id, [evidence("en", f) for f in decision.flags],
            recommendation("en", decision, invoice, vendor),
        )
        digest = _digest(item)
        # People press Run more than once; one blocked invoice must stay one memory, not skew recall toward it.
        if self.audit.retained_digest(trail.bank_id, item.document_id) == digest:
            trail.step("AGENT_MEMORY_ALREADY_RETAINED", document_id=item.document_id)
            return RetainResult(document_id=item.document_id)
        try:
            outcome = await self.services.outbox.retain_or_queue(self.services.memory, trail.bank_id, [item])
        except MemoryRejected as exc:
            log.warning("memory refused the decision on %s: %s", trail.vendor_id, exc)
            trail.step("AGENT_MEMORY_REJECTED", document_id=item.document_id, error=str(exc)[:200])
            return RetainResult()
        if not outcome.fully_stored:
            trail.step("AGENT_MEMORY_QUEUED", document_id=item.document_id)
            return RetainResult(queued=True, document_id=item.document_id)
        trail.step("AGENT_MEMORY_RETAINED", document_id=item.document_id, digest=digest, status=decision.status)
        return RetainResult(retained=True, document_id=item.document_id)


def _audit_memory(trail: Trail, vendor_memory: VendorMemory) -> None:
    if vendor_memory.source == "disabled":
        trail.step("MEMORY_DISABLED")
    elif vendor_memory.source == "no_history":
        trail.step("MEMORY_SKIPPED_NO_HISTORY", reason="the vendor master shows no payments")
    elif vendor_memory.source == "memory_error":
        trail.step("MEMORY_ERROR", error=vendor_memory.error)
    else:
        trail.step("MEMORY_RECALLED", kept=[m.document_id for m in vendor_memory.kept], dropped=vendor_memory.dropped)


def _digest(item: MemoryItem) -> str:
    return ids.content_digest(item.model_dump_json(include={"content", "metadata", "tags", "event_time"}), 16)
