"""Reading the files offices keep into numbered rows of text: CSV (UTF-8, with or without BOM) and Excel .xlsx.

Headers are matched loosely (case, spacing and punctuation folded), the header row is found below title rows,
merged header cells take the value of their first cell, blank rows are skipped (their numbers still count, so a
report names the row a person sees), numbers typed as text are read as text. Files are streamed (openpyxl
read-only) within limits checked before the work.
"""

import csv
import io
import re
import zipfile
from collections.abc import Iterable, Iterator
from datetime import date, datetime, timedelta
from pathlib import Path

from pydantic import BaseModel

from bot.services.cells import neutralised, restored, without_controls

Cell = str | int | float | date | datetime | None
_EXCEL_EPOCH = date(1899, 12, 30)


class SourceRow(BaseModel):
    """One non-blank data row: its number as the person sees it (header = 1) and its cells by header."""

    number: int
    cells: dict[str, str]


def fold(header: str) -> str:
    """Fold a header for matching: "Village/Mandal" -> "village mandal", "GSTIN/UIN" -> "gstin uin"."""
    return " ".join(re.sub(r"[^0-9a-z\u0c00-\u0c7f]+", " ", header.lower()).split())


# Short forms Indian office sheets write in headers ("PO Dt.", "Bill Amt", "Qty.", "Vill. Code", "Pmt Date").
_SHORT_FORMS = {"dt": "date", "dtd": "date", "amt": "amount", "qty": "quantity", "vill": "village", "inv": "invoice",
                "pmt": "payment", "pymt": "payment", "paymt": "payment", "recd": "received", "rcvd": "received",
                "no": "number", "num": "number", "nbr": "number", "desc": "description", "descr": "description",
                "sr": "serial", "sl": "serial", "mob": "mobile", "ph": "phone", "tel": "phone",
                "addr": "address", "vdr": "vendor", "supp": "supplier", "ac": "account"}
# A currency or unit in a header says how the cells are written, not what the column is ("Rate (Rs.)").
_UNIT_WORDS = {"rs", "inr", "rupees", "ps"}


def header_key(header: str) -> str:
    """A header as a column name to match: folded, short forms written out and currency words dropped, so
    "PO Dt." is "po date", "Rate (Rs.)" is "rate", "Bill Amt" is "bill amount", "A/c No" is "account number"."""
    words = re.sub(r"\ba c\b", "ac", fold(header)).split()
    spelled = [_SHORT_FORMS.get(w, w) for w in words if w not in _UNIT_WORDS]
    return " ".join(spelled) or " ".join(words)


def cell_text(value: Cell) -> str:
    """A cell as text: whole floats without ".0", dates as ISO, control characters removed, everything stripped."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.date().isoformat() if value.time() == datetime.min.time() else value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    return without_controls(str(value).replace("\u00a0", " ")).strip()


def excel_date(text: str) -> str:
    """An Excel serial day ("45383") as an ISO date; anything else unchanged."""
    if re.fullmatch(r"\d{5}(\.0+)?", text.strip()):
        return (_EXCEL_EPOCH + timedelta(days=int(float(text)))).isoformat()
    return text


class SheetRefused(ValueError):
    """A file refused before it is read through: too big, too many rows or cells. The message says so plainly."""


class Limits(BaseModel):
    """How much of a sheet is read at most; a file over any of these is refused before the work, not during."""

    max_bytes: int = 50_000_000
    """The file as uploaded (CSV) and every part of an .xlsx unpacked, added up."""
    max_rows: int = 100_000
    max_cells: int = 2_000_000
    header_search: int = 20
    """How far down the header row is looked for, below title rows."""


LIMITS = Limits()


class Sheet(BaseModel):
    """A sheet read for import: the header row as found (its number as the person sees it) and the data rows."""

    header_row: int
    header: list[str]
    rows: list[SourceRow]


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
                value = restored(without_controls(value).strip())  # `'`: an export put it before a formula
                cells[name] = f"{cells[name]}; {value}" if name in cells else value
        rows.append(SourceRow(number=number, cells=cells))
    return rows


def _header_index(lines: list[tuple[int, list[str]]], known: set[str]) -> int:
    """Which of the first lines is the header: the one naming most known columns; else the first with two or
    more filled cells (a title row, merged or not, fills one)."""
    best, best_score = -1, 0
    for index, (_, line) in enumerate(lines):
        score = sum(1 for v in line if v.strip() and header_key(v) in known)
        if score > best_score:
            best, best_score = index, score
    if best >= 0:
        return best
    return next((i for i, (_, line) in enumerate(lines) if sum(1 for v in line if v.strip()) >= 2), 0)


def _sheet(lines: Iterator[tuple[int, list[str]]], known: set[str], limits: Limits) -> Sheet:
    head: list[tuple[int, list[str]]] = []
    for number, line in lines:
        if any(v.strip() for v in line):
            head.append((number, line))
            if len(head) == limits.header_search:
                break
    if not head:
        return Sheet(header_row=0, header=[], rows=[])
    at = _header_index(head, known)
    header_number, header = head[at]
    body = head[at + 1:]
    cells = sum(len(line) for _, line in body)
    for number, line in lines:
        cells += len(line)
        if number > limits.max_rows + header_number or cells > limits.max_cells:
            raise SheetRefused(f"the sheet has more than {limits.max_rows:,} rows or {limits.max_cells:,} cells; "
                               "split it into smaller files")
        body.append((number, line))
    return Sheet(header_row=header_number, header=header, rows=_rows(header, body))


def _csv_lines(data: bytes) -> Iterator[tuple[int, list[str]]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Excel's plain "CSV" is saved in the Windows code page (’ is byte 0x92), not UTF-8.
        text = data.decode("cp1252", errors="replace")
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    for index, line in enumerate(csv.reader(io.StringIO(text), dialect)):
        yield index + 1, line


_ROW_TAGS = (b"<row ", b"<row>", b":row ", b":row>")
_CELL_TAGS = (b"<c ", b"<c>", b":c ", b":c>")


def _count_tags(archive: zipfile.ZipFile, member: zipfile.ZipInfo) -> tuple[int, int]:
    """Rows and cells a worksheet holds, counted in its XML as it unpacks (a megabyte at a time), before
    anything parses it: streaming a sheet costs far more than counting its tags."""
    rows = cells = 0
    tail = b""
    with archive.open(member) as stream:
        while chunk := stream.read(1 << 20):
            window = tail + chunk
            # Tags in the carried-over tail were counted with the previous chunk.
            rows += sum(window.count(t) - tail.count(t) for t in _ROW_TAGS)
            cells += sum(window.count(t) - tail.count(t) for t in _CELL_TAGS)
            tail = window[-8:]
    return rows, cells


def _xlsx_lines(data: bytes, limits: Limits) -> Iterator[tuple[int, list[str]]]:
    from openpyxl import load_workbook

    archive = zipfile.ZipFile(io.BytesIO(data))
    unpacked = sum(member.file_size for member in archive.infolist())
    if unpacked > limits.max_bytes:
        raise SheetRefused(f"the workbook unpacks to {unpacked // 1_000_000:,} MB, more than "
                           f"{limits.max_bytes // 1_000_000} MB; save the sheet alone, or as CSV")
    for member in archive.infolist():
        if member.filename.startswith("xl/worksheets/") and member.filename.endswith(".xml"):
            rows, cells = _count_tags(archive, member)
            if rows > limits.max_rows + limits.header_search or cells > limits.max_cells:
                raise SheetRefused(f"the sheet has {rows:,} rows and {cells:,} cells, more than {limits.max_rows:,} "
                                   f"rows or {limits.max_cells:,} cells; split it into smaller files")
    book = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    try:
        sheet = book.worksheets[0]
        declared = sheet.max_row if isinstance(sheet.max_row, int) else 0
        if declared > limits.max_rows + limits.header_search:
            raise SheetRefused(f"the sheet has {declared:,} rows, more than {limits.max_rows:,}; "
                               "split it into smaller files")
        for index, row in enumerate(sheet.iter_rows(values_only=True)):
            yield index + 1, [cell_text(c) for c in row]
    finally:
        book.close()


def read_sheet(path: Path, known: Iterable[str] = (), limits: Limits = LIMITS) -> Sheet:
    """Read any office sheet (CSV or .xlsx, told by its first bytes) into rows under its header.

    The header row is found below title rows (the row naming most of `known`, the column names the caller
    expects, by header_key); a header cell merged over several columns names them all; blank rows are skipped but
    counted, so a row's number is the one the person sees. Cells are text, stripped, Excel dates as ISO.
    A file over `limits` is refused (SheetRefused, a ValueError) before it is read through: an .xlsx by the
    unpacked size of its parts and its declared rows, a CSV by its size; both by rows and cells as they stream.
    Turn cells into values with bot/services/registers/cells.py (dates day first, numbers with units, mobiles).
    """
    size = path.stat().st_size
    with path.open("rb") as handle:
        start = handle.read(2)
    folded = {header_key(k) for k in known}
    if start == b"PK":
        if size > limits.max_bytes:
            raise SheetRefused(f"the file is {size // 1_000_000:,} MB, more than {limits.max_bytes // 1_000_000} MB")
        try:
            return _sheet(_xlsx_lines(path.read_bytes(), limits), folded, limits)
        except (ValueError, KeyError, zipfile.BadZipFile):
            raise
        except Exception as exc:  # noqa: BLE001 - a damaged file breaks the parser in ways without end (zlib, XML)
            raise SheetRefused("the .xlsx file is damaged and cannot be read; save it again and resend") from exc
    if size > limits.max_bytes:
        raise SheetRefused(f"the file is {size // 1_000_000:,} MB, more than {limits.max_bytes // 1_000_000} MB; "
                           "split it into smaller files")
    data = path.read_bytes()
    if data.count(b"\n") > limits.max_rows + limits.header_search:
        raise SheetRefused(f"the sheet has more than {limits.max_rows:,} rows; split it into smaller files")
    return _sheet(_csv_lines(data), folded, limits)


def read_table(path: Path, known: Iterable[str] = (), limits: Limits = LIMITS) -> list[SourceRow]:
    """The data rows of a CSV or .xlsx file (see read_sheet)."""
    return read_sheet(path, known, limits).rows


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
