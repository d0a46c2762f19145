"""A tax invoice is read as one whatever other documents it quotes: the buyer's order it was supplied against is
its PO number, however the billing program words it, never a reason to take the invoice for a purchase order."""

import pytest

from handlers.ap.decision import decide
from handlers.ap.intake import from_text
from handlers.ap.ledger import Ledger
from handlers.ap.match import three_way_match
from handlers.ap.models import Policy
from handlers.ap.risk import evaluate
from handlers.ap.textparse import document_kind
from handlers.ap.vendor_memory import VendorMemory


def bill(title: str, order_line: str) -> str:
    """Ravi Steel's bill for the channel received on PO-2026-0145, titled and quoting its order as given."""
    return "\n".join([
        "Ravi Steel & Components", "GSTIN: 36AABCR1234F1ZT", title, "Invoice No: RSC/26-27/0052", order_line,
        "Date: 29/04/2026", "Billed to: Smriti Demo Industries Pvt Ltd, GSTIN: 36AAECS9876M1ZE",
        "Sl  Description              Qty    Rate         Amount",
        "1   MS Channel 100x50         6     64,800.00    3,88,800.00",
        "Taxable Value 3,88,800.00", "CGST @ 9% 34,992.00", "SGST @ 9% 34,992.00", "Total 4,58,784.00",
        "A/c No: 50200012344821  IFSC: HDFC0001234"])


@pytest.mark.parametrize("title, order_line", [
    ("Tax Invoice - second copy, sent again on request", "Purchase Order: PO-2026-0145"),
    ("TAX INVOICE", "Purchase Order PO-2026-0145 dated 20/04/2026"),
    ("GST Invoice (as per your order)", "Purchase Order #PO-2026-0145"),
    ("Bill of Supply", "Purchase Order - PO-2026-0145"),
])
async def test_an_invoice_quoting_a_purchase_order_is_an_invoice(title: str, order_line: str, ledger: Ledger,
                                                                 policy: Policy) -> None:
    text = bill(title, order_line)
    assert document_kind(text) == "invoice"
    read = await from_text(text, "text", ledger.data.buyer, None)
    assert read.invoice is not None, read.refusal
    assert read.invoice.po_number == "PO-2026-0145" and read.invoice.invoice_number == "RSC/26-27/0052"


@pytest.mark.parametrize("text, kind", [
    ("PURCHASE ORDER\nPO Number: PO-2026-0188\nVendor: Ravi Steel & Components\nDelivery by 10/05/2026", "purchase_order"),
    ("Smriti Demo Industries Pvt Ltd\nPurchase Order\nNo. PO-2026-0188 dated 20/04/2026", "purchase_order"),
    ("Ravi Steel & Components\nCredit Note No. CN/07 dated 02/05/2026\nTax Invoice RSC/26-27/0052\n"
     "Against Invoice No: RSC/26-27/0052", "credit_note"),
])
def test_a_purchase_order_or_a_note_is_still_what_it_says(text: str, kind: str) -> None:
    assert document_kind(text) == kind


@pytest.mark.parametrize("order_line", [
    "Against PO-2026-0145",
    "Ref: against PO-2026-0145 dt 20/04/2026",
    "Supplied against P.O. No. PO-2026-0145",
    "Against P.O. No.: PO-2026-0145 dt 20/04/2026",
    "Against your order PO-2026-0145",
    "Your Order No: PO-2026-0145",
    "Buyer's Order No.   PO-2026-0145",
    "Order Ref: PO-2026-0145",
    "Your Ref. PO-2026-0145",
])
async def test_the_order_an_invoice_is_against_is_its_po(order_line: str, ledger: Ledger, policy: Policy) -> None:
    read = await from_text(bill("TAX INVOICE", order_line), "text", ledger.data.buyer, None)
    assert read.invoice is not None, read.refusal
    invoice = read.invoice
    assert invoice.po_number == "PO-2026-0145", order_line
    identity = ledger.identify(invoice)
    match = three_way_match(invoice, ledger, policy.tolerances, identity.vendor.vendor_id if identity.vendor else None)
    memory = VendorMemory(source="disabled")
    decision = decide(evaluate(invoice, identity, match, memory, ledger, policy, buyer=ledger.data.buyer), memory, policy)
    assert "PO_NOT_FOUND" not in [f.code for f in decision.flags]
