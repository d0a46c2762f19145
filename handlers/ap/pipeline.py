"""One invoice, one run: match -> gated recall -> risk -> decision -> selective retain, every step audited.

Invoice -> Purchase Order -> Goods Receipt -> Memory Recall -> Risk Evaluation -> Decision -> Memory Retain.
Every run can go with memory or without, so one can see, invoice by invoice, where memory changed the outcome.
"""

import json
import logging
import secrets
from datetime import timedelta

from pydantic import BaseModel
from rapidfuzz.distance import Levenshtein

from handlers.ap import narratives
from handlers.ap.audit import Action, AuditLog
from handlers.ap.decision import (
    Decision,
    DecisionReport,
    FlagOut,
    LedgerNote,
    OverrideNote,
    decide,
    evidence,
    memories_out,
    recommendation,
)
from handlers.ap.ledger import Ledger
from handlers.ap.ledger_store import DecisionBook, RecordedView
from handlers.ap.invoice_memory import document_id, retain_record
from handlers.ap.ledgerview import (
    FixedView,
    LedgerEntry,
    LedgerView,
    entries_from_history,
    entry_for,
    normalise_number,
)
from handlers.ap.lifecycle import OPEN, DecisionMemo, RecordedEntry
from handlers.ap.match import MatchResult, three_way_match
from handlers.ap.models import Invoice, Policy
from handlers.ap.risk import evaluate
from handlers.ap.vendor_memory import VendorMemory, recall_vendor_memory
from bot.core.pack import Services
from memory import ids

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


DECISION_LEASE = timedelta(minutes=5)
"""Longer than the run's longest call (a Hindsight recall or retain); renewed while the run goes on."""


class Trail:
    """The audit steps of one run: same run id, bank, vendor and invoice on every line (none for a preview)."""

    def __init__(self, audit: AuditLog | None, run_id: str, bank_id: str, vendor_id: str, invoice_number: str) -> None:
        self.audit, self.run_id, self.bank_id = audit, run_id, bank_id
        self.vendor_id, self.invoice_number = vendor_id, invoice_number

    def step(self, action: Action, **detail: object) -> None:
        if self.audit is None:
            return
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
        recording = request.record and self.book is not None
        identity = self.ledger.identify(invoice)
        vendor = identity.vendor
        vendor_id = narratives.vendor_key(vendor, invoice)
        # A preview writes nothing anywhere: no ledger entry, no memory, no audit line.
        trail = Trail(self.audit if recording else None, run_id, bank, vendor_id, invoice.invoice_number)
        step = trail.step
        step("INVOICE_RECEIVED", source=invoice.source, lines=len(invoice.lines), total=str(invoice.total),
             use_memory=request.use_memory, user=request.user_id)
        step("VENDOR_IDENTIFIED", by=identity.by, known=vendor is not None,
             gstin_conflict=identity.gstin_conflict)
        # The invoice's own open entry is not an earlier invoice: deciding it again is a move, not its duplicate;
        # nor is the open invoice a replacement names (it is superseded, its goods billed by this one instead).
        replaced = self._replaced(request.tenant, vendor_id, invoice)
        earlier = [e for e in self.view.entries(request.tenant) if not _own_open_entry(e, vendor_id, invoice)
                   and not (replaced is not None and _own_open_entry(e, vendor_id, replaced.entry.invoice_number))]
        match = three_way_match(invoice, self.ledger, self.policy.tolerances, vendor.vendor_id if vendor else None,
                                earlier)
        step("MATCH_DONE", status=match.status, po=match.po_number, grns=match.grn_numbers,
             issues=match.issues())
        vendor_memory = await recall_vendor_memory(self.services.memory, bank, vendor, invoice, request.use_memory,
                                                   self.policy.max_memories)
        _audit_memory(trail, vendor_memory)
        risk = evaluate(invoice, identity, match, vendor_memory, self.ledger, self.policy, earlier,
                        buyer=self.ledger.data.buyer)
        decision = decide(risk, vendor_memory, self.policy)
        copy = self._copy_of(request.tenant, vendor_id, invoice, decision.status)
        if copy is not None:
            # The same bill again with nothing new: its recorded entry is its earlier invoice (a duplicate).
            risk = evaluate(invoice, identity, match, vendor_memory, self.ledger, self.policy, [*earlier, copy.entry],
                            buyer=self.ledger.data.buyer)
            decision = decide(risk, vendor_memory, self.policy)
        step("RISK_EVALUATED", flags=[f.code for f in risk.flags], trust=risk.trust.model_dump())
        step("DECISION_MADE", status=decision.status, confidence=decision.confidence,
             deciding=[f.code for f in decision.deciding])
        report = self._report(run_id, invoice, vendor_id, decision, match, vendor_memory, request)
        report = report.model_copy(update={"content_key": content_key(invoice), "preview": not recording})
        if copy is not None:
            report = report.model_copy(update={"copy_of": copy.entry.invoice_number})
        if replaced is not None:
            report = report.model_copy(update={"replaces": replaced.entry.invoice_number,
                                               "replaces_state": replaced.state})
        elif invoice.replaces:
            report = report.model_copy(update={"replaces": invoice.replaces, "replaces_unknown": self._nearest_numbers(
                request.tenant, vendor_id, invoice.replaces)})
        if recording and copy is not None:
            step("LEDGER_RECORDED", outcome="copy", state=copy.state, before=copy.state)
            report = report.model_copy(update={
                "ledger_state": copy.state, "ledger_outcome": "copy", "ledger_before": _note_of(copy),
                "memory_document_id": document_id(vendor_id, copy.entry.number_key),
                "overrides": self._earlier_overrides(request.tenant, vendor_id)})
            self.audit.save_run(run_id, bank, request.user_id, report.model_dump(mode="json"))
        elif recording:
            assert self.book is not None
            report = await self._record(trail, invoice, vendor_id, decision, match, report, request)
            if replaced is not None:
                await self._supersede(trail, replaced, invoice, request)
            report = report.model_copy(update={"overrides": self._earlier_overrides(request.tenant, vendor_id)})
            self.audit.save_run(run_id, bank, request.user_id, report.model_dump(mode="json"))
        log.info("ap run %s: %s at %.2f (memory %s%s)", run_id, report.status, report.confidence,
                 report.memory_source, ", preview" if not recording else "")
        return report

    async def _record(self, trail: Trail, invoice: Invoice, vendor_id: str, decision: Decision, match: MatchResult,
                      report: DecisionReport, request: DecideRequest) -> DecisionReport:
        """Record the decision in the ledger (a new entry, or the invoice's entry moved) and write its memory."""
        assert self.book is not None
        memo = DecisionMemo(vendor_name=report.vendor_name, confidence=decision.confidence,
                            flags=[f.code for f in decision.flags], evidence=[evidence("en", f) for f in decision.flags],
                            recommendation=recommendation("en", decision, invoice, self.ledger.vendor(vendor_id)),
                            mismatch=narratives.mismatch_of(report))
        entry = entry_for(invoice, vendor_id, match.billed, "decided", trail.run_id, self.services.clock())
        asked = invoice.bank.account_number if invoice.bank else None
        done = self.book.record_decision(request.tenant, entry, decision.status, request.user_id, memo,
                                         report.content_key or "", asked, same_invoice_keys(invoice))
        trail.step("LEDGER_RECORDED", outcome=done.outcome, state=done.record.state,
                   before=done.before.state if done.before else None)
        self.book.log(request.tenant, trail.run_id, vendor_id, invoice.invoice_number, "decision", decision.status,
                      request.user_id)
        before = done.before
        report = report.model_copy(update={
            "ledger_state": done.record.state, "ledger_outcome": done.outcome,
            "ledger_before": None if before is None else _note_of(before),
            "ledger_changed": changes(before, invoice) if before is not None and done.outcome == "corrected" else []})
        if not request.use_memory or done.outcome in ("unchanged", "closed"):
            trail.step("RETAIN_NOT_NEEDED", status=decision.status, use_memory=request.use_memory,
                       outcome=done.outcome)
            if done.outcome == "unchanged":
                report = report.model_copy(update={"memory_document_id": document_id(vendor_id, entry.number_key)})
            return report
        kept = await retain_record(self.services, trail.bank_id, done.record)
        trail.step(kept.step, document_id=kept.document_id, state=done.record.state)
        return report.model_copy(update={"retained": kept.retained, "retain_queued": kept.queued,
                                         "memory_document_id": kept.document_id})

    def _replaced(self, tenant: str, vendor_id: str, invoice: Invoice) -> RecordedEntry | None:
        """The open invoice of this vendor a replacement invoice names (never itself), if the ledger has it."""
        if self.book is None or not invoice.replaces \
                or normalise_number(invoice.replaces) == normalise_number(invoice.invoice_number):
            return None
        named = self.book.recorded(tenant, vendor_id, invoice.replaces)
        return named if named is not None and named.state in OPEN else None

    def _nearest_numbers(self, tenant: str, vendor_id: str, number: str) -> list[str]:
        own = [e.invoice_number for e in self.view.entries(tenant) if e.vendor_id == vendor_id]
        key = normalise_number(number)
        return sorted(dict.fromkeys(own), key=lambda n: Levenshtein.distance(normalise_number(n), key))[:3]

    async def _supersede(self, trail: Trail, replaced: RecordedEntry, invoice: Invoice,
                         request: DecideRequest) -> None:
        """The recorded replacement closes the invoice it names as superseded, and its memory says so."""
        assert self.book is not None
        closed = self.book.supersede(request.tenant, replaced.entry.vendor_id, replaced.entry.number_key,
                                     request.user_id, f"replaced by invoice {invoice.invoice_number} "
                                                      "(a replacement invoice naming it)")
        trail.step("LEDGER_SUPERSEDED", superseded=replaced.entry.invoice_number, before=replaced.state,
                   done=closed is not None)
        if closed is not None:
            kept = await retain_record(self.services, trail.bank_id, closed)
            trail.step(kept.step, document_id=kept.document_id, state=closed.state)

    def _copy_of(self, tenant: str, vendor_id: str, invoice: Invoice, status: str) -> RecordedEntry | None:
        """The invoice's own open entry when this document brings nothing new (same facts, same result): a copy
        sent again, whatever way its number is printed. New facts (a receipt, a correction) are a re-decision."""
        if self.book is None:
            return None
        own = self.book.recorded(tenant, vendor_id, invoice.invoice_number)
        if own is None or own.state not in OPEN or own.content_key not in (None, *same_invoice_keys(invoice)):
            return None
        # The same invoice again: a copy while the facts give the same result; a clerk's approval stands whatever
        # a copy reads (its money unchanged, it is paid once, by that approval). New facts re-decide the others.
        return own if own.agent_status == status or own.state == "approved" else None

    def _earlier_overrides(self, tenant: str, vendor_id: str) -> list[OverrideNote]:
        """The clerks' latest overrides on this vendor's invoices, with their reasons, newest first."""
        assert self.book is not None
        notes: list[OverrideNote] = []
        choice: dict[str, str] = {}
        # An override is logged right after the clerk's choice it was: name that choice (a hold is no approval).
        for logged in self.book.actions(tenant, vendor_id):
            if logged.action in ("approve", "hold", "review", "reject", "release"):
                choice[logged.invoice_number] = logged.action
            elif logged.action == "override":
                notes.append(OverrideNote(action=choice.get(logged.invoice_number, "approve"),
                                          invoice_number=logged.invoice_number, agent_status=logged.agent_status,
                                          by_user=logged.by_user, on=logged.at.date(), reason=logged.reason or "-"))
        return list(reversed(notes[-_OVERRIDES_SHOWN:]))

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


def _note_of(before: RecordedEntry) -> LedgerNote:
    return LedgerNote(state=before.state, agent_status=before.agent_status, by=before.state_by,
                      on=before.state_at.date(), total=before.entry.total, reason=before.state_reason)


def _audit_memory(trail: Trail, vendor_memory: VendorMemory) -> None:
    if vendor_memory.source == "disabled":
        trail.step("MEMORY_DISABLED")
    elif vendor_memory.source == "no_history":
        trail.step("MEMORY_SKIPPED_NO_HISTORY", reason="the vendor master shows no payments")
    elif vendor_memory.source == "memory_error":
        trail.step("MEMORY_ERROR", error=vendor_memory.error)
    else:
        trail.step("MEMORY_RECALLED", kept=[m.document_id for m in vendor_memory.kept], dropped=vendor_memory.dropped)


def _own_open_entry(entry: LedgerEntry, vendor_id: str, invoice: Invoice | str) -> bool:
    """The recorded, still open entry of this same invoice (same vendor, same number folded)."""
    number = invoice if isinstance(invoice, str) else invoice.invoice_number
    return (entry.vendor_id == vendor_id and entry.number_key == normalise_number(number)
            and entry.decision_id is not None and entry.status in OPEN)


def content_key(invoice: Invoice) -> str:
    """A digest of the money the invoice asks for: its number (folded), total, lines (quantity, rate, amount) and
    the account it asks to be paid to. A copy sent again (a reminder, a photo, the number printed another way,
    a description or tax line read otherwise) has the same key and is the same invoice; another key under the
    same number is a changed invoice (amount, lines or account)."""
    lines = sorted([f"{line.quantity.normalize():f}", f"{line.unit_price.normalize():f}", f"{line.amount.normalize():f}"]
                   for line in invoice.lines)
    fields = {"number": normalise_number(invoice.invoice_number), "total": f"{invoice.total.normalize():f}",
              "lines": lines, "account": _account_digits(invoice)}
    return ids.content_digest(json.dumps(fields, sort_keys=True), 16)


def full_content_key(invoice: Invoice) -> str:
    """The digest of everything the invoice said, as entries recorded before content_key were keyed: such an entry
    is the same invoice when this matches it."""
    fields = invoice.model_dump(mode="json", exclude={"source", "notes", "contact", "vendor_name", "invoice_number"})
    fields["number"] = normalise_number(invoice.invoice_number)
    for added in ("buyer_gstin", "replaces"):
        if fields.get(added) is None:
            fields.pop(added, None)
    return ids.content_digest(json.dumps(fields, sort_keys=True), 16)


def same_invoice_keys(invoice: Invoice) -> tuple[str, str]:
    """The keys an entry of this same invoice may carry (today's, and the one entries recorded earlier carry)."""
    return content_key(invoice), full_content_key(invoice)


def _account_digits(invoice: Invoice) -> str | None:
    digits = "".join(ch for ch in invoice.bank.account_number if ch.isdigit()) if invoice.bank else ""
    return digits or None


def changes(before: RecordedEntry, invoice: Invoice) -> list[str]:
    """What a changed invoice changed from its recorded entry: the amount, the account asked for, or the lines."""
    changed = []
    if before.entry.total != invoice.total:
        changed.append("amount")
    if (before.invoice_account or None) != _account_digits(invoice) and before.invoice_account is not None:
        changed.append("account")
    return changed or ["lines"]
