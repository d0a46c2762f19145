"""Photos and scans read so that they hold together: the page levelled and evenly lit before Tesseract, read
again prepared otherwise while the invoice's own checks fail (its arithmetic, GSTIN check characters, IFSC),
and the commonest OCR confusions in identifiers put right by their shape, never towards the ledger."""

from decimal import Decimal
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from bench.ap_corpus import _MONO
from bot.services.imageprep import Preparation, even_light, prepare, skew_angle
from bot.services.ocr import TextReader
from bot.services.reading import DocumentRejected, ReadText
from handlers.ap import intake
from handlers.ap.gstin import check_character, mend_read, verify
from handlers.ap.intake import from_file
from handlers.ap.models import Buyer
from handlers.ap.readcheck import holds_together, invoice_checks, reading_score
from handlers.ap.textlabels import ifsc_in
from handlers.ap.textparse import parse_invoice_text

BUYER = Buyer(name="Smriti Demo Industries Pvt Ltd", gstin="36AAECS9876M1ZE")
VENDOR_GSTIN = "36AABCR1234F1Z" + check_character("36AABCR1234F1Z")


def invoice_text(misread: bool = False, account: str = "50200012344821") -> str:
    """A small invoice; `misread` is how a blurred photo reads it: an 8 of the line's amount read as a 6."""
    row = "1   MS Channel 100x50         6     64,800.00    " + ("3,86,800.00" if misread else "3,88,800.00")
    return "\n".join([
        "TAX INVOICE", "Ravi Steel & Components", f"GSTIN: {VENDOR_GSTIN}",
        "Invoice No: RSC/26-27/0052        Date: 30/04/2026", "PO No: PO-2026-0145",
        f"Billed to: Smriti Demo Industries Pvt Ltd   GSTIN: {BUYER.gstin}",
        "Sl  Description              Qty    Rate         Amount",
        row,
        "                          Taxable Value   3,88,800.00",
        "                          CGST @ 9%          34,992.00",
        "                          SGST @ 9%          34,992.00",
        "                          Total            4,58,784.00",
        f"Bank: HDFC Bank   A/c No: {account}   IFSC: HDFC0001234"])


def page(lines: list[str]) -> Image.Image:
    font = ImageFont.truetype(str(_MONO), 26)
    image = Image.new("L", (max(len(ln) for ln in lines) * 16 + 120, 120 + 40 * len(lines)), 255)
    draw = ImageDraw.Draw(image)
    for row, line in enumerate(lines):
        draw.text((60, 60 + row * 40), line, fill=0, font=font)
    return image


@pytest.mark.parametrize("turned", [-3.4, -1.0, 2.2, 4.6])
def test_the_angle_a_page_was_turned_by_is_found(turned: float) -> None:
    photo = page(invoice_text().splitlines()).rotate(turned, expand=True, fillcolor=255)
    assert abs(skew_angle(photo) + turned) <= 0.3


def test_a_shadow_is_lifted_and_the_print_stays_dark() -> None:
    sheet = np.asarray(page(invoice_text().splitlines()), dtype=np.float32)
    shade = np.linspace(0.45, 1.0, sheet.shape[1])[None, :]  # dark on the left, as under a hand
    shadowed = Image.fromarray((sheet * shade).astype(np.uint8))
    even = np.asarray(even_light(shadowed))
    paper, ink = sheet > 200, sheet < 60
    assert np.asarray(shadowed)[paper].min() < 130, "the test's shadow is a real one"
    assert np.percentile(even[paper], 5) > 200 and np.median(even[ink]) < 100


def test_as_is_leaves_the_image_alone_and_large_enlarges_it() -> None:
    image = page(["Invoice No: 1"])
    assert prepare(image, "as_is") is image
    assert prepare(image, "levelled_large").width >= int(image.width * 1.5) - 2


def test_a_gstin_read_with_digits_for_letters_is_put_back_in_shape_but_its_check_never_changed() -> None:
    assert mend_read("37A8DF52214K1Z" + check_character("37ABDFS2214K1Z")) == "37ABDFS2214K1Z" + check_character(
        "37ABDFS2214K1Z")
    assert mend_read("3GAALFL88I2C1Z" + "B") == "36AALFL8812C1ZB"
    printed_wrong = "36AALFL8812C1Z7"  # its check character is not 7
    assert not verify(printed_wrong).ok
    mended = mend_read("36AALFL8812C12Z7")  # a speck read inside it
    assert mended == printed_wrong and not verify(mended).ok, "still flagged as the invalid GSTIN it is"
    assert mend_read("520101234567890") is None and mend_read("ABC") is None


def test_a_gstin_misread_on_a_photo_is_read_as_its_shape_says() -> None:
    misread = VENDOR_GSTIN[:4] + "8" + VENDOR_GSTIN[5:]  # B read as 8
    parsed = parse_invoice_text(invoice_text().replace(VENDOR_GSTIN, misread), BUYER.gstin)
    assert parsed.fields["vendor_gstin"] == VENDOR_GSTIN


def test_an_ifsc_whose_zero_was_read_as_a_letter_is_read_with_its_zero() -> None:
    assert ifsc_in("IFSC ICICe000341") == "ICIC0000341"
    assert ifsc_in("IFSC BARB0METODA") == "BARB0METODA"
    assert ifsc_in("Branch HOUSE 12") is None


def test_a_speck_between_a_quantity_and_its_unit_is_not_read_into_the_row() -> None:
    text = invoice_text().replace("1   MS Channel 100x50         6     64,800.00",
                                  "1   MS Channel 100x50         6° Nos 64,800.00")
    parsed = parse_invoice_text(text, BUYER.gstin)
    assert [(r["quantity"], r["unit_price"]) for r in parsed.fields["lines"]] == [(6, Decimal("64800.00"))]


def test_a_freight_bill_of_lorry_receipts_has_a_line_per_consignment() -> None:
    text = "\n".join([
        "FREIGHT BILL", "Godavari Roadlines", f"GSTIN : {VENDOR_GSTIN}",
        "Bill No. : GRL/FB/26-27/0117          Date : 08-11-2026",
        f"To : M/s Smriti Demo Industries Pvt Ltd   GSTIN : {BUYER.gstin}",
        "Sl LR No. LR Date    From         To          Vehicle No.   Pkgs Weight(Kg)   Freight",
        "1 4471   09-10-2026 Rajahmundry   Hyderabad   AP 05 TX 4411   64    8,920 18,500.00",
        "2 4488   17-10-2026 Rajahmundry   Hyderabad   AP 05 TX 4411   60     8,649 12,250.00",
        "Total Freight                                                           30,750.00",
        "TOTAL AMOUNT                                                            30,750.00"])
    parsed = parse_invoice_text(text, BUYER.gstin)
    assert not parsed.missing
    assert [(r["quantity"], r["amount"]) for r in parsed.fields["lines"]] == [(1, Decimal("18500.00")),
                                                                               (1, Decimal("12250.00"))]
    assert "4471" in parsed.fields["lines"][0]["description"]


async def _read(text: str) -> intake.IntakeResult:
    return await intake.from_text(text, "photo", BUYER, None)


async def test_a_reading_with_a_misread_figure_does_not_hold_together() -> None:
    good, misread = (await _read(invoice_text())).invoice, (await _read(invoice_text(misread=True))).invoice
    assert good is not None and misread is not None
    assert holds_together(good) and all(invoice_checks(good).values())
    checks = invoice_checks(misread)
    assert not checks["line_arithmetic"] and reading_score(misread) < reading_score(good)
    assert reading_score(None) < reading_score(misread)


class PassReader(TextReader):
    """Tesseract faked at the reader's boundary: each preparation of the page reads as the test says."""

    def __init__(self, texts: dict[Preparation, str | None]) -> None:
        super().__init__(languages="eng")
        self.texts = texts
        self.asked: list[Preparation] = []

    def read(self, path: Path, mime_type: str | None = None, keep_rows: bool = False, words: bool = False,
             preparation: Preparation = "as_is", seconds: float | None = None) -> ReadText:
        self.asked.append(preparation)
        text = self.texts.get(preparation)
        if text is None:
            raise DocumentRejected("reading page 1 took longer than 30 seconds")
        return ReadText(text=text, method="tesseract")


async def test_a_photo_is_read_again_until_its_reading_holds_together(tmp_path: Path) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8 a photo")
    reader = PassReader({"levelled": invoice_text(misread=True), "levelled_large": invoice_text(),
                         "as_is": invoice_text(misread=True)})
    result = await from_file(photo, "image/jpeg", reader, BUYER, None, photo=True)
    assert result.invoice is not None and result.invoice.lines[0].amount == Decimal("388800.00")
    assert reader.asked == ["levelled", "levelled_large"], "a reading that holds together ends the passes"


async def test_the_best_reading_is_kept_when_a_later_pass_runs_out_of_time(tmp_path: Path) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8 a photo")
    reader = PassReader({"levelled": invoice_text(misread=True), "levelled_large": None})
    result = await from_file(photo, "image/jpeg", reader, BUYER, None, photo=True)
    assert result.invoice is not None and result.invoice.lines[0].amount == Decimal("386800.00"), \
        "the one reading there was, misread as it is (the decision sees it does not add up)"
    assert reader.asked == ["levelled", "levelled_large"]


async def test_no_pass_starts_after_the_time_for_a_photo_is_spent(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8 a photo")
    monkeypatch.setattr(intake, "OCR_SECONDS", 0.0001)
    reader = PassReader({"levelled": invoice_text(misread=True), "levelled_large": invoice_text()})
    result = await from_file(photo, "image/jpeg", reader, BUYER, None, photo=True)
    assert reader.asked == ["levelled"] and result.invoice is not None


async def test_a_photo_that_cannot_be_read_at_all_is_refused_once(tmp_path: Path) -> None:
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(b"\xff\xd8 a photo")
    reader = PassReader({})
    result = await from_file(photo, "image/jpeg", reader, BUYER, None, photo=True)
    assert result.refusal is not None and result.refusal.reason == "unreadable"
    assert reader.asked == ["levelled"]


async def test_a_turned_shadowed_photo_is_read_with_tesseract(tmp_path: Path) -> None:
    """The whole way through Tesseract: a page photographed 3 degrees off level under a shadow."""
    sheet = np.asarray(page(invoice_text().splitlines()).rotate(3.0, expand=True, fillcolor=255), dtype=np.float32)
    shade = np.linspace(0.55, 1.0, sheet.shape[1])[None, :]
    photo = tmp_path / "photo.jpg"
    Image.fromarray((sheet * shade).astype(np.uint8)).convert("RGB").save(photo, quality=60)
    result = await from_file(photo, "image/jpeg", TextReader(languages="eng"), BUYER, None, photo=True)
    assert result.invoice is not None, result.refusal
    assert result.invoice.invoice_number == "RSC/26-27/0052" and result.invoice.total == Decimal("458784.00")
    assert result.invoice.bank is not None and result.invoice.bank.account_number == "50200012344821"
