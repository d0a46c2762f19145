"""The invoice reader on layouts written for it (not the seeds): labels, dates, amounts, words, tax, totals."""

import json
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.services.llm import ChatModel
from handlers.ap.decision import decide, evidence
from handlers.ap.intake import from_text, looks_like_document
from handlers.ap.ledger import Ledger, load_policy
from handlers.ap.match import three_way_match
from handlers.ap.models import Buyer, Invoice
from handlers.ap.risk import evaluate
from handlers.ap.textamounts import amount_of, parse_date, words_to_amount
from handlers.ap.textparse import document_kind, parse_invoice_text
from handlers.ap.vendor_memory import VendorMemory
from tests.corpus.ap.layouts import amount_words, inr
from tests.fakes.groq import FakeGroq

CORPUS = Path(__file__).resolve().parent.parent / "corpus" / "ap"
BUYER = Buyer(name="Kaveri Agri Inputs Pvt Ltd", gstin="36AAGCK1234E1ZX")


def bill(number_line: str = "Invoice No.: RSF/26-27/118", date_line: str = "Date: 02/05/2026",
         po_line: str = "PO No.: KAI-PO-2605-900", figures: list[str] | None = None) -> str:
    """A small GST invoice from a Nizamabad seed dealer, with the head lines swapped per test."""
    return "\n".join([
        "TAX INVOICE", "Renuka Seeds & Fertilizers", "Gandhi Chowk, Nizamabad 503001", "GSTIN: 36AAHFR4410P1ZW",
        number_line, date_line, po_line, "",
        "Sl Particulars                 HSN    Qty        Rate       Amount",
        "1  Maize Seed Hybrid 4kg       1005   150 Pkts   1,240.00   1,86,000.00",
        "2  Sorghum Seed CSH-16 3kg     1007   40 Pkts      575.50      23,020.00",
        *(figures or ["Taxable Value                                    2,09,020.00",
                      "CGST @ 2.5%                                          5,225.50",
                      "SGST @ 2.5%                                          5,225.50",
                      "Round Off                                              (-)0.00",
                      "Grand Total                                      2,19,471.00"]),
        "Rupees Two Lakh Nineteen Thousand Four Hundred Seventy One Only",
        "Bank: Indian Overseas Bank  A/c No.: 168902000004417  IFSC: IOBA0001689",
    ])


@pytest.mark.parametrize("line", [
    "Invoice No.: RSF/26-27/118", "Inv. No. RSF/26-27/118", "Invoice# RSF/26-27/118", "Bill No. RSF/26-27/118",
    "Voucher No. : RSF/26-27/118", "Document No. RSF/26-27/118", "INVOICE NUMBER - RSF/26-27/118",
    "Tax Invoice No RSF/26-27/118",
])
def test_the_invoice_number_under_its_common_labels(line: str) -> None:
    parsed = parse_invoice_text(bill(number_line=line), BUYER.gstin)
    assert parsed.fields["invoice_number"] == "RSF/26-27/118", parsed.fields


@pytest.mark.parametrize(("line", "day"), [
    ("Dated 22-Apr-26", date(2026, 4, 22)), ("Date: 18/04/2026", date(2026, 4, 18)),
    ("Invoice Date : 19.04.2026", date(2026, 4, 19)), ("Bill Date 22 April 2026", date(2026, 4, 22)),
    ("Date: April 3, 2026", date(2026, 4, 3)), ("Inv. Dt. 05-05-2026", date(2026, 5, 5)),
    ("Dated: 1st May, 2026", date(2026, 5, 1)), ("Date 2026-04-30", date(2026, 4, 30)),
])
def test_dates_in_every_form_offices_print(line: str, day: date) -> None:
    assert parse_invoice_text(bill(date_line=line), BUYER.gstin).fields["invoice_date"] == day


def test_the_invoice_date_is_not_the_due_or_order_date() -> None:
    text = bill(date_line="Due Date: 01/06/2026   Invoice Date: 02/05/2026",
                po_line="Buyer's Order No. KAI-PO-2605-900   Dated 20-Apr-26")
    fields = parse_invoice_text(text, BUYER.gstin).fields
    assert fields["invoice_date"] == date(2026, 5, 2) and fields["po_number"] == "KAI-PO-2605-900"


def test_labels_in_a_box_with_the_values_on_the_row_below() -> None:
    text = bill(number_line="Renuka Seeds Depot        Invoice No.          Dated",
                date_line="Gandhi Chowk              RSF/26-27/118        2-May-26",
                po_line="Buyer's Order No.   Dated\nKAI-PO-2605-900 28-Apr-26")
    fields = parse_invoice_text(text, BUYER.gstin).fields
    assert (fields["invoice_number"], fields["invoice_date"], fields["po_number"]) == \
        ("RSF/26-27/118", date(2026, 5, 2), "KAI-PO-2605-900")


@pytest.mark.parametrize("line", ["PO No.: KAI-PO-2605-900", "P.O.# KAI-PO-2605-900", "Buyer's Order No. KAI-PO-2605-900",
                                  "Order Ref: KAI-PO-2605-900", "Your PO: KAI-PO-2605-900",
                                  "Purchase Order No - KAI-PO-2605-900"])
def test_the_buyers_order_reference(line: str) -> None:
    assert parse_invoice_text(bill(po_line=line), BUYER.gstin).fields["po_number"] == "KAI-PO-2605-900"


def test_lines_cgst_sgst_round_off_total_words_and_bank() -> None:
    fields = parse_invoice_text(bill(), BUYER.gstin).fields
    assert [(ln["quantity"], ln["unit_price"], ln["amount"]) for ln in fields["lines"]] == [
        (Decimal(150), Decimal("1240.00"), Decimal("186000.00")), (Decimal(40), Decimal("575.50"), Decimal("23020.00"))]
    assert fields["tax"] == Decimal("10451.00") and fields["total"] == Decimal("219471.00")
    assert fields["total_in_words"] == fields["total"]
    assert fields["bank"] == {"account_number": "168902000004417", "ifsc": "IOBA0001689",
                              "bank_name": "Indian Overseas Bank"}
    assert fields["vendor_name"] == "Renuka Seeds & Fertilizers"


@pytest.mark.parametrize("label", ["Total Invoice Value", "Grand Total", "Net Amount", "Total", "Balance Due",
                                   "Amount Payable", "Invoice Total"])
def test_the_total_under_its_names(label: str) -> None:
    figures = ["Sub Total 2,09,020.00", "IGST @ 5% 10,451.00", f"{label} : ₹ 2,19,471.00"]
    assert parse_invoice_text(bill(figures=figures), BUYER.gstin).fields["total"] == Decimal("219471.00")


def test_round_off_signs() -> None:
    less = ["Taxable Value 2,09,020.00", "IGST 5% 10,451.00", "Less : Round Off (-)0.40", "Net Amount 2,19,470.60"]
    assert parse_invoice_text(bill(figures=less), BUYER.gstin).fields["round_off"] == Decimal("-0.40")
    more = ["Taxable Value 2,09,020.00", "IGST 5% 10,451.00", "Rounded Off (+) 0.60", "Net Amount 2,19,471.60"]
    assert parse_invoice_text(bill(figures=more), BUYER.gstin).fields["round_off"] == Decimal("0.60")


def test_amounts_and_words_as_printed() -> None:
    assert amount_of("4,58,784.00") == Decimal("458784.00") and amount_of("Rs.1,650/-") == Decimal("1650.00")
    assert amount_of("(-)0.40") == Decimal("-0.40") and amount_of("18%") is None
    assert words_to_amount("Rupees Four Lakh Fifty Eight Thousand Seven Hundred Eighty Four Only") == Decimal(458784)
    assert words_to_amount("INR Two Crore Five Lakh Ten Thousand and Paise Fifty Only") == Decimal("20510000.50")
    assert words_to_amount("Indian Rupee Nine Thousand Forty-Four and Twenty Paise Only") == Decimal("9044.20")
    assert parse_date("22-Apr-26") == date(2026, 4, 22) and parse_date("31/02/2026") is None


@given(st.decimals(min_value=Decimal(1), max_value=Decimal("999999999.99"), places=2))
def test_words_and_figures_round_trip(value: Decimal) -> None:
    assert words_to_amount(f"Rupees {amount_words(value)} Only") == value
    assert amount_of(inr(value)) == value


async def test_cgst_and_sgst_are_read_and_a_clean_tally_bill_matches() -> None:
    books, policy = Ledger.load(CORPUS / "ledger"), load_policy()
    text = (CORPUS / "invoices" / "tally-01.txt").read_text(encoding="utf-8")
    read = await from_text(text, "text", books.data.buyer, None)
    assert read.invoice is not None
    assert read.invoice.tax == Decimal("43933.50") and read.invoice.round_off == Decimal("0.50")
    match = three_way_match(read.invoice, books, policy.tolerances, "V101")
    assert match.totals.ok and match.issues() == []


def test_totals_that_do_not_add_up_or_disagree_with_the_words_are_a_mismatch() -> None:
    books, policy = Ledger.load(CORPUS / "ledger"), load_policy()
    wrong = ["Taxable Value 2,09,020.00", "CGST @ 2.5% 5,225.50", "SGST @ 2.5% 5,225.50", "Grand Total 2,20,471.00"]
    fields = parse_invoice_text(bill(figures=wrong), BUYER.gstin).fields
    invoice = Invoice.model_validate({**fields, "source": "text"})
    assert invoice.total == Decimal("220471.00")
    assert not three_way_match(invoice, books, policy.tolerances, None).totals.ok
    words_off = invoice.model_copy(update={"total": Decimal("219471.00"), "total_in_words": Decimal("291471.00")})
    assert not three_way_match(words_off, books, policy.tolerances, None).totals.ok
    assert three_way_match(words_off.model_copy(update={"total_in_words": None}), books, policy.tolerances,
                           None).totals.ok


async def test_words_that_disagree_with_the_figures_are_named() -> None:
    books, policy = Ledger.load(CORPUS / "ledger"), load_policy()
    text = (CORPUS / "invoices" / "tally-01.txt").read_text(encoding="utf-8")
    altered = text.replace("INR Two Lakh Eighty Eight Thousand Nine Only", "INR Two Lakh Eighty Nine Thousand Nine Only")
    assert altered != text
    read = await from_text(altered, "text", books.data.buyer, None)
    assert read.invoice is not None and read.invoice.total_in_words == Decimal(289009)
    identity = books.identify(read.invoice)
    match = three_way_match(read.invoice, books, policy.tolerances, "V101")
    memory = VendorMemory(source="disabled")
    decision = decide(evaluate(read.invoice, identity, match, memory, books, policy, []), memory, policy)
    assert decision.status == "EXCEPTION"
    [flag] = decision.deciding
    assert evidence("en", flag) == "The total in figures is ₹2,88,009; the amount in words says ₹2,89,009."


def test_other_documents_and_field_labels_that_name_them() -> None:
    assert document_kind("Tax Invoice\nSri Lakshmi\nDelivery Note     Mode/Terms of Payment\nInvoice No. 12") == "invoice"
    assert document_kind("GST INVOICE\nBuyer's Order No. 55\nPurchase Order Date 1-4-26") == "invoice"
    assert document_kind("PURCHASE ORDER\nKaveri Agri\nPO No. 55") == "purchase_order"
    assert document_kind("Delivery Challan\nChallan No. 4") == "delivery_challan"
    assert looks_like_document(bill()) and not looks_like_document("what happened with the last invoice?")


async def test_a_model_reading_that_does_not_add_up_falls_back_to_the_rules(fake_groq: FakeGroq) -> None:
    text = bill()
    fields = parse_invoice_text(text, BUYER.gstin).fields
    answer = json.loads(json.dumps({k: v for k, v in fields.items() if k != "notes"}, default=str))
    answer["tax"] = "0"  # the model dropped CGST/SGST: its figures no longer add up
    fake_groq.chat_script.append(json.dumps({"is_invoice": True, "not_invoice_reason": None, "invoice": answer}))
    chat = ChatModel("k", "primary", "fallback", base_url=fake_groq.url, timeout_s=5.0)
    try:
        read = await from_text(text, "text", BUYER, chat)
    finally:
        await chat.aclose()
    assert read.method == "deterministic" and read.model_note == "figures do not add up: total"
    assert read.invoice is not None and read.invoice.tax == Decimal("10451.00")


def test_a_guntur_dealers_own_phrasing() -> None:
    text = "\n".join([
        "TAX INVOICE CUM DELIVERY CHALLAN", "Sri Venkata Sai Enterprises, Guntur", "GSTIN 37ABFFS7788H1ZF",
        "Invoice Ref No: SVSE/2026/088          Date: 22nd April, 2026", "P.O. Number : 4500987",
        "Product                    Qty       Rate          Amount",
        "Gypsum Powder 50kg         80 Bags   @215.00/Bag   17,200.00",
        "Sulphur Dust 25kg          40 Bags   @410.50/Bag   16,420.00",
        "Total Amount Before Tax                            33,620.00",
        "C.G.S.T. @ 2.5%                                       840.50",
        "S.G.S.T. @ 2.5%                                       840.50",
        "Round Off (+/-)                                        -0.00",
        "Total Amount After Tax                             35,301.00",
        "Amount in Words: Thirty Five Thousand Three Hundred One Rupees Only",
    ])
    assert document_kind(text) == "invoice"
    fields = parse_invoice_text(text, BUYER.gstin).fields
    assert (fields["invoice_number"], fields["invoice_date"], fields["po_number"]) == \
        ("SVSE/2026/088", date(2026, 4, 22), "4500987")
    assert [(ln["quantity"], ln["unit_price"]) for ln in fields["lines"]] == [(80, Decimal("215.00")), (40, Decimal("410.50"))]
    assert (fields["subtotal"], fields["tax"], fields["total"], fields["total_in_words"]) == \
        (Decimal("33620.00"), Decimal("1681.00"), Decimal("35301.00"), Decimal("35301.00"))
    assert fields["vendor_name"] == "Sri Venkata Sai Enterprises, Guntur"


@pytest.mark.parametrize("figures", [
    ["Sub Total 2,09,020.00", "Less: Trade Discount 4,180.40", "Taxable Value 2,04,839.60", "CGST @ 2.5% 5,120.99",
     "SGST @ 2.5% 5,120.99", "Round Off (-)0.58", "Grand Total 2,15,081.00"],
    ["Sub Total 2,09,020.00", "Discount (2%) -4,180.40", "CGST @ 2.5% 5,120.99", "SGST @ 2.5% 5,120.99",
     "Rounded Off (-) 0.58", "Net Amount 2,15,081.00"],
])
def test_a_discount_on_the_whole_invoice_is_taken_before_tax(figures: list[str]) -> None:
    books, policy = Ledger.load(CORPUS / "ledger"), load_policy()
    text = bill(figures=figures).replace("Nineteen Thousand Four Hundred Seventy One", "Fifteen Thousand Eighty One")
    fields = parse_invoice_text(text, BUYER.gstin).fields
    assert (fields["discount"], fields["subtotal"], fields["tax"]) == \
        (Decimal("4180.40"), Decimal("204839.60"), Decimal("10241.98"))
    invoice = Invoice.model_validate({**fields, "source": "text"})
    assert invoice.total == Decimal("215081.00")
    assert three_way_match(invoice, books, policy.tolerances, None).totals.ok


@pytest.mark.parametrize(("number_line", "po_line", "number", "day", "po"), [
    ("Invoice No. & Date : RSF/118 dt. 02-05-2026", "PO No. & Date: 4500012345 dt 28.04.2026",
     "RSF/118", date(2026, 5, 2), "4500012345"),
    ("Bill No./Date : RSF-118 / 02-05-2026", "Order No./Date : KAI/PO/77 / 28-04-2026",
     "RSF-118", date(2026, 5, 2), "KAI/PO/77"),
    ("Inv No :- 118   Dt: 02.05.26", "Ack No. : 112610012345678  Ack Date : 03-May-26", "118", date(2026, 5, 2), None),
])
def test_a_number_and_its_date_under_one_label(number_line: str, po_line: str, number: str, day: date,
                                               po: str | None) -> None:
    fields = parse_invoice_text(bill(number_line=number_line, date_line="", po_line=po_line), BUYER.gstin).fields
    assert (fields["invoice_number"], fields["invoice_date"], fields.get("po_number")) == (number, day, po)


def test_an_item_named_on_one_line_with_its_figures_on_the_next() -> None:
    figures = ["Sub Total 2,09,020.00", "IGST @ 5% 10,451.00", "Grand Total 2,19,471.00"]
    text = bill(figures=figures).replace(
        "1  Maize Seed Hybrid 4kg       1005   150 Pkts   1,240.00   1,86,000.00",
        "1  Maize Seed Hybrid 4kg\n   Kharif lot 26-K4, treated    1005   150 Pkts   1,240.00   1,86,000.00")
    lines = parse_invoice_text(text, BUYER.gstin).fields["lines"]
    assert [ln["description"] for ln in lines] == ["Maize Seed Hybrid 4kg Kharif lot 26-K4, treated",
                                                 "Sorghum Seed CSH-16 3kg"]


def test_a_rupee_sign_scanned_as_a_digit_is_not_a_total() -> None:
    scanned = ["Sub Total 2,09,020.00", "IGST @ 5% 10,451.00", "Total 32,19,471.00"]
    assert parse_invoice_text(bill(figures=scanned), BUYER.gstin).fields["total"] == Decimal("219471.00")
    # A total that is simply wrong stays wrong, for the match to flag.
    wrong = ["Sub Total 2,09,020.00", "IGST @ 5% 10,451.00", "Total 2,29,471.00"]
    assert parse_invoice_text(bill(figures=wrong), BUYER.gstin).fields["total"] == Decimal("229471.00")
