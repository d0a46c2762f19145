"""A scanned page's rows from Tesseract's word positions: a docket's date column and its proceedings side by side.

Tesseract reads a page in blocks, and a docket whose dates sit in a column of their own comes out as a block of
dates followed by a block of proceedings: every row's date apart from its text. Its lines, though, know where
they are on the page. Lines of different blocks whose middles lie at the same height are one row of the page,
read left to right with a gap between cells; the page is then read top to bottom. A one-column page is left as
Tesseract read it, line for line, so the splitter sees a docket as one row per hearing starting at its date,
whatever the width of the date column.
"""

from statistics import median

from bot.services.reading import PageText, ReadText, WordBox

CELL_GAP = "   "
"""Written between cells of one row: the splitter reads two or more spaces as a column break."""


class _Line:
    def __init__(self, words: list[WordBox]) -> None:
        self.words = sorted(words, key=lambda w: w.left)
        self.block = words[0].block
        self.top = min(w.top for w in words)
        self.bottom = max(w.top + w.height for w in words)
        self.left = self.words[0].left

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


def _lines(words: list[WordBox]) -> list[_Line]:
    grouped: dict[tuple[int, int, int], list[WordBox]] = {}
    for word in words:
        grouped.setdefault((word.block, word.paragraph, word.line), []).append(word)
    return [_Line(group) for group in grouped.values()]


def page_rows(page: PageText) -> str:
    """The page's text row by row: lines of different blocks at one height joined left to right."""
    if not page.words:
        return page.text
    lines = sorted(_lines(page.words), key=lambda line: (line.middle, line.left))
    if len({line.block for line in lines}) < 2:
        return page.text
    height = median(line.bottom - line.top for line in lines)
    rows: list[list[_Line]] = []
    for line in lines:
        row = rows[-1] if rows else None
        # Same row: another block's line whose middle is within half a line of this row's first line.
        if (row is not None and all(other.block != line.block for other in row)
                and abs(row[0].middle - line.middle) <= height / 2):
            row.append(line)
        else:
            rows.append([line])
    return "\n".join(CELL_GAP.join(line.text for line in sorted(row, key=lambda r: r.left)) for row in rows) + "\n"


def rows_of(read: ReadText) -> ReadText:
    """The read with each OCR'd page's text rebuilt row by row (text-layer pages as they were)."""
    pages = [p for p in read.page_texts if p.words]
    if not pages:
        return read
    text = "\n".join(page_rows(p) if p.words else p.text for p in read.page_texts)
    return read.model_copy(update={"text": text})
