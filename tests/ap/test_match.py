"""The three-way match, line by line, with the policy's tolerances."""

from decimal import Decimal

from handlers.ap.demo import load_sample
from handlers.ap.ledger import Ledger, LedgerData
from handlers.ap.match import three_way_match
from handlers.ap.models import Invoice, InvoiceLine, Policy


def with_lines(invoice: Invoice, *lines: InvoiceLine, total: Decimal | None = None) -> Invoice:
    subtotal = sum((ln.amount for ln in lines), Decimal("0"))
    tax = (subtotal * Decimal("0.18")).quantize(Decimal("0.01"))
    return invoice.model_copy(update={"lines": list(lines), "subtotal": subtotal, "tax": tax,
                                      "total": total if total is not None else subtotal + tax})


def monitor(quantity: str, price: str = "14250.00", amount: str | None = None, sku: str | None = "MON-24",
            description: str = "Dell 24-inch Monitor P2425H") -> InvoiceLine:
    q, p = Decimal(quantity), Decimal(price)
    return InvoiceLine(description=description, sku=sku, quantity=q, unit_price=p,
                       amount=Decimal(amount) if amount else q * p)


KEYBOARDS = InvoiceLine(description="Logitech Wireless Keyboard MK270", sku="KB-MK270", quantity=Decimal("20"),
                        unit_price=Decimal("1650.00"), amount=Decimal("33000.00"))


def test_abc_invoices_22_monitors_against_20_received(ledger: Ledger, policy: Policy) -> None:
    result = three_way_match(load_sample("abc_repeat_mismatch"), ledger, policy.tolerances, "V002")
    assert result.status == "mismatch" and result.grn_numbers == ["GRN-2026-0318"]
    monitors, keyboards = result.lines
    assert monitors.issues == ["QUANTITY_MISMATCH"]
    assert (monitors.invoiced_quantity, monitors.ordered_quantity, monitors.received_quantity) == (22, 20, 20)
    assert keyboards.ok and result.totals.ok
    assert result.issues() == ["QUANTITY_MISMATCH"]


def test_unit_price_within_tolerance_passes_and_beyond_fails(ledger: Ledger, policy: Policy) -> None:
    base = load_sample("abc_repeat_mismatch")
    near = three_way_match(with_lines(base, monitor("20", "14500.00"), KEYBOARDS), ledger, policy.tolerances, "V002")
    assert near.status == "matched"  # 1.75% over the PO price; the tolerance is 2%
    far = three_way_match(with_lines(base, monitor("20", "14600.00"), KEYBOARDS), ledger, policy.tolerances, "V002")
    assert far.lines[0].issues == ["PRICE_MISMATCH"] and far.lines[1].ok


def test_fewer_than_received_is_fine_more_is_not(ledger: Ledger, policy: Policy) -> None:
    base = load_sample("abc_repeat_mismatch")
    partial = three_way_match(with_lines(base, monitor("18"), KEYBOARDS), ledger, policy.tolerances, "V002")
    assert partial.status == "matched"
    over = three_way_match(with_lines(base, monitor("21"), KEYBOARDS), ledger, policy.tolerances, "V002")
    assert over.lines[0].issues == ["QUANTITY_MISMATCH"]


def test_line_arithmetic_and_invoice_totals(ledger: Ledger, policy: Policy) -> None:
    base = load_sample("abc_repeat_mismatch")
    wrong_line = three_way_match(with_lines(base, monitor("20", amount="295000.00"), KEYBOARDS), ledger,
                                 policy.tolerances, "V002")
    assert wrong_line.lines[0].issues == ["TOTAL_MISMATCH"]
    padded = with_lines(base, monitor("20"), KEYBOARDS, total=Decimal("380000.00"))
    assert not three_way_match(padded, ledger, policy.tolerances, "V002").totals.ok
    rounding = with_lines(base, monitor("20"), KEYBOARDS, total=Decimal("375240.40"))
    assert three_way_match(rounding, ledger, policy.tolerances, "V002").totals.ok


def test_lines_are_found_by_description_when_there_is_no_sku(ledger: Ledger, policy: Policy) -> None:
    base = load_sample("abc_repeat_mismatch")
    plain = with_lines(base, monitor("20", sku=None, description="Monitor Dell 24-inch P2425H"), KEYBOARDS)
    result = three_way_match(plain, ledger, policy.tolerances, "V002")
    assert result.status == "matched" and result.lines[0].po_line == 1 and result.lines[0].sku == "MON-24"
    extra = with_lines(base, monitor("20"), KEYBOARDS,
                       InvoiceLine(description="Installation charges", quantity=Decimal("1"),
                                   unit_price=Decimal("5000"), amount=Decimal("5000")))
    assert three_way_match(extra, ledger, policy.tolerances, "V002").lines[2].issues == ["LINE_NOT_ON_PO"]


def test_missing_or_foreign_po_and_missing_receipt(ledger: Ledger, policy: Policy) -> None:
    base = load_sample("abc_repeat_mismatch")
    assert three_way_match(base.model_copy(update={"po_number": "PO-2099-0001"}), ledger, policy.tolerances,
                           "V002").status == "no_po"
    ravis_po = base.model_copy(update={"po_number": "PO-2026-0142"})
    assert three_way_match(ravis_po, ledger, policy.tolerances, "V002").status == "no_po"
    data = ledger.data.model_dump()
    data["goods_receipts"] = [g for g in data["goods_receipts"] if g["po_number"] != "PO-2026-0157"]
    nothing_received = Ledger(LedgerData.model_validate(data))
    result = three_way_match(base, nothing_received, policy.tolerances, "V002")
    assert result.status == "no_grn" and result.lines[0].received_quantity == 0


def test_a_size_printed_without_its_space_still_names_the_po_line() -> None:
    from handlers.ap.match import _similarity

    assert _similarity("Hand Sprayer 1L", "Hand Sprayer 1 L") >= 0.75
    assert _similarity("Drip Lateral 16 mm", "Drip Lateral 16mm") >= 0.75
    assert _similarity("DAP", "DAP 50kg") >= 0.5  # a short printed name of a longer PO line, as before
    assert _similarity("Hand Sprayer 1L", "Battery Sprayer 16L") < 0.5
