"""Spreadsheets read safely: a file over the limits is refused before the work, with a message a clerk reads,
in bounded time and memory. Each test is named after the attack."""

import io
import resource
import time
import tracemalloc
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from bot.cli.registers import all_kinds
from bot.services.registers.importer import import_file
from bot.services.registers.table import LIMITS, SheetRefused, read_sheet
from bot.store import Database, upgrade
from handlers import INSTALLED
from handlers.agri.registers import FieldBooks

KINDS = all_kinds(INSTALLED.packages())


def _workbook_bytes() -> bytes:
    book = Workbook()
    book.active.append(["Farmer Name", "Village"])
    book.active.append(["Ramulu", "Kodad"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _rewrite(path: Path, sheet_xml: str | None = None, padding: int = 0) -> None:
    """A real workbook with its first sheet replaced, and a padding part of `padding` zero bytes (which
    deflate packs to a thousandth of its size)."""
    source = zipfile.ZipFile(io.BytesIO(_workbook_bytes()))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            body = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml" and sheet_xml is not None:
                body = sheet_xml.encode()
            out.writestr(item, body)
        if padding:
            with out.open("xl/media/padding.bin", "w") as pad:
                block = bytes(1 << 20)
                for _ in range(padding // len(block)):
                    pad.write(block)


def _tall_sheet(rows: int, dimension: bool) -> str:
    body = "".join(f'<row r="{i}"><c r="A{i}"><v>{i}</v></c><c r="B{i}"><v>7</v></c></row>' for i in range(2, rows + 2))
    declared = f'<dimension ref="A1:B{rows + 1}"/>' if dimension else ""
    return ('<?xml version="1.0" encoding="UTF-8"?>'
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f'{declared}<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Farmer Name</t></is></c></row>'
            f"{body}</sheetData></worksheet>")


def _refused_quickly(path: Path, seconds: float = 5.0, megabytes: float = 60.0) -> str:
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(SheetRefused) as refused:
            read_sheet(path, ["farmer name"])
        elapsed = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()
    assert elapsed < seconds and peak < megabytes, (elapsed, peak)
    message = str(refused.value)
    assert "split" in message or "save the sheet" in message or "MB" in message
    assert "Traceback" not in message and "\\" not in message
    return message


def test_a_small_xlsx_that_unpacks_huge_is_refused_before_it_is_opened(tmp_path: Path) -> None:
    bomb = tmp_path / "farmers.xlsx"
    _rewrite(bomb, padding=LIMITS.max_bytes + (8 << 20))
    assert bomb.stat().st_size < 1_000_000, "small on disk"
    assert "unpacks to" in _refused_quickly(bomb)


@pytest.mark.parametrize("declared", [True, False], ids=["rows declared", "rows not declared"])
def test_a_200000_row_sheet_is_refused_by_counting_not_reading(tmp_path: Path, declared: bool) -> None:
    tall = tmp_path / "farmers.xlsx"
    _rewrite(tall, _tall_sheet(200_000, declared))
    assert "200,001 rows" in _refused_quickly(tall)


def test_a_csv_of_200000_rows_is_refused(tmp_path: Path) -> None:
    tall = tmp_path / "farmers.csv"
    tall.write_text("Farmer Name,Village\n" + "Ramulu,Kodad\n" * 200_000, encoding="utf-8")
    assert "more than 100,000 rows" in _refused_quickly(tall, seconds=10.0, megabytes=150.0)


def test_a_csv_bigger_than_the_limit_is_refused_by_its_size(tmp_path: Path) -> None:
    big = tmp_path / "farmers.csv"
    with big.open("w", encoding="utf-8") as handle:
        handle.write("Farmer Name,Village,Remarks\n")
        line = "Ramulu,Kodad," + "x" * 1000 + "\n"
        for _ in range(LIMITS.max_bytes // len(line) + 10):
            handle.write(line)
    assert "MB, more than" in _refused_quickly(big, seconds=2.0, megabytes=5.0)


def test_an_import_of_a_refused_sheet_says_why_and_writes_nothing(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'limits.db'}")
    upgrade(database, INSTALLED.migrations())
    bomb = tmp_path / "villages.xlsx"
    _rewrite(bomb, padding=LIMITS.max_bytes + (8 << 20))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(ValueError, match="unpacks to"):
        import_file(database, KINDS, "villages", "kodad", bomb, apply=True)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000, "kilobytes"
    assert FieldBooks(database).for_tenant("kodad").villages == {}
