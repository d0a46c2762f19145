"""Risk rules: each looks at the invoice, the master, the match and the kept memories, and may raise a named flag.

A flag carries the status it pushes toward, its confidence (from policy.json) and the facts its evidence and
recommendation are written from. Numbers come from the ledger or from memory metadata, never from prose.
The verification contact is always the one on the vendor master: the invoice is the thing being challenged.
"""

from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, Field

from handlers.ap import facts
from handlers.ap.gstin import state_of, verify
from handlers.ap.instructions import instruction_in
from handlers.ap.duplicates import exact_duplicate, near_duplicates
from handlers.ap.ledger import Ledger, VendorMatch
from handlers.ap.ledgerview import LedgerEntry, entries_from_history
from handlers.ap.match import MatchResult
from handlers.ap.models import Buyer, Invoice, Policy, Vendor
from handlers.ap.money import account_difference, format_inr, masked
from handlers.ap.payments import account_record
from handlers.ap.vendor_memory import VendorMemory
from memory import Recalled

Status = Literal["APPROVE", "EXCEPTION", "PAYMENT_BLOCKED", "HUMAN_REVIEW"]

FlagCode = Literal[
    "UNKNOWN_VENDOR", "NEW_VENDOR", "GSTIN_MISMATCH", "FIRST_BANK_CHANGE", "BANK_CHANGE", "DUPLICATE_INVOICE",
    "AMOUNT_OUTLIER", "QUANTITY_MISMATCH", "PRICE_MISMATCH", "TOTAL_MISMATCH", "LINE_NOT_ON_PO",
    "PO_NOT_FOUND", "GRN_NOT_FOUND", "RECURRING_MISMATCH", "INSTRUCTION_IN_DOCUMENT", "MEMORY_UNAVAILABLE",
    "POSSIBLE_DUPLICATE", "RECEIPT_ALREADY_BILLED", "PRICE_VARIANCE", "GSTIN_INVALID", "BUYER_GSTIN_MISMATCH",
]

RESOLUTIONS = ("request_corrected_invoice", "short_pay", "credit_note", "approved_as_invoiced")
"""Resolution codes a remembered resolution may recommend (each has its own recommendation text)."""



class Flag(BaseModel):
    """One named risk finding, with the facts its evidence is written from."""

    code: FlagCode
    effect: Status | None
    """The status this flag pushes the decision to; None for a note that changes nothing."""
    confidence: float
    evidence_key: str
    recommendation_key: str | None = None
    facts: dict[str, str] = Field(default_factory=dict)


class Trust(BaseModel):
    before: int
    after: int


class RiskResult(BaseModel):
    flags: list[Flag]
    trust: Trust
    history: Recalled | None = None
    """The remembered vendor-history memory the numbers came from, if any."""


DATE_FACTS = ("on", "resolved_on", "onboarded")
"""Facts holding ISO dates; they are shown in the reader's language when rendered."""


def _flag(policy: Policy, code: FlagCode, effect: Status | None, variant: str = "", rec: bool = True,
          **values: str) -> Flag:
    key = f"{code}{'_' + variant if variant else ''}"
    return Flag(code=code, effect=effect, confidence=policy.confidence_of(code), evidence_key=f"ap.evidence_{key}",
                recommendation_key=f"ap.rec_{key}" if rec else None, facts=values)


def remembered_history(vendor_memory: VendorMemory) -> Recalled | None:
    found = vendor_memory.of_kind("vendor_history")
    return found[0] if found else None


def _identity(policy: Policy, invoice: Invoice, match: VendorMatch, ledger: Ledger) -> list[Flag]:
    if match.vendor is None:
        near = [f"{v.name} ({v.vendor_id})" for v in ledger.nearest_vendors(invoice.vendor_name)]
        return [_flag(policy, "UNKNOWN_VENDOR", "HUMAN_REVIEW", "near" if near else "", name=invoice.vendor_name,
                      gstin=invoice.vendor_gstin or "-", candidates="; ".join(near))]
    vendor = match.vendor
    found: list[Flag] = []
    if match.gstin_conflict:
        found.append(_flag(policy, "GSTIN_MISMATCH", "HUMAN_REVIEW", name=vendor.name,
                           invoice_gstin=invoice.vendor_gstin or "-", master_gstin=vendor.gstin,
                           contact=vendor.verified_contact.show()))
    if vendor.never_paid:
        found.append(_flag(policy, "NEW_VENDOR", "HUMAN_REVIEW", name=vendor.name,
                           onboarded=vendor.onboarded_on.isoformat() if vendor.onboarded_on else "-", contact=vendor.verified_contact.show()))
    return found


def _gstins(policy: Policy, invoice: Invoice, vendor: Vendor | None, buyer: Buyer | None) -> list[Flag]:
    """Both GSTINs checked by their state code and check digit; the one billed to must be the tenant's own."""
    own = buyer.gstin if buyer is not None else None
    contact = vendor.verified_contact.show() if vendor is not None else "-"
    found: list[Flag] = []
    for party, gstin in (("vendor", invoice.vendor_gstin), ("buyer", invoice.buyer_gstin)):
        if gstin is None or (check := verify(gstin)).ok:
            continue
        found.append(_flag(policy, "GSTIN_INVALID", "HUMAN_REVIEW", f"{party}_{check.problem}", gstin=gstin,
                           expected=check.expected_check or "-", state_code=gstin[:2], own=own or "-", contact=contact))
    if own and invoice.buyer_gstin and invoice.buyer_gstin != own:
        found.append(_flag(policy, "BUYER_GSTIN_MISMATCH", "HUMAN_REVIEW", gstin=invoice.buyer_gstin,
                           state=state_of(invoice.buyer_gstin) or invoice.buyer_gstin[:2], own=own,
                           own_state=state_of(own) or own[:2],
                           name=vendor.name if vendor is not None else invoice.vendor_name))
    return found


def _bank(policy: Policy, invoice: Invoice, vendor: Vendor, view: list[LedgerEntry]) -> list[Flag]:
    """A new account on the invoice: blocked when the ledger shows enough clean payments to the account on file
    with no earlier change; otherwise a person verifies it. The counts come from the ledger view (imported or
    seeded history and invoices marked paid), never from a memory; both numbers are shown in full, with where
    they differ, since a mask hides a dropped digit."""
    if invoice.bank is None or invoice.bank.account_number == vendor.bank_account.account_number:
        return []
    old, new = vendor.bank_account.account_number, invoice.bank.account_number
    values = {"name": vendor.name, "old": old, "new": new, "diff": account_difference(new, old),
              "contact": vendor.verified_contact.show()}
    record = account_record(view, vendor.vendor_id, old)
    clean = record.clean_to_current
    if clean >= policy.first_bank_change_min_payments and record.bank_changes == 0:
        return [_flag(policy, "FIRST_BANK_CHANGE", "PAYMENT_BLOCKED", payments=str(clean),
                      remembered=masked(old), **values)]
    if clean == 0 and record.to_current:
        # Paid to the account on file before (imported or recorded), then elsewhere: say both counts, never "0".
        return [_flag(policy, "BANK_CHANGE", "HUMAN_REVIEW", "since", payments=str(record.to_current),
                      later=str(record.later_elsewhere), **values)]
    return [_flag(policy, "BANK_CHANGE", "HUMAN_REVIEW", "few", payments=str(clean), **values)]


def _duplicate(policy: Policy, invoice: Invoice, vendor: Vendor, view: list[LedgerEntry]) -> list[Flag]:
    """The same invoice again blocks payment; a look-alike under another number goes to a person."""
    earlier = exact_duplicate(invoice, vendor.vendor_id, view)
    if earlier is not None:
        variant = {"paid": "paid", "rejected": "rejected", "superseded": "superseded"}.get(earlier.status, "decided")
        return [_flag(policy, "DUPLICATE_INVOICE", "PAYMENT_BLOCKED", variant, number=earlier.invoice_number,
                      name=vendor.name, on=earlier.when.isoformat(), amount=format_inr(earlier.total),
                      status=earlier.status, decision=earlier.decision_id or "-")]
    near = near_duplicates(invoice, vendor.vendor_id, view, policy)
    if not near:
        return []
    first = near[0]
    days = abs((first.invoice_date - invoice.invoice_date).days)
    return [_flag(policy, "POSSIBLE_DUPLICATE", "HUMAN_REVIEW", number=invoice.invoice_number,
                  earlier=first.invoice_number, name=vendor.name, on=first.invoice_date.isoformat(),
                  earlier_amount=format_inr(first.total), amount=format_inr(invoice.total), days=str(days),
                  status=first.status, count=str(len(near)))]


def _outlier(policy: Policy, invoice: Invoice, vendor: Vendor, history: Recalled | None) -> list[Flag]:
    """An amount far outside the remembered range of this vendor's payments (the history memory's numbers)."""
    if history is None:
        return []
    low, high = facts.decimal_fact(history, facts.AMOUNT_MIN), facts.decimal_fact(history, facts.AMOUNT_MAX)
    payments = facts.int_fact(history, facts.PAYMENT_COUNT)
    if low is None or high is None or not payments:
        return []
    factor = policy.amount_outlier_factor
    if low / factor <= invoice.total <= high * factor:
        return []
    return [_flag(policy, "AMOUNT_OUTLIER", "HUMAN_REVIEW", name=vendor.name, total=format_inr(invoice.total),
                  low=format_inr(low), high=format_inr(high), payments=str(payments), factor=f"{factor.normalize()}",
                  contact=vendor.verified_contact.show())]


def _qty(value: Decimal | None) -> str:
    return "-" if value is None else f"{value.normalize():f}"


def _match(policy: Policy, invoice: Invoice, match: MatchResult) -> list[Flag]:
    po = match.po_number or invoice.po_number or "-"
    if match.status == "no_po":
        if match.candidates:
            return [_flag(policy, "PO_NOT_FOUND", "EXCEPTION", "near" if invoice.po_number else "none",
                          po=invoice.po_number or "-", candidates=", ".join(match.candidates))]
        return [_flag(policy, "PO_NOT_FOUND", "EXCEPTION", po=invoice.po_number or "-")]
    found: list[Flag] = []
    if match.status == "no_grn":
        found.append(_flag(policy, "GRN_NOT_FOUND", "EXCEPTION", po=po))
    for line in match.lines:
        for issue in line.issues:
            if issue == "QUANTITY_MISMATCH":
                found.append(_flag(policy, issue, "EXCEPTION", item=line.description, invoiced=_qty(line.invoiced_quantity),
                                   received=_qty(line.received_quantity), ordered=_qty(line.ordered_quantity), po=po))
            elif issue == "PRICE_MISMATCH":
                found.append(_flag(policy, issue, "EXCEPTION", item=line.description,
                                   invoiced=format_inr(line.invoiced_unit_price),
                                   agreed=format_inr(line.po_unit_price or Decimal("0")), po=po,
                                   tolerance=f"{policy.tolerances.unit_price_pct.normalize()}"))
            elif issue == "RECEIPT_ALREADY_BILLED":
                found.append(_flag(policy, issue, "EXCEPTION", item=line.description, number=invoice.invoice_number,
                                   earlier=", ".join(line.billed_by), invoiced=_qty(line.invoiced_quantity),
                                   received=_qty(line.received_quantity), billed=_qty(line.billed_before),
                                   grns=", ".join(match.grn_numbers) or "-", po=po))
            elif issue == "LINE_NOT_ON_PO":
                found.append(_flag(policy, issue, "EXCEPTION", item=line.description, po=po))
            elif issue == "TOTAL_MISMATCH":
                found.append(_flag(policy, issue, "EXCEPTION", "line", item=line.description,
                                   amount=format_inr(line.invoiced_amount),
                                   expected=format_inr(line.invoiced_quantity * line.invoiced_unit_price)))
    for line in match.variances():
        over_pct = line.price_over / (line.po_unit_price or Decimal("1")) / line.invoiced_quantity * 100
        found.append(_flag(policy, "PRICE_VARIANCE", None, item=line.description, over=format_inr(line.price_over),
                           pct=f"{over_pct.quantize(Decimal('0.01')).normalize():f}", po=po,
                           tolerance=f"{policy.tolerances.unit_price_pct.normalize():f}"))
    totals = match.totals
    figures_agree = abs(totals.total - totals.expected_total) <= policy.tolerances.total_abs \
        and abs(totals.lines_total - totals.discount - totals.subtotal) <= policy.tolerances.total_abs
    if not totals.ok and figures_agree and totals.total_in_words is not None:
        found.append(_flag(policy, "TOTAL_MISMATCH", "EXCEPTION", "words", total=format_inr(totals.total),
                           words=format_inr(totals.total_in_words)))
    elif not totals.ok:
        found.append(_flag(policy, "TOTAL_MISMATCH", "EXCEPTION", "invoice", total=format_inr(totals.total),
                           expected=format_inr(totals.expected_total), lines_total=format_inr(totals.lines_total)))
    return found


def _recurring(policy: Policy, vendor: Vendor, match: MatchResult, memory: VendorMemory) -> list[Flag]:
    resolutions = [m for m in memory.of_kind(*facts.RESOLUTION_KINDS)
                   if m.metadata.get(facts.RESOLUTION_CODE) in RESOLUTIONS]
    found: list[Flag] = []
    for line in match.lines:
        if "QUANTITY_MISMATCH" not in line.issues and "PRICE_MISMATCH" not in line.issues:
            continue
        kind = "quantity" if "QUANTITY_MISMATCH" in line.issues else "price"
        same = [m for m in resolutions if m.metadata.get(facts.MISMATCH) == kind
                and m.metadata.get(facts.SKU, line.sku or "") == (line.sku or "")]
        if not same:
            continue
        latest = max(same, key=lambda m: m.event_date.isoformat() if m.event_date else "")
        code = latest.metadata[facts.RESOLUTION_CODE]
        found.append(_flag(
            policy, "RECURRING_MISMATCH", "EXCEPTION", code, name=vendor.name, item=line.description,
            invoiced=_qty(line.invoiced_quantity), received=_qty(line.received_quantity),
            past_invoice=latest.metadata.get(facts.INVOICE_NUMBER, "-"),
            resolved_on=latest.event_date.isoformat() if latest.event_date else "-",
        ))
    return found


def _instructions(policy: Policy, invoice: Invoice) -> list[Flag]:
    """Text telling the reader what to decide is flagged; it can only make a decision stricter, never looser."""
    texts = [invoice.vendor_name, invoice.notes or "", invoice.contact or "", *(ln.description for ln in invoice.lines)]
    found = instruction_in(texts)
    if found is None:
        return []
    return [_flag(policy, "INSTRUCTION_IN_DOCUMENT", "HUMAN_REVIEW", quote=found[1])]


def _trust(policy: Policy, clean: int, flags: list[Flag]) -> Trust:
    levels = policy.trust
    before = levels.established if clean >= policy.first_bank_change_min_payments else (
        levels.some_history if clean > 0 else levels.unknown)
    after = levels.after_first_bank_change if any(f.code == "FIRST_BANK_CHANGE" for f in flags) else before
    return Trust(before=before, after=min(before, after))


def evaluate(
    invoice: Invoice, identity: VendorMatch, match: MatchResult, vendor_memory: VendorMemory, ledger: Ledger,
    policy: Policy, view: list[LedgerEntry] | None = None, buyer: Buyer | None = None,
) -> RiskResult:
    """Run every rule and return the flags raised, in rule order, with the vendor's trust before and after.

    `view` is the ledger of earlier invoices; without one, the seeded payment history stands in.
    """
    if view is None:
        view = entries_from_history(ledger.data.invoices)
    history = remembered_history(vendor_memory)
    flags = _identity(policy, invoice, identity, ledger)
    vendor = identity.vendor
    flags += _gstins(policy, invoice, vendor, buyer)
    if vendor is not None:
        flags += _bank(policy, invoice, vendor, view)
        flags += _duplicate(policy, invoice, vendor, view)
        flags += _outlier(policy, invoice, vendor, history)
    flags += _match(policy, invoice, match)
    if vendor is not None:
        flags += _recurring(policy, vendor, match, vendor_memory)
    flags += _instructions(policy, invoice)
    if vendor_memory.source == "memory_error":
        flags.append(_flag(policy, "MEMORY_UNAVAILABLE", None, rec=False))
    clean = 0 if vendor is None else account_record(view, vendor.vendor_id,
                                                    vendor.bank_account.account_number).clean_to_current
    return RiskResult(flags=flags, trust=_trust(policy, clean, flags), history=history)
