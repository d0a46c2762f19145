"""Figures printed as a row of labels over a row of values, and rates printed with GST in them.

The NIC e-invoice prints its totals across: "Taxable Amt  IGST Amt  Cess  Round off  Total Inv. Value" with
the figures on the row beneath. Counter bills and Vyapar print each rate with its GST in it ("Price/Unit (incl.
tax)", "Rate incl. GST"), so quantity x rate is the amount with tax; the value before tax is what the PO
compares. Which reading holds is decided by the invoice's own arithmetic, never by one row.
"""

import re
from decimal import Decimal
from typing import Any

from handlers.ap.textamounts import amount_of, is_currency
from handlers.ap.textfigures import Figures

_VALUE_COLUMN = re.compile(
    r"(?:total\s+)?(?:taxable|assessable)\s+(?:value|amount|amt)|(?:sub\s*total)"
    r"|(?:c\.?g\.?s\.?t|s\.?g\.?s\.?t|u\.?t\.?g\.?s\.?t|i\.?g\.?s\.?t|(?:central|state(?:\s*/\s*ut)?|integrated)\s+tax"
    r"|(?:state\s+)?cess|tcs)(?:\s+(?:value|amount|amt))?"
    r"|round(?:ing)?[\s-]*off(?:\s+(?:amount|amt))?|other\s+charges|discount(?:\s+(?:amount|amt))?"
    r"|total\s+inv(?:oice)?\.?\s+(?:value|amount|amt)|grand\s+total|total\s+(?:amount|amt|value)|net\s+(?:amount|amt)",
    re.IGNORECASE)
_SLACK = Decimal("1.00")


def value_columns(line: str, below: str) -> list[str] | None:
    """Each value of a row of figure labels with its label, as a figure line reads ("Total Inv. Value
    1,19,700.00"); None when the two rows are not such a pair. Labels are found by what they say, not by
    spacing, which a scan loses."""
    labels = [m.group(0) for m in _VALUE_COLUMN.finditer(line)]
    if len(labels) < 3 or re.sub(r"[\s.:|()]+", "", _VALUE_COLUMN.sub("", line)):
        return None
    tokens = [t for t in below.replace("|", " ").split() if not is_currency(t)]
    if len(tokens) != len(labels) or any(amount_of(t) is None for t in tokens):
        return None
    return [f"{label} {token}" for label, token in zip(labels, tokens)]


def take_tax_out(rows: list[dict[str, Any]], inclusive: list[Decimal | None], figures: Figures,
                 words: Decimal | None) -> bool:
    """Rows whose rates were printed with GST: when the invoice does not add up as printed but does with the
    tax taken out of every row (and a printed taxable value, if any, is the rows without it), each row becomes
    its value before tax at the rate before tax. True when the rows were changed."""
    if not rows or any(tax is None for tax in inclusive) or not figures.tax:
        return False
    stated = [value for _, value in figures.totals] + ([words] if words is not None else [])

    def off_by(base: Decimal) -> Decimal:
        return min(abs(base + figures.tax + figures.round_off - total) for total in stated)

    with_tax = sum((Decimal(row["amount"]) for row in rows), Decimal(0))
    without = with_tax - sum((tax for tax in inclusive if tax is not None), Decimal(0))
    base = without - figures.discount
    if figures.taxable is not None and abs(figures.taxable - base) > _SLACK or off_by(base) > _SLACK:
        return False
    # Both readings can come within a rupee's round-off on a small bill: the one nearer to the paisa holds.
    if off_by(figures.taxable_value(with_tax)) <= off_by(base) + Decimal("0.005"):
        return False
    for row, tax in zip(rows, inclusive, strict=True):
        assert tax is not None
        amount = Decimal(row["amount"]) - tax
        row["amount"] = amount
        row["unit_price"] = (amount / Decimal(row["quantity"])).quantize(Decimal("0.01"))
    if figures.subtotal is not None and abs(figures.subtotal - with_tax) <= _SLACK:
        figures.subtotal = None  # the rows with their tax, added up: not the value before tax
    return True
