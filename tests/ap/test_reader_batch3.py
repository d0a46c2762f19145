"""Reader rules found by the held-out batch 3 (tests/corpus/ap/invoices3), each tried on a bill of its own.

None of these bills is in any corpus: other vendors, numbers, labels and words, so a rule that only knew the
corpus's text would fail here. The properties cover what the fixed known bugs were about: whole-rupee rates
in the Marg layout and rates under Rs 100 printed with their GST.
"""

from decimal import ROUND_HALF_UP, Decimal

from hypothesis import given
from hypothesis import strategies as st

from handlers.ap.models import Invoice
from handlers.ap.textlabels import ifsc_in
from handlers.ap.textparse import parse_invoice_text
from handlers.ap.textvalues import value_columns
from tests.corpus.ap.layouts import inr as indian

BUYER_GSTIN = "36AAGCK1234E1ZX"
PAISA = Decimal("0.01")


def _lines(fields: dict[str, object]) -> list[tuple[str, str, str]]:
    rows = fields["lines"]
    assert isinstance(rows, list)
    return [(f"{r['quantity']}", f"{r['unit_price']:.2f}", f"{r['amount']:.2f}") for r in rows]


def _adds_up(fields: dict[str, object]) -> bool:
    invoice = Invoice.model_validate({**fields, "source": "text"})
    return abs(invoice.subtotal + invoice.tax + invoice.round_off - invoice.total) <= Decimal("1.00")


def test_a_rate_wise_gst_summary_is_not_more_tax() -> None:
    text = "\n".join([
        "Palnadu Irrigation Stores", "GSTIN: 37AAPFP5512Q1ZH", "TAX INVOICE",
        "Bill No : PIS-3321     Bill Date : 04/01/2027",
        "Sl Description          Qty    Rate      Amount",
        "1  Rain Gun 1.5 inch    4      5,200.00  20,800.00",
        "2  Lateral Joiner 16mm  500    3.40      1,700.00",
        "                        IGST @ 12%        2,496.00",
        "                        IGST @ 18%          306.00",
        "                        Bill Amount      25,302.00",
        "Rate-wise summary:",
        "GST 12%   20,800.00   2,496.00",
        "GST 18%    1,700.00     306.00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert parse.fields["tax"] == Decimal("2802.00")
    assert parse.fields["total"] == Decimal("25302.00")
    # A bill that names no head prints its GST once, under that name: it counts.
    plain = "\n".join(["Kondapalli Toys", "Invoice No: KT-8  Date: 05/01/2027", "Particulars  Qty  Rate  Amount",
                       "1  Wooden Sieve  10  150.00  1,500.00", "GST @ 12%   180.00", "Total   1,680.00"])
    assert parse_invoice_text(plain, BUYER_GSTIN).fields["tax"] == Decimal("180.00")


def test_page_carry_lines_are_neither_items_nor_figures() -> None:
    text = "\n".join([
        "Eluru Hardware Mart", "Invoice No. EHM/118    Dated 9-Jan-27",
        "Sl  Particulars          Quantity    Rate      Amount",
        "1   GI Pipe 1 inch       40 Nos      620.00    24,800.00",
        "2   GI Elbow 1 inch      60 Nos       48.50     2,910.00",
        "                         Carried over          27,710.00",
        "Page 2",
        "Sl  Particulars          Quantity    Rate      Amount",
        "                         B/F                   27,710.00",
        "3   Teflon Tape          100 Nos      12.00     1,200.00",
        "                         CGST @ 9%             2,601.90",
        "                         SGST @ 9%             2,601.90",
        "                         Round Off                 0.20",
        "                         Total                34,114.00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == [("40", "620.00", "24800.00"), ("60", "48.50", "2910.00"),
                                    ("100", "12.00", "1200.00")]
    assert parse.fields["total"] == Decimal("34114.00") and _adds_up(parse.fields)


def test_a_number_beside_the_title_and_a_rounded_total() -> None:
    text = "\n".join([
        "Godavari Sprayers", "GSTIN: 37AAJFG9901K1ZZ", "",
        "Sales Invoice                               SINV-27-00412",
        "Posting Date: 11-01-2027", "Customer's Purchase Order: HYD-PO-7781",
        "| Sr | Item           | Quantity | Rate       | Amount      |",
        "| 1  | Power Sprayer  | 3 Nos    | ₹ 7,333.33 | ₹ 21,999.99 |",
        "Net Total ₹ 21,999.99", "IGST @ 18.0 ₹ 3,960.00", "Grand Total ₹ 25,959.99",
        "Rounding Adjustment ₹ 0.01", "Rounded Total ₹ 25,960.00",
        "Bank Account: Andhra Pragathi Grameena Bank - 62011100045512 (IFSC APGB0006201)"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert parse.fields["invoice_number"] == "SINV-27-00412"
    assert parse.fields["round_off"] == Decimal("0.01")  # "Rounded Total" is the total, not a round-off
    assert parse.fields["total"] == Decimal("25960.00")
    assert parse.fields["bank"]["account_number"] == "62011100045512"
    assert parse.fields["bank"]["ifsc"] == "APGB0006201"


def test_value_details_printed_across_with_the_figures_beneath() -> None:
    labels = "Taxable Amt CGST Amt SGST Amt Cess Round off Total Inv. Value"  # a scan's lost spacing
    assert value_columns(labels, "18,000.00 1,620.00 1,620.00 0.00 0.00 21,240.00") == [
        "Taxable Amt 18,000.00", "CGST Amt 1,620.00", "SGST Amt 1,620.00", "Cess 0.00", "Round off 0.00",
        "Total Inv. Value 21,240.00"]
    assert value_columns(labels, "18,000.00 1,620.00 1,620.00") is None  # counts differ: not that table
    assert value_columns("HSN/SAC  Taxable Value  Central Tax Amount", "8424 18,000.00 1,620.00") is None
    text = "\n".join([
        "e-Invoice", "IRN : 77ab0c9d2e1f", "Ack No. : 172711500098123   Ack Date : 15-01-2027",
        "Document No: MAS/2027/061   Document Date: 15/01/2027", "Supplier: Mysuru Agro Sprayers, GSTIN 29AAHFM4471C1ZA",
        "SlNo Item Description  HSN  Quantity  Unit  Unit Price  Taxable Amt  Tax Rate  Other  Total",
        "1    Mist Blower 3HP   8424  6  NOS  3,000.00  18,000.00  18+0  0.00  21,240.00",
        "Value Details", labels, "18,000.00 1,620.00 1,620.00 0.00 0.00 21,240.00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert parse.fields["invoice_number"] == "MAS/2027/061"
    assert _lines(parse.fields) == [("6", "3000.00", "18000.00")]  # the taxable value, not the value with tax
    assert parse.fields["tax"] == Decimal("3240.00") and parse.fields["total"] == Decimal("21240.00")


def test_a_whole_rupee_rate_beside_an_equal_gst_column() -> None:
    """Marg: quantity 12 at Rs 161 with GST 12.00: 161 x 12.00 is the amount as well, the wrong way round."""
    text = "\n".join([
        "SRI RAMA AGENCIES                     GST INVOICE", "Inv.No : SRA/0093     Date : 18/01/2027",
        "SN  PRODUCT NAME       PACK   HSN      QTY  FREE   MRP     RATE   DIS%  GST%   AMOUNT",
        "1   NURSERY TRAY 98    1 NOS  3926     12   0      204.47  161.00 0.00  12.00  1,932.00",
        "2   PVC BALL VALVE     1 NOS  8481     5    0      95.25   75.00  0.00  5.00   375.00",
        "                                               SGST 6%            115.92",
        "                                               CGST 6%            115.92",
        "                                               SGST 2.5%            9.38",
        "                                               CGST 2.5%            9.38",
        "                                               R/OFF               -0.60",
        "                                               NET AMOUNT       2,553.00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == [("12", "161.00", "1932.00"), ("5", "75.00", "375.00")]


def test_what_a_scan_does_to_paise_and_an_ifsc() -> None:
    assert ifsc_in("IFSC CNRB0Q004471") == "CNRB0004471"
    assert ifsc_in("IFSC: SBIN0O12345") == "SBIN0012345"
    text = "\n".join(["Warangal Seeds", "Invoice No: WS-77  Date: 20/01/2027", "Your P.O0.# : HYD-PO-5512",
                      "Particulars  Qty  Rate  Amount", "1  Paddy Seed 25kg  40  1,250 .50  50,020 .00",
                      "Total  50,020 .00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == [("40", "1250.50", "50020.00")]
    assert parse.fields["po_number"] == "HYD-PO-5512"


@st.composite
def inclusive_rows(draw: st.DrawFn) -> tuple[int, Decimal, int]:
    """A quantity, a rate before tax from Re 1 (whole rupees included), a GST slab."""
    return (draw(st.integers(1, 3000)), Decimal(draw(st.integers(100, 2_000_000))) / 100,
            draw(st.sampled_from([5, 12, 18, 28])))


@given(st.lists(inclusive_rows(), min_size=1, max_size=3), st.booleans())
def test_rates_printed_with_their_gst_come_back_before_tax(rows: list[tuple[int, Decimal, int]],
                                                          tax_on_row: bool) -> None:
    """A counter bill quotes each rate with its GST in it: quantity x rate is the value with tax. Whatever the
    rates (under Rs 100 too), the rows read back as their value before tax and the invoice adds up."""
    printed, taxable_by_slab, want = [], {}, []
    for n, (quantity, rate, slab) in enumerate(rows, 1):
        with_tax_rate = (rate * (100 + slab) / 100).quantize(PAISA, ROUND_HALF_UP)
        value = with_tax_rate * quantity
        taxable = (value * 100 / (100 + slab)).quantize(PAISA, ROUND_HALF_UP)
        taxable_by_slab[slab] = taxable_by_slab.get(slab, Decimal(0)) + taxable
        want.append((f"{quantity}", f"{(taxable / quantity).quantize(PAISA)}", f"{taxable:.2f}"))
        middle = f"{indian(value - taxable)} ({slab}%)" if tax_on_row else f"{slab}%"
        printed.append(f"{n}  Hand Tool No {n}  8201  {quantity} Nos  {indian(with_tax_rate)}  {middle}  {indian(value)}")
    taxes = []
    for slab, taxable in sorted(taxable_by_slab.items()):
        half = (taxable * slab / 200).quantize(PAISA, ROUND_HALF_UP)
        taxes += [f"    CGST {slab / 2}%   {indian(half)}", f"    SGST {slab / 2}%   {indian(half)}"]
    tax = sum((Decimal(t.split()[-1].replace(",", "")) for t in taxes), Decimal(0))
    gross = sum(taxable_by_slab.values(), Decimal(0)) + tax
    total = gross.quantize(Decimal(1), ROUND_HALF_UP)
    text = "\n".join(["Nalgonda Tools", "Bill No : NT-41    Date : 22.01.2027",
                      "Sl  Particulars  HSN  Qty  Rate incl. GST  GST  Value", *printed, *taxes,
                      f"    Round off   {total - gross}", f"    Net Amount Payable   {indian(total)}"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == want
    assert parse.fields["total"] == total and parse.fields["tax"] == tax
    assert _adds_up(parse.fields)


@given(st.lists(inclusive_rows(), min_size=1, max_size=3))
def test_rates_before_tax_beside_a_gst_column_are_read_as_printed(rows: list[tuple[int, Decimal, int]]) -> None:
    """The same rows with rates before tax and a GST% column: nothing is taken out, since the bill adds up."""
    printed, tax = [], Decimal(0)
    for n, (quantity, rate, slab) in enumerate(rows, 1):
        amount = rate * quantity
        tax += (amount * slab / 100).quantize(PAISA, ROUND_HALF_UP)
        printed.append(f"{n}. Hand Tool No {n}  8201  {quantity}  Nos  {indian(rate)}  {slab}%  {indian(amount)}")
    lines_total = sum((rate * quantity for quantity, rate, _ in rows), Decimal(0))
    text = "\n".join(["GST INVOICE", "Nalgonda Tools", "Bill No. : NT-42   Bill Date : 23.01.2027",
                      "S.N. Description  HSN Code  Qty.  Unit  Price  GST%  Amount(Rs.)", *printed,
                      f"Add : IGST   {indian(tax)}", f"Grand Total   {indian(lines_total + tax)}"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == [(f"{q}", f"{r:.2f}", f"{r * q:.2f}") for q, r, _ in rows]
    assert parse.fields["total"] == lines_total + tax


def test_what_a_phone_photo_does_to_small_rates_and_a_total() -> None:
    """Tesseract reads the rupee sign as "%": before another amount it is no percent, even after a rate under
    Rs 100; a total misread by paise gives way to the words when they and the figures agree to the paisa."""
    text = "\n".join([
        "Kadapa Agri Tools", "Invoice No.: 52    Date: 24-01-2027",
        "#  Item name        HSN     Quantity  Unit  Price/ Unit  GST           Amount",
        "1  Weeding Hook     8201    25        Nos   % 47.20 % 180.00 (18%) % 1,180.00",
        "IGST   180.00", "Total   % 1,180.90", "Invoice Amount In Words", "One Thousand One Hundred Eighty Rupees only"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == [("25", "40.00", "1000.00")]
    assert parse.fields["total"] == Decimal("1180.00")
    assert ifsc_in("IFSC Code: IDIB0Q0K112") == "IDIB000K112"
    assert ifsc_in("IFSC: BARB0VJKRNL") == "BARB0VJKRNL"  # letters in a branch code stay letters
