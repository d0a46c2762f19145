"""Duplicate controls, the way AP systems run them, as pure functions of (invoice, ledger view, policy).

Exact: the same vendor and the same invoice number once folded (case, spaces, `/`, `-`, leading zeros),
whether the earlier one was paid, approved, only decided, or rejected. Near: the same vendor, an amount within
tolerance and dates close, under a different number; a person should look before paying twice.
"""

from decimal import Decimal

from handlers.ap.ledgerview import LedgerEntry, normalise_number
from handlers.ap.models import Invoice, Policy

HUNDRED = Decimal(100)
_PRECEDENCE = {"paid": 0, "approved": 1, "held": 2, "review": 2, "decided": 2, "rejected": 3, "superseded": 3}


def exact_duplicate(invoice: Invoice, vendor_id: str, view: list[LedgerEntry]) -> LedgerEntry | None:
    """The earlier entry with this vendor and number (a paid one first, then the earliest), or None."""
    key = normalise_number(invoice.invoice_number)
    same = [e for e in view if e.vendor_id == vendor_id and e.number_key == key]
    if not same:
        return None
    return min(same, key=lambda e: (_PRECEDENCE[e.status], e.when))


def near_duplicates(invoice: Invoice, vendor_id: str, view: list[LedgerEntry], policy: Policy) -> list[LedgerEntry]:
    """Earlier invoices from this vendor with a different number, an amount within tolerance and a close date.

    A rejected invoice is left out: its corrected reissue carries a new number and the same amount on purpose.
    """
    key = normalise_number(invoice.invoice_number)
    slack_pct = policy.duplicate_amount_pct
    found = [
        e for e in view
        if e.vendor_id == vendor_id and e.number_key != key and e.status not in ("rejected", "superseded")
        and abs(e.total - invoice.total) <= max(policy.tolerances.total_abs, e.total * slack_pct / HUNDRED)
        and abs((e.invoice_date - invoice.invoice_date).days) <= policy.duplicate_window_days
    ]
    return sorted(found, key=lambda e: (abs((e.invoice_date - invoice.invoice_date).days), e.invoice_date))
