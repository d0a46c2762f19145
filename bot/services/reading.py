"""What reading a document returns, the limits it is read under, and the refusal when it cannot be read.

Shared by the photo reader (bot/services/ocr.py), the PDF reader (bot/services/pdf.py) and Tesseract
(bot/services/tesseract.py), so a pack sees one shape whatever the file was.
"""

import asyncio
import time
from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel, Field

from bot.core.errors import InputRejected


class DocumentRejected(InputRejected, ValueError):
    """The file cannot be read; the message is safe to show the sender (and retrying gives the same answer)."""


class ReadLimits(BaseModel):
    """Bounds on one document, checked before the work they bound wherever that is possible."""

    max_pages: int = 200
    """Pages a PDF may have at all (counted before any page is read)."""
    max_scanned_pages: int = 30
    """Pages without a text layer that are rasterised and read by Tesseract (seconds each)."""
    max_chars: int = 100_000
    """Characters of text a document may yield (a text file, a PDF's text layer, OCR)."""
    max_page_content_bytes: int = 2_000_000
    """A page's decompressed drawing instructions: a tiny PDF can unpack to megabytes of text."""
    max_seconds: float = 120.0
    """Wall time for reading one document, text layer and OCR together."""
    max_page_seconds: float = 45.0
    """Wall time for one scanned page or photo, a second cleaned reading included: one bad page cannot use up
    the document's whole budget."""
    dpi: int = 200
    """Resolution scanned pages are rasterised at (Tesseract reads 200-300 dpi best)."""
    max_page_pixels: int = 12_000_000
    """A page drawn larger than this (a huge page box) is rendered at a lower resolution instead."""


class WordBox(BaseModel):
    """One word Tesseract found, where it is on the page image (pixels), for reading a layout (columns, rows)."""

    text: str
    left: int
    top: int
    width: int
    height: int
    confidence: float
    block: int
    paragraph: int
    line: int


class PageText(BaseModel):
    number: int
    """1-based page number in the document."""
    text: str
    method: str
    """`pdf` (the page's text layer) or `tesseract` (the page rasterised and read)."""
    words: list[WordBox] | None = None
    """Tesseract's word boxes, when asked for (None for a text-layer page)."""
    width: int = 0
    height: int = 0
    """The size in pixels of the image the words were read from (0 for a text-layer page)."""


class ReadText(BaseModel):
    text: str
    method: str
    pages: int = 1
    page_texts: list[PageText] = Field(default_factory=list)
    """Each page's text (PDFs), in order; empty for a photo or a text file."""


class Deadline:
    """A time budget for one document: checked between pages and handed to Tesseract as its timeout."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._ends = time.monotonic() + seconds

    def remaining(self) -> float:
        return self._ends - time.monotonic()

    def check(self) -> float:
        """Return the seconds left; refuse the document when none are."""
        left = self.remaining()
        if left <= 0:
            raise DocumentRejected(f"reading it took longer than {self.seconds:g} seconds; "
                                   "send a shorter document or fewer pages")
        return left


T = TypeVar("T")


async def off_loop(work: Callable[..., T], *args: object, seconds: float, what: str) -> T:
    """Run blocking, CPU-heavy `work` in a thread, so the event loop keeps answering others; refuse the
    document when it takes longer than `seconds` (the thread ends on its own: its input is bounded)."""
    try:
        return await asyncio.wait_for(asyncio.to_thread(work, *args), timeout=seconds)
    except TimeoutError as exc:
        # Not a transient failure: the same document would take as long again.
        raise DocumentRejected(f"{what} took longer than {seconds:g} seconds; send it in smaller parts") from exc


def check_entries(count: int, limit: int, what: str = "entries") -> None:
    if count > limit:
        raise DocumentRejected(f"it holds {count:,} {what}; at most {limit:,} are taken from one document "
                               "(each becomes a card to confirm): send it in smaller parts")


def check_chars(count: int, limits: ReadLimits) -> None:
    if count > limits.max_chars:
        raise DocumentRejected(f"it holds more than {limits.max_chars:,} characters of text; "
                               "send a shorter document (or only the pages that matter)")
