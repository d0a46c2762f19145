"""Reader rules found by the held-out batch 2 (tests/corpus/ap/invoices2), each tried on a bill of its own.

None of these bills is in either corpus: other vendors, numbers and words, so a rule that only knew the
corpus's text would fail here."""

from datetime import date
from decimal import Decimal

from hypothesis import given
from hypothesis import strategies as st

from handlers.ap.textitems import labelled_items
from handlers.ap.textparse import parse_invoice_text
from handlers.ap.textfigures import Figures, read_figure
from handlers.ap.texttable import right_figure

BUYER_GSTIN = "36AAGCK1234E1ZX"


def _lines(fields: dict[str, object]) -> list[tuple[str, str, str]]:
    rows = fields["lines"]
    assert isinstance(rows, list)
    return [(f"{r['quantity']}", f"{r['unit_price']}", f"{r['amount']}") for r in rows]


def test_a_number_printed_only_after_a_hash_under_the_title() -> None:
    text = "\n".join([
        "Medak Drip Solutions LLP", "# 4-7-19, Bazar Road, Sangareddy", "GSTIN 36AAQFM2290B1ZB",
        "                                   TAX INVOICE", "                                   # MDS-00871",
        "Bill To                               Invoice Date : 03/02/2027", "Kaveri Agri Inputs Pvt Ltd",
        " #  Item & Description        Qty      Rate       Amount",
        " 1  Drip Tape 16mm 1000m      12.00    3,150.00   37,800.00",
        "                      Sub Total                   37,800.00",
        "                      CGST6 (6%)                   2,268.00",
        "                      SGST6 (6%)                   2,268.00",
        "                      Total                      ₹42,336.00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert parse.fields["invoice_number"] == "MDS-00871"  # not the door number "4-7-19"
    assert parse.fields["invoice_date"] == date(2027, 2, 3)
    assert parse.fields["tax"] == Decimal("4536.00")


def test_a_labelled_number_wins_over_a_bare_hash() -> None:
    text = "\n".join(["Ryali Traders", "Bill No: RT/55        Dated: 4.3.2027", "    # 9981",
                      "Sl Particulars     Qty   Rate    Amount", "1  Jute Sutli    10    120.00  1,200.00",
                      "Grand Total                       1,200.00"])
    assert parse_invoice_text(text, BUYER_GSTIN).fields["invoice_number"] == "RT/55"


def test_tcs_is_collected_with_the_tax_and_the_figures_add_up() -> None:
    figures = Figures()
    for line in ["Taxable Value            5,10,000.00", "IGST @ 18%                 91,800.00",
                 "TCS @ 0.1% u/s 206C(1H)       601.80", "Round Off                     (-)0.80"]:
        assert read_figure(line, figures)
    assert figures.tax == Decimal("92401.80")
    assert figures.taxable_value(Decimal(0)) + figures.tax + figures.round_off == Decimal("602401.00")


def test_a_figure_printed_beside_a_tax_class_table_is_read() -> None:
    assert right_figure("GST12   40000.00  2400.00  2400.00   4800.00             CGST        2400.00") \
        == "CGST 2400.00"
    assert right_figure("CLASS   TAXABLE    CGST     SGST    TOTAL GST            SGST        2400.00") \
        == "SGST 2400.00"
    # A line whose label is at its start, or whose last column is not a figure's label, is left alone.
    assert right_figure("Output CGST @ 9%                        20,304.00") is None
    assert right_figure("    Total          4.000 MT             ₹ 2,66,208.00") is None


def test_a_row_whose_amount_includes_its_gst_is_read_without_it() -> None:
    text = "\n".join([
        "Laxmi Agro Plastics", "GSTIN: 36AABFL9087Q1ZF", "Tax Invoice", "Invoice No.: 112   Date: 19-01-2027",
        "#  Item name          HSN/ SAC  Quantity  Unit  Price/ unit  GST          Amount",
        "1  Mulch Sheet 25 mic 3920      40        Roll  ₹ 2,150.00   ₹ 10,320.00  ₹ 96,320.00",
        "   Total                        40                           ₹ 10,320.00  ₹ 96,320.00",
        "SGST   ₹ 86,000.00   6%   ₹ 5,160.00", "CGST   ₹ 86,000.00   6%   ₹ 5,160.00",
        "                                  Sub Total        ₹ 96,320.00",
        "                                  Total            ₹ 96,320.00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == [("40", "2150.00", "86000.00")]
    assert parse.fields["tax"] == Decimal("10320.00")
    assert parse.fields["total"] == Decimal("96320.00")
    assert "subtotal" not in parse.fields  # the rows with their tax added up is not the value before tax


def test_an_invoice_saved_from_a_spreadsheet_as_csv() -> None:
    text = "\n".join([
        "GOUTHAMI AGENCIES,,,,,", "GSTIN: 36ACBPG1188F1ZW,,,,,", "TAX INVOICE,,,,,",
        "BILL NO,GA/311,,DATE,14/2/2027,", "BUYER,Kaveri Agri Inputs Pvt Ltd,,PO NO,KAI-PO-2702-006,", ",,,,,",
        "SL,ITEM,QTY,UNIT,RATE,AMOUNT", '1,"Tarpaulin 18x24, HDPE",8,NOS,"2,640.00","21,120.00"', ",,,,,",
        ',,,,TAXABLE VALUE,"21,120.00"', ',,,,CGST 9%,"1,900.80"', ',,,,SGST 9%,"1,900.80"', ',,,,ROUND OFF,-0.60',
        ',,,,TOTAL,"24,921.00"'])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert parse.missing == []
    assert parse.fields["invoice_number"] == "GA/311"
    assert parse.fields["invoice_date"] == date(2027, 2, 14)
    assert parse.fields["po_number"] == "KAI-PO-2702-006"
    assert _lines(parse.fields) == [("8", "2640.00", "21120.00")]
    assert parse.fields["total"] == Decimal("24921.00")


def test_items_printed_as_labelled_lines() -> None:
    rows = labelled_items(["Product: Sprayer Nozzle Brass", "Quantity : 2,500 Pcs", "Rate: Rs.4.80/-",
                           "Amount: Rs. 12,000.00", "", "Description - Hose Clip 1 inch", "Qty - 300 Nos",
                           "Price - 7.25", "Value - 2,175.00"])
    assert [(r.quantity, r.unit_price, r.amount) for r in rows] == [
        (Decimal(2500), Decimal("4.80"), Decimal("12000.00")), (Decimal(300), Decimal("7.25"), Decimal("2175.00"))]
    # Figures that do not multiply out are not an item.
    assert labelled_items(["Item: Spares", "Qty: 3", "Rate: 100.00", "Amount: 450.00"]) == []


def test_a_misread_cgst_is_put_right_by_its_equal_sgst() -> None:
    figures = Figures()
    for line in ["Taxable Value 48,200.00", "CGST @ 6%  2, 892200", "SGST @ 6%  2,892.00", "Grand Total  53,984.00"]:
        read_figure(line, figures)
    figures.mend_split_tax(Decimal(0), [Decimal("53984.00")])
    assert figures.tax == Decimal("5784.00")
    # When the figures really disagree with the total, nothing is "mended": the mismatch stays for the match.
    other = Figures()
    for line in ["Taxable Value 48,200.00", "CGST @ 6%  2,892.00", "SGST @ 6%  2,982.00"]:
        read_figure(line, other)
    other.mend_split_tax(Decimal(0), [Decimal("55000.00")])
    assert other.tax == Decimal("5874.00")


def test_an_sb_ca_account_label() -> None:
    text = "\n".join(["Sri Sai Tools", "Invoice No: SST-19  Date: 01/03/2027", "Sl Particulars  Qty  Rate  Amount",
                      "1  Spade        5    300.00  1,500.00", "Total                 1,500.00",
                      "Our Bank: Canara Bank, S.B./C.A. No. 0711 2010 0453 21, IFSC CNRB0000711"])
    assert parse_invoice_text(text, BUYER_GSTIN).fields["bank"]["account_number"] == "07112010045321"


def test_a_scans_zero_in_a_po_series_is_the_letter() -> None:
    text = "\n".join(["Sri Sai Tools", "Invoice No: SST-20  Date: 02/03/2027", "Your Order No: HYD/P0/7731",
                      "Sl Particulars  Qty  Rate  Amount", "1  Spade        5    300.00  1,500.00",
                      "Total                 1,500.00"])
    assert parse_invoice_text(text, BUYER_GSTIN).fields["po_number"] == "HYD/PO/7731"


# Rates from Re 1: a small rate's product within rounding of the amount gives way to the reading exact to the paisa.
@given(quantity=st.integers(1, 5000), paise=st.integers(100, 500_000), rate=st.sampled_from([5, 12, 18, 28]))
def test_tax_inclusive_rows_always_split_back_into_value_and_tax(quantity: int, paise: int, rate: int) -> None:
    unit = Decimal(paise) / 100
    value = unit * quantity
    tax = (value * rate / 100).quantize(Decimal("0.01"))
    row = f"1  Poly House Film 200 mic   3920   {quantity}   Nos   {unit:,.2f}   {tax:,.2f}   {value + tax:,.2f}"
    text = "\n".join(["Tax Invoice", "Invoice No.: 7", "Date: 01-02-2027",
                      "#  Item name   HSN  Quantity  Unit  Price/unit  GST  Amount", row,
                      f"Total   {value + tax:,.2f}"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert _lines(parse.fields) == [(f"{quantity}", f"{unit:.2f}", f"{value:.2f}")]
    assert parse.fields["total"] == value + tax


def test_what_a_phone_photo_does_to_a_printed_bill() -> None:
    """Tesseract on batch 2's invoices as photos: O read as 0 in a month, a PO number split at its hyphens,
    a GSTIN's Z read as 2, a grouped amount spaced at its comma, and the rupee sign read as "=" or "%"."""
    text = "\n".join([
        "KONDAPUR AGRO SERVICES", "GSTIN: 36AAKFK4471M12T", "Tax Invoice",
        "Invoice No.        Dated", "KAS/0932           7-0ct-26", "Buyer's Order No.  Dated",
        "KAI -PO- 2610-044  1-0ct-26",
        "Sl  Item name          HSN   Quantity  Unit  Price/ unit  GST          Amount",
        "1   Sprayer Pump 16L   8424  40        Nos   % 1,450.00   = 6,960.00   % 64,960.00",
        "    Total                                                 = 6,960.00   % 64,960.00",
        "CGST @ 6%    3, 480.00", "SGST @ 6%    3,480.00", "Total   =64, 960.00"])
    parse = parse_invoice_text(text, BUYER_GSTIN)
    assert parse.fields["vendor_gstin"] == "36AAKFK4471M1ZT"
    assert parse.fields["invoice_date"] == date(2026, 10, 7)
    assert parse.fields["po_number"] == "KAI-PO-2610-044"
    assert _lines(parse.fields) == [("40", "1450.00", "58000.00")]
    assert parse.fields["tax"] == Decimal("6960.00")
    assert parse.fields["total"] == Decimal("64960.00")


def test_an_unreadable_cgst_line_is_its_sgst_twin_when_that_makes_the_total() -> None:
    figures = Figures()
    for line in ["Taxable Value : Rs. 7,500.00", "CGST @ 2.5%   SeRStd,OLo.75", "SGST @ 2.5%   : Rs. 187.50",
                 "Invoice Total : Rs. 7,875.00"]:
        read_figure(line, figures)
    figures.mend_split_tax(Decimal(0), [Decimal("7875.00")])
    assert figures.tax == Decimal("375.00")
    # An IGST bill has no twin to add.
    igst = Figures()
    for line in ["Taxable Value 7,500.00", "IGST @ 5%  375.00", "Total 8,250.00"]:
        read_figure(line, igst)
    igst.mend_split_tax(Decimal(0), [Decimal("8250.00")])
    assert igst.tax == Decimal("375.00")
