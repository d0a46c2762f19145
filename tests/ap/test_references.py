"""No silent substitution: a PO or vendor that does not exist is "not found", with the nearest named."""

from datetime import date

from hypothesis import given
from hypothesis import strategies as st

from handlers.ap.decision import Decision, decide, evidence
from handlers.ap.intake import from_text
from handlers.ap.ledger import Ledger
from handlers.ap.match import three_way_match
from handlers.ap.ledgerview import normalise_number
from handlers.ap.models import Invoice, Policy
from handlers.ap.questions import parse
from handlers.ap.risk import evaluate
from handlers.ap.vendor_memory import VendorMemory


def bill(po: str, seller: str = "Ravi Steel & Components", gstin: str = "36AABCR1234F1ZT") -> str:
    """Ravi Steel's bill for the channel received on PO-2026-0145, quoting the PO as the clerk typed it."""
    return "\n".join([
        "TAX INVOICE", seller, f"GSTIN: {gstin}", "Invoice No: RSC/26-27/0040", "Date: 28/04/2026",
        f"Buyer's Order No: {po}", "Billed to: Smriti Demo Industries Pvt Ltd, GSTIN: 36AAECS9876M1ZE",
        "Sl  Description              Qty    Rate         Amount",
        "1   MS Channel 100x50         6     64,800.00    3,88,800.00",
        "Taxable Value 3,88,800.00", "CGST @ 9% 34,992.00", "SGST @ 9% 34,992.00", "Total 4,58,784.00",
        "A/c No: 50200012344821  IFSC: HDFC0001234"])


async def decided(text: str, ledger: Ledger, policy: Policy) -> tuple[Invoice, Decision]:
    read = await from_text(text, "text", ledger.data.buyer, None)
    assert read.invoice is not None, read.refusal
    invoice = read.invoice
    identity = ledger.identify(invoice)
    match = three_way_match(invoice, ledger, policy.tolerances, identity.vendor.vendor_id if identity.vendor else None)
    memory = VendorMemory(source="disabled")
    return invoice, decide(evaluate(invoice, identity, match, memory, ledger, policy, buyer=ledger.data.buyer),
                           memory, policy)


async def test_the_right_po_matches(ledger: Ledger, policy: Policy) -> None:
    _, decision = await decided(bill("PO-2026-0145"), ledger, policy)
    assert decision.status == "APPROVE"


async def test_a_po_typed_one_digit_off_is_not_found_and_its_neighbours_are_named(ledger: Ledger,
                                                                                   policy: Policy) -> None:
    for typo in ("PO-2026-0146", "PO-2026-0415", "PO-2025-0145"):
        invoice, decision = await decided(bill(typo), ledger, policy)
        assert invoice.po_number == typo
        assert decision.status == "EXCEPTION" and [f.code for f in decision.flags] == ["PO_NOT_FOUND"], typo
        said = evidence("en", decision.flags[0])
        assert f"No purchase order {typo}" in said and "PO-2026-0145" in said and "None of them was matched" in said
        # Nothing of another PO leaks in: the match names no PO of its own and no receipts.
        identity = ledger.identify(invoice)
        match = three_way_match(invoice, ledger, policy.tolerances, identity.vendor.vendor_id if identity.vendor else None)
        assert match.po_number == typo and match.grn_numbers == [] and match.lines == []
        assert "PO-2026-0145" in match.candidates and all(c.startswith("PO-2026-01") for c in match.candidates)


async def test_another_vendors_po_is_never_this_vendors(ledger: Ledger, policy: Policy) -> None:
    _, decision = await decided(bill("PO-2026-0157"), ledger, policy)  # ABC Technologies' PO
    flag = next(f for f in decision.flags if f.code == "PO_NOT_FOUND")
    assert "ABC" not in evidence("en", flag) and "PO-2026-0157 for this vendor" in evidence("en", flag)
    assert "PO-2026-0157" not in flag.facts["candidates"]


async def test_a_vendor_not_in_the_master_names_the_nearest_but_is_not_taken_for_it(ledger: Ledger,
                                                                                     policy: Policy) -> None:
    text = bill("PO-2026-0145", seller="Ravi Steels & Components Pvt", gstin="36AABCR9999F1Z5")
    invoice, decision = await decided(text, ledger, policy)
    assert ledger.identify(invoice).vendor is None
    assert decision.status == "HUMAN_REVIEW"
    flag = next(f for f in decision.flags if f.code == "UNKNOWN_VENDOR")
    said = evidence("en", flag)
    assert "is not in the vendor master" in said and "Ravi Steel & Components (V001)" in said and "none taken" in said
    assert "PO_NOT_FOUND" in [f.code for f in decision.flags], "a stranger has no PO, even one of a look-alike"


async def test_a_po_misread_by_a_scan_is_the_one_po_it_folds_to(ledger: Ledger, policy: Policy) -> None:
    """O/0, I/1/l, S/5 and B/8 read for each other are folded, only when one PO of the register fits."""
    for misread in ("P0-2026-0145", "PO-2O26-O14S", "P0-2026-0I4S", "PO-2O26-Ol45"):
        invoice, decision = await decided(bill(misread), ledger, policy)
        identity = ledger.identify(invoice)
        match = three_way_match(invoice, ledger, policy.tolerances, identity.vendor.vendor_id if identity.vendor else None)
        assert match.po_number == "PO-2026-0145" and decision.status == "APPROVE", (misread, decision.flags)


async def test_a_misreading_two_pos_fit_is_not_found_with_both_named(ledger: Ledger, policy: Policy) -> None:
    [po] = [p for p in ledger.data.purchase_orders if p.po_number == "PO-2026-0145"]
    twins = [po.model_copy(update={"po_number": "PO-2026-S145"}), po.model_copy(update={"po_number": "PO-2026-5145"})]
    data = ledger.data.model_copy(update={"purchase_orders": [*ledger.data.purchase_orders, *twins]})
    both = Ledger(data)
    assert both.purchase_order("PO-2026-S145", "V001") is not None  # as printed: that one
    _, decision = await decided(bill("PO-2026-5I45"), both, policy)
    flag = next(f for f in decision.flags if f.code == "PO_NOT_FOUND")
    said = evidence("en", flag)
    assert "PO-2026-S145" in said and "PO-2026-5145" in said and "None of them was matched" in said


@given(prefix=st.lists(st.sampled_from(["INV", "BILL", "NO", "SKH", "DPD", "HK", "SVC", "TI", "GST"]), max_size=3),
       years=st.sampled_from(["", "26-27", "2026", "25-26"]), serial=st.integers(1, 99999),
       suffix=st.sampled_from(["", "-R", "/A"]), separator=st.sampled_from(["/", "-", " / "]),
       verb=st.sampled_from(["approve {}", "hold invoice {} because stores are counting", "reject bill no. {} because rate",
                             "what is the state of invoice {}?", "status of {}"]))
def test_a_typed_invoice_number_is_kept_whole(prefix: list[str], years: str, serial: int, suffix: str,
                                              separator: str, verb: str) -> None:
    """The number in a chat move or question is the whole number as typed: letters that are words elsewhere (INV,
    BILL, NO) inside it, vendor prefixes before a slash and spaced separators are all kept."""
    number = separator.join([*prefix, *([years] if years else []), f"{serial:04d}"]) + suffix
    ask = parse(verb.format(number), date(2026, 12, 5))
    assert ask is not None and ask.number is not None, verb.format(number)
    assert normalise_number(ask.number) == normalise_number(number), (verb.format(number), ask.number)
