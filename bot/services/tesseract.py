"""Tesseract on one decoded page image, under the document's time budget: text and, when asked, word boxes."""

from typing import TYPE_CHECKING

from bot.services.imageprep import Preparation, prepare
from bot.services.reading import Deadline, DocumentRejected, PageText, WordBox

if TYPE_CHECKING:
    from PIL.Image import Image


def ocr_page(image: "Image", number: int, languages: str, deadline: Deadline, keep_rows: bool = False,
             words: bool = False, preparation: Preparation = "as_is") -> PageText:
    """Read one greyscale page image, prepared as `preparation` says (bot/services/imageprep.py); Tesseract is
    killed when the document's time budget runs out."""
    # Imported on first use: Tesseract's wrapper costs a noticeable part of start-up.
    import pytesseract

    config = "--psm 6 -c preserve_interword_spaces=1" if keep_rows else ""
    deadline.check()
    image = prepare(image, preparation)
    timeout = deadline.check()
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
        raise DocumentRejected(f"reading page {number} took longer than {deadline.seconds:g} seconds") from exc
    boxes = [WordBox(text=str(data["text"][i]), left=int(data["left"][i]), top=int(data["top"][i]),
                     width=int(data["width"][i]), height=int(data["height"][i]), confidence=float(data["conf"][i]),
                     block=int(data["block_num"][i]), paragraph=int(data["par_num"][i]), line=int(data["line_num"][i]))
             for i in range(len(data["text"])) if str(data["text"][i]).strip()]
    return PageText(number=number, text=text_of(boxes), method="tesseract", words=boxes,
                    width=image.width, height=image.height)


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
