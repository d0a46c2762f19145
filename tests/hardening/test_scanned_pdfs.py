"""Scanned PDFs are read page by page (PDFium + Tesseract) under limits, and hostile PDFs are refused early.

On the main branch before this change an image-only PDF was refused ("send the pages as photos instead"), the
text-bomb PDF was read whole and a 2,000-page PDF became one card.
"""

import io
import time
from datetime import date, datetime
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from bot.core.app import App
from bot.core.errors import InputRejected
from bot.core.messages import Media
from bot.services.ocr import DocumentRejected, ReadLimits, TextReader, read_scanned_pdf
from handlers.legal.backlog import CASES_FILE, SeedEntry, SeedUpload, page_lines
from handlers.legal.register import CaseRegister
from tests.hardening.documents import scanned_pdf, text_bomb_pdf, text_pdf
from tests.legal.helpers import say

PAGE_ONE = ["ORDER SHEET", "O.S. No. 88 of 2023", "Hearing on 18 June 2025"]
PAGE_TWO = ["DAILY DIARY", "C.C. No. 412 of 2024", "Adjourned to 16 July 2025"]


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_an_image_only_pdf_is_read_page_by_page(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.pdf", scanned_pdf([PAGE_ONE, PAGE_TWO]))
    assert not "".join(page.extract_text() for page in PdfReader(str(path)).pages).strip()  # truly no text layer
    read = TextReader().read(path, "application/pdf")
    assert (read.method, read.pages) == ("tesseract", 2)
    first, second = read.page_texts
    assert (first.number, second.number) == (1, 2)
    assert "No. 88 of 2023" in first.text and "88" not in second.text
    assert "412 of 2024" in second.text and "16 July 2025" in second.text
    assert first.words is None and first.width > 1000  # rendered at 200 dpi, not at the 150 dpi it was saved


def test_word_boxes_come_on_request_with_positions_for_layout(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.pdf", scanned_pdf([PAGE_ONE]))
    [page] = read_scanned_pdf(path, words=True)
    assert page.words is not None
    by_text = {box.text: box for box in page.words}
    assert by_text["ORDER"].line == by_text["SHEET"].line and by_text["ORDER"].left < by_text["SHEET"].left
    assert by_text["ORDER"].top < by_text["Hearing"].top  # the first line is above the third
    assert all(0 <= box.left < page.width and 0 <= box.top < page.height for box in page.words)
    assert page.text.splitlines()[0] == "ORDER SHEET"


def test_a_pdf_mixing_text_pages_and_scanned_pages_reads_each_its_own_way(tmp_path: Path) -> None:
    writer = PdfWriter()
    for data in (text_pdf([PAGE_TWO]), scanned_pdf([PAGE_ONE])):
        for page in PdfReader(io.BytesIO(data)).pages:
            writer.add_page(page)
    path = tmp_path / "mixed.pdf"
    with path.open("wb") as handle:
        writer.write(handle)
    read = TextReader().read(path)
    assert read.method == "pdf+tesseract"
    assert [p.method for p in read.page_texts] == ["pdf", "tesseract"]
    assert "412 of 2024" in read.page_texts[0].text and "88 of 2023" in read.page_texts[1].text


def test_too_many_scanned_pages_are_refused_before_any_is_rasterised(tmp_path: Path) -> None:
    path = write(tmp_path, "long_scan.pdf", scanned_pdf([PAGE_ONE] * 4))
    started = time.monotonic()
    with pytest.raises(DocumentRejected, match="4 of its pages are scans"):
        TextReader(limits=ReadLimits(max_scanned_pages=3)).read(path)
    assert time.monotonic() - started < 1.0


def test_reading_a_scan_stops_at_its_time_budget(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.pdf", scanned_pdf([PAGE_ONE, PAGE_TWO, PAGE_ONE]))
    started = time.monotonic()
    with pytest.raises(DocumentRejected, match="longer than 0.3 seconds"):
        TextReader(limits=ReadLimits(max_seconds=0.3)).read(path)
    assert time.monotonic() - started < 2.0


def test_a_scan_yielding_more_characters_than_allowed_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "scan.pdf", scanned_pdf([PAGE_ONE, PAGE_TWO]))
    with pytest.raises(DocumentRejected, match="more than 40 characters"):
        TextReader(limits=ReadLimits(max_chars=40)).read(path)


def test_text_bomb_pdf_is_refused_within_seconds(tmp_path: Path) -> None:
    """6.5 KB of PDF holding 1.7 MB of text: refused while extracting, never read whole."""
    path = write(tmp_path, "bomb.pdf", text_bomb_pdf())
    assert path.stat().st_size < 10_000
    started = time.monotonic()
    with pytest.raises(DocumentRejected, match="more than 100,000 characters"):
        TextReader().read(path)
    assert time.monotonic() - started < 5.0


def test_two_thousand_page_pdf_is_refused_by_its_page_count(tmp_path: Path) -> None:
    path = write(tmp_path, "long.pdf", text_pdf([[f"page {n}"] for n in range(2000)], shared_content=True))
    started = time.monotonic()
    with pytest.raises(DocumentRejected, match="2,000 pages; the limit is 200"):
        TextReader().read(path)
    assert time.monotonic() - started < 5.0


def test_a_page_unpacking_to_megabytes_of_drawing_is_refused_before_extraction(tmp_path: Path) -> None:
    path = write(tmp_path, "bomb.pdf", text_bomb_pdf(3_000_000))
    with pytest.raises(DocumentRejected, match="MB of drawing instructions"):
        TextReader(limits=ReadLimits(max_chars=10_000_000)).read(path)


def test_a_refused_document_is_a_permanent_error_not_retried(tmp_path: Path) -> None:
    assert issubclass(DocumentRejected, InputRejected)  # the intake worker fails it at once, with the reason


@pytest.mark.hindsight
async def test_legal_scanned_pdf_upload_becomes_hearing_cards(app: App, tmp_path: Path) -> None:
    spec = SeedUpload(file="scan.pdf", kind="diary", author="aditya", printed_date=date(2026, 11, 17),
                      uploaded_at=datetime(2026, 11, 30, 20, 0).astimezone(), entries=[
                          SeedEntry(case_id="lakshmi-textiles", ref="Lakshmi Textiles", hearing_date=date(2026, 11, 17),
                                    next_date=date(2026, 12, 8), text="GP filed the assessment file; reply in two weeks")])
    lines = page_lines(spec, CaseRegister.load(CASES_FILE))
    path = write(tmp_path, "diary_scan.pdf", scanned_pdf([lines]))
    media = Media(kind="document", path=path, file_name=path.name, mime_type="application/pdf",
                  size_bytes=path.stat().st_size)
    replies = await app.conversation.handle(say("aditya", media=media))
    assert not any("photos instead" in r.text or "could not" in r.text for r in replies)
    cards = [r for r in replies if r.card_id]
    assert len(cards) == 1 and "17 Nov 2026" in cards[0].text and "Lakshmi" in cards[0].text
