"""Invariants of the reader over generated invoices: whatever the layout, the figures read are the ones printed."""

from datetime import date
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from handlers.ap.models import Invoice
from handlers.ap.textparse import parse_invoice_text
from tests.corpus.ap.layouts import BUYER, LAYOUTS, Line, Seller, Spec
from tests.corpus.ap.make_corpus import SELLERS

WORDS = ["Hybrid", "Paddy", "Seed", "Cotton", "Urea", "Bolt", "Valve", "Pipe", "Copper", "Wire", "Mulch", "Film",
         "Sprayer", "Nozzle", "Drip", "Lateral", "Gypsum", "Neem", "Oil", "Tarpaulin", "Carton", "Liner", "Bag"]
UNITS = ["Nos", "Kgs", "Mtr", "Bags", "Ltr", "Pcs", "Rolls", "Sets", "MT"]


@st.composite
def lines(draw: st.DrawFn) -> Line:
    words = draw(st.lists(st.sampled_from(WORDS), min_size=2, max_size=4, unique=True))
    size = draw(st.integers(min_value=1, max_value=50))
    quantity = Decimal(draw(st.integers(min_value=1, max_value=9000)))
    # Whole-rupee rates included: beside a whole quantity, and Marg's GST% column, they multiply out more ways.
    rate = Decimal(draw(st.integers(min_value=100, max_value=9_000_000))) / 100
    return Line(" ".join(words) + f" {size}mm", draw(st.sampled_from(["3917", "8481", "1006", "7214", "3808"])),
                quantity, draw(st.sampled_from(UNITS)), rate, Decimal(draw(st.sampled_from([0, 5, 12, 18, 28]))))


@st.composite
def specs(draw: st.DrawFn) -> tuple[str, Spec]:
    seller: Seller = draw(st.sampled_from(list(SELLERS.values())))
    series = draw(st.sampled_from(["INV", "TS", "BHT", "KES", "SR"]))
    number = f"{series}/{draw(st.integers(min_value=1, max_value=9999)):04d}/26-27"
    day = draw(st.dates(min_value=date(2025, 4, 1), max_value=date(2027, 3, 31)))
    spec = Spec(seller=seller, number=number, day=day, po=f"KAI-PO-{draw(st.integers(min_value=100, max_value=99999))}",
                lines=draw(st.lists(lines(), min_size=1, max_size=4)), rounding=draw(st.booleans()))
    return draw(st.sampled_from(sorted(LAYOUTS))), spec


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(specs())
def test_every_layout_reads_back_the_printed_figures(case: tuple[str, Spec]) -> None:
    layout, spec = case
    parsed = parse_invoice_text("\n".join(LAYOUTS[layout](spec)), BUYER[1])
    assert parsed.missing == []
    fields = parsed.fields
    assert fields["invoice_number"] == spec.number and fields["invoice_date"] == spec.day
    assert fields["po_number"] == spec.po and fields["vendor_gstin"] == spec.seller.gstin
    assert [(ln["quantity"], ln["unit_price"], ln["amount"]) for ln in fields["lines"]] == \
        [(ln.quantity, ln.rate, ln.amount) for ln in spec.lines]
    assert fields["tax"] == spec.tax and fields["total"] == spec.total
    assert fields["bank"]["account_number"] == spec.bank_account
    invoice = Invoice.model_validate({**fields, "source": "text"})
    # The invariant the match checks: printed lines + tax + round-off = printed total.
    assert invoice.lines_total + invoice.tax + invoice.round_off == invoice.total
