"""How far an invoice read by OCR agrees with itself: the checks that tell a good reading from a misread one.

A photo or a scan is read more than once when the first reading does not hold together (bot/services/imageprep.py
prepares the page differently each time); the reading that passes most of these checks is kept. Every check is a
property the printed invoice has on its own (its arithmetic, its GSTIN's check character, the shape of an IFSC),
never a comparison with the ledger: a misread bank account must stay misread so that the decision flags it.
"""

import re
from decimal import Decimal

from handlers.ap.gstin import verify
from handlers.ap.models import Invoice

_IFSC = re.compile(r"[A-Z]{4}0[A-Z0-9]{6}")
_ACCOUNT_DIGITS = range(9, 19)
"""Indian bank account numbers run from 9 to 18 digits."""
_GST_RATES = (Decimal("0"), Decimal("0.05"), Decimal("0.12"), Decimal("0.18"), Decimal("0.28"), Decimal("0.03"),
              Decimal("0.025"), Decimal("0.06"))
_PAISA = Decimal("0.01")
_ROUNDING = Decimal("1.00")
"""An invoice total is rounded to the rupee: up to a rupee between the parts and the total is a round off."""


def invoice_checks(invoice: Invoice) -> dict[str, bool]:
    """Each self-check of an invoice's reading, by name."""
    lines = sum((line.amount for line in invoice.lines), Decimal("0"))
    taxable = lines - invoice.discount
    return {
        "line_arithmetic": all(abs(line.quantity * line.unit_price - line.amount) <= _ROUNDING
                               for line in invoice.lines),
        "subtotal": invoice.subtotal is None or abs(invoice.subtotal - taxable) <= _PAISA,
        "total_in_words": invoice.total_in_words is None or abs(invoice.total_in_words - invoice.total) < _ROUNDING,
        "sums_to_total": abs(taxable + invoice.tax + invoice.round_off - invoice.total) <= _ROUNDING,
        "tax_rate": taxable > 0 and any(abs(invoice.tax - taxable * rate) <= _ROUNDING for rate in _GST_RATES),
        "vendor_gstin": invoice.vendor_gstin is not None and verify(invoice.vendor_gstin).ok,
        "buyer_gstin": invoice.buyer_gstin is None or verify(invoice.buyer_gstin).ok,
        "bank": invoice.bank is not None and len(invoice.bank.account_number) in _ACCOUNT_DIGITS
        and invoice.bank.ifsc is not None and _IFSC.fullmatch(invoice.bank.ifsc) is not None,
    }


def reading_score(invoice: Invoice | None) -> int:
    """The number of checks a reading passes; a refused reading (no invoice) scores below any invoice."""
    return -1 if invoice is None else sum(invoice_checks(invoice).values())


def holds_together(invoice: Invoice | None) -> bool:
    """True when every check passes: no other reading of the page can do better."""
    return invoice is not None and all(invoice_checks(invoice).values())
