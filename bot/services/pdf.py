"""Reading a PDF page by page: the text layer where a page has one, else the page rasterised and read by Tesseract.

Every bound is checked before the work it bounds: the page count before any page, a page's unpacked drawing
instructions before its text is extracted, the characters and the time budget while extracting (pypdf's
operator callback), the scanned pages before rasterising, the pixels before rendering. A PDF that breaks one
is refused with a reason a clerk can act on, never half read.
"""

import logging
import math
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from bot.services.imageprep import Preparation
from bot.services.reading import (Deadline, DocumentRejected, PageText, ReadLimits, ReadText, check_chars)
from bot.services.tesseract import ocr_page

if TYPE_CHECKING:
    from PIL.Image import Image
    from pypdf import PageObject

log = logging.getLogger(__name__)

# PDFium is not thread-safe, not even across documents; a backlog reads several PDFs at once.
_PDFIUM = threading.Lock()
# How often (in drawing operators) text extraction looks at the clock.
_CHECK_EVERY = 2000


class _Stop(Exception):
    """Raised inside pypdf's callbacks to abandon a page at once; turned into DocumentRejected outside."""

    def __init__(self, rejected: DocumentRejected) -> None:
        super().__init__(str(rejected))
        self.rejected = rejected


def read_pdf(path: Path, limits: ReadLimits, languages: str = "eng+tel", keep_rows: bool = False,
             words: bool = False, deadline: Deadline | None = None, preparation: Preparation = "as_is") -> ReadText:
    """Return the text of every page: the text layer, or Tesseract on the rasterised page where there is none."""
    from pypdf import PdfReader
    from pypdf.errors import LimitReachedError, PyPdfError

    deadline = deadline or Deadline(limits.max_seconds)
    try:
        reader = PdfReader(str(path))
        count = len(reader.pages)
        if count > limits.max_pages:
            raise DocumentRejected(f"the PDF has {count:,} pages; the limit is {limits.max_pages:,}")
        layer: list[str] = []
        total = 0
        for pdf_page in reader.pages:
            text = _page_text(pdf_page, limits, deadline, limits.max_chars - total)
            total += len(text)
            layer.append(text)
    except DocumentRejected:
        raise
    except _Stop as stop:
        raise stop.rejected from None
    except LimitReachedError as exc:
        raise DocumentRejected("the PDF unpacks to far more data than its size suggests (a PDF bomb?)") from exc
    except (PyPdfError, ValueError, KeyError, OSError, RecursionError, AttributeError, TypeError,
            NotImplementedError) as exc:  # pypdf raises NotImplementedError for an unknown stream filter
        raise DocumentRejected("the PDF could not be parsed") from exc
    scanned = [number for number, text in enumerate(layer, start=1) if not text.strip()]
    if len(scanned) > limits.max_scanned_pages:
        raise DocumentRejected(f"{len(scanned)} of its pages are scans (images); at most {limits.max_scanned_pages} "
                               "scanned pages are read from one PDF: send fewer pages at a time")
    pages = [PageText(number=number, text=text, method="pdf") for number, text in enumerate(layer, start=1)]
    if scanned:
        for scan in read_scanned_pdf(path, languages, limits, keep_rows, words, scanned, deadline,
                                     budget=limits.max_chars - total, preparation=preparation):
            pages[scan.number - 1] = scan
    text = "\n".join(page.text for page in pages).strip()
    if not text:
        raise DocumentRejected("no text could be read from the PDF (blank pages, or a scan too faint to read)")
    method = "pdf" if not scanned else ("tesseract" if len(scanned) == count else "pdf+tesseract")
    return ReadText(text=text, method=method, pages=count, page_texts=pages)


def read_scanned_pdf(path: Path, languages: str = "eng+tel", limits: ReadLimits | None = None,
                     keep_rows: bool = False, words: bool = False, page_numbers: list[int] | None = None,
                     deadline: Deadline | None = None, budget: int | None = None,
                     preparation: Preparation = "as_is") -> list[PageText]:
    """Rasterise pages of a PDF one at a time (PDFium) and read each with Tesseract.

    `page_numbers` (1-based) picks the pages, all by default; `words` adds Tesseract's word boxes to each
    page for layout; `preparation` evens the light and levels each page first (bot/services/imageprep.py).
    Only one page image is held at a time. Blocking: call it off the event loop.
    """
    import pypdfium2 as pdfium

    limits = limits or ReadLimits()
    deadline = deadline or Deadline(limits.max_seconds)
    budget = limits.max_chars if budget is None else budget
    try:
        with _PDFIUM:
            document = pdfium.PdfDocument(str(path))
            count = len(document)
    except pdfium.PdfiumError as exc:
        raise DocumentRejected("the PDF could not be parsed") from exc
    try:
        numbers = page_numbers or list(range(1, count + 1))
        if len(numbers) > limits.max_scanned_pages:
            raise DocumentRejected(f"it has {len(numbers)} scanned pages; at most {limits.max_scanned_pages} "
                                   "are read from one PDF: send fewer pages at a time")
        pages: list[PageText] = []
        for number in numbers:
            deadline.check()
            image = _render(document, number, limits)
            page = ocr_page(image, number, languages, deadline, keep_rows, words, preparation,
                            page_seconds=limits.max_page_seconds)
            budget -= len(page.text)
            if budget < 0:
                check_chars(limits.max_chars + 1, limits)
            pages.append(page)
        return pages
    finally:
        with _PDFIUM:
            document.close()


def _render(document: Any, number: int, limits: ReadLimits) -> "Image":
    """One page as a greyscale image, at the configured dpi unless that would exceed the pixel bound."""
    import pypdfium2 as pdfium

    try:
        with _PDFIUM:
            page = document[number - 1]
            try:
                width, height = page.get_size()  # points, 1/72 inch
                scale = limits.dpi / 72
                if width * height * scale * scale > limits.max_page_pixels:
                    scale = math.sqrt(limits.max_page_pixels / max(width * height, 1.0))
                    log.info("page %s is %.0fx%.0f points; rendered at scale %.3f", number, width, height, scale)
                bitmap = page.render(scale=scale, grayscale=True)
                image = bitmap.to_pil().convert("L")
                bitmap.close()
            finally:
                page.close()
    except pdfium.PdfiumError as exc:
        raise DocumentRejected(f"page {number} of the PDF could not be drawn") from exc
    return cast("Image", image)


def _page_text(page: "PageObject", limits: ReadLimits, deadline: Deadline, budget: int) -> str:
    """One page's text layer, abandoned as soon as it passes the character budget or the time budget."""
    size = _content_size(page)
    if size > limits.max_page_content_bytes:
        raise DocumentRejected(f"a page of the PDF unpacks to {size / 1_000_000:.1f} MB of drawing instructions; "
                               f"the limit is {limits.max_page_content_bytes / 1_000_000:.1f} MB")
    seen = 0
    operators = 0

    def on_text(text: Any, *_: Any) -> None:
        nonlocal seen
        seen += len(text) if isinstance(text, str) else 0
        if seen > budget:
            try:
                check_chars(limits.max_chars + 1, limits)
            except DocumentRejected as exc:
                raise _Stop(exc) from None

    def on_operator(*_: Any) -> None:
        nonlocal operators
        operators += 1
        if operators % _CHECK_EVERY == 0:
            try:
                deadline.check()
            except DocumentRejected as exc:
                raise _Stop(exc) from None

    deadline.check()
    text = page.extract_text(visitor_text=on_text, visitor_operand_before=on_operator) or ""
    if len(text) > budget:
        check_chars(limits.max_chars + 1, limits)
    return text


def _content_size(page: "PageObject") -> int:
    """The length of the page's unpacked content streams (pypdf caps each unpacking itself)."""
    contents = page.get("/Contents")
    if contents is None:
        return 0
    contents = contents.get_object()
    streams = contents if isinstance(contents, list) else [contents]
    return sum(len(stream.get_object().get_data()) for stream in streams)
