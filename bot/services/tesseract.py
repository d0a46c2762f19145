"""Tesseract on one decoded page image, under the document's time budget: text and, when asked, word boxes.

A page Tesseract reads badly (a faint, small, crooked or speckled photo or scan: few words, little confidence)
is read a second time after cleaning (bot/services/scanprep.py), and the better reading is kept. A clean page
is read once, as it was: the cleaning is only paid for where it helps. A page has its own time bound besides
the document's: when the second reading runs out of it, the first one stands.
"""

import re
from typing import TYPE_CHECKING

from bot.services.imageprep import Preparation, prepare
from bot.services.reading import Deadline, DocumentRejected, PageText, WordBox

if TYPE_CHECKING:
    from PIL.Image import Image

PAGE_SECONDS = 45.0
"""One page's bound when the caller gives none (ReadLimits.max_page_seconds)."""
GOOD_WORD = 70.0
"""Tesseract's confidence (0-100) above which a word counts as read."""
WEAK_WORDS = 12
"""A page with fewer words read than this is read again after cleaning (or with a mean confidence below
WEAK_CONFIDENCE)."""
WEAK_CONFIDENCE = 75.0
_TOKEN = re.compile(r"[A-Za-z0-9\u0C00-\u0C7F]{3,}")


def ocr_page(image: "Image", number: int, languages: str, deadline: Deadline, keep_rows: bool = False,
             words: bool = False, preparation: Preparation = "as_is",
             page_seconds: float = PAGE_SECONDS) -> PageText:
    """Read one greyscale page image; Tesseract is killed when the page's or the document's time runs out."""
    page_deadline = Deadline(min(page_seconds, deadline.check()))
    deadline.check()
    image = prepare(image, preparation)
    first = _read(image, number, languages, deadline, page_deadline, keep_rows, words)
    if not _weak(first):
        return first
    from bot.services.scanprep import prepared

    try:
        page_deadline.check()
        second = _read(prepared(image), number, languages, deadline, page_deadline, keep_rows, words)
    except DocumentRejected:
        deadline.check()  # the document's own budget is spent: refused as before; the page's alone: keep the first
        return first
    return second if _score(second) > _score(first) else first


def _read(image: "Image", number: int, languages: str, deadline: Deadline, page_deadline: Deadline,
          keep_rows: bool, words: bool) -> PageText:
    # Imported on first use: Tesseract's wrapper costs a noticeable part of start-up.
    import pytesseract

    config = "--psm 6 -c preserve_interword_spaces=1" if keep_rows else ""
    timeout = min(deadline.check(), page_deadline.check())
    try:
        if not words:
            text = pytesseract.image_to_string(image, lang=languages, config=config, timeout=timeout)
            return PageText(number=number, text=text, method="tesseract", width=image.width, height=image.height)
        data = pytesseract.image_to_data(image, lang=languages, config=config, timeout=timeout,
                                         output_type=pytesseract.Output.DICT)
    except RuntimeError as exc:  # pytesseract's "Tesseract process timeout": the process was killed
        if "timeout" not in str(exc).lower():
            raise
        deadline.check()
        raise DocumentRejected(f"reading page {number} took longer than {page_deadline.seconds:g} seconds") from exc
    boxes = [WordBox(text=str(data["text"][i]), left=int(data["left"][i]), top=int(data["top"][i]),
                     width=int(data["width"][i]), height=int(data["height"][i]), confidence=float(data["conf"][i]),
                     block=int(data["block_num"][i]), paragraph=int(data["par_num"][i]), line=int(data["line_num"][i]))
             for i in range(len(data["text"])) if str(data["text"][i]).strip()]
    return PageText(number=number, text=text_of(boxes), method="tesseract", words=boxes,
                    width=image.width, height=image.height)


def _score(page: PageText) -> int:
    """How much of the page was read: words read with confidence (word boxes), else words of three or more
    letters or digits (plain text)."""
    if page.words is not None:
        return sum(1 for w in page.words if w.confidence >= GOOD_WORD and _TOKEN.search(w.text))
    return len(_TOKEN.findall(page.text))


def _weak(page: PageText) -> bool:
    if _score(page) < WEAK_WORDS:
        return True
    if page.words:
        mean = sum(max(w.confidence, 0.0) for w in page.words) / len(page.words)
        return mean < WEAK_CONFIDENCE
    return False


def text_of(boxes: list[WordBox]) -> str:
    """The page's text from its word boxes: words of a line joined by spaces, a blank line between blocks."""
    lines: list[str] = []
    previous: tuple[int, int, int] | None = None
    for box in boxes:
        key = (box.block, box.paragraph, box.line)
        if previous is None or key != previous:
            if previous is not None and box.block != previous[0]:
                lines.append("")
            lines.append(box.text)
        else:
            lines[-1] += " " + box.text
        previous = key
    return "\n".join(lines) + ("\n" if lines else "")
