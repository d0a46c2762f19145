"""Invoices that arrive as pictures: an image-only (scanned) PDF read page by page through the shared reader, and
a phone photo whose account lost a digit, shown in full to the clerk and never approved."""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.services.ocr import TextReader
from handlers.ap.decision import decide, evidence
from handlers.ap.intake import from_file
from handlers.ap.ledger import Ledger
from handlers.ap.match import three_way_match
from handlers.ap.models import Policy
from handlers.ap.risk import evaluate
from handlers.ap.vendor_memory import VendorMemory
from bench.ap_corpus import _MONO

MASTER = "50200012344821"


def printed(account: str) -> list[str]:
    return ["TAX INVOICE", "Ravi Steel & Components", "GSTIN: 36AABCR1234F1ZT",
            "Invoice No: RSC / 26-27 / 0052        Date: 30/04/2026", "PO No: PO-2026-0145",
            "Billed to: Smriti Demo Industries Pvt Ltd   GSTIN: 36AAECS9876M1ZE",
            "Sl  Description              Qty    Rate         Amount",
            "1   MS Channel 100x50         6     64,800.00    3,88,800.00",
            "                          Taxable Value   3,88,800.00",
            "                          CGST @ 9%          34,992.00",
            "                          SGST @ 9%          34,992.00",
            "                          Total            4,58,784.00",
            f"Bank: HDFC Bank   A/c No: {account}   IFSC: HDFC0001234"]


def page(lines: list[str]) -> Image.Image:
    font = ImageFont.truetype(str(_MONO), 26)
    image = Image.new("L", (max(len(ln) for ln in lines) * 16 + 80, 60 + 40 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((40, 30 + row * 40), line, fill=0, font=font)
    return image


async def test_a_scanned_pdf_is_read_page_by_page(tmp_path: Path, ledger: Ledger, policy: Policy) -> None:
    lines = printed(MASTER)
    scan = tmp_path / "scan.pdf"
    first, second = page(lines[:8]), page(lines[8:])
    first.save(scan, "PDF", resolution=200, save_all=True, append_images=[second])
    result = await from_file(scan, "application/pdf", TextReader(languages="eng"), ledger.data.buyer, None)
    assert result.invoice is not None, result.refusal
    invoice = result.invoice
    assert invoice.source == "photo", "a scan is read like a photo"
    assert invoice.invoice_number == "RSC/26-27/0052" and str(invoice.total) == "458784.00"
    assert invoice.bank is not None and invoice.bank.account_number == MASTER, "the second page was read too"


async def test_a_photo_that_dropped_a_digit_of_the_account_is_never_paid_to_it(tmp_path: Path, ledger: Ledger,
                                                                              policy: Policy) -> None:
    dropped = MASTER[:5] + MASTER[6:]
    photo = tmp_path / "photo.jpg"
    page(printed(dropped)).convert("RGB").save(photo, quality=85)
    result = await from_file(photo, "image/jpeg", TextReader(languages="eng"), ledger.data.buyer, None, photo=True)
    assert result.invoice is not None and result.invoice.bank is not None
    assert result.invoice.bank.account_number == dropped
    identity = ledger.identify(result.invoice)
    match = three_way_match(result.invoice, ledger, policy.tolerances, "V001")
    memory = VendorMemory(source="disabled")
    decision = decide(evaluate(result.invoice, identity, match, memory, ledger, policy, buyer=ledger.data.buyer),
                      memory, policy)
    assert decision.status in ("HUMAN_REVIEW", "PAYMENT_BLOCKED")
    said = " ".join(evidence("en", f) for f in decision.flags)
    assert dropped in said and MASTER in said, "both numbers in full: a mask hides a dropped digit"


def test_a_scans_o_for_zero_in_a_branch_code_of_digits() -> None:
    from handlers.ap.textlabels import ifsc_in

    assert ifsc_in("IFSC: IDIB0OOGO12") == "IDIB000G012"
    assert ifsc_in("IFSC: IDIB000GO12") == "IDIB000G012"
    assert ifsc_in("IFSC: BARB0METODA") == "BARB0METODA"


def test_a_speck_before_the_sub_total_is_no_line_item() -> None:
    from handlers.ap.textparse import parse_invoice_text

    text = "\n".join([
        "TAX INVOICE", "Kovai Motor Windings", "Invoice# INV-001490", "Invoice Date: 04/11/2026",
        "# | Item & Description       | Qty    |    Rate  |      Amount",
        "1 | Enamelled Copper Wire 20 SWG | 300 Kg | 1,072.00 | 3,21,600.00",
        ":                      Sub Total    3,21,600.00", "IGST (18%)      57,888.00", "Total Rs.3,79,488.00"])
    fields = parse_invoice_text(text).fields
    assert [str(line["amount"]) for line in fields["lines"]] == ["321600.00"]
    assert str(fields["total"]) == "379488.00"
