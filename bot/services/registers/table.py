"""Reading the files offices keep into numbered rows of text: CSV (UTF-8, with or without BOM) and Excel .xlsx.

Headers are matched loosely (case, spacing and punctuation folded), merged header cells take the value of
their first cell, blank rows are skipped (their numbers still count, so a report names the row a person
sees), numbers typed as text are read as text and Excel date serials become ISO dates where a column is a date.
"""

import csv
import io
import re
from datetime import date, datetime, timedelta
from pathlib import Path

from pydantic import BaseModel

from bot.services.cells import neutralised, restored

Cell = str | int | float | date | datetime | None
_EXCEL_EPOCH = date(1899, 12, 30)


class SourceRow(BaseModel):
    """One non-blank data row: its number as the person sees it (header = 1) and its cells by header."""

    number: int
    cells: dict[str, str]


def fold(header: str) -> str:
    """Fold a header for matching: "Village/Mandal" -> "village mandal", "GSTIN/UIN" -> "gstin uin"."""
    return " ".join(re.sub(r"[^0-9a-z\u0c00-\u0c7f]+", " ", header.lower()).split())


def cell_text(value: Cell) -> str:
    """A cell as text: whole floats without ".0", dates as ISO, everything stripped."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return str(value).replace("\u00a0", " ").strip()


def excel_date(text: str) -> str:
    """An Excel serial day ("45383") as an ISO date; anything else unchanged."""
    if re.fullmatch(r"\d{5}(\.0+)?", text.strip()):
        return (_EXCEL_EPOCH + timedelta(days=int(float(text)))).isoformat()
    return text


def _rows(header: list[str], body: list[tuple[int, list[str]]]) -> list[SourceRow]:
    names: list[str] = []
    last = ""
    for raw in header:
        # A merged header cell is read as blanks after its first cell: those columns belong to it.
        last = raw.strip() or last
        names.append(last)
    rows: list[SourceRow] = []
    for number, values in body:
        if not any(v.strip() for v in values):
            continue
        cells: dict[str, str] = {}
        for name, value in zip(names, values):
            if name and value.strip():
                value = restored(value.strip())  # the `'` an export put before a formula-looking cell
                cells[name] = f"{cells[name]}; {value}" if name in cells else value
        rows.append(SourceRow(number=number, cells=cells))
    return rows


def _first_nonblank(lines: list[list[str]]) -> int:
    return next((i for i, line in enumerate(lines) if any(v.strip() for v in line)), len(lines))


def read_csv(data: bytes) -> list[SourceRow]:
    text = data.decode("utf-8-sig")
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    lines = list(csv.reader(io.StringIO(text), dialect))
    start = _first_nonblank(lines)
    if start == len(lines):
        return []
    return _rows(lines[start], [(i + 1, line) for i, line in enumerate(lines) if i > start])


def read_xlsx(data: bytes) -> list[SourceRow]:
    from openpyxl import load_workbook

    sheet = load_workbook(io.BytesIO(data), read_only=False, data_only=True).worksheets[0]
    merged_header: dict[int, str] = {}
    lines = [[cell_text(c) for c in row] for row in sheet.iter_rows(values_only=True)]
    start = _first_nonblank(lines)
    if start == len(lines):
        return []
    for span in sheet.merged_cells.ranges:
        if span.min_row <= start + 1 <= span.max_row:
            value = cell_text(sheet.cell(span.min_row, span.min_col).value)
            for column in range(span.min_col, span.max_col + 1):
                merged_header[column - 1] = value
    header = [merged_header.get(i, v) for i, v in enumerate(lines[start])]
    return _rows(header, [(i + 1, line) for i, line in enumerate(lines) if i > start])


def read_table(path: Path) -> list[SourceRow]:
    """Read a CSV or .xlsx file into rows (the format is told by the file's first bytes, not its name)."""
    data = path.read_bytes()
    if data[:2] == b"PK":
        return read_xlsx(data)
    return read_csv(data)


def write_csv(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    """Write rows as CSV; a cell a spreadsheet would run as a formula is neutralised (bot/services/cells.py)."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([neutralised(h) for h in header])
        writer.writerows([neutralised(str(row.get(h, ""))) for h in header] for row in rows)


def write_xlsx(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    """Write rows as .xlsx, every cell a text cell (never a formula), formula-looking text neutralised."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for values in [header, *([row.get(h, "") for h in header] for row in rows)]:
        # Text cells, so ids like "0042" and account numbers keep their digits exactly, and "=..." stays words.
        sheet.append([neutralised(str(value)) for value in values])
        for cell in sheet[sheet.max_row]:
            cell.data_type = "s"
            cell.number_format = "@"
    book.save(path)
