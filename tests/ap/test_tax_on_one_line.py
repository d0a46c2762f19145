"""CGST and SGST (or UTGST) printed on one line, side by side or under one label, are two taxes read both; the
taxable value and the total may share that line too. The total then reconciles: lines + both taxes = total."""

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from handlers.ap.textparse import parse_invoice_text
from tests.corpus.ap.layouts import inr

BUYER_GSTIN = "36AAGCK7741E1ZH"
LAYOUTS = [
    "Taxable Value {taxable}   CGST {half_rate}% {half}   SGST {half_rate}% {half}\nInvoice Total Rs {total}",
    "CGST {half_rate}% {half} SGST {half_rate}% {half}\nGrand Total {total}",
    "CGST/SGST @{half_rate}% {half}+{half}\nNet Amount {total}",
    "CGST {half_rate}%: {half}  SGST {half_rate}%: {half}\nTotal Amount {total}",
    "CGST {half_rate}% {half}  UTGST {half_rate}% {half}   Total {total}",
    "Sub Total {taxable} CGST & SGST @ {half_rate}% each {half}\nBill Amount {total}",
    "Taxable Amt {taxable} | Central Tax {half_rate}% {half} | State Tax {half_rate}% {half} | Total {total}",
]


@settings(max_examples=60, deadline=None)
@given(layout=st.sampled_from(LAYOUTS), quantity=st.integers(1, 400), rate=st.integers(5, 90_000),
       half_rate=st.sampled_from([Decimal("2.5"), Decimal("6"), Decimal("9"), Decimal("14")]),
       vendor=st.sampled_from(["Bhavani Medical Agencies", "Konark Office Supplies", "Sree Lakshmi Hardware"]))
def test_both_gst_heads_on_one_line_are_read_and_the_total_reconciles(
        layout: str, quantity: int, rate: int, half_rate: Decimal, vendor: str) -> None:
    taxable = Decimal(quantity * rate)
    half = (taxable * half_rate / 100).quantize(Decimal("0.01"))
    total = taxable + 2 * half
    figures = layout.format(taxable=inr(taxable), half=inr(half), total=inr(total), half_rate=f"{half_rate.normalize()}")
    text = "\n".join([vendor, "TAX INVOICE", "Invoice No: KOS/26-27/0918   Date: 14/11/2026",
                      "Sl  Description        Qty   Rate   Amount",
                      f"1   Item supplied      {quantity}   {inr(Decimal(rate))}   {inr(taxable)}", figures])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert parse.fields["tax"] == 2 * half, (figures, parse.fields.get("tax"))
    assert parse.fields["total"] == total, (figures, parse.fields.get("total"))
    lines = sum((Decimal(line["amount"]) for line in parse.fields["lines"]), Decimal(0))
    assert lines + parse.fields["tax"] == parse.fields["total"]
