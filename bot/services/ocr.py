"""Reading text out of photos and PDFs, offline: Tesseract (English + Telugu) and pypdf.

Images are checked before decoding: a non-image "photo" or a decompression bomb is refused with a reason.
"""

import logging
import os
import warnings
from pathlib import Path

from pydantic import BaseModel

log = logging.getLogger(__name__)

MAX_IMAGE_PIXELS = 40_000_000


class DocumentRejected(ValueError):
    """The file cannot be read; the message is safe to show the sender."""


class ReadText(BaseModel):
    text: str
    method: str
    pages: int = 1


class TextReader:
    def __init__(self, languages: str = "eng+tel", max_pixels: int = MAX_IMAGE_PIXELS,
                 threads_per_page: int | None = 1) -> None:
        self.languages = languages
        self.max_pixels = max_pixels
        if threads_per_page:
            # Tesseract's OpenMP threads fight each other when several pages are read in parallel (a backlog);
            # on a small machine one thread per page is faster. An explicit setting in the environment wins.
            os.environ.setdefault("OMP_THREAD_LIMIT", str(threads_per_page))

    def read(self, path: Path, mime_type: str | None = None, keep_rows: bool = False) -> ReadText:
        """Return the text of an image, a PDF or a text file.

        `keep_rows` reads a photo as one block of rows with their spacing (Tesseract's --psm 6), for printed
        tables such as invoices, where the default page segmentation splits a row's columns apart.
        """
        if not path.exists() or path.stat().st_size == 0:
            raise DocumentRejected("the file is empty")
        head = path.read_bytes()[:5]
        if head.startswith(b"%PDF") or mime_type == "application/pdf":
            return self._read_pdf(path)
        if (mime_type or "").startswith("text/") or path.suffix.lower() in (".txt", ".md"):
            try:
                return ReadText(text=path.read_text(encoding="utf-8"), method="text")
            except UnicodeDecodeError as exc:
                raise DocumentRejected("the text file is not UTF-8") from exc
        return self._read_image(path, keep_rows)

    def _read_image(self, path: Path, keep_rows: bool = False) -> ReadText:
        # Imported on first use: Tesseract's wrapper and Pillow cost most of a second at start-up.
        import pytesseract
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
        config = "--psm 6 -c preserve_interword_spaces=1" if keep_rows else ""
        text = pytesseract.image_to_string(grey, lang=self.languages, config=config)
        return ReadText(text=text, method="tesseract")

    def _read_pdf(self, path: Path) -> ReadText:
        from pypdf import PdfReader
        from pypdf.errors import PdfReadError

        try:
            reader = PdfReader(str(path))
            pages = [page.extract_text() or "" for page in reader.pages]
        except (PdfReadError, ValueError, KeyError, OSError) as exc:
            raise DocumentRejected("the PDF could not be parsed") from exc
        text = "\n".join(pages).strip()
        if not text:
            raise DocumentRejected("the PDF has no text layer (a scan): send the pages as photos instead")
        return ReadText(text=text, method="pdf", pages=len(pages))
