"""Identifiers are verified, not trusted: GSTINs by state code and check digit, and billed to the tenant's own."""

import pytest

from handlers.ap.decision import Decision, decide, evidence
from handlers.ap.gstin import check_character, verify
from handlers.ap.intake import from_text
from handlers.ap.ledger import Ledger
from handlers.ap.match import three_way_match
from handlers.ap.models import Invoice, Policy
from handlers.ap.risk import evaluate
from handlers.ap.textparse import parse_invoice_text
from handlers.ap.vendor_memory import VendorMemory

RAVI = "36AABCR1234F1ZT"
OURS = "36AAECS9876M1ZE"
KARNATAKA_COMPANY = "29AAGCM4521Q1ZX"


def bill(seller_gstin: str = RAVI, billed_to: tuple[str, str] = ("Smriti Demo Industries Pvt Ltd", OURS)) -> str:
    """Ravi Steel's invoice for the channel received on PO-2026-0145, its seller and buyer blocks side by side
    with the invoice's own fields, as Tally prints it."""
    name, gstin = billed_to
    return "\n".join([
        "TAX INVOICE",
        "Ravi Steel & Components                     Invoice No.          Dated",
        "Plot 22, IDA Jeedimetla                     RSC/26-27/0031       24-Apr-2026",
        "Hyderabad 500055                            Buyer's Order No.    Dated",
        f"GSTIN/UIN: {seller_gstin}                  PO-2026-0145         10-Apr-2026",
        "",
        "Buyer (Bill to)",
        name,
        "Survey 14, Medchal Road, Hyderabad",
        f"GSTIN/UIN    : {gstin}",
        "",
        "Sl  Description of Goods     HSN     Quantity   Rate        Amount",
        "1   MS Channel 100x50        7216    6 MT       64,800.00   3,88,800.00",
        "                                              Taxable Value 3,88,800.00",
        "                                               CGST @ 9%      34,992.00",
        "                                               SGST @ 9%      34,992.00",
        "                                               Total        4,58,784.00",
        "Bank: HDFC Bank  A/c No: 50200012344821  IFSC: HDFC0001234",
    ])


def decided(invoice: Invoice, ledger: Ledger, policy: Policy) -> Decision:
    identity = ledger.identify(invoice)
    match = three_way_match(invoice, ledger, policy.tolerances, identity.vendor.vendor_id if identity.vendor else None)
    memory = VendorMemory(source="disabled")
    return decide(evaluate(invoice, identity, match, memory, ledger, policy, buyer=ledger.data.buyer), memory, policy)


async def read(text: str, ledger: Ledger) -> Invoice:
    result = await from_text(text, "text", ledger.data.buyer, None)
    assert result.invoice is not None, result.refusal
    return result.invoice


def test_the_check_character_is_the_gst_networks() -> None:
    # GSTINs printed on listed companies' invoices pass; one character changed anywhere fails.
    for real in ("27AAACR5055K1Z7", "07AAACB2894G1ZP"):
        assert verify(real).ok, real
        assert check_character(real[:14]) == real[14]
    assert verify("27AAACR5055K1Z8").problem == "check_digit"
    assert verify("27AAACR5O55K1Z7").problem in ("check_digit", "format")
    assert verify("27AAACR5505K1Z7").problem == "check_digit", "two digits swapped"
    assert verify("64AAACR5055K1Z7").problem == "state_code"


def test_the_seeds_gstins_pass_their_own_check(ledger: Ledger) -> None:
    assert all(verify(v.gstin).ok for v in ledger.vendors)
    assert ledger.data.buyer.gstin is not None and verify(ledger.data.buyer.gstin).ok


async def test_an_invoice_billed_to_us_with_good_gstins_is_approved(ledger: Ledger, policy: Policy) -> None:
    invoice = await read(bill(), ledger)
    assert invoice.vendor_gstin == RAVI and invoice.buyer_gstin == OURS
    assert decided(invoice, ledger, policy).status == "APPROVE"


async def test_a_gstin_failing_its_check_digit_is_shown_to_the_clerk(ledger: Ledger, policy: Policy) -> None:
    misread = RAVI[:14] + "5"  # a photo's 5 for the printed character
    invoice = await read(bill(seller_gstin=misread), ledger)
    decision = decided(invoice, ledger, policy)
    flag = next(f for f in decision.flags if f.code == "GSTIN_INVALID")
    assert decision.status == "HUMAN_REVIEW"
    said = evidence("en", flag)
    assert misread in said and "check digit" in said and "call for T" in said
    assert evidence("te", flag) != said


async def test_a_gstin_with_no_state_code_is_shown_to_the_clerk(ledger: Ledger, policy: Policy) -> None:
    body = "40AABCR1234F1Z"
    invoice = await read(bill(seller_gstin=body + check_character(body)), ledger)
    flag = next(f for f in decided(invoice, ledger, policy).flags if f.code == "GSTIN_INVALID")
    assert "40" in evidence("en", flag) and "state code" in evidence("en", flag)


async def test_an_invoice_billed_to_another_companys_gstin_puts_input_tax_credit_at_risk(
        ledger: Ledger, policy: Policy) -> None:
    assert verify(KARNATAKA_COMPANY).ok
    invoice = await read(bill(billed_to=("Mysore Castings Pvt Ltd", KARNATAKA_COMPANY)), ledger)
    assert invoice.vendor_gstin == RAVI, "the buyer's block is not the seller's"
    assert invoice.buyer_gstin == KARNATAKA_COMPANY
    decision = decided(invoice, ledger, policy)
    assert decision.status == "HUMAN_REVIEW"
    flag = next(f for f in decision.flags if f.code == "BUYER_GSTIN_MISMATCH")
    said = evidence("en", flag)
    assert "input tax credit at risk" in said and "Karnataka" in said and OURS in said


@pytest.mark.parametrize("label", ["Party GSTIN:", "Buyer's GSTIN :", "Customer GSTIN -", "GSTIN of Recipient:"])
def test_a_buyer_gstin_labelled_on_its_own_line(label: str) -> None:
    text = "\n".join(["TAX INVOICE", "Ravi Steel & Components", f"GSTIN: {RAVI}", "Invoice No: RSC/26-27/0032",
                      "Date: 25/04/2026", "M/S Mysore Castings Pvt Ltd, Mysuru", f"{label} {KARNATAKA_COMPANY}",
                      "1  MS Channel 100x50   6   64,800.00   3,88,800.00", "Total 4,58,784.00"])
    parsed = parse_invoice_text(text, OURS)
    assert parsed.fields["vendor_gstin"] == RAVI and parsed.fields["buyer_gstin"] == KARNATAKA_COMPANY


def test_consignor_and_consignee_are_not_the_buyer() -> None:
    """A freight bill names the goods' parties; the bill itself is billed to whoever pays it."""
    text = "\n".join(["TAX INVOICE", "Deccan Road Carriers", f"GSTIN: {RAVI}", "Invoice No: DRC/118",
                      "Date: 25/04/2026", "Billed to: Smriti Demo Industries Pvt Ltd", f"GSTIN: {OURS}",
                      f"Consignee: Mysore Castings, GSTIN {KARNATAKA_COMPANY}",
                      "1  Freight Hyderabad to Mysuru   1   18,000.00   18,000.00", "Total 21,240.00"])
    parsed = parse_invoice_text(text, OURS)
    assert parsed.fields["buyer_gstin"] == OURS and parsed.fields["vendor_gstin"] == RAVI


def test_our_own_gstin_misread_by_a_scan_is_still_ours() -> None:
    misread = OURS[:7] + "8" + OURS[8:]  # a scan's 8 for a 9
    text = "\n".join(["TAX INVOICE", "Ravi Steel & Components", f"GSTIN: {RAVI}", "Invoice No: RSC/26-27/0033",
                      "Date: 25/04/2026", "Buyer (Bill to)", "Smriti Demo Industries Pvt Ltd", f"GSTIN: {misread}",
                      "1  MS Channel 100x50   6   64,800.00   3,88,800.00", "Total 4,58,784.00"])
    assert not verify(misread).ok
    assert parse_invoice_text(text, OURS).fields["buyer_gstin"] == OURS


@pytest.mark.parametrize("party_line", [
    "Buyer (Bill to): Mysore Castings Pvt Ltd, Mysuru, Karnataka     GSTIN {gstin}",
    "Billed To : Mysore Castings Pvt Ltd   |   GSTIN/UIN: {gstin}",
    "Details of Receiver: Mysore Castings, Mysuru      State: Karnataka      GSTIN {gstin}",
    "Customer - Mysore Castings Pvt Ltd, Mysuru    GST No. {gstin}",
])
async def test_a_buyer_gstin_on_the_party_line_is_the_buyers(party_line: str, ledger: Ledger, policy: Policy) -> None:
    """The buyer's heading opens the line and its GSTIN is spaced off to the right, before or after the seller's."""
    for seller_first in (True, False):
        head = [f"Ravi Steel & Components, Hyderabad     GSTIN: {RAVI}"]
        party = [party_line.format(gstin=KARNATAKA_COMPANY)]
        text = "\n".join(["TAX INVOICE", *(head + party if seller_first else party + head),
                          "Invoice No: RSC/26-27/0033   Date: 26/04/2026", "PO No: PO-2026-0145",
                          "1  MS Channel 100x50   6 MT   64,800.00   3,88,800.00", "Taxable Value 3,88,800.00",
                          "CGST @ 9% 34,992.00", "SGST @ 9% 34,992.00", "Total 4,58,784.00"])
        invoice = await read(text, ledger)
        assert (invoice.vendor_gstin, invoice.buyer_gstin) == (RAVI, KARNATAKA_COMPANY), (party_line, seller_first)
        flag = next(f for f in decided(invoice, ledger, policy).flags if f.code == "BUYER_GSTIN_MISMATCH")
        assert "input tax credit at risk" in evidence("en", flag) and "Karnataka" in evidence("en", flag)


async def test_our_gstin_on_the_party_line_is_no_mismatch(ledger: Ledger, policy: Policy) -> None:
    text = "\n".join(["TAX INVOICE", f"Ravi Steel & Components     GSTIN: {RAVI}",
                      f"Buyer (Bill to): Smriti Demo Industries Pvt Ltd, Hyderabad     GSTIN {OURS}",
                      "Invoice No: RSC/26-27/0034   Date: 26/04/2026", "PO No: PO-2026-0145",
                      "1  MS Channel 100x50   6 MT   64,800.00   3,88,800.00", "Total 4,58,784.00"])
    invoice = await read(text, ledger)
    assert (invoice.vendor_gstin, invoice.buyer_gstin) == (RAVI, OURS)
    assert "BUYER_GSTIN_MISMATCH" not in [f.code for f in decided(invoice, ledger, policy).flags]
