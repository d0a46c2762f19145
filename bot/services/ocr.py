"""Reading text out of photos, PDFs and text files, offline: Tesseract (English + Telugu), pypdf and PDFium.

Every document is read under limits (bot/services/reading.py: pages, characters, seconds), checked before the
work they bound. Images are checked before decoding: a non-image "photo" or a decompression bomb is refused
with a reason. A PDF whose pages are images (a scan) is rasterised page by page and read by Tesseract
(bot/services/pdf.py). Reading is blocking: callers run it off the event loop (`aread`).
"""

import asyncio
import logging
import os
import warnings
from pathlib import Path

from bot.services.imageprep import Preparation
from bot.services.pdf import read_pdf, read_scanned_pdf
from bot.services.reading import (Deadline, DocumentRejected, PageText, ReadLimits, ReadText, WordBox,
                                  check_chars)
from bot.services.tesseract import ocr_page

__all__ = ["DocumentRejected", "PageText", "ReadLimits", "ReadText", "TextReader", "WordBox", "read_scanned_pdf"]

log = logging.getLogger(__name__)

MAX_IMAGE_PIXELS = 40_000_000
# A UTF-8 character is at most 4 bytes: a text file larger than this cannot be within the character limit.
_MAX_BYTES_PER_CHAR = 4


class TextReader:
    def __init__(self, languages: str = "eng+tel", max_pixels: int = MAX_IMAGE_PIXELS,
                 threads_per_page: int | None = 1, limits: ReadLimits | None = None) -> None:
        self.languages = languages
        self.max_pixels = max_pixels
        self.limits = limits or ReadLimits()
        if threads_per_page:
            # Tesseract's OpenMP threads fight each other when several pages are read in parallel (a backlog);
            # on a small machine one thread per page is faster. An explicit setting in the environment wins.
            os.environ.setdefault("OMP_THREAD_LIMIT", str(threads_per_page))

    async def aread(self, path: Path, mime_type: str | None = None, keep_rows: bool = False,
                    words: bool = False, preparation: Preparation = "as_is",
                    seconds: float | None = None) -> ReadText:
        """`read` in a worker thread: the event loop keeps serving others while a document is read."""
        return await asyncio.to_thread(self.read, path, mime_type, keep_rows, words, preparation, seconds)

    def read(self, path: Path, mime_type: str | None = None, keep_rows: bool = False,
             words: bool = False, preparation: Preparation = "as_is", seconds: float | None = None) -> ReadText:
        """Return the text of an image, a PDF or a text file.

        `keep_rows` reads a photo as one block of rows with their spacing (Tesseract's --psm 6), for printed
        tables such as invoices, where the default page segmentation splits a row's columns apart. `words`
        adds Tesseract's word boxes to each page read by OCR. `preparation` evens the light and levels a photo
        or a scanned page before Tesseract (bot/services/imageprep.py). `seconds` lowers the time budget
        (a caller reading the same document again in another preparation).
        """
        deadline = Deadline(min(self.limits.max_seconds, seconds) if seconds is not None else self.limits.max_seconds)
        if not path.exists() or path.stat().st_size == 0:
            raise DocumentRejected("the file is empty")
        with path.open("rb") as handle:
            head = handle.read(5)
        if head.startswith(b"%PDF") or mime_type == "application/pdf":
            return read_pdf(path, self.limits, self.languages, keep_rows, words, deadline, preparation)
        if (mime_type or "").startswith("text/") or path.suffix.lower() in (".txt", ".md"):
            return self._read_text(path)
        return self._read_image(path, deadline, keep_rows, words, preparation)

    def _read_text(self, path: Path) -> ReadText:
        size = path.stat().st_size
        if size > self.limits.max_chars * _MAX_BYTES_PER_CHAR:
            raise DocumentRejected(f"the text file is {size / 1_000_000:.1f} MB; at most "
                                   f"{self.limits.max_chars:,} characters are read from one document")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise DocumentRejected("the text file is not UTF-8") from exc
        check_chars(len(text), self.limits)
        return ReadText(text=text, method="text")

    def _read_image(self, path: Path, deadline: Deadline, keep_rows: bool = False, words: bool = False,
                    preparation: Preparation = "as_is") -> ReadText:
        # Imported on first use: Pillow costs a noticeable part of start-up.
        from PIL import Image, UnidentifiedImageError

        try:
            # We check the pixel count ourselves, below, before decoding anything.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", Image.DecompressionBombWarning)
                image = Image.open(path)
            with image:
                width, height = image.size
                if width * height > self.max_pixels:
                    raise DocumentRejected(
                        f"the image is {width}x{height} pixels; the limit is {self.max_pixels // 1_000_000} megapixels"
                    )
                image.load()
                grey = image.convert("L")
        except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError) as exc:
            raise DocumentRejected("the file is not an image that can be read") from exc
        page = ocr_page(grey, 1, self.languages, deadline, keep_rows, words, preparation,
                        page_seconds=self.limits.max_page_seconds)
        check_chars(len(page.text), self.limits)
        return ReadText(text=page.text, method="tesseract", page_texts=[page] if words else [])
