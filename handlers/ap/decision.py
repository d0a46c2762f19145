"""From flags to a decision: the most severe effect wins, and the recommendation names the specifics."""

from datetime import date
from decimal import Decimal

from pydantic import BaseModel, Field

from bot.services.i18n import show_date, text
from handlers.ap import facts
from handlers.ap.match import MatchResult
from handlers.ap.models import Invoice, Policy, Vendor
from handlers.ap.money import format_inr, masked
from handlers.ap.risk import DATE_FACTS, Flag, RiskResult, Status, Trust
from handlers.ap.vendor_memory import MemorySource, VendorMemory

SEVERITY: dict[Status, int] = {"APPROVE": 0, "EXCEPTION": 1, "HUMAN_REVIEW": 2, "PAYMENT_BLOCKED": 3}

class Decision(BaseModel):
    status: Status
    confidence: float
    deciding: list[Flag] = Field(default_factory=list)
    """The flags whose effect is the final status, most confident first (the first one leads)."""
    flags: list[Flag]
    trust: Trust


class FlagOut(BaseModel):
    code: str
    evidence: str


class MemoryOut(BaseModel):
    text: str
    document_id: str | None
    event_date: date | None
    kind: str


class OverrideNote(BaseModel):
    """A clerk's earlier choice over the agent for this vendor (approve, hold, review, reject), with the reason."""

    action: str = "approve"
    invoice_number: str
    agent_status: str
    by_user: str
    on: date
    reason: str


class LedgerNote(BaseModel):
    """The invoice's entry as it stood before this decision moved it (or left it, when closed)."""

    state: str
    agent_status: str
    by: str
    on: date
    total: Decimal
    reason: str | None = None


class DecisionReport(BaseModel):
    """What one run decided, as the CLI prints it and the chat card shows it."""

    run_id: str
    invoice_number: str
    vendor_id: str | None
    vendor_name: str
    total: Decimal
    status: Status
    confidence: float
    flags: list[FlagOut]
    match: MatchResult
    memory_source: MemorySource
    memories: list[MemoryOut] = Field(max_length=10)
    recommendation: str
    retained: bool = False
    """True when this run wrote the invoice's memory (a run that changed nothing in the ledger writes none)."""
    retain_queued: bool = False
    """True when memory was down and the decision waits in the outbox, to be stored once it is back."""
    memory_document_id: str | None = None
    trust: Trust
    used_memory: bool
    tolerance_pct: str = "-"
    """The unit-price tolerance the match used, to name variances within it."""
    overrides: list[OverrideNote] = Field(default_factory=list)
    """Earlier overrides of this vendor's invoices recorded in the tenant ledger, newest first."""
    preview: bool = False
    """True when nothing was recorded: no ledger entry, no memory, no audit line."""
    content_key: str | None = None
    ledger_state: str | None = None
    """The invoice's state in the ledger after this run (decided, held, review, approved, paid, rejected)."""
    ledger_outcome: str | None = None
    """new, unchanged, redecided, corrected (replaced the earlier version) or closed (already paid/rejected)."""
    ledger_before: LedgerNote | None = None
    ledger_changed: list[str] = Field(default_factory=list)
    """What a changed invoice under a recorded number changed (amount, account, lines): why it was re-opened."""
    replaces: str | None = None
    """The invoice of the same vendor this one replaces: as the ledger has it (superseded when recorded), or as
    printed when the ledger has no such open invoice (then `replaces_unknown` names the nearest)."""
    replaces_state: str | None = None
    """Its state before: what a recorded replacement superseded, or (in a preview) what it would."""
    replaces_unknown: list[str] | None = None
    """When the invoice names one it replaces that is no open invoice of the vendor: the nearest numbers."""
    copy_of: str | None = None
    """The recorded invoice this document is a copy of (same vendor, the number folded, same facts and result,
    still open): decided as its duplicate, and nothing recorded for it."""


def decide(risk: RiskResult, vendor_memory: VendorMemory, policy: Policy) -> Decision:
    """Pick the status of the most severe flag, with the confidence of its most confident flag."""
    effective = [f for f in risk.flags if f.effect is not None]
    if not effective:
        history = risk.history is not None and vendor_memory.source == "recalled"
        confidence = policy.confidence_of("APPROVE_WITH_HISTORY" if history else "APPROVE")
        return Decision(status="APPROVE", confidence=confidence, flags=risk.flags, trust=risk.trust)
    status = max((f.effect for f in effective if f.effect is not None), key=lambda s: SEVERITY[s])
    deciding = sorted((f for f in effective if f.effect == status), key=lambda f: -f.confidence)
    return Decision(status=status, confidence=deciding[0].confidence, deciding=deciding, flags=risk.flags,
                    trust=risk.trust)


def render_facts(lang: str, values: dict[str, str]) -> dict[str, str]:
    """Return the facts with dates shown in the reader's language."""
    shown = dict(values)
    for key in DATE_FACTS:
        if key in shown and shown[key] != "-":
            shown[key] = show_date(lang, date.fromisoformat(shown[key]))
    return shown


def evidence(lang: str, flag: Flag) -> str:
    return text(lang, flag.evidence_key, **render_facts(lang, flag.facts))


def recommendation(lang: str, decision: Decision, invoice: Invoice, vendor: Vendor | None) -> str:
    """Return the recommendation: the leading flag's, then any other deciding flag's, without repeats."""
    if decision.status == "APPROVE":
        account = vendor.bank_account.account_number if vendor else (invoice.bank.account_number if invoice.bank else "")
        approve = text(lang, "ap.rec_APPROVE", total=format_inr(invoice.total), account=masked(account))
        variances = variance_text(lang, decision.flags)
        return approve if not variances else f"{approve} {text(lang, 'ap.rec_APPROVE_variance', variances=variances)}"
    parts: list[str] = []
    seen: set[str] = set()
    # A line with a remembered resolution gets that resolution, not the generic escalation as well.
    resolved_items = {f.facts.get("item") for f in decision.deciding if f.code == "RECURRING_MISMATCH"}
    for flag in decision.deciding:
        if flag.recommendation_key is None or flag.recommendation_key in seen:
            continue
        if flag.code in ("QUANTITY_MISMATCH", "PRICE_MISMATCH") and flag.facts.get("item") in resolved_items:
            continue
        seen.add(flag.recommendation_key)
        parts.append(text(lang, flag.recommendation_key, **render_facts(lang, flag.facts)))
    return " ".join(parts)


def variance_text(lang: str, flags: list[Flag]) -> str:
    """Name each price variance within tolerance ("MS Round Bar ₹8,220 over PO (1.2%, within 2%)")."""
    return "; ".join(text(lang, "ap.variance_line", **f.facts) for f in flags if f.code == "PRICE_VARIANCE")


def memories_out(vendor_memory: VendorMemory) -> list[MemoryOut]:
    return [MemoryOut(text=m.text, document_id=m.document_id, event_date=m.event_date, kind=facts.kind_of(m))
            for m in vendor_memory.kept]
