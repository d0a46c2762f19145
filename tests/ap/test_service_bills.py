"""A transporter's or service provider's bill with no item table: each service printed once with one amount
at the line's end is a line to pay, so the bill is read and decided rather than refused as "no line items"."""

from decimal import Decimal

import pytest

from handlers.ap.intake import from_text
from handlers.ap.ledger import Ledger
from handlers.ap.textparse import parse_invoice_text

OURS = "36AAECS9876M1ZE"


def freight_bill(service_lines: list[str], taxable: str, tax: str, total: str) -> str:
    return "\n".join([
        "DECCAN ROADLINES", "GSTIN 36AADFD5512K1Z4", "TRANSPORT BILL",
        "Bill No: DRL/611        Date: 14/05/2026",
        f"To: Smriti Demo Industries Pvt Ltd, Hyderabad   GSTIN {OURS}",
        *service_lines,
        f"Taxable value {taxable}", f"IGST @ 5% {tax}", f"Grand Total Rs. {total}",
    ])


@pytest.mark.parametrize("lines, amounts, quantities", [
    (["Lorry hire Hyderabad to Nagpur (10 wheeler) 1 Trip 26,000.00"], ["26000.00"], ["1"]),
    (["LR No 5518  Hyderabad - Nagpur  9.4 MT  26,000.00"], ["26000.00"], ["1"]),
    (["Transportation charges, Medchal to Pune, 2 Trips   26,000.00"], ["26000.00"], ["2"]),
    (["Freight: LR 5518 Hyderabad-Nagpur 21,000.00", "Detention charges 2 days 5,000.00"],
     ["21000.00", "5000.00"], ["1", "1"]),
])
def test_a_service_printed_with_one_amount_is_a_line(lines: list[str], amounts: list[str],
                                                     quantities: list[str]) -> None:
    parsed = parse_invoice_text(freight_bill(lines, "26,000.00", "1,300.00", "27,300.00"), OURS)
    assert parsed.missing == []
    assert [row["amount"] for row in parsed.fields["lines"]] == [Decimal(a) for a in amounts]
    assert [row["quantity"] for row in parsed.fields["lines"]] == [Decimal(q) for q in quantities]
    assert parsed.fields["total"] == Decimal("27300.00") and parsed.fields["tax"] == Decimal("1300.00")


async def test_a_freight_bill_with_one_amount_is_read_not_refused(ledger: Ledger) -> None:
    text = freight_bill(["Freight charges Hyderabad to Vijayawada by truck, 1 Load 14,000.00"],
                        "14,000.00", "700.00", "14,700.00")
    read = await from_text(text, "text", ledger.data.buyer, None)
    assert read.invoice is not None, read.refusal
    assert read.invoice.invoice_number == "DRL/611" and read.invoice.total == Decimal("14700.00")
    assert [ln.amount for ln in read.invoice.lines] == [Decimal("14000.00")]


def test_the_bank_line_and_the_figures_are_not_services() -> None:
    text = freight_bill(["Freight Hyderabad to Nagpur 1 Trip 26,000.00"], "26,000.00", "1,300.00", "27,300.00")
    parsed = parse_invoice_text(text + "\nPlease pay freight to SBI A/c 30112233445 IFSC SBIN0001234\n"
                                       "Freight total 27,300.00", OURS)
    assert [row["amount"] for row in parsed.fields["lines"]] == [Decimal("26000.00")]
