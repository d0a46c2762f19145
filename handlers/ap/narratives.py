"""What the AP pack retains: plain-English narratives with the numbers beside them as structured metadata.

Each with a deterministic document id so a re-run replaces instead of duplicating: a vendor's payment history
(from the ledger) and a past exception with its resolution. An invoice's own memory (its ledger state, the
agent's decision, a clerk's resolution) is written from its ledger entry in invoice_memory.py.
"""

from datetime import date, datetime, time

from bot.services.i18n import show_date
from handlers.ap import facts
from handlers.ap.decision import DecisionReport
from handlers.ap.ledger import Ledger, VendorHistory
from handlers.ap.models import Invoice, PastInvoice, Vendor, normalise_name
from handlers.ap.money import format_inr
from memory import MemoryItem, ids, tags
from memory.asof import IST
from memory.tags import TagPrefix

def _at_noon(day: date) -> datetime:
    return datetime.combine(day, time(12, 0), IST)


def vendor_key(vendor: Vendor | None, invoice: Invoice) -> str:
    """Return the vendor id used in tags and document ids; an unregistered vendor gets a stable stand-in."""
    if vendor is not None:
        return vendor.vendor_id
    return f"UNREGISTERED-{ids.content_digest(normalise_name(invoice.vendor_name), 8).upper()}"


def _invoice_tag(number: str) -> str:
    return tags.tag(TagPrefix.INVOICE, number)


def vendor_history_memory(vendor: Vendor, history: VendorHistory) -> MemoryItem:
    """Return the vendor's payment history as one memory, its counts and amounts as metadata."""
    last = date.fromisoformat(history.last_paid) if history.last_paid else vendor.onboarded_on
    first = date.fromisoformat(history.first_paid) if history.first_paid else None
    changes = "no beneficiary changes" if history.bank_changes == 0 else f"{history.bank_changes} beneficiary change(s)"
    amounts = (f" Invoices paid ranged from {format_inr(history.amount_min)} to {format_inr(history.amount_max)} "
               f"(median {format_inr(history.amount_median)}).") if history.amount_min is not None \
        and history.amount_max is not None and history.amount_median is not None else ""
    content = (
        f"{vendor.name} (vendor {vendor.written_id}, GSTIN {vendor.gstin}) has completed {history.payment_count} "
        f"payments since {show_date('en', first) if first else '-'}, the latest on {show_date('en', last)}; the last "
        f"{history.clean_payments_to_current_account} went to the bank account ending {history.account_suffix} "
        f"({vendor.bank_account.bank_name or 'bank on file'}), with {changes}.{amounts} Verified contact on file: "
        f"{vendor.verified_contact.show()}."
    )
    metadata = {
        facts.KIND: "vendor_history", facts.VENDOR_ID: vendor.vendor_id,
        facts.PAYMENT_COUNT: str(history.payment_count),
        facts.CLEAN_PAYMENTS: str(history.clean_payments_to_current_account),
        facts.BANK_CHANGES: str(history.bank_changes), facts.ACCOUNT_SUFFIX: history.account_suffix,
    }
    for key, value in ((facts.AMOUNT_MIN, history.amount_min), (facts.AMOUNT_MAX, history.amount_max),
                       (facts.AMOUNT_MEDIAN, history.amount_median)):
        if value is not None:
            metadata[key] = str(value)
    return MemoryItem(
        content=content, event_time=_at_noon(last), context="accounts payable: vendor payment history",
        document_id=ids.seed("ap-vendor-history", vendor.vendor_id),
        tags=[tags.vendor(vendor.vendor_id), tags.record_type("vendor-history")], metadata=metadata,
    )


def past_exception_memory(vendor: Vendor, past: PastInvoice) -> MemoryItem:
    """Return a past exception and how AP resolved it, with the mismatch and resolution as metadata."""
    exc = past.exception
    if exc is None:
        raise ValueError(f"{past.invoice_number} has no exception to remember")
    invoiced, received = f"{exc.invoiced_quantity.normalize():f}", f"{exc.received_quantity.normalize():f}"
    content = (
        f"On {show_date('en', past.invoice_date)} {vendor.name} invoiced {invoiced} x {exc.item} on invoice "
        f"{past.invoice_number} against {received} received (a {exc.mismatch} mismatch). Resolved on "
        f"{show_date('en', exc.resolved_on)}: {exc.note}"
    )
    return MemoryItem(
        content=content, event_time=_at_noon(exc.resolved_on), context="accounts payable: exception and resolution",
        document_id=ids.seed("ap-exception", f"{vendor.vendor_id}-{past.invoice_number}"),
        tags=[tags.vendor(vendor.vendor_id), tags.record_type("exception-resolution"), _invoice_tag(past.invoice_number)],
        metadata={
            facts.KIND: "past_exception", facts.VENDOR_ID: vendor.vendor_id, facts.INVOICE_NUMBER: past.invoice_number,
            facts.MISMATCH: exc.mismatch, facts.SKU: exc.sku, "invoiced_quantity": invoiced,
            "received_quantity": received, facts.RESOLUTION_CODE: exc.resolution_code,
            facts.RESOLVED_ON: exc.resolved_on.isoformat(),
        },
    )


def seed_memories(ledger: Ledger) -> list[MemoryItem]:
    """Return every seed memory: one history per paid vendor, one per past exception."""
    items: list[MemoryItem] = []
    for vendor in ledger.vendors:
        if not vendor.never_paid:
            items.append(vendor_history_memory(vendor, ledger.history(vendor.vendor_id)))
        for past in ledger.past_invoices(vendor.vendor_id):
            if past.exception is not None:
                items.append(past_exception_memory(vendor, past))
    return items


def mismatch_of(report: DecisionReport) -> dict[str, str]:
    """The first quantity or price mismatch of a decision, as the metadata a resolution is matched by."""
    for line in report.match.lines:
        for issue, kind in (("QUANTITY_MISMATCH", "quantity"), ("PRICE_MISMATCH", "price")):
            if issue in line.issues:
                return {facts.MISMATCH: kind, facts.SKU: line.sku or ""}
    return {}
