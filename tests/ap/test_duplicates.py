"""Duplicate controls and receipt consumption: pure rules over a ledger view, on the corpus's own ledger."""

from datetime import date, datetime, timedelta
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from handlers.ap.decision import Decision, decide, evidence, recommendation
from handlers.ap.ledger import Ledger, load_policy
from handlers.ap.ledgerview import (
    BilledLine,
    LedgerEntry,
    entries_from_history,
    entry_for,
    normalise_number,
)
from handlers.ap.match import three_way_match
from handlers.ap.models import Invoice, InvoiceLine, Policy
from handlers.ap.risk import evaluate
from handlers.ap.vendor_memory import VendorMemory

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "ap"
NO_MEMORY = VendorMemory(source="disabled")


@pytest.fixture(scope="module")
def books() -> Ledger:
    return Ledger.load(CORPUS / "ledger")


@pytest.fixture(scope="module")
def rules() -> Policy:
    return load_policy()


def liner_bags(number: str, quantity: str = "5000", day: date = date(2026, 4, 24), rate: str = "6.85") -> Invoice:
    """Annapurna Packaging's invoice on KAI-PO-2604-109 (5,000 liner bags ordered and received)."""
    q, r = Decimal(quantity), Decimal(rate)
    amount = (q * r).quantize(Decimal("0.01"))
    tax = (amount * Decimal("0.18")).quantize(Decimal("0.01"))
    return Invoice(vendor_name="Annapurna Packaging Industries", vendor_gstin="36AAGFA6610C1ZZ", invoice_number=number,
                   invoice_date=day, po_number="KAI-PO-2604-109", tax=tax, total=amount + tax,
                   lines=[InvoiceLine(description="HDPE Liner Bag 25kg", quantity=q, unit_price=r, amount=amount)])


def earlier(number: str, status: str = "paid", day: date = date(2026, 4, 10), total: str = "40413.00",
            billed: list[BilledLine] | None = None) -> LedgerEntry:
    return LedgerEntry(vendor_id="V106", invoice_number=number, invoice_date=day, total=Decimal(total),
                       po_number="KAI-PO-2604-109", status=status,  # type: ignore[arg-type]
                       decided_at=datetime(2026, 4, 11, 10, 0), decision_id="run-1",
                       paid_on=date(2026, 4, 20) if status == "paid" else None, billed=billed or [])


def run(invoice: Invoice, view: list[LedgerEntry], books: Ledger, rules: Policy) -> Decision:
    identity = books.identify(invoice)
    vendor_id = identity.vendor.vendor_id if identity.vendor else None
    match = three_way_match(invoice, books, rules.tolerances, vendor_id, view)
    return decide(evaluate(invoice, identity, match, NO_MEMORY, books, rules, view), NO_MEMORY, rules)


@pytest.mark.parametrize(("printed", "earlier_number"), [
    ("INV/26/007", "inv-26-7"), ("inv-26-7", "INV/26/007"), ("INV 26 0007", "INV-26-007"), ("Inv.26.07", "INV/26/7"),
    ("SLG/25-26/311", "SLG/25-26/0311"), ("bht 219", "BHT-0219"),
])
def test_number_variants_are_one_number(printed: str, earlier_number: str) -> None:
    assert normalise_number(printed) == normalise_number(earlier_number)


def test_different_numbers_stay_different() -> None:
    assert normalise_number("INV/2/67") != normalise_number("INV/26/7")
    assert normalise_number("INV-000318") != normalise_number("INV-000381")
    assert normalise_number("A-10") != normalise_number("A-1")


@given(prefix=st.text(alphabet="ABCDEFGHJKLMNPQRSTUVWXYZ", min_size=1, max_size=4),
       numbers=st.lists(st.integers(min_value=0, max_value=99999), min_size=1, max_size=3),
       separator=st.sampled_from(["/", "-", " ", "/ ", " - ", "."]), zeros=st.integers(min_value=0, max_value=3),
       lower=st.booleans())
def test_folding_ignores_case_separators_and_leading_zeros(prefix: str, numbers: list[int], separator: str,
                                                           zeros: int, lower: bool) -> None:
    plain = "/".join([prefix, *(str(n) for n in numbers)])
    printed = separator.join([prefix, *("0" * zeros + str(n) for n in numbers)])
    assert normalise_number(printed.lower() if lower else printed) == normalise_number(plain)
    assert normalise_number(normalise_number(plain)) == normalise_number(plain)


def test_the_same_invoice_under_a_variant_number_is_blocked_citing_the_first(books: Ledger, rules: Policy) -> None:
    first = earlier("INV/26/007")
    decision = run(liner_bags("inv-26-7"), [first], books, rules)
    assert decision.status == "PAYMENT_BLOCKED"
    [flag] = [f for f in decision.flags if f.code == "DUPLICATE_INVOICE"]
    said = evidence("en", flag)
    assert "INV/26/007" in said and "already paid" in said


@pytest.mark.parametrize("status", ["decided", "approved"])
def test_a_decided_but_unpaid_duplicate_is_blocked_too(books: Ledger, rules: Policy, status: str) -> None:
    decision = run(liner_bags("INV-000322"), [earlier("INV-000322", status=status)], books, rules)
    assert decision.status == "PAYMENT_BLOCKED"
    said = evidence("en", decision.deciding[0])
    assert "INV-000322" in said and status in said and "not yet paid" in said


def test_a_look_alike_under_another_number_goes_to_review_with_the_earlier_invoice(books: Ledger,
                                                                                    rules: Policy) -> None:
    invoice = liner_bags("INV-000329", day=date(2026, 4, 24))
    look_alike = earlier("INV-000325", status="approved", day=date(2026, 4, 19), total=str(invoice.total - 150))
    decision = run(invoice, [look_alike], books, rules)
    assert decision.status == "HUMAN_REVIEW"
    flag = decision.deciding[0]
    assert flag.code == "POSSIBLE_DUPLICATE"
    said = evidence("en", flag)
    assert "INV-000325" in said and "INV-000329" in said and "5 days apart" in said
    assert "INV-000325" in recommendation("en", decision, invoice, books.identify(invoice).vendor)


def test_far_apart_different_amounts_or_a_rejected_earlier_one_are_not_near_duplicates(
        books: Ledger, rules: Policy) -> None:
    invoice = liner_bags("INV-000329")
    month_before = earlier("INV-000301", day=invoice.invoice_date - timedelta(days=rules.duplicate_window_days + 1),
                           total=str(invoice.total))
    other_amount = earlier("INV-000325", day=invoice.invoice_date, total=str(invoice.total * Decimal("1.05")))
    rejected = earlier("INV-000326", status="rejected", day=invoice.invoice_date, total=str(invoice.total))
    assert run(invoice, [month_before, other_amount, rejected], books, rules).status == "APPROVE"


def test_billing_a_receipt_twice_is_an_exception_naming_both_invoices(books: Ledger, rules: Policy) -> None:
    [grn] = books.receipts_for("KAI-PO-2604-109")
    first = earlier("INV-000301", status="approved", day=date(2026, 3, 20), total="30000.00",
                    billed=[BilledLine(grn_number=grn.grn_number, po_line=1, quantity=Decimal(5000))])
    invoice = liner_bags("INV-000322")
    decision = run(invoice, [first], books, rules)
    assert decision.status == "EXCEPTION"
    [flag] = [f for f in decision.flags if f.code == "RECEIPT_ALREADY_BILLED"]
    said = evidence("en", flag)
    assert "INV-000301" in said and "INV-000322" in said and grn.grn_number in said
    assert "INV-000301" in recommendation("en", decision, invoice, books.identify(invoice).vendor)


def test_what_is_left_on_a_receipt_can_be_billed_and_is_recorded(books: Ledger, rules: Policy) -> None:
    [grn] = books.receipts_for("KAI-PO-2604-109")
    first = earlier("INV-000301", status="paid", day=date(2026, 3, 20), total="30000.00",
                    billed=[BilledLine(grn_number=grn.grn_number, po_line=1, quantity=Decimal(3000))])
    rest = liner_bags("INV-000322", quantity="2000")
    assert run(rest, [first], books, rules).status == "APPROVE"
    match = three_way_match(rest, books, rules.tolerances, "V106", [first])
    assert match.billed == [BilledLine(grn_number=grn.grn_number, po_line=1, quantity=Decimal(2000))]
    assert run(liner_bags("INV-000323", quantity="2001"), [first], books, rules).status == "EXCEPTION"
    entry = entry_for(rest, "V106", match.billed, "decided", "run-2", datetime(2026, 4, 25, 9, 0))
    assert entry.number_key == normalise_number("INV/000322")
    # Once recorded, the next invoice on the receipt finds it consumed.
    again = run(liner_bags("INV-000330", quantity="1"), [first, entry], books, rules)
    assert "RECEIPT_ALREADY_BILLED" in [f.code for f in again.flags]


def test_a_price_within_tolerance_is_approved_with_the_variance_named(books: Ledger, rules: Policy) -> None:
    invoice = liner_bags("INV-000322", rate="6.95")  # PO price 6.85: 1.46% over, tolerance 2%
    decision = run(invoice, [], books, rules)
    assert decision.status == "APPROVE"
    said = recommendation("en", decision, invoice, books.identify(invoice).vendor)
    assert "₹500 over PO" in said and "within 2%" in said
    assert "every line agrees" not in said
    assert run(liner_bags("INV-000323", rate="7.05"), [], books, rules).status == "EXCEPTION"


def test_the_seeded_history_is_the_default_view(ledger: Ledger) -> None:
    view = entries_from_history(ledger.data.invoices)
    assert len(view) == len(ledger.data.invoices)
    assert {e.status for e in view} <= {"paid", "rejected"}


def test_the_card_names_the_variance_instead_of_saying_every_line_agrees(books: Ledger, rules: Policy) -> None:
    from handlers.ap.cards import render_report
    from handlers.ap.decision import DecisionReport, FlagOut

    invoice = liner_bags("INV-000322", rate="6.95")
    vendor_id = "V106"
    match = three_way_match(invoice, books, rules.tolerances, vendor_id, [])
    decision = run(invoice, [], books, rules)
    report = DecisionReport(
        run_id="r1", invoice_number=invoice.invoice_number, vendor_id=vendor_id, vendor_name=invoice.vendor_name,
        total=invoice.total, status=decision.status, confidence=decision.confidence,
        flags=[FlagOut(code=f.code, evidence=evidence("en", f)) for f in decision.flags], match=match,
        memory_source="disabled", memories=[], retained=False, trust=decision.trust, used_memory=False,
        recommendation=recommendation("en", decision, invoice, books.identify(invoice).vendor), tolerance_pct="2")
    card = render_report("en", report)
    assert "every line agrees" not in card
    assert "HDPE Liner Bag 25kg ₹500 over PO (1.46%, within 2%)" in card
    assert "within tolerance of KAI-PO-2604-109" in card


@given(series=st.sampled_from(["INV", "inv", "Inv", "I N V"]), serial=st.integers(min_value=1, max_value=99999),
       separator=st.sampled_from(["/", "-", " ", "/0", "-00"]), status=st.sampled_from(["decided", "approved", "paid",
                                                                                        "rejected"]),
       others=st.lists(st.integers(min_value=1, max_value=99999), max_size=5))
def test_any_earlier_entry_with_the_same_folded_number_blocks(series: str, serial: int, separator: str, status: str,
                                                              others: list[int]) -> None:
    books, rules = Ledger.load(CORPUS / "ledger"), load_policy()
    view = [earlier(f"INV/{n}", day=date(2025, 1, 1)) for n in others if n != serial]
    view.append(earlier(f"INV-{serial:06d}", status=status, day=date(2025, 2, 1)))
    invoice = liner_bags(f"{series}{separator}{serial}")
    decision = run(invoice, view, books, rules)
    assert decision.status == "PAYMENT_BLOCKED"
    assert f"INV-{serial:06d}" in evidence("en", decision.deciding[0])
